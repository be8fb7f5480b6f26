//! The sources and command lines of a package's builds. Its logic becomes a library crate named
//! `katas` that re-exports the prebuilt `katas-runtime` (`katas_real` here; the judge re-exports
//! the judging `katas` instead), so `use katas::…` in the package's files and in the learner's
//! means what it means in the catalogue, while
//! `katas::problems::<module>` is the package's own logic rather than whatever the build had
//! under that name. Built once per version ([`super::library`]), it is what learners' programs
//! link, exactly as a catalogue kata's runner links the prebuilt library; the judge is that
//! crate again with the reference and `katas::judge_process` as its `main`.

use crate::toolchain::Toolchain;
use katas::KataMeta;
use std::collections::BTreeSet;

pub(crate) const LOGIC_FILE: &str = "logic.rs";
pub(crate) const REFERENCE_FILE: &str = "reference.rs";
pub(crate) const ROOT_FILE: &str = crate::source::MAIN_FILE;
pub(crate) const LIBRARY_FILE: &str = "libkatas.rlib";
/// Where the build folder is inside the compile sandbox: `#[path]`s are absolute so that the
/// nesting of inline modules does not move them.
const INSIDE: &str = crate::sandbox::BUILD_INSIDE;

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
pub(crate) fn named_modules<'a>(
    texts: impl IntoIterator<Item = &'a str>,
    own: &str,
) -> BTreeSet<String> {
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

/// The crate's root: the library re-exported, the package's logic (and, for the judge, its
/// reference) at `katas::problems::<module>`, also under every name in `aliases`, and the
/// module's `serve` as the catalogue generates it. The package's own warnings are not the
/// learner's to read.
fn head(meta: &KataMeta, reference: bool, aliases: &BTreeSet<String>) -> String {
    let m = meta.module_name();
    let aliases: String = aliases
        .iter()
        .map(|a| format!("    pub use self::{m} as {a};\n"))
        .collect();
    let reference = if reference {
        format!("        #[path = \"{INSIDE}/{REFERENCE_FILE}\"]\n        pub mod reference;\n")
    } else {
        String::new()
    };
    // The runtime has no catalogue: the program says it was built for this grader's.
    let catalogue = katas::CATALOGUE_HASH;
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
         {reference}        \
                 /// The sandboxed submission's `main`, as in the catalogue.\n        \
                 pub fn serve(solution: Solution) {{\n            \
                     ::katas_real::runner::serve::<Spec>(solution, {catalogue:?})\n        \
                 }}\n    \
             }}\n\
         {aliases}\
         }}\n"
    )
}

/// The library learners' programs link: `(file, text)` to write into the build folder.
pub(crate) fn library_files(
    meta: &KataMeta,
    logic: &str,
    aliases: &BTreeSet<String>,
) -> Vec<(&'static str, String)> {
    vec![
        (ROOT_FILE, head(meta, false, aliases)),
        (LOGIC_FILE, logic.to_string()),
    ]
}

/// The judge: the library's crate with the reference, serving `katas::judge_process`.
pub(crate) fn judge_files(
    meta: &KataMeta,
    logic: &str,
    reference: &str,
) -> Vec<(&'static str, String)> {
    let m = meta.module_name();
    let aliases = named_modules([logic, reference], &m);
    let fields: Vec<String> = meta
        .entry_points
        .iter()
        .map(|f| format!("{f}: problems::{m}::reference::{f}"))
        .collect();
    let root = format!(
        "{}fn main() {{\n    \
         ::katas_real::judge_process::serve::<problems::{m}::Spec>(problems::{m}::Solution {{ {} }});\n}}\n",
        head(meta, true, &aliases),
        fields.join(", ")
    );
    vec![
        (ROOT_FILE, root),
        (LOGIC_FILE, logic.to_string()),
        (REFERENCE_FILE, reference.to_string()),
    ]
}

/// Everything after the sandbox's own toolchain flags for the package's own crate: as the
/// runner library and a runner are compiled (so a learner's program behaves as it does in the
/// catalogue), against the library and the crates it lets packages use. `library`: the rlib
/// with `metadata` as its disambiguator (built as the runner library, without `solutions`,
/// against the runtime for `meta`'s kind); otherwise the judge's binary (with it, as the
/// trusted side, linking the judges' library, which reads custom input).
pub(crate) fn rustc_args(
    toolchain: &Toolchain,
    meta: &KataMeta,
    deps: &str,
    library: Option<&str>,
    out: &str,
) -> Vec<String> {
    let name = |p: &std::path::Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let mut args: Vec<String> = vec!["--edition=2024".into(), "--crate-name=katas".into()];
    match library {
        Some(metadata) => {
            args.push("--crate-type=rlib".into());
            args.push(format!("-Cmetadata={metadata}"));
        }
        None => {
            args.push("--crate-type=bin".into());
            args.push("-Cstrip=debuginfo".into());
            // The trusted side, as the catalogue's judge is built: what the package's logic
            // keeps for it alone (a data-only package's given answers) is in the judge and
            // never in the library learners' programs link.
            args.push("--cfg=feature=\"solutions\"".into());
        }
    }
    args.extend(
        [
            "-Copt-level=3",
            "-Ccodegen-units=1",
            "-Coverflow-checks=on",
            "--error-format=json",
            "-Funsafe_code",
        ]
        .map(String::from),
    );
    args.push(format!("-Ldependency={deps}"));
    // Learners' programs link the runtime alone; the judge, the judging side of `katas`.
    let linked = match library {
        Some(_) => toolchain.runtime_for(meta.kind),
        None => &toolchain.judge,
    };
    args.push(format!("--extern=katas_real={deps}/{}", name(&linked.rlib)));
    for (krate, rlib) in &linked.crates {
        args.push(format!("--extern={krate}={deps}/{}", name(rlib)));
    }
    args.push(format!("-o{out}"));
    args.push(format!("{INSIDE}/{ROOT_FILE}"));
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_serves_as_the_catalogue_and_the_judge_binds_the_reference() {
        let meta = katas::catalogue::find("fast-power").unwrap().meta();
        let files = library_files(meta, "// logic", &BTreeSet::new());
        let root = &files[0].1;
        assert!(root.contains("pub mod fast_power"));
        assert!(root.contains(&format!(
            "::katas_real::runner::serve::<Spec>(solution, {:?})",
            katas::CATALOGUE_HASH
        )));
        assert!(
            !root.contains("reference"),
            "learners never link the reference"
        );
        let judge = judge_files(meta, "// logic", "// reference");
        assert_eq!(judge[2].0, REFERENCE_FILE);
        assert!(judge[0].1.contains(
            "judge_process::serve::<problems::fast_power::Spec>(problems::fast_power::Solution { power: problems::fast_power::reference::power, pow_mod: problems::fast_power::reference::pow_mod })"
        ));
    }

    #[test]
    fn a_copied_package_s_old_module_name_is_itself() {
        let names = named_modules(
            [
                "use katas::problems::graph_fusion::{Graph, Node};",
                "katas::problems::mine::X; problems::self",
            ],
            "mine",
        );
        assert_eq!(names.into_iter().collect::<Vec<_>>(), ["graph_fusion"]);
        let meta = katas::catalogue::find("fast-power").unwrap().meta();
        let judge = judge_files(meta, "", "use katas::problems::old::power;");
        assert!(judge[0].1.contains("pub use self::fast_power as old;"));
    }
}
