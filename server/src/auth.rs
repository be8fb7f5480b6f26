//! Who is calling. API routes take `Authorization: Bearer <token>` (session cookies arrive with
//! the pages); the worker API takes the server's worker token, compared in constant time.

use crate::db::users::{self, User};
use crate::error::AppError;
use crate::state::AppState;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use subtle::ConstantTimeEq as _;

fn bearer(parts: &Parts) -> Option<&str> {
    parts
        .headers
        .get(axum::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// A signed-in learner, instructor or admin.
#[derive(Debug, Clone)]
pub struct CurrentUser(pub User);

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let token = bearer(parts).ok_or(AppError::Unauthorized)?;
        let user = users::by_token(&state.db, token)
            .await?
            .ok_or(AppError::Unauthorized)?;
        Ok(Self(user))
    }
}

/// A remote worker holding the server's worker token.
#[derive(Debug, Clone, Copy)]
pub struct WorkerAuth;

impl FromRequestParts<AppState> for WorkerAuth {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let given = bearer(parts).ok_or(AppError::Unauthorized)?;
        let expected = state.config.worker_token.as_bytes();
        if bool::from(given.as_bytes().ct_eq(expected)) {
            Ok(Self)
        } else {
            Err(AppError::Forbidden("not a worker token".into()))
        }
    }
}
