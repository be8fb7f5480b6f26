//! `kata import DIR --out OUT`: a Kattis package made an io kata package, and a summary of
//! what came across and what did not, so the instructor knows what the package will not check.
//! `kata export DIR OUT`: the way back, as a 2025-09 package.

use katas::kattis::{self, Imported};
use std::path::Path;
use std::process::ExitCode;

pub fn run(dir: &Path, out: &Path) -> anyhow::Result<ExitCode> {
    match kattis::import(dir, out) {
        Ok(imported) => {
            print_summary(&imported);
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("refused: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

pub fn export(dir: &Path, out: &Path) -> anyhow::Result<ExitCode> {
    if out.exists() {
        eprintln!(
            "refused: {} exists; export writes a new folder",
            out.display()
        );
        return Ok(ExitCode::from(1));
    }
    match kattis::export(dir, out) {
        Ok(()) => {
            println!(
                "Exported {} as a Kattis package (2025-09) into {}",
                dir.display(),
                out.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("refused: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

fn print_summary(imported: &Imported) {
    println!(
        "Imported `{}` ({} format) into {}",
        imported.slug,
        imported.format.as_str(),
        imported.package_dir.display()
    );
    println!("cases:");
    for (folder, count) in &imported.cases {
        println!("  data/{folder}: {count}");
    }
    match &imported.validator_language {
        Some(language) => println!("output validator: custom ({language})"),
        None => println!("output validator: {}", imported.validator),
    }
    list(
        "Rust solutions imported",
        imported.rust_imported.iter().cloned(),
    );
    list(
        "submissions not run",
        imported
            .not_run
            .iter()
            .map(|n| format!("{} (expected {})", n.path, n.expected)),
    );
    list(
        "validators skipped",
        imported
            .skipped_validators
            .iter()
            .map(|s| format!("{}: {}", s.path, s.reason)),
    );
    list("notes", imported.notes.iter().cloned());
}

fn list(title: &str, items: impl Iterator<Item = String>) {
    let items: Vec<String> = items.collect();
    if items.is_empty() {
        println!("{title}: none");
        return;
    }
    println!("{title}:");
    for item in items {
        println!("  {item}");
    }
}
