//! The files and command line of a package's program. The crate is named `katas` and
//! re-exports the prebuilt library (`katas_real` here), so `use katas::…` in the package's
//! files and in the learner's means what it means in the catalogue, while
//! `katas::problems::<module>` is the package's own logic rather than whatever the build had
//! under that name.

use super::Role;
use crate::source::LEARNER_FILE;
use crate::toolchain::Toolchain;
use katas::KataMeta;
use std::collections::BTreeSet;

const LOGIC_FILE: &str = "logic.rs";
const REFERENCE_FILE: &str = "reference.rs";
const ROOT_FILE: &str = crate::source::MAIN_FILE;
/// Where the build folder is inside the compile sandbox: `#[path]`s are absolute so that the
/// nesting of inline modules does not move them.
const INSIDE: &str = crate::sandbox::BUILD_INSIDE;

/// The files of one build: the generated root, the logic, and `source` (the learner's file for
/// [`Role::Learner`], the reference for [`Role::Judge`]).
pub(crate) fn build_files(
    meta: &KataMeta,
    logic: &str,
    role: Role,
    source: &str,
) -> Vec<(&'static str, String)> {
    let aliases = named_modules(&[logic, source], &meta.module_name());
    let (root, file) = match role {
        Role::Learner => (learner_root(meta, &aliases), LEARNER_FILE),
        Role::Judge => (judge_root(meta, &aliases), REFERENCE_FILE),
    };
    vec![
        (ROOT_FILE, root),
        (LOGIC_FILE, logic.to_string()),
        (file, source.to_string()),
    ]
}

/// Words a module cannot be renamed to.
const KEYWORDS: &[&str] = &[
    "_", "as", "async", "await", "box", "break", "const", "continue", "crate", "dyn", "else",
    "enum", "extern", "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro",
    "match", "mod", "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super",
    "trait", "true", "try", "type", "unsafe", "use", "where", "while", "yield",
];

/// Every `problems::<name>` the files name other than `own`. In a package's build the package
/// is the only kata there is, so each such name is the package itself: a package copied from
/// the catalogue under a new slug still says `katas::problems::<old name>::Graph`, and builds.
fn named_modules(texts: &[&str], own: &str) -> BTreeSet<String> {
    const NEEDLE: &str = "problems::";
    let mut names = BTreeSet::new();
    for text in texts {
        for (at, _) in text.match_indices(NEEDLE) {
            let rest = &text[at + NEEDLE.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let name = &rest[..end];
            let ident = name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
                && !KEYWORDS.contains(&name);
            if name != own && ident {
                names.insert(name.to_string());
            }
        }
    }
    names
}

/// The crate's head: the library re-exported, the package's logic (and, for the judge, its
/// reference) at `katas::problems::<module>`, also under every other name its files give it.
/// The package's own warnings are not the learner's to read.
fn head(meta: &KataMeta, role: Role, aliases: &BTreeSet<String>) -> String {
    let m = meta.module_name();
    let aliases: String = aliases
        .iter()
        .map(|a| format!("    pub use self::{m} as {a};\n"))
        .collect();
    let reference = match role {
        Role::Learner => String::new(),
        Role::Judge => {
            format!("        #[path = \"{INSIDE}/{REFERENCE_FILE}\"]\n        pub mod reference;\n")
        }
    };
    format!(
        "#![forbid(unsafe_code)]\n\
         extern crate self as katas;\n\
         #[allow(unused_imports)]\n\
         pub use ::katas_real::*;\n\
         #[allow(warnings)]\n\
         pub mod problems {{\n    \
             pub mod {m} {{\n        \
                 #[path = \"{INSIDE}/{LOGIC_FILE}\"]\n        \
                 mod logic;\n        \
                 pub use self::logic::*;\n\
         {reference}    \
             }}\n\
         {aliases}\
         }}\n"
    )
}

/// `Solution { f: <path>::f, … }` for the kata's entry points.
fn bind(meta: &KataMeta, path: &str) -> String {
    let m = meta.module_name();
    let fields: Vec<String> = meta
        .entry_points
        .iter()
        .map(|f| format!("{f}: {path}::{f}"))
        .collect();
    format!("problems::{m}::Solution {{ {} }}", fields.join(", "))
}

fn learner_root(meta: &KataMeta, aliases: &BTreeSet<String>) -> String {
    let m = meta.module_name();
    format!(
        "{}#[path = \"{INSIDE}/{LEARNER_FILE}\"]\nmod solution;\nfn main() {{\n    \
         ::katas_real::runner::serve::<problems::{m}::Spec>({});\n}}\n",
        head(meta, Role::Learner, aliases),
        bind(meta, "solution")
    )
}

fn judge_root(meta: &KataMeta, aliases: &BTreeSet<String>) -> String {
    let m = meta.module_name();
    format!(
        "{}fn main() {{\n    \
         ::katas_real::judge_process::serve::<problems::{m}::Spec>({});\n}}\n",
        head(meta, Role::Judge, aliases),
        bind(meta, &format!("problems::{m}::reference"))
    )
}

/// Everything after the sandbox's own toolchain flags: as a runner is compiled (so a learner's
/// program behaves as it does in the catalogue), against the library and the `serde` it links.
pub(crate) fn rustc_args(toolchain: &Toolchain, deps: &str, out: &str) -> Vec<String> {
    let name = |p: &std::path::Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let mut args: Vec<String> = [
        "--edition=2024".to_string(),
        "--crate-type=bin".into(),
        "--crate-name=katas".into(),
        "-Copt-level=3".into(),
        "-Ccodegen-units=1".into(),
        "-Coverflow-checks=on".into(),
        "-Cstrip=debuginfo".into(),
        "--error-format=json".into(),
        "-Funsafe_code".into(),
        format!("-Ldependency={deps}"),
        format!("--extern=katas_real={deps}/{}", name(&toolchain.katas_rlib)),
        format!("-o{out}"),
    ]
    .to_vec();
    for (krate, rlib) in &toolchain.package_crates {
        args.push(format!("--extern={krate}={deps}/{}", name(rlib)));
    }
    args.push(format!("{INSIDE}/{ROOT_FILE}"));
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_roots_bind_every_entry_point_to_the_package_module() {
        let meta = katas::catalogue::find("fast-power").unwrap().meta();
        let files = build_files(meta, "// logic", Role::Learner, "// mine");
        let root = &files[0].1;
        assert!(root.contains("pub mod fast_power"));
        assert!(root.contains(
            "runner::serve::<problems::fast_power::Spec>(problems::fast_power::Solution { power: solution::power, pow_mod: solution::pow_mod })"
        ));
        assert!(
            !root.contains("reference"),
            "the learner's program has no reference"
        );
        let judge = build_files(meta, "// logic", Role::Judge, "// reference");
        assert_eq!(judge[2].0, REFERENCE_FILE);
        assert!(
            judge[0]
                .1
                .contains("judge_process::serve::<problems::fast_power::Spec>")
        );
        assert!(
            judge[0]
                .1
                .contains("power: problems::fast_power::reference::power")
        );
    }

    #[test]
    fn a_copied_package_s_old_module_name_is_itself() {
        let names = named_modules(
            &[
                "use katas::problems::graph_fusion::{Graph, Node};",
                "katas::problems::mine::X",
            ],
            "mine",
        );
        assert_eq!(names.into_iter().collect::<Vec<_>>(), ["graph_fusion"]);
        let meta = katas::catalogue::find("fast-power").unwrap().meta();
        let files = build_files(meta, "", Role::Learner, "use katas::problems::old::power;");
        assert!(files[0].1.contains("pub use self::fast_power as old;"));
    }
}
