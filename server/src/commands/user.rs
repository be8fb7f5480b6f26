//! `infrakata user add NAME --role ROLE`: prints the new account's API token on the last line.

use crate::cli::{RoleArg, UserCommand};
use crate::db::{self, users};
use anyhow::Context as _;
use std::process::ExitCode;

pub fn run(cmd: UserCommand) -> anyhow::Result<ExitCode> {
    let UserCommand::Add { name, role, db } = cmd;
    let role = match role {
        RoleArg::Learner => users::Role::Learner,
        RoleArg::Instructor => users::Role::Instructor,
        RoleArg::Admin => users::Role::Admin,
    };
    super::runtime()?.block_on(async move {
        let pool = db::open(&db.path)
            .await
            .with_context(|| format!("opening {}", db.path.display()))?;
        let user = users::create(&pool, &name, role, None).await?;
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
