//! `data/`: the sample and secret cases, and the validator flags their group configuration
//! files set. A folder's `testdata.yaml` (legacy, early 2023-07 drafts) or `test_group.yaml`
//! (2025-09) sets flags for every case below it unless a deeper one sets them again; both names
//! are accepted in every format since packages in the wild mix them.
//!
//! The io package keeps one set of flags for all cases plus per-folder overrides, read as "a
//! case takes the flags of the longest group path that contains it, else the root flags".
//! [`DataTree::groups`] lists exactly the folders where that reading would otherwise give a
//! case different flags from the ones Kattis would use.

use super::KattisError;
use super::manifest::GroupFlags;
use super::problem_yaml::flags_of;
use super::tree::Tree;
use serde_norway::Value;
use std::collections::BTreeMap;
use std::path::Path;

const CONFIG_NAMES: [&str; 2] = ["testdata.yaml", "test_group.yaml"];

/// One folder of test data as Kattis sees it.
#[derive(Debug, Clone)]
struct Folder {
    /// Relative to `data/`: `sample`, `secret`, `secret/group1`.
    rel: String,
    parent: Option<usize>,
    /// The output validator flags in force here.
    flags: Vec<String>,
    cases: usize,
}

/// Input validator arguments in force for `data/secret`: for all, or per validator name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InputArgs {
    pub all: Vec<String>,
    pub by_name: BTreeMap<String, Vec<String>>,
}

#[derive(Debug, Clone)]
pub struct DataTree {
    folders: Vec<Folder>,
    pub root_flags: Vec<String>,
    pub input_args: InputArgs,
    /// Files under `data/sample` and `data/secret` that are not a case's `.in`/`.ans`.
    pub dropped_files: usize,
}

/// What one configuration file says, if anything.
#[derive(Debug, Clone, Default)]
struct Config {
    output: Option<Vec<String>>,
    input: Option<InputArgs>,
}

impl DataTree {
    /// Reads `data/` and copies every case into `<to>/data/`. `problem_flags` are the legacy
    /// `validator_flags` of `problem.yaml`, if any.
    pub fn copy(
        tree: &Tree<'_>,
        problem_flags: Option<Vec<String>>,
        to: &Path,
    ) -> Result<Self, KattisError> {
        if tree.kind("data")? != Some(true) {
            return Err(KattisError::invalid("data", "missing: no test data folder"));
        }
        let root_config = read_config(tree, "data")?;
        let base = root_config.output.clone().or(problem_flags.clone());
        let mut folders: Vec<Folder> = Vec::new();
        let mut input_args = root_config.input.clone().unwrap_or_default();
        let mut dropped_files = 0;
        for top in ["sample", "secret"] {
            let rel = format!("data/{top}");
            if tree.kind(&rel)? != Some(true) {
                continue;
            }
            // Depth-first with an explicit stack; `Tree::list` bounds the depth.
            let mut pending = vec![(rel, None::<usize>)];
            while let Some((rel, parent)) = pending.pop() {
                let config = read_config(tree, &rel)?;
                let inherited = match parent {
                    Some(p) => folders[p].flags.clone(),
                    None => base.clone().unwrap_or_default(),
                };
                let flags = config.output.clone().unwrap_or(inherited);
                if rel == "data/secret"
                    && let Some(args) = config.input
                {
                    input_args = args;
                }
                let index = folders.len();
                let mut cases = 0;
                let entries = tree.list(&rel)?;
                for entry in &entries {
                    if entry.is_dir {
                        pending.push((entry.rel.clone(), Some(index)));
                        continue;
                    }
                    if let Some(stem) = entry.name.strip_suffix(".in") {
                        let ans = format!("{rel}/{stem}.ans");
                        if !entries.iter().any(|e| e.rel == ans && !e.is_dir) {
                            return Err(KattisError::invalid(
                                &entry.rel,
                                format!("has no answer file `{ans}`"),
                            ));
                        }
                        let limit = tree.bounds().max_data_file;
                        for from in [&entry.rel, &ans] {
                            tree.copy(from, &to.join(from), limit)?;
                        }
                        cases += 1;
                    } else if !(entry.name.ends_with(".ans")
                        || CONFIG_NAMES.contains(&entry.name.as_str()))
                    {
                        dropped_files += 1;
                    }
                }
                let rel = rel.trim_start_matches("data/").to_string();
                folders.push(Folder {
                    rel,
                    parent,
                    flags,
                    cases,
                });
            }
        }
        if folders.iter().all(|f| f.cases == 0) {
            return Err(KattisError::invalid(
                "data",
                "no test case: no `.in` file with its `.ans` under data/sample or data/secret",
            ));
        }
        folders.sort_by(|a, b| a.rel.cmp(&b.rel));
        // Without flags for the whole problem, the secret cases' flags stand for all.
        let root_flags = base.unwrap_or_else(|| {
            folders
                .iter()
                .find(|f| f.rel == "secret")
                .map(|f| f.flags.clone())
                .unwrap_or_default()
        });
        Ok(Self {
            folders: fix_parents(folders),
            root_flags,
            input_args,
            dropped_files,
        })
    }

