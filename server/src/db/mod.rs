//! Storage: one SQLite file (the default: nothing to run) or one PostgreSQL database shared by
//! every replica. Everything above this module sees one pool type and one set of queries
//! (sqlx's `Any` driver; `$1` placeholders, which both backends accept); the few statements
//! whose SQL differs ask [`dialect`]. Migrations: `migrations/sqlite/` and
//! `migrations/postgres/`, applied at start-up (on PostgreSQL under sqlx's advisory lock, so
//! replicas starting together apply them once).

pub mod allowance;
pub mod drafts;
pub mod drills;
pub mod interviews;
pub mod jobs;
pub mod kata_availability;
pub mod kata_packages;
pub mod kata_stats;
pub mod kata_uploads;
pub mod kata_versions;
pub mod katas;
pub mod login_failures;
pub mod package_checks;
pub mod progress;
pub mod queue_state;
pub mod rejudges;
pub mod review;
pub mod served;
pub mod sessions;
pub mod submissions;
pub mod users;
pub mod workers;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode};
use sqlx::{ConnectOptions as _, Connection as _, Executor as _};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr as _;
use std::time::Duration;
use url::Url;

pub type Db = sqlx::AnyPool;
/// A transaction on either backend.
pub type Tx<'c> = sqlx::Transaction<'c, sqlx::Any>;

/// Where the data lives, as `--db` / `INFRAKATA_DB` says it.
#[derive(Clone, PartialEq, Eq)]
pub enum Location {
    /// A file path (created if missing).
    Sqlite(PathBuf),
    /// A `postgres://` (or `postgresql://`) URL.
    Postgres(String),
}

impl Location {
    pub fn parse(s: &str) -> Self {
        if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            Self::Postgres(s.to_string())
        } else {
            Self::Sqlite(PathBuf::from(s))
        }
    }
}

impl From<&Path> for Location {
    fn from(p: &Path) -> Self {
        Self::Sqlite(p.to_path_buf())
    }
}

impl From<PathBuf> for Location {
    fn from(p: PathBuf) -> Self {
        Self::Sqlite(p)
    }
}

/// Shown in logs and errors: a URL's password never is.
impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Sqlite(p) => write!(f, "{}", p.display()),
            Self::Postgres(url) => f.write_str(&redacted(url)),
        }
    }
}

/// The URL with its password (in the user info or a `password=` parameter) replaced by `***`;
/// anything with no password to hide comes back exactly as given.
fn redacted(location: &str) -> String {
    let mut url = match Url::parse(location) {
        Ok(url) => url,
        // A path is not a URL and holds no password; a string with a scheme that `url` cannot
        // read might, and which part is the password is then anyone's guess.
        Err(_) if !location.contains("://") => return location.to_string(),
        Err(_) => return hidden(location),
    };
    let in_user_info = url.password().is_some();
    let in_query = url.query_pairs().any(|(k, _)| k == "password");
    if !in_user_info && !in_query {
        // Serialising re-encodes; what needs no redaction is shown as the operator wrote it.
        return location.to_string();
    }
    if in_user_info && url.set_password(Some("***")).is_err() {
        return hidden(location);
    }
    if in_query {
        let query = url.query().unwrap_or_default().to_string();
        url.set_query(Some(&redact_password_parameter(&query)));
    }
    url.into()
}

/// A URL whose password cannot be told apart from the rest: only its scheme is shown.
fn hidden(location: &str) -> String {
    let scheme = location.split_once("://").map_or("", |(s, _)| s);
    format!("{scheme}://(not a valid URL; hidden in case it holds a password)")
}

/// Every `password=` pair of a query string replaced by `password=***`, the others untouched
/// (`query_pairs_mut` would re-encode them all).
fn redact_password_parameter(query: &str) -> String {
    query
        .split('&')
        .map(|pair| {
            let key = pair.split_once('=').map_or(pair, |(k, _)| k);
            let decoded = url::form_urlencoded::parse(key.as_bytes()).next();
            match decoded {
                Some((k, _)) if k == "password" => "password=***",
                _ => pair,
            }
        })
        .collect::<Vec<_>>()
        .join("&")
}

