//! The package's programs: output validator, input validators and example submissions, each a
//! file or a folder whose language comes from its files' extensions. Only Rust submissions are
//! carried into the io package (the grader compiles Rust); validators in C, C++, Python 3 or
//! Rust are copied as they are.

use super::KattisError;
use super::data_tree::InputArgs;
use super::manifest::{InputValidator, Language, NotRun, SkippedValidator};
use super::tree::{Entry, Tree};
use std::path::Path;

/// Languages a validator may be written in.
const SUPPORTED: [&str; 4] = ["python3", "cpp", "c", "rust"];

/// The language a file's extension names; `None` for headers, data and anything else that is
/// not a program on its own.
fn language_of_file(name: &str) -> Option<&'static str> {
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase())?;
    Some(match ext.as_str() {
        "py" => "python3",
        "cpp" | "cc" | "cxx" | "c++" => "cpp",
        "c" => "c",
        "rs" => "rust",
        "java" => "java",
        "kt" => "kotlin",
        "go" => "go",
        "js" => "javascript",
        "ts" => "typescript",
        "cs" => "csharp",
        "hs" => "haskell",
        "pas" => "pascal",
        "rb" => "ruby",
        "php" => "php",
        "ml" => "ocaml",
        "scala" => "scala",
        "sh" => "bash",
        "ctd" => "checktestdata",
        "viva" => "viva",
        _ => return None,
    })
}

/// A program: its files and language (`None`: no file names one).
struct Program {
    files: Vec<Entry>,
    language: Option<String>,
    /// The file that named an unsupported language, if one did.
    unsupported_file: Option<String>,
}

fn program(tree: &Tree<'_>, entry: &Entry) -> Result<Program, KattisError> {
    let files = if entry.is_dir {
        tree.files_below(&entry.rel)?
    } else {
        vec![entry.clone()]
    };
    let mut language: Option<String> = None;
    let mut unsupported_file = None;
    for file in &files {
        let Some(lang) = language_of_file(&file.name) else {
            continue;
        };
        if !SUPPORTED.contains(&lang) {
            unsupported_file.get_or_insert_with(|| file.rel.clone());
            language = Some(lang.to_string());
            break;
        }
        // C next to C++ is C++ compiled with its C parts; any other mixture is refused, as no
        // one compiler builds it.
        language = match language.as_deref() {
            None | Some("c") => Some(lang.to_string()),
            Some("cpp") if lang == "c" => language,
            Some(first) if first == lang => language,
            Some(first) => {
                unsupported_file.get_or_insert_with(|| file.rel.clone());
                Some(format!("a mixture of {first} and {lang}"))
            }
        };
        if unsupported_file.is_some() {
            break;
        }
    }
    Ok(Program {
        files,
        language,
        unsupported_file,
    })
}

/// A custom output validator, copied into `output_validator/`.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputValidator {
    pub language: String,
    /// Paths inside the io package, sorted.
    pub files: Vec<String>,
}

/// Copies the custom output validator at `rel` (a file, or a folder of files) into
/// `<to>/output_validator/`.
pub fn output_validator(
    tree: &Tree<'_>,
    rel: &str,
    to: &Path,
) -> Result<OutputValidator, KattisError> {
    let Some(is_dir) = tree.kind(rel)? else {
        return Err(KattisError::invalid(rel, "missing"));
    };
    let entry = Entry {
        name: rel.rsplit('/').next().unwrap_or(rel).to_string(),
        rel: rel.to_string(),
        is_dir,
    };
    let found = program(tree, &entry)?;
    if let Some(path) = found.unsupported_file {
        return Err(KattisError::ValidatorLanguage {
            path,
            language: found.language.unwrap_or_default(),
        });
    }
    let Some(language) = found.language else {
        return Err(KattisError::invalid(
            rel,
            "output validator has no source file in C, C++, Python 3 or Rust",
        ));
    };
    let mut files = Vec::new();
    for file in &found.files {
        let inside = if is_dir {
            file.rel[rel.len() + 1..].to_string()
        } else {
            file.name.clone()
        };
        let target = format!("output_validator/{inside}");
        tree.copy(&file.rel, &to.join(&target), tree.bounds().max_text_file)?;
        files.push(target);
    }
    Ok(OutputValidator { language, files })
}

/// The one custom validator inside a legacy `output_validators/` folder.
pub fn single_legacy_validator(tree: &Tree<'_>) -> Result<String, KattisError> {
    let entries = tree.list("output_validators")?;
    match entries.as_slice() {
        [one] => Ok(one.rel.clone()),
        [] => Err(KattisError::invalid("output_validators", "is empty")),
        _ => Err(KattisError::unsupported(
            "output_validators",
            format!(
                "holds {} validators; only one output validator per problem is supported",
                entries.len()
            ),
        )),
    }
}

