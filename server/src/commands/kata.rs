//! `infrakata kata ...`: the learner's and the instructor's local workflow.

use crate::cli::KataCommand;
use crate::table;
use anyhow::{Context as _, bail};
use katas::builtin;
use katas::lint::{self, Finding};
use katas::statement::heading;
use katas::{Kata, Lang};
use std::io::IsTerminal as _;
use std::path::Path;
use std::process::ExitCode;

pub fn run(cmd: KataCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        KataCommand::List => list(),
        KataCommand::Show {
            slug,
            hints,
            concept,
            lang,
        } => show(&slug, hints, concept, lang),
        KataCommand::Start {
            slug,
            force,
            workspace,
        } => start(&slug, force, &workspace.workspace),
        KataCommand::Check { slug, problems } => check(&slug, &problems.problems_dir),
        KataCommand::New {
            slug,
            data,
            io,
            problems,
        } => new(&slug, data, io, &problems.problems_dir),
        KataCommand::Import { dir, out } => super::import::run(&dir, &out),
        KataCommand::Export { dir, out, problems } => {
            // A slug names a package under the problems folder; anything else is a folder.
            let under = problems.problems_dir.join(&dir);
            let dir = if dir.is_dir() || !under.is_dir() {
                dir
            } else {
                under
            };
            super::import::export(&dir, &out)
        }
        KataCommand::Publish {
            dir,
            service,
            slug,
            unlisted,
            candidate,
            lang,
        } => super::publish::run(
            &dir,
            &service,
            slug,
            crate::services::publishing::Placement {
                unlisted,
                candidate,
            },
            lang,
        ),
        KataCommand::Rejudge {
            slug,
            version,
            all,
            service,
            lang,
        } => super::versions::rejudge(&slug, version, all, &service, lang),
        KataCommand::Live {
            slug,
            version,
            service,
        } => super::versions::make_live(&slug, version, &service),
    }
}

fn find(slug: &str) -> anyhow::Result<&'static dyn Kata> {
    builtin::find(slug)
        .with_context(|| format!("unknown kata `{slug}`; `infrakata kata list` shows them all"))
}

fn list() -> anyhow::Result<ExitCode> {
    let rows: Vec<Vec<String>> = builtin::all()
        .iter()
        .map(|k| {
            let m = k.meta();
            vec![
                m.slug.clone(),
                m.title.clone(),
                m.difficulty.as_str().to_string(),
                m.kind.as_str().to_string(),
                m.topics.join(", "),
            ]
        })
        .collect();
    print!(
        "{}",
        table::render(&["slug", "title", "difficulty", "kind", "topics"], &rows)
    );
    Ok(ExitCode::SUCCESS)
}

