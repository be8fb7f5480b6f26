//! `infrakata`: the kata workbench's binary.
#![forbid(unsafe_code)]

use std::process::ExitCode;

fn main() -> ExitCode {
    // A sandbox re-executes this binary for its setup stages; those never return here.
    graders::sandbox::run_stage_if_requested();
    server::commands::main()
}
