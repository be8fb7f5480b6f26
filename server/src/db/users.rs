//! Accounts and API tokens. Tokens are shown once and stored only as SHA-256 digests.

use super::{Db, now_ms};
use crate::domain::UserId;
use sha2::{Digest, Sha256};

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Learner,
    Instructor,
    Admin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Learner => "learner",
            Self::Instructor => "instructor",
            Self::Admin => "admin",
        }
    }

    /// Instructors and admins: they see the admin pages and unlisted katas; learners do not.
    pub fn is_staff(self) -> bool {
        matches!(self, Self::Instructor | Self::Admin)
    }

    pub fn parse(s: &str) -> Option<Self> {
        [Self::Learner, Self::Instructor, Self::Admin]
            .into_iter()
            .find(|r| r.as_str() == s)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: UserId,
    pub name: String,
    pub role: Role,
}

#[derive(Debug, thiserror::Error)]
pub enum UserError {
    #[error("a user named `{0}` already exists")]
    Taken(String),
    #[error("user names are 1–40 letters, digits, `-`, `_` or `.`")]
    BadName,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

pub fn valid_name(name: &str) -> bool {
    (1..=40).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

pub async fn create(
    db: &Db,
    name: &str,
    role: Role,
    password_hash: Option<&str>,
) -> Result<User, UserError> {
    if !valid_name(name) {
        return Err(UserError::BadName);
    }
    let id = sqlx::query_scalar::<_, UserId>(
        "INSERT INTO users (name, password_hash, role, created_at) VALUES ($1, $2, $3, $4) RETURNING id",
    )
    .bind(name)
    .bind(password_hash)
    .bind(role.as_str())
    .bind(now_ms())
    .fetch_one(db)
    .await
    .map_err(|e| match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => UserError::Taken(name.to_string()),
        _ => UserError::Db(e),
    })?;
    Ok(User {
        id,
        name: name.to_string(),
        role,
    })
}

/// A fresh random secret, hex-encoded, with a prefix that makes leaked tokens easy to spot.
pub fn random_secret(prefix: &str) -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the OS random source works");
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("{prefix}{hex}")
}

pub fn sha256_hex(secret: &str) -> String {
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Creates an API token for `user_id` and returns it (the only time it is visible).
pub async fn issue_token(db: &Db, user_id: UserId) -> Result<String, sqlx::Error> {
    let token = random_secret("ik_");
    sqlx::query("INSERT INTO api_tokens (user_id, token_sha256, created_at) VALUES ($1, $2, $3)")
        .bind(user_id)
        .bind(sha256_hex(&token))
        .bind(now_ms())
        .execute(db)
        .await?;
    Ok(token)
}

/// The user a token belongs to. Looked up by digest, so the comparison never touches the secret.
pub async fn by_token(db: &Db, token: &str) -> Result<Option<User>, sqlx::Error> {
    let row: Option<(UserId, String, String)> = sqlx::query_as(
        "SELECT u.id, u.name, u.role FROM api_tokens t JOIN users u ON u.id = t.user_id
         WHERE t.token_sha256 = $1",
    )
    .bind(sha256_hex(token))
    .fetch_optional(db)
    .await?;
    Ok(row.and_then(|(id, name, role)| {
        Some(User {
            id,
            name,
            role: Role::parse(&role)?,
        })
    }))
}

/// A user and their password hash (`None` for accounts made by `user add`, which have none).
pub async fn by_name_with_hash(
    db: &Db,
    name: &str,
) -> Result<Option<(User, Option<String>)>, sqlx::Error> {
    let row: Option<(UserId, String, String, Option<String>)> =
        sqlx::query_as("SELECT id, name, role, password_hash FROM users WHERE name = $1")
            .bind(name)
            .fetch_optional(db)
            .await?;
    Ok(row.and_then(|(id, name, role, hash)| {
        Some((
            User {
                id,
                name,
                role: Role::parse(&role)?,
            },
            hash,
        ))
    }))
}

/// Saves the page language a user chose.
pub async fn set_lang(db: &Db, id: UserId, lang: katas::Lang) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET lang = $1 WHERE id = $2")
        .bind(lang.as_str())
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

pub async fn name_of(db: &Db, id: UserId) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT name FROM users WHERE id = $1")
        .bind(id)
        .fetch_optional(db)
        .await
}

