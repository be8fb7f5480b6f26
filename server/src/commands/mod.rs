//! One module per top-level subcommand.

mod drill;
mod grade;
mod import;
mod io_kata;
mod kata;
mod package_kata;
mod publish;
mod serve;
mod user;
mod versions;
mod worker;

use crate::cli::{Cli, Command};
use clap::Parser;
use std::process::ExitCode;
use std::time::Duration;

/// Parses the command line and runs it; errors print and exit 2.
pub fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Kata(cmd) => kata::run(cmd),
        Command::Drill(args) => drill::run(args),
        Command::Grade {
            slug,
            file,
            mode,
            json,
            custom,
        } => match custom {
            Some(input) => match package_kata::package_dir(&slug) {
                Some(dir) => package_kata::run_custom(dir, &file, &input, json),
                None => grade::run_custom(&slug, &file, &input, json),
            },
            None => match (
                io_kata::package_dir(&slug),
                package_kata::package_dir(&slug),
            ) {
                (Some(dir), _) => io_kata::grade(dir, &file, mode.into(), json),
                (None, Some(dir)) => package_kata::grade(dir, &file, mode.into(), json),
                (None, None) => grade::run(&slug, &file, mode.into(), json),
            },
        },
        Command::Serve {
            addr,
            db,
            workers,
            worker_token,
            secure_cookies,
            max_queue_wait,
            edge,
        } => serve::run(
            addr,
            db.path,
            workers,
            worker_token,
            secure_cookies,
            Duration::from_secs(max_queue_wait),
            edge,
        ),
        Command::Worker {
            server,
            token,
            parallel,
        } => worker::run(&server, &token, parallel),
        Command::User(cmd) => user::run(cmd),
    }
}

/// Logs to stderr; `RUST_LOG` overrides the default level.
fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
