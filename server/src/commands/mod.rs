//! One module per top-level subcommand.

mod grade;
mod kata;

use crate::cli::{Cli, Command};
use std::process::ExitCode;

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Kata(cmd) => kata::run(cmd),
        Command::Grade {
            slug,
            file,
            mode,
            json,
        } => grade::run(&slug, &file, mode.into(), json),
    }
}