impl fmt::Debug for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Location({self})")
    }
}

/// The SQL family of a pool, for the few statements written twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

pub fn dialect(db: &Db) -> Dialect {
    match db.connect_options().database_url.scheme() {
        "postgres" | "postgresql" => Dialect::Postgres,
        _ => Dialect::Sqlite,
    }
}

/// Opens (creating a SQLite file if needed) and migrates the database.
pub async fn open(location: impl Into<Location>) -> Result<Db, sqlx::Error> {
    sqlx::any::install_default_drivers();
    match location.into() {
        Location::Sqlite(path) => open_sqlite(&path).await,
        Location::Postgres(url) => {
            let db = AnyPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(Duration::from_secs(10))
                .connect(&url)
                .await?;
            sqlx::migrate!("../migrations/postgres").run(&db).await?;
            Ok(db)
        }
    }
}

async fn open_sqlite(path: &Path) -> Result<Db, sqlx::Error> {
    let native = SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .foreign_keys(true);
    // WAL is a property of the file: set once here, before the pool's connections open it.
    native.connect().await?.close().await?;
    let options = AnyConnectOptions::from_str(native.to_url_lossy().as_str())?;
    let db = AnyPoolOptions::new()
        .max_connections(8)
        .after_connect(|conn, _| {
            Box::pin(async move {
                // Per connection: these do not persist in the file.
                conn.execute("PRAGMA foreign_keys = ON").await?;
                conn.execute("PRAGMA busy_timeout = 10000").await?;
                conn.execute("PRAGMA synchronous = NORMAL").await?;
                Ok(())
            })
        })
        .connect_with(options)
        .await?;
    sqlx::migrate!("../migrations/sqlite").run(&db).await?;
    Ok(db)
}

/// Milliseconds since the Unix epoch: every timestamp column.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_parse_and_never_show_a_password() {
        assert_eq!(
            Location::parse("data/infrakata.db"),
            Location::Sqlite("data/infrakata.db".into())
        );
        let pg = Location::parse("postgres://kata:s3cret@db:5432/kata?sslmode=disable&password=x");
        assert!(matches!(pg, Location::Postgres(_)));
        let shown = pg.to_string();
        assert_eq!(
            shown,
            "postgres://kata:***@db:5432/kata?sslmode=disable&password=***"
        );
        assert!(!format!("{pg:?}").contains("s3cret"));
    }

    #[test]
    fn redaction_hides_passwords_and_leaves_the_rest_as_written() {
        let cases = [
            // No password: exactly as given, encoding included.
            (
                "postgres://kata@db/kata?options=-c%20search_path%3Dx",
                "postgres://kata@db/kata?options=-c%20search_path%3Dx",
            ),
            ("postgresql://db/kata", "postgresql://db/kata"),
            (
                "postgres:///kata?host=/run/pg",
                "postgres:///kata?host=/run/pg",
            ),
            ("postgres://kata:pw@db/kata", "postgres://kata:***@db/kata"),
            ("postgres://:pw@db", "postgres://:***@db"),
            // The last `@` ends the user info.
            (
                "postgres://kata:p@ss@db/kata",
                "postgres://kata:***@db/kata",
            ),
            (
                "postgres://kata@db/kata?user=kata&password=pw&sslmode=require",
                "postgres://kata@db/kata?user=kata&password=***&sslmode=require",
            ),
            // Not URLs: SQLite paths, untouched.
            ("data/infrakata.db", "data/infrakata.db"),
            (
                "/var/lib/infrakata/kata@host:1.db",
                "/var/lib/infrakata/kata@host:1.db",
            ),
            ("sqlite://data/infrakata.db", "sqlite://data/infrakata.db"),
        ];
        for (given, shown) in cases {
            assert_eq!(redacted(given), shown, "{given}");
        }
    }

    #[test]
    fn an_unreadable_url_is_hidden_whole() {
        let shown = redacted("postgres://kata:s3cret@db:99999/kata");
        assert!(!shown.contains("s3cret"), "{shown}");
        assert!(shown.starts_with("postgres://"), "{shown}");
    }
}
