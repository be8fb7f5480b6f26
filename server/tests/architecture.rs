//! ARCHITECTURE.md's code map stays true (issue 25). The code map is the text between
//! `## Code map` and the next `## ` heading. The rule, kept simple:
//!
//! - every backticked word there that starts with a top-level folder of the workspace
//!   (`katas/`, `graders/`, `server/`, `migrations/`, `templates/`, `static/`, `editor/`,
//!   `scripts/`, `.ci/`) is a path that exists;
//! - every `.rs` file under `katas/src`, `katas/runtime/src`, `katas/drills/src`,
//!   `graders/src` and `server/src`, and every build script, is named there by its full path
//!   (a folder never stands for the files inside it);
//! - each of those top-level folders is named.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const TOP: [&str; 9] = [
    "katas/",
    "graders/",
    "server/",
    "migrations/",
    "templates/",
    "static/",
    "editor/",
    "scripts/",
    ".ci/",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The backticked paths of the code map.
fn named() -> BTreeSet<String> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let (_, rest) = text
        .split_once("\n## Code map\n")
        .expect("a `## Code map` section");
    let map = rest.split("\n## ").next().unwrap();
    map.split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| TOP.iter().any(|top| word.starts_with(top)))
        .map(str::to_string)
        .collect()
}

fn rust_files(dir: &Path, found: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|x| x == "rs") {
            let relative = path.strip_prefix(root()).unwrap();
            found.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
}

#[test]
fn every_path_the_code_map_names_exists() {
    let missing: Vec<String> = named()
        .into_iter()
        .filter(|path| !root().join(path).exists())
        .collect();
    assert!(missing.is_empty(), "named but absent: {missing:#?}");
}

#[test]
fn the_code_map_names_every_source_file_and_top_level_folder() {
    let mut files = ["katas/build.rs", "katas/drills/build.rs", "server/build.rs"]
        .map(String::from)
        .to_vec();
    for dir in [
        "katas/src",
        "katas/runtime/src",
        "katas/drills/src",
        "graders/src",
        "server/src",
    ] {
        rust_files(&root().join(dir), &mut files);
    }
    assert!(files.len() > 100, "found only {} files", files.len());
    let named = named();
    let mut unnamed: Vec<&str> = files
        .iter()
        .map(String::as_str)
        .chain(TOP)
        .filter(|path| !named.contains(*path))
        .collect();
    unnamed.sort();
    assert!(unnamed.is_empty(), "not in the code map: {unnamed:#?}");
}