    /// Cases per folder, folders without any left out.
    pub fn case_counts(&self) -> Vec<(String, usize)> {
        self.folders
            .iter()
            .filter(|f| f.cases > 0)
            .map(|f| (f.rel.clone(), f.cases))
            .collect()
    }

    pub fn total_cases(&self) -> usize {
        self.folders.iter().map(|f| f.cases).sum()
    }

    /// The folders whose flags differ from what the longest listed ancestor (else the root)
    /// would give them; see the module doc.
    pub fn groups(&self) -> Vec<GroupFlags> {
        let mut seen: Vec<Vec<String>> = Vec::with_capacity(self.folders.len());
        let mut groups = Vec::new();
        // Sorted by path, so a parent always comes before its children.
        for folder in &self.folders {
            let above = match folder.parent {
                Some(p) => seen[p].clone(),
                None => self.root_flags.clone(),
            };
            if folder.flags != above {
                groups.push(GroupFlags {
                    path: folder.rel.clone(),
                    validator_flags: folder.flags.clone(),
                });
            }
            seen.push(folder.flags.clone());
        }
        groups
    }
}

/// Re-points each folder's parent after sorting by path.
fn fix_parents(mut folders: Vec<Folder>) -> Vec<Folder> {
    let paths: Vec<String> = folders.iter().map(|f| f.rel.clone()).collect();
    for folder in &mut folders {
        folder.parent = folder
            .rel
            .rsplit_once('/')
            .and_then(|(up, _)| paths.iter().position(|p| p == up));
    }
    folders
}

/// The configuration file of folder `rel`, if it has one.
fn read_config(tree: &Tree<'_>, rel: &str) -> Result<Config, KattisError> {
    let mut found = Vec::new();
    for name in CONFIG_NAMES {
        let path = format!("{rel}/{name}");
        if tree.kind(&path)? == Some(false) {
            found.push(path);
        }
    }
    let Some(path) = found.first() else {
        return Ok(Config::default());
    };
    if found.len() > 1 {
        return Err(KattisError::invalid(
            rel,
            "has both testdata.yaml and test_group.yaml; keep one",
        ));
    }
    let text = tree.read_text(path)?;
    let value: Value = serde_norway::from_str(&text)
        .map_err(|e| KattisError::invalid(path, format!("not valid YAML: {e}")))?;
    if value.is_null() {
        return Ok(Config::default());
    }
    if !value.is_mapping() {
        return Err(KattisError::invalid(path, "must be a mapping of keys"));
    }
    let field = |key: &str| value.get(key).filter(|v| !v.is_null());
    let bad = |key: &str| KattisError::invalid(path, format!("`{key}`: must be words or a list"));
    let mut config = Config::default();
    // The legacy map form `{name, flags}` names which validator; the flags are what we keep.
    for key in ["output_validator_flags", "output_validator_args"] {
        if let Some(v) = field(key) {
            let v = v.get("flags").unwrap_or(v);
            config.output = Some(flags_of(v).ok_or_else(|| bad(key))?);
        }
    }
    for key in ["input_validator_flags", "input_validator_args"] {
        let Some(v) = field(key) else { continue };
        let mut args = InputArgs::default();
        match v {
            Value::Mapping(map) if map.contains_key("name") => {
                let name = map.get("name").and_then(super::problem_yaml::scalar_text);
                let flags = map.get("flags").and_then(flags_of).unwrap_or_default();
                args.by_name.insert(name.ok_or_else(|| bad(key))?, flags);
            }
            Value::Mapping(map) => {
                for (name, flags) in map {
                    let name = super::problem_yaml::scalar_text(name).ok_or_else(|| bad(key))?;
                    args.by_name
                        .insert(name, flags_of(flags).ok_or_else(|| bad(key))?);
                }
            }
            other => args.all = flags_of(other).ok_or_else(|| bad(key))?,
        }
        config.input = Some(args);
    }
    Ok(config)
}
