//! The registry of kata packages, in catalogue order, behind one object-safe trait so the CLI,
//! the grader and the server never need to know a kata's concrete types.

#[cfg(feature = "solutions")]
use crate::evaluate::evaluate;
use crate::judge::{CaseInfo, Judging, KataError};
#[cfg(feature = "solutions")]
use crate::judge::{Prepared, Trial};
use crate::lang::Lang;
use crate::meta::KataMeta;
use crate::report::Report;
#[cfg(feature = "solutions")]
use crate::spec::KataSpec;
use crate::spec::Mode;
use crate::statement::Statement;
use crate::verdict::Verdict;
use std::path::Path;
use std::sync::Arc;
#[cfg(feature = "solutions")]
use std::sync::{Mutex, OnceLock, PoisonError};

/// The files of a package, embedded at build time.
#[derive(Debug)]
pub struct Package {
    /// Absolute path of the package folder in the checkout it was built from.
    pub dir: &'static str,
    /// The version's identity: [`crate::package_hash`] of the folder it was built from.
    pub content_hash: &'static str,
    /// [`crate::package_hash::grading_hash`]: the same for versions that differ only in their
    /// statements, which this build can therefore serve.
    pub grading_hash: &'static str,
    pub meta_toml: &'static str,
    pub statement: &'static str,
    /// `README.zh.md`: the same statement in Chinese (the lint keeps the two in step).
    pub statement_zh: &'static str,
    pub starter: &'static str,
    pub reference: &'static str,
    /// `kata.rs`: the trusted logic, whose `Solution` and the types it names are the API
    /// learners' code is written against ([`crate::learner_api`]). A data-only package's is
    /// generated ([`crate::data`]).
    pub logic: &'static str,
    /// A data-only package's `data/cases.toml`; empty for a package with a written `kata.rs`.
    pub data_cases: &'static str,
    pub wrong: &'static [WrongSource],
}

impl Package {
    /// The statement's markdown in `lang`.
    pub fn statement_in(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.statement,
            Lang::Zh => self.statement_zh,
        }
    }
}

/// A known-wrong solution and the verdict it must get.
#[derive(Debug)]
pub struct WrongSource {
    pub name: &'static str,
    /// The file's name in the package (`wrong/<stem>.rs`).
    pub file: &'static str,
    pub source: &'static str,
    pub expected: Verdict,
    /// The verdict in the sandbox (see `layout::SANDBOXED_VERDICT_MARKER`); `expected` unless
    /// the file says otherwise.
    pub sandboxed: Verdict,
}

/// Which of a package's own solutions to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which<'a> {
    Reference,
    Starter,
    Wrong(&'a str),
}

/// A kata, whatever its input and output types.
pub trait Kata: Send + Sync + std::fmt::Debug {
    fn meta(&self) -> &KataMeta;
    fn package(&self) -> &'static Package;
    /// The English statement.
    fn statement(&self) -> Statement;
    /// The statement in `lang`.
    fn statement_in(&self, lang: Lang) -> Statement {
        Statement::parse_static(self.package().statement_in(lang))
    }
    /// Runs one of the package's own solutions in-process. `None` if no such wrong solution.
    fn evaluate_own(&self, which: Which<'_>, mode: Mode) -> Option<Report>;
    /// The cases, in run order, for the default seed; `Err` if the kata itself is broken.
    fn case_list(&self) -> Result<Vec<CaseInfo>, KataError>;
    /// Trusted side of one grading: the cases made from `seed` (the grader draws a fresh
    /// secret one per grading) and the reference's answers, ready to judge what a sandboxed
    /// run produced. `Err` if the kata itself is broken for this seed — our failure.
    fn prepare(&self, seed: u64) -> Result<Arc<dyn Judging>, KataError>;
    /// Custom input: parses `json` as this kata's input and admits it, without running
    /// anything (cheap enough for a request handler).
    #[cfg(feature = "custom")]
    fn check_custom(&self, json: &str) -> Result<(), crate::custom::CustomError>;
    /// Custom input, trusted side: admits `json` and answers it with the reference, ready to
    /// run a solution on as one case.
    #[cfg(feature = "custom")]
    fn custom(&self, json: &str) -> Result<crate::custom::CustomCase, crate::custom::CustomError>;
    /// The first sample case's input as pretty JSON, to start a custom input from; `None` when
    /// the kata offers no custom input (GPU katas).
    #[cfg(feature = "custom")]
    fn sample_input(&self) -> Option<String>;
    /// The input's format by example: `(entry point, pretty JSON)` for each entry point
    /// ([`crate::custom::examples`]); empty when the kata offers no custom input.
    #[cfg(feature = "custom")]
    fn input_examples(&self) -> Vec<(String, String)>;
    /// A rank kata's face ([`crate::spec::KataSpec::ranked`]): its ranks run as processes of
    /// their own in the sandbox.
    fn ranked(&self) -> Option<&'static dyn crate::rank_net::RankedKata> {
        None
    }
    /// The package folder on disk, where the checkout it was built from still exists.
    fn dir(&self) -> &Path {
        Path::new(self.package().dir)
    }
}

