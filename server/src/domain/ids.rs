//! Row ids, one type per table: a user's id and a submission's or interview's are all integers
//! in the database, but a function taking two of them cannot be called with them swapped.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! id {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
            sqlx::Type,
        )]
        #[serde(transparent)]
        #[sqlx(transparent)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl From<$name> for i64 {
            fn from(id: $name) -> Self {
                id.0
            }
        }
    )*};
}

id! {
    /// `users.id`.
    UserId;
    /// `submissions.id` (a job's `submission_id` too: one job per submission).
    SubmissionId;
    /// `interviews.id`.
    InterviewId;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn ids_are_integers_in_rows_and_json() {
        let db = sqlx::SqlitePool::connect("sqlite::memory:").await.unwrap();
        let id: UserId = sqlx::query_scalar("SELECT $1 + 1")
            .bind(UserId(41))
            .fetch_one(&db)
            .await
            .unwrap();
        assert_eq!(id, UserId(42));
        assert_eq!(serde_json::to_string(&SubmissionId(7)).unwrap(), "7");
        assert_eq!(InterviewId(3).to_string(), "3");
    }
}
