//! Command-line definitions, nothing that runs them ([`crate::commands`] does). Defaults point
//! into the checkout the binary was built from.

use crate::db::Location;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "infrakata",
    version,
    about = "Practise AI-infrastructure interview katas."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Browse, start and check katas.
    #[command(subcommand)]
    Kata(KataCommand),
    /// Run the web service with its built-in grading workers.
    Serve {
        /// Address to listen on.
        #[arg(long, env = "INFRAKATA_ADDR", default_value = "127.0.0.1:8080")]
        addr: SocketAddr,
        #[command(flatten)]
        db: DbPath,
        /// Built-in workers; default one per core. 0 leaves grading to remote workers.
        #[arg(long, env = "INFRAKATA_WORKERS")]
        workers: Option<usize>,
        /// Secret remote workers must present; generated (and printed) when not set.
        #[arg(long, env = "INFRAKATA_WORKER_TOKEN", hide_env_values = true)]
        worker_token: Option<String>,
        /// Mark the session cookies `Secure` (sent over HTTPS only): set this behind TLS.
        #[arg(long, env = "INFRAKATA_SECURE_COOKIES")]
        secure_cookies: bool,
        /// Seconds a submission may wait for a worker that can grade it (e.g. a GPU kata with no
        /// GPU worker) before it ends as not graded, without counting as an attempt.
        #[arg(long, env = "INFRAKATA_MAX_QUEUE_WAIT", default_value_t = 900)]
        max_queue_wait: u64,
        #[command(flatten)]
        edge: EdgeArgs,
    },
    /// Run a remote grading worker that pulls jobs from a server.
    Worker {
        /// The server's base URL, e.g. http://10.0.0.5:8080.
        #[arg(long, env = "INFRAKATA_SERVER")]
        server: String,
        /// The server's worker token.
        #[arg(long, env = "INFRAKATA_WORKER_TOKEN", hide_env_values = true)]
        token: String,
        /// Jobs graded at once; default one per core.
        #[arg(long)]
        parallel: Option<usize>,
    },
    /// Manage accounts.
    #[command(subcommand)]
    User(UserCommand),
    /// Practise concept drills at a prompt (`drill [TOPIC]`), list the drill sets, or check a
    /// folder of drill sets the way the build does.
    Drill(DrillArgs),
    /// Grade a solution file in the sandbox: the same path the server's workers use.
    Grade {
        /// A kata of the catalogue, or the folder of a stdin/stdout kata's package.
        slug: String,
        file: PathBuf,
        /// `run`: the sample cases only; `submit`: every case.
        #[arg(long, value_enum, default_value_t = ModeArg::Submit)]
        mode: ModeArg,
        /// Print one JSON object (see README) instead of a table.
        #[arg(long)]
        json: bool,
        /// Run on your own input instead of the kata's cases: the kata's input as JSON, or
        /// `@FILE` to read it from a file (`@-`: standard input). Prints the input, the
        /// reference's answer, yours and the verdict. Not with `--mode`.
        #[arg(long, value_name = "INPUT_JSON_OR_@FILE", conflicts_with = "mode")]
        custom: Option<String>,
    },
}

/// The HTTP server's limits; unset ones keep their defaults.
#[derive(Debug, Args)]
pub struct EdgeArgs {
    /// Connections open at once [default: three quarters of the open-file limit, 32–16384].
    #[arg(long, env = "INFRAKATA_MAX_CONNECTIONS")]
    pub max_connections: Option<usize>,
    /// Seconds a client has to send a request's headers (also how long an idle keep-alive
    /// connection is kept) [default: 10].
    #[arg(long, env = "INFRAKATA_HEADER_READ_TIMEOUT", value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub header_read_timeout: Option<u64>,
    /// Seconds a connection may go without a byte moving either way [default: 60].
    #[arg(long, env = "INFRAKATA_IDLE_TIMEOUT", value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    Run,
    Submit,
}

impl From<ModeArg> for katas::Mode {
    fn from(m: ModeArg) -> Self {
        match m {
            ModeArg::Run => Self::Run,
            ModeArg::Submit => Self::Submit,
        }
    }
}

