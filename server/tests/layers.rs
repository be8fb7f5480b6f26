//! The server's layers as ARCHITECTURE draws them (issue 25): the JSON API (`routes/`) and the
//! pages (`pages/`) are thin adapters over `services/`, and neither imports the other; the
//! services import neither; the worker client shares only `worker_wire` with the server's side;
//! `cli.rs` defines the command line and `commands/` runs it, never the other way round.
//! Checked on the code, comments aside.

use std::path::Path;

/// Every `crate::` module a file under `src/<dir>` names in its code.
fn named_from(dir: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for rest in line.split("crate::").skip(1) {
                let module: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let file = path.file_name().unwrap().to_string_lossy().into_owned();
                found.push((file, module));
            }
        }
    }
    found
}

fn assert_never_names(dir: &str, forbidden: &[&str]) {
    let offending: Vec<String> = named_from(dir)
        .into_iter()
        .filter(|(_, module)| forbidden.contains(&module.as_str()))
        .map(|(file, module)| format!("{dir}/{file} names crate::{module}"))
        .collect();
    assert!(offending.is_empty(), "{offending:#?}");
}

#[test]
fn pages_and_routes_never_import_each_other() {
    assert_never_names("pages", &["routes"]);
    assert_never_names("routes", &["pages"]);
}

#[test]
fn services_import_neither_surface() {
    assert_never_names("services", &["routes", "pages"]);
}

#[test]
fn the_worker_client_shares_only_the_wire_types_with_the_server_side() {
    assert_never_names("worker", &["routes", "pages"]);
}

#[test]
fn the_command_line_is_defined_apart_from_what_runs_it() {
    // `commands/` reads `cli`'s types; `cli.rs` naming `commands` again would close a circle.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli.rs");
    let text = std::fs::read_to_string(path).unwrap();
    let naming: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .filter(|l| l.contains("commands::"))
        .collect();
    assert!(naming.is_empty(), "cli.rs names commands: {naming:#?}");
}

/// The `infrakata` binary takes the build's katas as data (`katas::builtin`) and runs their
/// code only in the sandbox: cargo must not build it with the compiled katas.
#[test]
fn the_binary_is_built_without_any_kata_s_code() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
    let out = std::process::Command::new(cargo)
        .args(["tree", "--offline", "-e", "normal,features", "-i", "katas"])
        .arg("--manifest-path")
        .arg(&manifest)
        .args(["-p", "server"])
        .output()
        .unwrap();
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(tree.contains("katas feature \"packages\""), "{tree}");
    for feature in ["solutions", "default"] {
        assert!(
            !tree.contains(&format!("katas feature \"{feature}\"")),
            "{tree}"
        );
    }
}