/// Input validators we can run, copied into `<to>/input_validators/`, and the ones skipped.
pub fn input_validators(
    tree: &Tree<'_>,
    args: &InputArgs,
    to: &Path,
) -> Result<(Vec<InputValidator>, Vec<SkippedValidator>), KattisError> {
    let (mut kept, mut skipped) = (Vec::new(), Vec::new());
    if tree.kind("input_validators")? != Some(true) {
        return Ok((kept, skipped));
    }
    for entry in tree.list("input_validators")? {
        let found = program(tree, &entry)?;
        let reason = match found.language.as_deref() {
            None => Some("no source file in a known language".to_string()),
            Some("checktestdata") => Some("checktestdata (.ctd) is not supported".into()),
            Some("viva") => Some("viva (.viva) is not supported".into()),
            Some(lang) if !SUPPORTED.contains(&lang) => {
                Some(format!("language {lang} is not supported"))
            }
            Some(_) => None,
        };
        if let Some(reason) = reason {
            skipped.push(SkippedValidator {
                path: entry.rel.clone(),
                reason,
            });
            continue;
        }
        let mut files = Vec::new();
        for file in &found.files {
            tree.copy(&file.rel, &to.join(&file.rel), tree.bounds().max_text_file)?;
            files.push(file.rel.clone());
        }
        let stem = entry.name.split('.').next().unwrap_or(&entry.name);
        let flags = args
            .by_name
            .get(&entry.name)
            .or_else(|| args.by_name.get(stem))
            .unwrap_or(&args.all)
            .clone();
        // Every language left here is supported: the others were skipped above.
        let Some(language) = found.language.as_deref().and_then(Language::parse) else {
            continue;
        };
        kept.push(InputValidator {
            language,
            files,
            flags,
        });
    }
    Ok((kept, skipped))
}

/// A Rust submission carried into the package.
#[derive(Debug, Clone, PartialEq)]
pub struct RustSubmission {
    /// Path in the Kattis package.
    pub rel: String,
    /// Our verdict name (`wrong_answer`, `runtime_error`, …) or `accepted`.
    pub verdict: String,
    /// File stem, or folder name for a folder submission.
    pub stem: String,
    pub source: String,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Submissions {
    pub rust: Vec<RustSubmission>,
    pub not_run: Vec<NotRun>,
}

/// Our verdict for a Kattis verdict folder; `None` for folders graded otherwise (e.g.
/// `rejected`, `brute_force`, `partially_accepted`).
pub fn verdict_of_folder(folder: &str) -> Option<&'static str> {
    Some(match folder {
        "accepted" => "accepted",
        "wrong_answer" => "wrong_answer",
        "time_limit_exceeded" => "time_limit_exceeded",
        "run_time_error" => "runtime_error",
        _ => return None,
    })
}

/// Reads `submissions/`: Rust files (or folders holding one `.rs` file) in the four verdict
/// folders are kept; everything else is listed as not run.
pub fn submissions(tree: &Tree<'_>) -> Result<Submissions, KattisError> {
    let mut found = Submissions::default();
    if tree.kind("submissions")? != Some(true) {
        return Ok(found);
    }
    for folder in tree.list("submissions")?.into_iter().filter(|e| e.is_dir) {
        let verdict = verdict_of_folder(&folder.name);
        for entry in tree.list(&folder.rel)? {
            let program = program(tree, &entry)?;
            let rust: Vec<&Entry> = program
                .files
                .iter()
                .filter(|f| language_of_file(&f.name) == Some("rust"))
                .collect();
            let single_rust = program.language.as_deref() == Some("rust") && rust.len() == 1;
            match (verdict, single_rust) {
                (Some(verdict), true) => {
                    let stem = entry.name.strip_suffix(".rs").unwrap_or(&entry.name);
                    found.rust.push(RustSubmission {
                        rel: entry.rel.clone(),
                        verdict: verdict.to_string(),
                        stem: stem.to_string(),
                        source: tree.read_text(&rust[0].rel)?,
                    });
                }
                _ => found.not_run.push(NotRun {
                    path: entry.rel.clone(),
                    expected: verdict.unwrap_or(&folder.name).to_string(),
                }),
            }
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::language_of_file;

    #[test]
    fn languages_come_from_extensions() {
        assert_eq!(language_of_file("a.py"), Some("python3"));
        assert_eq!(language_of_file("a.C++"), Some("cpp"));
        assert_eq!(language_of_file("validator.java"), Some("java"));
        assert_eq!(language_of_file("validation.h"), None);
        assert_eq!(language_of_file("Makefile"), None);
    }
}