fn parse_lang(s: &str) -> Result<katas::Lang, String> {
    s.parse()
        .map_err(|e: katas::lang::UnknownLang| e.to_string())
}

#[derive(Debug, Subcommand)]
pub enum KataCommand {
    /// List every kata in catalogue order.
    List,
    /// Print a kata's statement.
    Show {
        slug: String,
        /// Also print the hints.
        #[arg(long)]
        hints: bool,
        /// Also print the concept notes.
        #[arg(long)]
        concept: bool,
        /// The statement's language: `en` or `zh` (also `zh-CN` and other tags).
        #[arg(long, default_value = "en", value_parser = parse_lang)]
        lang: katas::Lang,
    },
    /// Copy a kata's starter into your workspace; prints the file's path on the last line.
    Start {
        slug: String,
        /// Replace an existing solution file (your work in it is lost).
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        workspace: WorkspaceDir,
    },
    /// Check a kata package: files complete, reference passes, every wrong solution rejected as marked.
    Check {
        /// A kata under the problems folder, or the folder of a stdin/stdout kata's package
        /// (checked in the sandbox, its input validators included).
        slug: String,
        #[command(flatten)]
        problems: ProblemsDir,
    },
    /// Scaffold a new kata package that `kata check` reports as incomplete until filled in.
    New {
        slug: String,
        /// A data-only kata: the signature, checker and cases as data, no `kata.rs`.
        #[arg(long, conflicts_with = "io")]
        data: bool,
        /// A stdin/stdout kata: a whole program, cases as `.in`/`.ans` files, no trusted Rust.
        #[arg(long)]
        io: bool,
        #[command(flatten)]
        problems: ProblemsDir,
    },
    /// Import the Kattis problem package in DIR (legacy, 2023-07-draft or 2025-09) as a
    /// stdin/stdout kata package OUT/<slug>; prints what was imported; exits 1 when refused.
    Import {
        dir: std::path::PathBuf,
        /// The folder the package is written into (as `<out>/<slug>`; never overwritten).
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Export the stdin/stdout kata package DIR (a folder, or a slug under the problems folder)
    /// as a Kattis package (2025-09) into OUT
    /// (created; never overwritten): problem.yaml, the statement, data, validators, and the
    /// Rust solutions under submissions/.
    Export {
        /// The package's folder, or its slug under the problems folder.
        dir: std::path::PathBuf,
        out: std::path::PathBuf,
        #[command(flatten)]
        problems: ProblemsDir,
    },
    /// Publish the package in DIR to a running service (an instructor's or admin's API token):
    /// prints the verification table and the live version; exits 1 when the package is refused.
    Publish {
        dir: std::path::PathBuf,
        #[command(flatten)]
        service: Service,
        /// The kata to publish as; defaults to the slug in DIR/kata.toml.
        #[arg(long)]
        slug: Option<String>,
        /// Publish it unlisted: only instructors and admins see it (a preview, as a learner
        /// would) until it is listed on `/admin/katas/{slug}`. Otherwise a new version keeps the
        /// kata's availability, and a new kata is listed.
        #[arg(long)]
        unlisted: bool,
        /// Publish it as a candidate: stored but not live, to rejudge past submissions against
        /// (`POST /api/katas/{slug}/rejudges`) or make live later.
        #[arg(long)]
        candidate: bool,
        /// The language of the report: `en` or `zh`.
        #[arg(long, default_value = "en", value_parser = parse_lang)]
        lang: katas::Lang,
    },
    /// Grade a kata's accepted submits (or, with --all, every graded one) again against a
    /// candidate version on a running service, without touching them; waits until each is
    /// graded and prints which verdicts and first failing cases would change.
    Rejudge {
        slug: String,
        /// The candidate version (one stored on the service: `kata publish --candidate`).
        #[arg(long)]
        version: i64,
        /// Every graded submit, not only the accepted ones.
        #[arg(long)]
        all: bool,
        #[command(flatten)]
        service: Service,
        /// The language of the report: `en` or `zh`.
        #[arg(long, default_value = "en", value_parser = parse_lang)]
        lang: katas::Lang,
    },
    /// Make a stored version the one learners are served on a running service: a candidate
    /// after its rejudge, or an earlier version to roll back to.
    Live {
        slug: String,
        #[arg(long)]
        version: i64,
        #[command(flatten)]
        service: Service,
    },
}

/// A running service and an instructor's or admin's API token.
#[derive(Debug, clap::Args)]
pub struct Service {
    /// The service's base URL, e.g. `http://127.0.0.1:8080`.
    #[arg(long, env = "INFRAKATA_SERVER")]
    pub server: String,
    /// An instructor's or admin's API token (`infrakata user add NAME --role instructor`).
    #[arg(long, env = "INFRAKATA_TOKEN", hide_env_values = true)]
    pub token: String,
}

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Create an account; prints a new API token on the last line.
    Add {
        name: String,
        #[arg(long, value_enum, default_value_t = RoleArg::Learner)]
        role: RoleArg,
        /// Read a password for logging in to the web pages from the first line of stdin.
        #[arg(long)]
        password_stdin: bool,
        #[command(flatten)]
        db: DbPath,
    },
    /// List the accounts: name, role, when created, how many API tokens.
    List {
        #[command(flatten)]
        db: DbPath,
    },
    /// Set an account's web password and end its browser sessions; without --password-stdin a
    /// random password is generated and printed on the last line.
    Passwd {
        name: String,
        /// Read the new password from the first line of stdin.
        #[arg(long)]
        password_stdin: bool,
        #[command(flatten)]
        db: DbPath,
    },
    /// Revoke every API token and browser session of an account (it keeps its password).
    Revoke {
        name: String,
        #[command(flatten)]
        db: DbPath,
    },
    /// Delete an account with its tokens, sessions and submissions.
    Delete {
        name: String,
        #[command(flatten)]
        db: DbPath,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RoleArg {
    Learner,
    Instructor,
    Admin,
}

#[derive(Debug, Args)]
pub struct DbPath {
    /// The database: a SQLite file path (created and migrated if missing) or a
    /// `postgres://user:password@host/dbname` URL shared by every replica.
    #[arg(long = "db", env = "INFRAKATA_DB", default_value = "infrakata.db",
          value_parser = parse_location)]
    pub path: Location,
}