// Here rather than in `custom`, which the catalogue names and so may not name back.
#[cfg(feature = "solutions")]
impl crate::custom::InputExamples {
    /// What `kata`'s form starts from, made by its own code in this process (a kata compiled
    /// in: its reference run on its default cases, once).
    pub fn of(kata: &dyn Kata) -> Self {
        Self {
            sample: kata.sample_input(),
            examples: kata.input_examples(),
        }
    }
}

/// Prepared trials kept per kata: a few gradings with different secret seeds run at once.
#[cfg(feature = "solutions")]
const SEEDED_TRIALS: usize = 4;

/// A registered kata: its package files, its compiled solutions, and cached expected outputs.
// Only the catalogue (`solutions`) registers katas; its `meta` parses the embedded kata.toml.
#[cfg(feature = "solutions")]
pub struct Entry<S: KataSpec> {
    package: &'static Package,
    reference: S::Solution,
    starter: S::Solution,
    wrong: &'static [S::Solution],
    meta: OnceLock<KataMeta>,
    trial: OnceLock<Result<Arc<Trial<S>>, KataError>>,
    /// What the custom-input form shows by example, read from the trial's cases once.
    examples: OnceLock<Vec<(String, String)>>,
    seeded: Mutex<Vec<(u64, Arc<Trial<S>>)>>,
}

#[cfg(feature = "solutions")]
impl<S: KataSpec> std::fmt::Debug for Entry<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entry")
            .field("dir", &self.package.dir)
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "solutions")]
impl<S: KataSpec> Entry<S> {
    /// `wrong` is in the same order as `package.wrong`.
    pub const fn new(
        package: &'static Package,
        reference: S::Solution,
        starter: S::Solution,
        wrong: &'static [S::Solution],
    ) -> Self {
        Self {
            package,
            reference,
            starter,
            wrong,
            meta: OnceLock::new(),
            trial: OnceLock::new(),
            examples: OnceLock::new(),
            seeded: Mutex::new(Vec::new()),
        }
    }

    /// Cases and expected outputs for the default seed, computed once; `Err` if the kata itself
    /// is broken (its case generator or reference panicked).
    pub fn trial(&self) -> Result<&Arc<Trial<S>>, &KataError> {
        self.trial
            .get_or_init(|| Trial::prepare(self.reference, crate::DEFAULT_SEED).map(Arc::new))
            .as_ref()
    }

    /// Runs any solution of this kata's shape — how a learner's own file is checked.
    pub fn evaluate(&self, solution: S::Solution, mode: Mode) -> Report {
        match self.trial() {
            Ok(trial) => evaluate(self.meta(), trial, solution, mode),
            Err(why) => {
                Report::internal_error(&self.meta().slug, format!("the kata is broken: {why}"))
            }
        }
    }

    /// Cases and expected outputs for another seed; the few most recent are kept.
    fn seeded_trial(&self, seed: u64) -> Result<Arc<Trial<S>>, KataError> {
        if seed == crate::DEFAULT_SEED {
            return self.trial().cloned().map_err(Clone::clone);
        }
        let known = {
            let kept = self.seeded.lock().unwrap_or_else(PoisonError::into_inner);
            kept.iter()
                .find(|(s, _)| *s == seed)
                .map(|(_, t)| t.clone())
        };
        if let Some(trial) = known {
            return Ok(trial);
        }
        // Prepared outside the lock: other gradings of this kata need not wait for it.
        let trial = Arc::new(Trial::prepare(self.reference, seed)?);
        let mut kept = self.seeded.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.len() == SEEDED_TRIALS {
            kept.remove(0);
        }
        kept.push((seed, trial.clone()));
        Ok(trial)
    }

    pub fn reference(&self) -> S::Solution {
        self.reference
    }

    /// GPU katas offer no custom input (their reference needs a device): said before any
    /// parsing, so the learner is not told to fix an input that could never run.
    #[cfg(feature = "solutions")]
    fn offers_custom(&self) -> Result<(), crate::custom::CustomError> {
        match self.meta().kind {
            crate::KataKind::Cpu => Ok(()),
            crate::KataKind::Gpu | crate::KataKind::Io => Err(crate::custom::CustomError::Refused(
                crate::spec::Refusal::not_offered(),
            )),
        }
    }
}

