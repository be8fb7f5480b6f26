//! A page's form, read and CSRF-checked before the handler runs: every urlencoded form a page
//! posts carries the viewer's token in its `csrf` field ([`crate::auth`] says which token).
//! Multipart forms are read field by field and check their token by hand (the version upload).

use crate::auth::Viewer;
use crate::error::AppError;
use crate::state::AppState;
use axum::Form;
use axum::body::{Body, Bytes};
use axum::extract::rejection::FormRejection;
use axum::extract::{FromRequest, FromRequestParts, Request};
use serde::Deserialize;
use serde::de::DeserializeOwned;

/// A urlencoded form whose `csrf` field matched the viewer's token. Refusals: 413 for a body
/// over the limit, 400 for a malformed form, then 403 for a missing or stale token. `T` need
/// not name the `csrf` field.
#[derive(Debug, Clone)]
pub struct CsrfForm<T>(pub T);

/// A form that carries nothing but its token (a button).
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct Button {}

impl<T: DeserializeOwned + Send> FromRequest<AppState> for CsrfForm<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, AppError> {
        let (mut parts, body) = req.into_parts();
        let viewer = Viewer::from_request_parts(&mut parts, state).await?;
        // The body is read once and parsed twice: as `T`, and for its token.
        let (method, headers) = (parts.method.clone(), parts.headers.clone());
        let bytes = Bytes::from_request(Request::from_parts(parts, body), state)
            .await
            .map_err(|_| too_large())?;
        let mut again = Request::new(Body::from(bytes.clone()));
        *again.method_mut() = method;
        *again.headers_mut() = headers;
        let value = form(Form::<T>::from_request(again, state).await)?;
        let token = url::form_urlencoded::parse(&bytes)
            .find(|(k, _)| k == "csrf")
            .map(|(_, v)| v.into_owned())
            .unwrap_or_default();
        viewer.check_csrf(&token)?;
        Ok(Self(value))
    }
}

fn too_large() -> AppError {
    AppError::TooLarge("the request body is too large".into())
}

/// A form body, or 400 with the reason (missing field, not UTF-8, wrong content type).
fn form<T>(body: Result<Form<T>, FormRejection>) -> Result<T, AppError> {
    body.map(|Form(t)| t).map_err(|e| match e {
        FormRejection::BytesRejection(_) => too_large(),
        other => AppError::BadRequest(format!("malformed form: {}", other.body_text())),
    })
}
