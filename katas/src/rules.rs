//! The package rules, written once: what each of a kata's own solutions must get. `cargo test
//! -p katas` checks them in-process, the grader's catalogue test through the sandbox, and
//! `infrakata kata check` for an instructor; each only says how it ran a solution
//! ([`Observed`]) and reads the rule's answer ([`Checked`]).

use crate::catalogue::{Kata, Which};
use crate::gpu::Unavailable;
use crate::{Mode, Report, Verdict};

/// One part of a package and the verdict it must get in each mode it is run in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    pub part: Part,
    pub modes: &'static [Mode],
    pub expected: Verdict,
    /// What the part gets when graded in the sandbox, where that differs from in-process
    /// (see `layout::SANDBOXED_VERDICT_MARKER`).
    pub sandboxed: Verdict,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Accepted on the samples and on every hidden case.
    Reference,
    /// Compiles as shipped and fails at run time (its `todo!()`).
    Starter,
    /// A known-wrong solution: exactly the verdict its marker names.
    Wrong(&'static str),
}

/// Every rule of `kata`'s package, in the order the tests list them.
pub fn rules(kata: &dyn Kata) -> Vec<Rule> {
    let mut rules = vec![
        Rule {
            part: Part::Reference,
            modes: &[Mode::Run, Mode::Submit],
            expected: Verdict::Accepted,
            sandboxed: Verdict::Accepted,
        },
        Rule {
            part: Part::Starter,
            modes: &[Mode::Run],
            expected: Verdict::RuntimeError,
            sandboxed: Verdict::RuntimeError,
        },
    ];
    rules.extend(kata.package().wrong.iter().map(|w| Rule {
        part: Part::Wrong(w.name),
        modes: &[Mode::Submit],
        expected: w.expected,
        sandboxed: w.sandboxed,
    }));
    rules
}

impl Rule {
    /// The rule as it holds for a grading in the sandbox.
    pub fn in_sandbox(self) -> Rule {
        Rule {
            expected: self.sandboxed,
            ..self
        }
    }

    /// `reference`, `starter`, `wrong::linear-loop`: the test name after the kata's slug.
    pub fn test_name(&self) -> String {
        match self.part {
            Part::Reference => "reference".into(),
            Part::Starter => "starter".into(),
            Part::Wrong(name) => format!("wrong::{name}"),
        }
    }

    /// `wrong/linear-loop`: how the part is named to a person.
    pub fn label(&self) -> String {
        match self.part {
            Part::Reference => "reference".into(),
            Part::Starter => "starter".into(),
            Part::Wrong(name) => format!("wrong/{name}"),
        }
    }

    pub fn which(&self) -> Which<'static> {
        match self.part {
            Part::Reference => Which::Reference,
            Part::Starter => Which::Starter,
            Part::Wrong(name) => Which::Wrong(name),
        }
    }

    /// The part's source file, as a learner would submit it.
    pub fn source(&self, kata: &dyn Kata) -> &'static str {
        let package = kata.package();
        match self.part {
            Part::Reference => package.reference,
            Part::Starter => package.starter,
            Part::Wrong(name) => package
                .wrong
                .iter()
                .find(|w| w.name == name)
                .map_or("", |w| w.source),
        }
    }

    /// Whether one run of this part (in `mode`) kept the rule.
    pub fn check(&self, mode: Mode, observed: &Observed) -> Checked {
        if observed.verdict == self.expected {
            return Checked::Held;
        }
        if let Some(missing) = &observed.unavailable {
            return if missing.is_required() {
                Checked::Broken {
                    got: observed.verdict,
                    why: format!("this run is required here, but: {}", missing.why),
                }
            } else {
                Checked::Skipped(missing.clone())
            };
        }
        let mode = match mode {
            Mode::Run => "run",
            Mode::Submit => "submit",
        };
        Checked::Broken {
            got: observed.verdict,
            why: format!(
                "{} should get {} ({mode}), got {}\n{}",
                self.label(),
                self.expected,
                observed.verdict,
                observed.details
            ),
        }
    }
}

/// What a solution got, however it was run.
#[derive(Debug, Clone)]
pub struct Observed {
    pub verdict: Verdict,
    /// The run could not happen here (a GPU kata without a device or NVRTC).
    pub unavailable: Option<Unavailable>,
    /// What a person needs to see when the rule is broken (failing case, message, diagnostics).
    pub details: String,
}

impl Observed {
    /// An in-process run: a missing GPU shows as `internal_error` cases saying so.
    pub fn from_report(report: &Report) -> Self {
        let unavailable = (report.verdict == Verdict::InternalError)
            .then(|| {
                report
                    .cases
                    .iter()
                    .find_map(|c| Unavailable::from_message(&c.message.as_ref()?.en))
            })
            .flatten();
        Self {
            verdict: report.verdict,
            unavailable,
            details: report.explain(),
        }
    }
}

/// A rule's answer for one run.
#[derive(Debug, Clone)]
pub enum Checked {
    Held,
    /// The rule does not hold: the verdict it got, and what a person needs to see.
    Broken {
        got: Verdict,
        why: String,
    },
    /// The run was not possible on this machine, and is not required here: say why, pass.
    Skipped(Unavailable),
}

/// Runs every mode of `rule` in this process and checks it: the first mode that does not
/// hold decides.
pub fn check_in_process(kata: &dyn Kata, rule: &Rule) -> Checked {
    for &mode in rule.modes {
        let Some(report) = kata.evaluate_own(rule.which(), mode) else {
            return Checked::Broken {
                got: Verdict::InternalError,
                why: format!("the package has no {}", rule.label()),
            };
        };
        match rule.check(mode, &Observed::from_report(&report)) {
            Checked::Held => {}
            other => return other,
        }
    }
    Checked::Held
}

#[cfg(test)]
mod tests {
    use super::*;

    fn observed(verdict: Verdict, unavailable: Option<&str>) -> Observed {
        Observed {
            verdict,
            unavailable: unavailable.and_then(Unavailable::from_message),
            details: String::new(),
        }
    }

    #[test]
    fn every_package_part_has_one_rule() {
        let kata = crate::catalogue::find("fast-power").unwrap();
        let rules = rules(kata);
        assert_eq!(rules.len(), 2 + kata.package().wrong.len());
        assert_eq!(rules[0].modes, [Mode::Run, Mode::Submit]);
        assert_eq!(rules[1].expected, Verdict::RuntimeError);
        for (rule, wrong) in rules[2..].iter().zip(kata.package().wrong) {
            assert_eq!(rule.expected, wrong.expected);
            assert_eq!(rule.source(kata), wrong.source);
        }
    }

    #[test]
    fn a_missing_gpu_skips_and_anything_else_breaks() {
        let rule = Rule {
            part: Part::Reference,
            modes: &[Mode::Submit],
            expected: Verdict::Accepted,
            sandboxed: Verdict::Accepted,
        };
        assert!(matches!(
            rule.check(Mode::Submit, &observed(Verdict::Accepted, None)),
            Checked::Held
        ));
        assert!(matches!(
            rule.check(Mode::Submit, &observed(Verdict::WrongAnswer, None)),
            Checked::Broken { .. }
        ));
        let no_gpu = format!("{} no device", crate::gpu::UNAVAILABLE);
        let skipped = rule.check(
            Mode::Submit,
            &observed(Verdict::InternalError, Some(&no_gpu)),
        );
        if crate::gpu::required() {
            assert!(matches!(skipped, Checked::Broken { .. }));
        } else {
            assert!(matches!(skipped, Checked::Skipped(_)));
        }
    }
}
