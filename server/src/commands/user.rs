//! `infrakata user add NAME --role ROLE [--password-stdin]`: prints the new account's API token on
//! the last line; with a password the account can also log in to the web pages.

use crate::cli::{RoleArg, UserCommand};
use crate::db::{self, users};
use anyhow::Context as _;
use std::process::ExitCode;

pub fn run(cmd: UserCommand) -> anyhow::Result<ExitCode> {
    let UserCommand::Add {
        name,
        role,
        password_stdin,
        db,
    } = cmd;
    let hash = if password_stdin {
        let mut line = String::new();
        std::io::stdin().read_line(&mut line)?;
        let pw = line.trim_end_matches(['\r', '\n']);
        anyhow::ensure!(
            (crate::password::MIN_LEN..=crate::password::MAX_LEN).contains(&pw.len()),
            "the password must be {} to {} bytes",
            crate::password::MIN_LEN,
            crate::password::MAX_LEN
        );
        Some(crate::password::hash(pw)?)
    } else {
        None
    };
    let role = match role {
        RoleArg::Learner => users::Role::Learner,
        RoleArg::Instructor => users::Role::Instructor,
        RoleArg::Admin => users::Role::Admin,
    };
    super::runtime()?.block_on(async move {
        let pool = db::open(&db.path)
            .await
            .with_context(|| format!("opening {}", db.path.display()))?;
        let user = users::create(&pool, &name, role, hash.as_deref()).await?;
        let token = users::issue_token(&pool, user.id).await?;
        println!(
            "created {} `{}` (id {}); API token:",
            role.as_str(),
            user.name,
            user.id
        );
        println!("{token}");
        Ok(ExitCode::SUCCESS)
    })
}
