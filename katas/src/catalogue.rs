//! The registry of kata packages, in catalogue order, behind one object-safe trait so the CLI,
//! the grader and the server never need to know a kata's concrete types.

use crate::evaluate::{CaseResult, Trial, evaluate, judge};
use crate::meta::KataMeta;
use crate::report::CaseReport;
use crate::report::Report;
use crate::spec::Group;
use crate::spec::{KataSpec, Mode};
use crate::statement::Statement;
use crate::verdict::Verdict;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// The files of a package, embedded at build time.
#[derive(Debug)]
pub struct Package {
    /// Absolute path of the package folder in the checkout it was built from.
    pub dir: &'static str,
    pub meta_toml: &'static str,
    pub statement: &'static str,
    pub starter: &'static str,
    pub reference: &'static str,
    pub wrong: &'static [WrongSource],
}

/// A known-wrong solution and the verdict it must get.
#[derive(Debug)]
pub struct WrongSource {
    pub name: &'static str,
    pub source: &'static str,
    pub expected: Verdict,
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
    fn statement(&self) -> Statement;
    /// Runs one of the package's own solutions in-process. `None` if no such wrong solution.
    fn evaluate_own(&self, which: Which<'_>, mode: Mode) -> Option<Report>;
    /// The cases, in run order, for the default seed; `Err` if the kata itself is broken.
    fn case_list(&self) -> Result<Vec<CaseInfo>, String>;
    /// Trusted side: judges what a sandboxed run produced for case `index` of the cases made
    /// from `seed` (the grader's seed: the default, or a fresh secret one for GPU katas).
    fn judge(&self, seed: u64, index: usize, result: CaseResult, time_ms: f64) -> CaseReport;
    /// The package folder on disk, where the checkout it was built from still exists.
    fn dir(&self) -> &Path {
        Path::new(self.package().dir)
    }
}

/// A case as the grader sees it: its position, name and group (inputs stay in `katas`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseInfo {
    pub index: usize,
    pub name: String,
    pub group: Group,
}

/// A registered kata: its package files, its compiled solutions, and cached expected outputs.
pub struct Entry<S: KataSpec> {
    package: &'static Package,
    reference: S::Solution,
    starter: S::Solution,
    wrong: &'static [S::Solution],
    meta: OnceLock<KataMeta>,
    trial: OnceLock<Result<Arc<Trial<S>>, String>>,
    seeded: Mutex<Option<(u64, Arc<Trial<S>>)>>,
}

impl<S: KataSpec> std::fmt::Debug for Entry<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entry")
            .field("dir", &self.package.dir)
            .finish_non_exhaustive()
    }
}

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
            seeded: Mutex::new(None),
        }
    }

    /// Cases and expected outputs for the default seed, computed once; `Err` if the kata itself
    /// is broken (its case generator or reference panicked).
    pub fn trial(&self) -> Result<&Arc<Trial<S>>, &str> {
        self.trial
            .get_or_init(|| Trial::prepare(self.reference, crate::DEFAULT_SEED).map(Arc::new))
            .as_ref()
            .map_err(String::as_str)
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

    /// Cases and expected outputs for another seed; the last one is kept (a grading judges
    /// all its cases with one seed).
    fn seeded_trial(&self, seed: u64) -> Arc<Trial<S>> {
        let mut last = self.seeded.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((s, trial)) = last.as_ref()
            && *s == seed
        {
            return trial.clone();
        }
        let trial = Trial::prepare(self.reference, seed)
            .map(Arc::new)
            .unwrap_or_else(|why| panic!("judge called on a broken kata: {why}"));
        *last = Some((seed, trial.clone()));
        trial
    }

    pub fn reference(&self) -> S::Solution {
        self.reference
    }
}

impl<S: KataSpec> Kata for Entry<S> {
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
        Statement::parse(self.package.statement)
    }

    fn case_list(&self) -> Result<Vec<CaseInfo>, String> {
        let trial = self.trial().map_err(str::to_string)?;
        Ok(trial
            .cases
            .iter()
            .enumerate()
            .map(|(index, c)| CaseInfo {
                index,
                name: c.name.clone(),
                group: c.group,
            })
            .collect())
    }

    fn judge(&self, seed: u64, index: usize, result: CaseResult, time_ms: f64) -> CaseReport {
        let trial = if seed == crate::DEFAULT_SEED {
            match self.trial() {
                Ok(trial) => trial.clone(),
                Err(why) => panic!("judge called on a broken kata: {why}"),
            }
        } else {
            self.seeded_trial(seed)
        };
        let limit = std::time::Duration::from_millis(self.meta().limits.case_time_ms);
        judge::<S>(
            &trial.cases[index],
            &trial.expected[index],
            result,
            time_ms,
            limit,
        )
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

/// Every kata, in catalogue order.
#[cfg(feature = "solutions")]
pub fn all() -> &'static [&'static dyn Kata] {
    crate::problems::CATALOGUE
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
