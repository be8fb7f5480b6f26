//! The two files rustc sees: the learner's, unchanged (so diagnostics keep its line numbers),
//! and a generated `main.rs` that binds it to the kata's non-generic `serve`.

use katas::KataMeta;

/// Name of the learner's file inside the build folder.
pub const LEARNER_FILE: &str = "solution.rs";
pub const MAIN_FILE: &str = "main.rs";

/// The generated crate root. `forbid(unsafe_code)` at the root covers the learner's module and
/// cannot be lifted from inside it; `asm!`, `#[no_mangle]` and friends need `unsafe`, and what
/// the lint lets through (`#[unsafe(naked)]`) is refused earlier by `source_policy`.
pub fn runner_main(meta: &KataMeta) -> String {
    let m = meta.module_name();
    let fields: Vec<String> = meta
        .entry_points
        .iter()
        .map(|f| format!("{f}: solution::{f}"))
        .collect();
    format!(
        "#![forbid(unsafe_code)]\n\
         #[path = \"{LEARNER_FILE}\"]\n\
         mod solution;\n\
         fn main() {{\n    \
         katas::problems::{m}::serve(katas::problems::{m}::Solution {{ {} }});\n\
         }}\n",
        fields.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binds_every_entry_point_in_order() {
        let meta = katas::catalogue::find("fast-power").unwrap().meta();
        let main = runner_main(meta);
        assert!(main.starts_with("#![forbid(unsafe_code)]"));
        assert!(main.contains(
            "katas::problems::fast_power::Solution { power: solution::power, pow_mod: solution::pow_mod }"
        ));
    }
}
