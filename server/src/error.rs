//! The one mapping from failures to responses: each variant has one status and one message.
//! The response is JSON `{"error": …}` and carries an [`ErrorInfo`] extension; outside `/api/`
//! the pages' middleware (`pages::html_errors`) renders the same status and message as the
//! HTML error page (and turns 401 into a redirect to the log-in form).

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("{0}")]
    BadRequest(String),
    #[error("authentication required: log in, or send `Authorization: Bearer <token>`")]
    Unauthorized,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    TooLarge(String),
    #[error("{0}")]
    TooManyRequests(String),
    /// Well-formed but refused: a custom input out of the statement's constraints.
    #[error("{0}")]
    Unprocessable(String),
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> Self {
        Self::Internal(e.into())
    }
}

impl AppError {
    fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Unauthorized => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// What went wrong, attached to every error response for the HTML rendering.
#[derive(Debug, Clone)]
pub struct ErrorInfo {
    pub status: StatusCode,
    pub message: String,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        if let Self::Internal(e) = &self {
            tracing::error!("internal error: {e:#}");
        }
        let info = ErrorInfo {
            status: self.status(),
            message: self.to_string(),
        };
        let mut resp = (
            info.status,
            Json(serde_json::json!({ "error": info.message })),
        )
            .into_response();
        resp.extensions_mut().insert(info);
        resp
    }
}

impl From<askama::Error> for AppError {
    fn from(e: askama::Error) -> Self {
        Self::Internal(anyhow::anyhow!("rendering a page: {e}"))
    }
}