#[cfg(feature = "solutions")]
impl<S: KataSpec> Kata for Entry<S> {
    fn ranked(&self) -> Option<&'static dyn crate::rank_net::RankedKata> {
        S::ranked()
    }

    fn meta(&self) -> &KataMeta {
        self.meta.get_or_init(|| {
            let path = Path::new(self.package.dir).join(crate::layout::META_FILE);
            KataMeta::parse(self.package.meta_toml, &path)
                .unwrap_or_else(|e| panic!("build.rs validated this kata.toml, yet: {e}"))
        })
    }

    fn package(&self) -> &'static Package {
        self.package
    }

    fn statement(&self) -> Statement {
        Statement::parse_static(self.package.statement)
    }

    fn case_list(&self) -> Result<Vec<CaseInfo>, KataError> {
        let trial = self.trial().map_err(Clone::clone)?;
        Ok(trial.infos().collect())
    }

    fn prepare(&self, seed: u64) -> Result<Arc<dyn Judging>, KataError> {
        let trial = self.seeded_trial(seed)?;
        let bounds = trial
            .expected
            .iter()
            .map(|out| {
                crate::wire::encode(out)
                    .map(|b| 2 * b.len() + (64 << 10))
                    .map_err(|e| KataError::Encode {
                        what: "the reference's answer".into(),
                        message: e.to_string(),
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Arc::new(Prepared::<S>::bounded(
            trial,
            bounds,
            std::time::Duration::from_millis(self.meta().limits.case_time_ms),
        )))
    }

    #[cfg(feature = "solutions")]
    fn check_custom(&self, json: &str) -> Result<(), crate::custom::CustomError> {
        self.offers_custom()?;
        crate::custom::parse::<S>(json).map(drop)
    }

    #[cfg(feature = "solutions")]
    fn custom(&self, json: &str) -> Result<crate::custom::CustomCase, crate::custom::CustomError> {
        self.offers_custom()?;
        let limit = std::time::Duration::from_millis(self.meta().limits.case_time_ms);
        crate::custom::prepare::<S>(self.reference, json, limit)
    }

    #[cfg(feature = "solutions")]
    fn sample_input(&self) -> Option<String> {
        crate::custom::sample::<S>(&self.trial().ok()?.cases)
    }

    #[cfg(feature = "solutions")]
    fn input_examples(&self) -> Vec<(String, String)> {
        if self.offers_custom().is_err() {
            return Vec::new();
        }
        // Every kata page shows them: read from the default seed's cases once, like the trial.
        self.examples
            .get_or_init(|| {
                self.trial()
                    .map(|t| crate::custom::examples::<S>(&t.cases))
                    .unwrap_or_default()
            })
            .clone()
    }

    fn evaluate_own(&self, which: Which<'_>, mode: Mode) -> Option<Report> {
        let solution = match which {
            Which::Reference => self.reference,
            Which::Starter => self.starter,
            Which::Wrong(name) => {
                let i = self.package.wrong.iter().position(|w| w.name == name)?;
                self.wrong[i]
            }
        };
        Some(self.evaluate(solution, mode))
    }
}

/// `topic`'s display name in `lang` as `meta` names it, for the catalogues' `topic_name`s.
pub(crate) fn topic_name_in<'m>(
    meta: &'m KataMeta,
    topic: &str,
    lang: crate::Lang,
) -> Option<&'m str> {
    meta.topic_names.get(topic).map(|n| match lang {
        crate::Lang::En => n.en.as_str(),
        crate::Lang::Zh => n.zh.as_str(),
    })
}

/// Every kata, in catalogue order.
#[cfg(feature = "solutions")]
pub fn all() -> &'static [&'static dyn Kata] {
    crate::problems::CATALOGUE
}

/// A topic's display name in `lang`, as the packages that list it name it.
#[cfg(feature = "solutions")]
pub fn topic_name(topic: &str, lang: crate::Lang) -> Option<&'static str> {
    all()
        .iter()
        .find_map(|k| topic_name_in(k.meta(), topic, lang))
}

/// The kata with this slug.
#[cfg(feature = "solutions")]
pub fn find(slug: &str) -> Option<&'static dyn Kata> {
    all().iter().copied().find(|k| k.meta().slug == slug)
}

/// The `kata new` template, compiled like a kata but never listed.
#[cfg(feature = "solutions")]
pub fn scaffold() -> &'static dyn Kata {
    crate::problems::SCAFFOLD
}

/// The `kata new --data` template (a data-only kata), compiled like a kata but never listed.
#[cfg(feature = "solutions")]
pub fn data_scaffold() -> &'static dyn Kata {
    crate::problems::DATA_SCAFFOLD
}

#[cfg(all(test, feature = "solutions"))]
mod tests {
    use super::*;

    #[test]
    fn packages_that_share_a_topic_name_it_alike() {
        let mut names = std::collections::BTreeMap::new();
        for kata in all() {
            for (topic, name) in &kata.meta().topic_names {
                let first = names.entry(topic).or_insert((name, &kata.meta().slug));
                assert_eq!(
                    first.0,
                    name,
                    "topic `{topic}` is named differently by {} and {}",
                    first.1,
                    kata.meta().slug
                );
            }
        }
        assert_eq!(
            topic_name("kernel-fusion", crate::Lang::Zh),
            Some("算子融合")
        );
        assert_eq!(topic_name("not-a-topic", crate::Lang::En), None);
    }
}
