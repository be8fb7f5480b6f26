//! `infrakata`: the kata workbench's command line.

mod cli;
mod commands;
mod table;

use clap::Parser as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    // A sandbox re-executes this binary for its setup stages; those never return here.
    graders::sandbox::run_stage_if_requested();
    let cli = cli::Cli::parse();
    match commands::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