/// Whether user `id` is an instructor or admin (`false` for no such user).
pub async fn is_staff(db: &Db, id: UserId) -> Result<bool, sqlx::Error> {
    let role: Option<String> = sqlx::query_scalar("SELECT role FROM users WHERE id = $1")
        .bind(id)
        .fetch_optional(db)
        .await?;
    Ok(role
        .as_deref()
        .and_then(Role::parse)
        .is_some_and(Role::is_staff))
}

/// An account as `infrakata user list` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub name: String,
    pub role: String,
    pub created_at: i64,
    pub tokens: i64,
    pub has_password: bool,
}

pub async fn list(db: &Db) -> Result<Vec<Account>, sqlx::Error> {
    let rows: Vec<(String, String, i64, i64, i64)> = sqlx::query_as(
        "SELECT u.name, u.role, u.created_at,
                (SELECT COUNT(*) FROM api_tokens t WHERE t.user_id = u.id),
                CASE WHEN u.password_hash IS NOT NULL THEN 1 ELSE 0 END
         FROM users u ORDER BY u.name",
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(name, role, created_at, tokens, has_password)| Account {
            name,
            role,
            created_at,
            tokens,
            has_password: has_password != 0,
        })
        .collect())
}

pub async fn id_of(db: &Db, name: &str) -> Result<Option<UserId>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM users WHERE name = $1")
        .bind(name)
        .fetch_optional(db)
        .await
}

/// Sets a user's password hash and ends their browser sessions (whoever knew the old password
/// is logged out); returns how many sessions ended.
pub async fn set_password(db: &Db, user_id: UserId, hash: &str) -> Result<u64, sqlx::Error> {
    let mut tx = db.begin().await?;
    sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
        .bind(hash)
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    let sessions = sqlx::query("DELETE FROM sessions WHERE user_id = $1")
        .bind(user_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    tx.commit().await?;
    Ok(sessions)
}

/// What a revocation or deletion removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Removed {
    pub tokens: u64,
    pub sessions: u64,
    pub submissions: u64,
}

/// Deletes every API token and session of a user.
pub async fn revoke(db: &Db, user_id: UserId) -> Result<Removed, sqlx::Error> {
    let mut tx = db.begin().await?;
    let removed = revoke_in(&mut tx, user_id).await?;
    tx.commit().await?;
    Ok(removed)
}

async fn revoke_in(tx: &mut super::Tx<'_>, user_id: UserId) -> Result<Removed, sqlx::Error> {
    let tokens = sqlx::query("DELETE FROM api_tokens WHERE user_id = $1")
        .bind(user_id)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    let sessions = sqlx::query("DELETE FROM sessions WHERE user_id = $1")
        .bind(user_id)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    Ok(Removed {
        tokens,
        sessions,
        submissions: 0,
    })
}

/// Deletes a user with their tokens, sessions and submissions (whose case results and jobs go
/// with them), in one transaction: nothing is left pointing at the missing user. A worker still
/// grading one of those submissions finds its lease gone and its result is refused.
pub async fn delete(db: &Db, user_id: UserId) -> Result<Removed, sqlx::Error> {
    let mut tx = db.begin().await?;
    let mut removed = revoke_in(&mut tx, user_id).await?;
    removed.submissions = sqlx::query("DELETE FROM submissions WHERE user_id = $1")
        .bind(user_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    sqlx::query("DELETE FROM users WHERE id = $1")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(removed)
}
