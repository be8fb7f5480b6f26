//! `infrakata user …`, run as the real binary against a fresh database file; the database is
//! then read through the library to see what the commands did.

use server::db::{self, users};
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn infrakata(db: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_infrakata"))
        .args(args)
        .arg("--db")
        .arg(db)
        .env_remove("INFRAKATA_DB")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().unwrap();
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).unwrap();
    }
    drop(input);
    child.wait_with_output().unwrap()
}

fn ok(out: Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn last_line(text: &str) -> String {
    text.lines().last().unwrap_or_default().to_string()
}

async fn open(path: &Path) -> db::Db {
    db::open(path).await.unwrap()
}

async fn count(pool: &db::Db, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(pool).await.unwrap()
}

#[tokio::test]
async fn list_passwd_revoke_and_delete_manage_accounts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("infrakata.db");

    let out = ok(infrakata(&path, &["user", "list"], None));
    assert!(out.contains("no accounts yet"), "{out}");

    let ada_token = last_line(&ok(infrakata(
        &path,
        &["user", "add", "ada", "--password-stdin"],
        Some("first password\n"),
    )));
    let bob_token = last_line(&ok(infrakata(
        &path,
        &["user", "add", "bob", "--role", "admin"],
        None,
    )));
    let pool = open(&path).await;
    let ada = users::by_token(&pool, &ada_token).await.unwrap().unwrap();
    let bob = users::by_token(&pool, &bob_token).await.unwrap().unwrap();
    users::issue_token(&pool, ada.id).await.unwrap();
    server::db::sessions::create(&pool, &ada).await.unwrap();
    server::db::sessions::create(&pool, &ada).await.unwrap();

    let out = ok(infrakata(&path, &["user", "list"], None));
    let row = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no row for {name}:\n{out}"))
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    assert!(out.starts_with("name"), "{out}");
    let ada_row = row("ada");
    assert_eq!(ada_row[1], "learner", "{out}");
    assert_eq!(ada_row[ada_row.len() - 2..], ["2", "yes"], "{out}");
    let bob_row = row("bob");
    assert_eq!(bob_row[1], "admin", "{out}");
    assert_eq!(bob_row[bob_row.len() - 2..], ["1", "no"], "{out}");
    assert!(ada_row[2].starts_with("20"), "a date: {out}");

    // A new password from stdin: the old one stops working, her sessions end.
    let out = ok(infrakata(
        &path,
        &["user", "passwd", "ada", "--password-stdin"],
        Some("second password\n"),
    ));
    assert!(out.contains("ended 2 browser session(s)"), "{out}");
    let hash = || async {
        users::by_name_with_hash(&pool, "ada")
            .await
            .unwrap()
            .unwrap()
            .1
            .unwrap()
    };
    assert!(server::password::verify(
        "second password",
        Some(&hash().await)
    ));
    assert!(!server::password::verify(
        "first password",
        Some(&hash().await)
    ));
    // Without stdin one is generated and printed last.
    let out = ok(infrakata(&path, &["user", "passwd", "ada"], None));
    let generated = last_line(&out);
    assert!(generated.len() >= 16, "{out}");
    assert!(server::password::verify(&generated, Some(&hash().await)));
    // Too short a password is refused, changing nothing.
    let short = infrakata(
        &path,
        &["user", "passwd", "ada", "--password-stdin"],
        Some("short\n"),
    );
    assert_eq!(short.status.code(), Some(2));
    assert!(server::password::verify(&generated, Some(&hash().await)));

    // Revoke: every token and session of ada, nothing of bob's.
    server::db::sessions::create(&pool, &ada).await.unwrap();
    let out = ok(infrakata(&path, &["user", "revoke", "ada"], None));
    assert!(
        out.contains("revoked 2 API token(s) and 1 browser session(s) of `ada`"),
        "{out}"
    );
    assert!(users::by_token(&pool, &ada_token).await.unwrap().is_none());
    assert!(users::by_token(&pool, &bob_token).await.unwrap().is_some());
    assert!(
        users::by_name_with_hash(&pool, "ada")
            .await
            .unwrap()
            .is_some(),
        "the account stays"
    );

    // Delete: ada with her submissions (and their jobs and case results); bob's stay.
    server::db::katas::sync(&pool).await.unwrap();
    for user in [&ada, &bob] {
        server::db::submissions::create(
            &pool,
            user.id,
            &server::domain::Slug::parse("fast-power").unwrap(),
            server::domain::JobKind::Cpu,
            katas::Mode::Run,
            "// x",
        )
        .await
        .unwrap();
    }
    users::issue_token(&pool, ada.id).await.unwrap();
    let out = ok(infrakata(&path, &["user", "delete", "ada"], None));
    assert!(
        out.contains("deleted `ada` with 1 submission(s), 1 API token(s) and 0 browser session(s)"),
        "{out}"
    );
    assert_eq!(count(&pool, "SELECT COUNT(*) FROM users").await, 1);
    assert_eq!(count(&pool, "SELECT COUNT(*) FROM submissions").await, 1);
    assert_eq!(count(&pool, "SELECT COUNT(*) FROM jobs").await, 1);
    assert_eq!(count(&pool, "SELECT COUNT(*) FROM api_tokens").await, 1);
    let dangling = count(&pool, "SELECT COUNT(*) FROM pragma_foreign_key_check").await;
    assert_eq!(dangling, 0, "no row points at a missing one");

    // Unknown names are a clear error (exit 2), for every command.
    for cmd in ["passwd", "revoke", "delete"] {
        let out = infrakata(&path, &["user", cmd, "ada"], Some("third password\n"));
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("no user named `ada`"), "{cmd}: {err}");
    }
}