fn show(slug: &str, hints: bool, concept: bool, lang: Lang) -> anyhow::Result<ExitCode> {
    let kata = find(slug)?;
    let statement = kata.statement_in(lang);
    let words = ShowWords::of(lang);
    let mut text = statement.public_markdown();
    if hints {
        text.push_str(&format!("## {}\n\n", heading("Hints", lang)));
        for (i, hint) in statement.hints().iter().enumerate() {
            text.push_str(&format!("{}. {hint}\n", i + 1));
        }
        text.push('\n');
    } else {
        let n = statement.hints().len();
        let flag = match lang {
            Lang::En => String::new(),
            other => format!(" --lang {other}"),
        };
        text.push_str(&format!(
            "*{}: `infrakata kata show {slug}{flag} --hints`*\n\n",
            (words.hints)(n)
        ));
    }
    if concept {
        text.push_str(&format!(
            "## {}\n\n{}\n",
            heading("Concept", lang),
            statement.concept().unwrap_or_default()
        ));
    }
    text.push_str(&format!(
        "*{}: `infrakata kata start {slug}`*\n",
        words.start
    ));
    if std::io::stdout().is_terminal() {
        termimad::print_text(&text);
    } else {
        print!("{text}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The few words `kata show` adds around a statement, per language.
struct ShowWords {
    hints: fn(usize) -> String,
    start: &'static str,
}

impl ShowWords {
    fn of(lang: Lang) -> Self {
        match lang {
            Lang::En => Self {
                hints: |n| format!("{n} hints"),
                start: "Start",
            },
            Lang::Zh => Self {
                hints: |n| format!("共 {n} 条提示"),
                start: "开始",
            },
        }
    }
}

fn start(slug: &str, force: bool, workspace: &Path) -> anyhow::Result<ExitCode> {
    let kata = find(slug)?;
    std::fs::create_dir_all(workspace)
        .with_context(|| format!("creating the workspace {}", workspace.display()))?;
    let path = workspace.join(format!("{slug}.rs"));
    if path.exists() && !force {
        bail!(
            "{} already exists; keep working in it, or pass --force to start over (your edits there are lost)",
            path.display()
        );
    }
    std::fs::write(&path, kata.package().starter)
        .with_context(|| format!("writing {}", path.display()))?;
    println!("Started `{slug}`. Edit the file below, then run `cargo test -p katas {slug}`.");
    println!("{}", path.display());
    Ok(ExitCode::SUCCESS)
}

fn new(slug: &str, data: bool, io: bool, problems_dir: &Path) -> anyhow::Result<ExitCode> {
    let template = match (data, io) {
        (true, _) => katas::scaffold::Template::Data,
        (_, true) => katas::scaffold::Template::Io,
        _ => katas::scaffold::Template::Written,
    };
    let dir = katas::scaffold::create(problems_dir, slug, template)?;
    println!(
        "Scaffolded `{slug}`. Fill in every TODO(instructor), add at least 3 wrong/ solutions,"
    );
    if io {
        println!(
            "add cases under data/, then `infrakata kata check {}` until it reports the package complete.",
            dir.display()
        );
    } else {
        println!(
            "then `cargo run -p server -- kata check {slug}` until it reports the package complete."
        );
    }
    println!("{}", dir.display());
    Ok(ExitCode::SUCCESS)
}

/// One row of the `kata check` table.
pub(super) struct Row {
    pub(super) part: String,
    pub(super) expected: String,
    pub(super) got: String,
    pub(super) ok: bool,
}

fn check(slug: &str, problems_dir: &Path) -> anyhow::Result<ExitCode> {
    if let Some(dir) = super::io_kata::package_dir(slug) {
        return super::io_kata::check(dir);
    }
    // A folder named as it is (`kata check ./my-kata`), else a package of the checkout's.
    let named = Path::new(slug);
    let dir = if named.join(katas::layout::META_FILE).is_file() {
        named.to_path_buf()
    } else {
        problems_dir.join(slug)
    };
    if let Some(dir) = dir.to_str().and_then(super::io_kata::package_dir) {
        return super::io_kata::check(dir);
    }
    if !dir.is_dir() {
        bail!("no kata package at {}", dir.display());
    }
    let mut rows: Vec<Row> = Vec::new();
    let findings = lint::lint(&dir);
    rows.push(Row {
        part: "package files".into(),
        expected: "complete".into(),
        got: if findings.is_empty() {
            "complete".into()
        } else {
            format!("{} problems", findings.len())
        },
        ok: findings.is_empty(),
    });
    // Built from its own files and run in the sandbox, as the service verifies a published
    // version — a kata of the build too: this binary holds no kata's code.
    rows.extend(super::package_kata::solution_rows(&dir)?);

    let complete = print_check(&rows, &findings, slug);
    Ok(if complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The `kata check` table, what is left to complete, and the last line naming the package `name` complete or not; whether it is complete. Shared by function
/// and stdin/stdout packages.
pub(super) fn print_check(rows: &[Row], findings: &[Finding], name: &str) -> bool {
    let table_rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.part.clone(),
                r.expected.clone(),
                r.got.clone(),
                if r.ok { "ok" } else { "FAIL" }.into(),
            ]
        })
        .collect();
    print!(
        "{}",
        table::render(&["check", "expected", "got", ""], &table_rows)
    );
    print_findings(findings);
    let complete = rows.iter().all(|r| r.ok);
    println!(
        "\n{name}: {}",
        if complete {
            "package complete"
        } else {
            "package incomplete"
        }
    );
    complete
}

fn print_findings(findings: &[Finding]) {
    if findings.is_empty() {
        return;
    }
    println!("\nTo complete the package:");
    for f in findings {
        println!("  {}: {}", f.file, f.problem);
    }
}
