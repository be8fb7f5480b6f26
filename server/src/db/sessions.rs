//! Browser sessions. The cookie holds a random secret; the table holds only its SHA-256 digest
//! (a leaked database does not log anyone in), the user, the session's CSRF token and an expiry.

use super::users::{Role, User, random_secret, sha256_hex};
use super::{Db, now_ms};
use crate::domain::UserId;

/// How long a session lasts after logging in.
pub const LIFETIME_MS: i64 = 14 * 24 * 3600 * 1000;

/// A live session: who it belongs to, the token its forms and API calls must echo, and the
/// page language the user saved (if any).
#[derive(Debug, Clone)]
pub struct Session {
    pub user: User,
    pub csrf: String,
    pub lang: Option<katas::Lang>,
}

/// Live sessions one user may hold: each log-in stores a row, so the oldest beyond this go (that
/// device logs in again) rather than a log-in with the right password being refused.
pub const MAX_PER_USER: i64 = 20;

/// A new session for `user_id`; returns the cookie secret (never stored) and the session.
pub async fn create(db: &Db, user: &User) -> Result<(String, Session), sqlx::Error> {
    let secret = random_secret("s_");
    let digest = sha256_hex(&secret);
    let csrf = random_secret("");
    let mut tx = db.begin().await?;
    sqlx::query(
        "INSERT INTO sessions (id_sha256, user_id, csrf_token, expires_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(&digest)
    .bind(user.id)
    .bind(&csrf)
    .bind(now_ms() + LIFETIME_MS)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "DELETE FROM sessions WHERE user_id = $1 AND id_sha256 <> $2 AND id_sha256 NOT IN (
           SELECT id_sha256 FROM sessions WHERE user_id = $1 AND id_sha256 <> $2
           ORDER BY expires_at DESC LIMIT $3)",
    )
    .bind(user.id)
    .bind(&digest)
    .bind(MAX_PER_USER - 1)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok((
        secret,
        Session {
            user: user.clone(),
            csrf,
            lang: None,
        },
    ))
}

/// The unexpired session a cookie secret names.
pub async fn find(db: &Db, secret: &str) -> Result<Option<Session>, sqlx::Error> {
    let row: Option<(UserId, String, String, String, Option<String>)> = sqlx::query_as(
        "SELECT u.id, u.name, u.role, s.csrf_token, u.lang FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.id_sha256 = $1 AND s.expires_at > $2",
    )
    .bind(sha256_hex(secret))
    .bind(now_ms())
    .fetch_optional(db)
    .await?;
    Ok(row.and_then(|(id, name, role, csrf, lang)| {
        Some(Session {
            user: User {
                id,
                name,
                role: Role::parse(&role)?,
            },
            csrf,
            lang: lang.as_deref().and_then(katas::Lang::from_tag),
        })
    }))
}

/// Ends a session (log out); also sweeps expired ones.
pub async fn delete(db: &Db, secret: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sessions WHERE id_sha256 = $1 OR expires_at <= $2")
        .bind(sha256_hex(secret))
        .bind(now_ms())
        .execute(db)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::users::Role;

    #[tokio::test]
    async fn a_user_holds_at_most_the_newest_sessions() {
        let dir = tempfile::tempdir().unwrap();
        let db = crate::db::open(dir.path().join("t.sqlite")).await.unwrap();
        let user = crate::db::users::create(&db, "u", Role::Learner, None)
            .await
            .unwrap();
        let other = crate::db::users::create(&db, "v", Role::Learner, None)
            .await
            .unwrap();
        let (theirs, _) = create(&db, &other).await.unwrap();
        let mut secrets = Vec::new();
        for _ in 0..MAX_PER_USER + 5 {
            secrets.push(create(&db, &user).await.unwrap().0);
            // Distinct expiry times, so "oldest" is well defined.
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
        let held: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions WHERE user_id = $1")
            .bind(user.id)
            .fetch_one(&db)
            .await
            .unwrap();
        assert_eq!(held, MAX_PER_USER);
        for (i, secret) in secrets.iter().enumerate() {
            let live = find(&db, secret).await.unwrap().is_some();
            assert_eq!(live, i >= 5, "session {i}");
        }
        assert!(find(&db, &theirs).await.unwrap().is_some());
    }
}
