//! fast-power's statement and its checker agree about the library (issue 23 §14): the checker
//! judges numbers, not how they were computed, so `f64::powi` passes every `power` case, and
//! both statements say so instead of promising a refusal the grader does not make.

use katas::problems::fast_power::{Input, Spec, reference};
use katas::{Check, KataSpec};

fn powi(base: f64, exponent: i32) -> f64 {
    base.powi(exponent)
}

#[test]
fn powi_passes_every_power_case() {
    let solution = katas::problems::fast_power::Solution {
        power: powi,
        pow_mod: reference::pow_mod,
    };
    let own = katas::problems::fast_power::Solution {
        power: reference::power,
        pow_mod: reference::pow_mod,
    };
    for seed in [0, 1, 7, 23, 0xdead_beef] {
        for case in Spec::cases(seed) {
            if !matches!(case.input, Input::Power(_)) {
                continue;
            }
            let got = Spec::solve(solution, &case.input);
            let want = Spec::solve(own, &case.input);
            let check = Spec::check(&case.input, &want, &got);
            assert!(
                matches!(check, Check::Pass { .. }),
                "seed {seed}, case {}: f64::powi should pass, got {check:?}",
                case.name
            );
        }
    }
}

#[test]
fn both_statements_say_the_library_is_not_refused() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/fast-power/");
    for (file, words) in [
        ("README.md", "is not refused"),
        ("README.zh.md", "不会被拒绝"),
    ] {
        let text = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
        assert!(text.contains("`f64::powi`"), "{file} names f64::powi");
        assert!(
            text.contains(words),
            "{file} says a library call is not refused"
        );
    }
}
