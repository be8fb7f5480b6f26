//! What every sandboxed grading suite of this crate starts the same way: the sandbox's stage
//! hook, one grader per test binary, and the rule that a host without the sandbox skips the
//! suite with the reason — except under `INFRAKATA_CI=1`, where it fails.

// Each suite uses part of this module (the hostile suite makes its own grader).
#![allow(dead_code)]

use graders::{Grader, GraderConfig};
use libtest_mimic::{Arguments, Trial};
use std::sync::OnceLock;

/// The suite's `main`: runs `trials()` when `ready()` (the grader could start), else skips
/// or, under `INFRAKATA_CI=1`, fails with the reason. A sandbox stage (this binary re-run
/// inside the sandbox) never gets as far as `ready`.
pub fn run_suite(
    suite: &str,
    ready: impl FnOnce() -> Result<(), String>,
    trials: impl FnOnce() -> Vec<Trial>,
) {
    graders::sandbox::run_stage_if_requested();
    run_suite_with(suite, Arguments::from_args(), ready(), trials)
}

/// [`run_suite`] with arguments the suite has adjusted, once the stage hook has run.
pub fn run_suite_with(
    suite: &str,
    args: Arguments,
    ready: Result<(), String>,
    trials: impl FnOnce() -> Vec<Trial>,
) {
    let trials = match ready {
        Err(why) => {
            if std::env::var_os("INFRAKATA_CI").is_some() {
                eprintln!("{suite}: the sandbox is required under INFRAKATA_CI=1: {why}");
                std::process::exit(1);
            }
            println!("{suite} skipped: {why}");
            Vec::new()
        }
        Ok(()) => trials(),
    };
    libtest_mimic::run(&args, trials).exit();
}

/// This test binary's grader (for a checkout), made once.
pub fn grader() -> Result<&'static Grader, String> {
    static GRADER: OnceLock<Result<Grader, String>> = OnceLock::new();
    GRADER
        .get_or_init(|| Grader::new(GraderConfig::for_checkout()).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(Clone::clone)
}
