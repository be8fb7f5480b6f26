//! The one mapping from failures to responses: each variant has one status and one message.
//! The response is JSON `{"error": …}` and carries an [`ErrorInfo`] extension; outside `/api/`
//! the pages' middleware (`pages::html_errors`) renders the same status and message as the
//! HTML error page (and turns 401 into a redirect to the log-in form).
//!
//! Messages are English (the API's language). A message a learner can meet on a page also has
//! its 中文 wording, attached where it is made with [`AppError::zh`]; the pages show the one in
//! the viewer's language, and the JSON carries it as `error_zh`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use katas::Lang;

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
    /// `0` with its message in 中文 as well.
    #[error("{0}")]
    Localized(Box<AppError>, String),
    /// `0`, telling the client when to try again (`Retry-After`, seconds).
    #[error("{0}")]
    RetryAfter(Box<AppError>, u64),
}

impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> Self {
        Self::Internal(e.into())
    }
}

impl AppError {
    /// The same error, with its message in 中文 for the pages.
    pub fn zh(self, zh: impl Into<String>) -> Self {
        Self::Localized(Box::new(self), zh.into())
    }

    /// The same error, saying when to try again: an upper bound, in seconds.
    pub fn retry_after(self, secs: u64) -> Self {
        Self::RetryAfter(Box::new(self), secs)
    }

    fn retry_after_secs(&self) -> Option<u64> {
        match self {
            Self::RetryAfter(_, secs) => Some(*secs),
            Self::Localized(inner, _) => inner.retry_after_secs(),
            _ => None,
        }
    }

    /// The message in 中文, where there is one.
    fn message_zh(&self) -> Option<String> {
        match self {
            Self::Localized(_, zh) => Some(zh.clone()),
            Self::RetryAfter(inner, _) => inner.message_zh(),
            Self::Unauthorized => Some("需要先登录：请登录后再试。".into()),
            Self::Internal(_) => Some("服务器内部出错了，请稍后再试。".into()),
            _ => None,
        }
    }

    /// The message as a learner reading `lang` should see it.
    pub fn message_in(&self, lang: Lang) -> String {
        match (lang, self.message_zh()) {
            (Lang::Zh, Some(zh)) => zh,
            _ => self.to_string(),
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::Localized(inner, _) | Self::RetryAfter(inner, _) => inner.status(),
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
    pub message_zh: Option<String>,
}

impl ErrorInfo {
    /// The message in `lang` where there is one, else the English one.
    pub fn message_in(&self, lang: Lang) -> &str {
        match (lang, &self.message_zh) {
            (Lang::Zh, Some(zh)) => zh,
            _ => &self.message,
        }
    }
}

/// Every refusal's JSON body; the OpenAPI document names it `Error`.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[schema(as = Error)]
pub struct ErrorBody {
    pub error: String,
    /// The same message in 中文, where one is written (refusals a learner meets).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_zh: Option<String>,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        if let Self::Internal(e) = &self {
            tracing::error!("internal error: {e:#}");
        }
        let info = ErrorInfo {
            status: self.status(),
            message: self.to_string(),
            message_zh: self.message_zh(),
        };
        let body = ErrorBody {
            error: info.message.clone(),
            error_zh: info.message_zh.clone(),
        };
        let mut resp = (info.status, Json(body)).into_response();
        if let Some(secs) = self.retry_after_secs() {
            resp.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        resp.extensions_mut().insert(info);
        resp
    }
}

impl From<crate::db::kata_versions::VersionError> for AppError {
    fn from(e: crate::db::kata_versions::VersionError) -> Self {
        Self::Internal(e.into())
    }
}

impl From<askama::Error> for AppError {
    fn from(e: askama::Error) -> Self {
        Self::Internal(anyhow::anyhow!("rendering a page: {e}"))
    }
}
