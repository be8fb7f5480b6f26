//! `infrakata user add|list|passwd|revoke|delete`: account administration on the database file.
//! `add` prints the new account's API token on the last line; with a password the account can
//! also log in to the web pages.

use crate::cli::{RoleArg, UserCommand};
use crate::db::Location;
use crate::db::{self, Db, users};
use crate::domain::UserId;
use crate::password;
use anyhow::Context as _;
use std::process::ExitCode;

pub fn run(cmd: UserCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        UserCommand::Add {
            name,
            role,
            password_stdin,
            db,
        } => {
            let hash = if password_stdin {
                Some(password::hash(&password_from_stdin()?)?)
            } else {
                None
            };
            with_db(&db.path, async move |pool| {
                add(pool, &name, role, hash).await
            })
        }
        UserCommand::List { db } => with_db(&db.path, list),
        UserCommand::Passwd {
            name,
            password_stdin,
            db,
        } => {
            let (pw, generated) = if password_stdin {
                (password_from_stdin()?, false)
            } else {
                // Long enough that guessing is hopeless; the hex is easy to read out.
                (users::random_secret("")[..24].to_string(), true)
            };
            let hash = password::hash(&pw)?;
            with_db(&db.path, async move |pool| {
                let id = existing(pool, &name).await?;
                let sessions = users::set_password(pool, id, &hash).await?;
                println!("set the password of `{name}`; ended {sessions} browser session(s)");
                if generated {
                    println!("new password:");
                    println!("{pw}");
                }
                Ok(())
            })
        }
        UserCommand::Revoke { name, db } => with_db(&db.path, async move |pool| {
            let id = existing(pool, &name).await?;
            let r = users::revoke(pool, id).await?;
            println!(
                "revoked {} API token(s) and {} browser session(s) of `{name}`",
                r.tokens, r.sessions
            );
            Ok(())
        }),
        UserCommand::Delete { name, db } => with_db(&db.path, async move |pool| {
            let id = existing(pool, &name).await?;
            let r = users::delete(pool, id).await?;
            println!(
                "deleted `{name}` with {} submission(s), {} API token(s) and {} browser session(s)",
                r.submissions, r.tokens, r.sessions
            );
            Ok(())
        }),
    }
}

/// Opens (and migrates) the database, then runs `f` on it.
fn with_db(
    location: &Location,
    f: impl AsyncFnOnce(&Db) -> anyhow::Result<()>,
) -> anyhow::Result<ExitCode> {
    super::runtime()?.block_on(async move {
        let pool = db::open(location.clone())
            .await
            .with_context(|| format!("opening {location}"))?;
        f(&pool).await?;
        Ok(ExitCode::SUCCESS)
    })
}

/// The first line of stdin, checked against the password length limits.
fn password_from_stdin() -> anyhow::Result<String> {
    let mut line = String::new();
    std::io::stdin().read_line(&mut line)?;
    let pw = line.trim_end_matches(['\r', '\n']);
    anyhow::ensure!(
        (password::MIN_LEN..=password::MAX_LEN).contains(&pw.len()),
        "the password must be {} to {} bytes",
        password::MIN_LEN,
        password::MAX_LEN
    );
    Ok(pw.to_string())
}

async fn existing(pool: &Db, name: &str) -> anyhow::Result<UserId> {
    users::id_of(pool, name)
        .await?
        .with_context(|| format!("no user named `{name}` (see `infrakata user list`)"))
}

async fn add(pool: &Db, name: &str, role: RoleArg, hash: Option<String>) -> anyhow::Result<()> {
    let role = match role {
        RoleArg::Learner => users::Role::Learner,
        RoleArg::Instructor => users::Role::Instructor,
        RoleArg::Admin => users::Role::Admin,
    };
    let user = users::create(pool, name, role, hash.as_deref()).await?;
    let token = users::issue_token(pool, user.id).await?;
    println!(
        "created {} `{}` (id {}); API token:",
        role.as_str(),
        user.name,
        user.id
    );
    println!("{token}");
    Ok(())
}

async fn list(pool: &Db) -> anyhow::Result<()> {
    let accounts = users::list(pool).await?;
    if accounts.is_empty() {
        println!("no accounts yet: `infrakata user add NAME`");
        return Ok(());
    }
    let rows: Vec<Vec<String>> = accounts
        .into_iter()
        .map(|a| {
            vec![
                a.name,
                a.role,
                crate::pages::view::datetime(a.created_at),
                a.tokens.to_string(),
                if a.has_password { "yes" } else { "no" }.to_string(),
            ]
        })
        .collect();
    print!(
        "{}",
        crate::table::render(&["name", "role", "created", "tokens", "password"], &rows)
    );
    Ok(())
}