fn parse_location(s: &str) -> Result<Location, std::convert::Infallible> {
    Ok(Location::parse(s))
}

#[derive(Debug, Args)]
pub struct WorkspaceDir {
    /// Where learner solutions live; `cargo test -p katas` checks the files in the default one.
    #[arg(long, env = "INFRAKATA_WORKSPACE", default_value_os_t = default_dir("workspace"))]
    pub workspace: PathBuf,
}

#[derive(Debug, Args)]
pub struct ProblemsDir {
    /// The folder holding one sub-folder per kata package.
    #[arg(long, env = "INFRAKATA_PROBLEMS", default_value_os_t = default_dir("problems"))]
    pub problems_dir: PathBuf,
}

fn default_dir(name: &str) -> PathBuf {
    PathBuf::from(katas::CRATE_DIR).join(name)
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct DrillArgs {
    #[command(subcommand)]
    pub command: Option<DrillCommand>,
    /// A drill set (`python-gil`), or a tag or kata slug that items carry; all sets if omitted.
    pub topic: Option<String>,
    /// How many items to ask.
    #[arg(long, default_value_t = 5)]
    pub count: usize,
    /// Seed for picking items, drawing parameters and shuffling options (random if omitted).
    #[arg(long)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub lang: LangArg,
}

#[derive(Debug, Args)]
pub struct LangArg {
    /// Language of prompts and feedback.
    #[arg(long, env = "INFRAKATA_LANG", value_enum, default_value_t = Lang::En)]
    pub lang: Lang,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Lang {
    En,
    Zh,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::Zh => "zh",
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum DrillCommand {
    /// Each concept question of the bank with its drill set and item count.
    List {
        #[command(flatten)]
        lang: LangArg,
    },
    /// Validate a folder of drill sets (`<set>/set.toml`) with the build's rules.
    Check {
        #[arg(default_value_os_t = katas_drills::default_dir())]
        dir: PathBuf,
    },
}
