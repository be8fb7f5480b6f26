//! Reference counts made ahead of time. A figure compares the learner's count with the
//! reference's on the same fresh, single-use inputs, so each figure used to pay for two valgrind
//! runs. The measuring loop, once a figure is out, draws the next input set for that kata and
//! counts the reference on it ([`Grader::bank_reference_count`]); the next figure for the kata
//! takes that entry and counts only the learner.
//!
//! What stays true: an input set is drawn from the OS random source, lives only in the trusted
//! grader's memory, and is taken once ([`ReferenceBank::take`] removes it), so it is measured for
//! one submission only; and the count is the one the reference would give on those inputs at
//! any time (counts are deterministic), so a banked figure equals an unbanked one.

use super::figure::Counted;
use super::{Grader, fresh_seed};
use crate::GradeError;
use katas::Group;
use katas::judge::CaseInfo;
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

/// One input set with the reference's count on it.
struct Banked {
    seed: u64,
    /// The cases it was counted on, by index: taken only for the same selection.
    cases: Vec<usize>,
    reference: u64,
}

/// At most one banked input set per version.
#[derive(Default)]
pub(super) struct ReferenceBank(Mutex<HashMap<String, Banked>>);

impl std::fmt::Debug for ReferenceBank {
    // The seeds are secrets: say only which katas have one waiting.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let held = self.lock();
        f.debug_set().entries(held.keys()).finish()
    }
}

impl ReferenceBank {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Banked>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The banked `(seed, reference count)` for the version `key` on exactly `cases`, removed
    /// so that it is never used again.
    pub(super) fn take(&self, key: &str, cases: &[CaseInfo]) -> Option<(u64, u64)> {
        let banked = self.lock().remove(key)?;
        let same = banked
            .cases
            .iter()
            .copied()
            .eq(cases.iter().map(|c| c.index));
        same.then_some((banked.seed, banked.reference))
    }

    fn holds(&self, key: &str) -> bool {
        self.lock().contains_key(key)
    }

    fn put(&self, key: &str, banked: Banked) {
        self.lock().insert(key.to_string(), banked);
    }
}

/// The cases a figure is counted on: the performance cases among those selected.
pub(super) fn measured_cases(selected: &[CaseInfo]) -> Vec<CaseInfo> {
    selected
        .iter()
        .filter(|c| c.group == Group::Performance)
        .cloned()
        .collect()
}

impl Grader {
    /// Draws the next input set for `slug`'s figures and counts the reference on it, unless one
    /// is already waiting. For the measuring loop after it has published a figure: the work a
    /// figure would otherwise do while a learner waits. Nothing to do for a GPU kata, a kata
    /// without performance cases, or a host without the counter.
    pub fn bank_reference_count(&self, slug: &str) -> Result<(), GradeError> {
        katas::builtin::find(slug).ok_or_else(|| GradeError::UnknownKata(slug.into()))?;
        let Some(tool) = &self.measure_tool else {
            return Ok(());
        };
        // A GPU kata's figure is its device timings, taken with its verdict.
        let Some(package) = crate::package::builtin(slug) else {
            return Ok(());
        };
        let (judge, library) = self.package_programs(package)?;
        let counted = Counted {
            package,
            judge: &judge,
            library: &library,
        };
        let key = counted.key();
        if self.reference_bank.holds(&key) {
            return Ok(());
        }
        let cases = measured_cases(&self.package_cases(package, &judge)?);
        if cases.is_empty() {
            return Ok(());
        }
        let program = self.measured_program(counted, &package.reference, "the reference")?;
        let seed = fresh_seed();
        // A count that fails here is tried again, unbanked, by the next figure, which then says
        // why; nothing is banked.
        if let Ok((reference, _)) = self.count(counted, &program, &cases, seed, tool)? {
            let indices = cases.iter().map(|c| c.index).collect();
            self.reference_bank.put(
                &key,
                Banked {
                    seed,
                    cases: indices,
                    reference,
                },
            );
        }
        Ok(())
    }
}
