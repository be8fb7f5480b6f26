//! `POST /lang`: the language switch in the header. A signed-in user's choice is saved with
//! the account (it follows them to other browsers); every browser also keeps it in a cookie,
//! so it survives logging out. Then back to the page the switch was on — a same-origin path
//! only ([`super::next`]).

use super::form::CsrfForm;
use super::next::local_path;
use crate::auth::{LANG_COOKIE, Viewer};
use crate::db::users;
use crate::error::AppError;
use crate::state::AppState;
use axum::extract::State;
use axum::http::header::SET_COOKIE;
use axum::response::{IntoResponse, Redirect, Response};
use katas::Lang;
use serde::Deserialize;

/// A year: the choice should outlive a session, and costs nothing to keep.
const COOKIE_MAX_AGE_S: u32 = 365 * 24 * 3600;

#[derive(Debug, Deserialize)]
pub struct SwitchForm {
    #[serde(default)]
    lang: String,
    #[serde(default)]
    next: Option<String>,
}

pub async fn switch(
    State(state): State<AppState>,
    viewer: Viewer,
    CsrfForm(f): CsrfForm<SwitchForm>,
) -> Result<Response, AppError> {
    let lang = Lang::from_tag(&f.lang).ok_or_else(|| {
        AppError::BadRequest(format!(
            "unknown language `{}`; choose `en` or `zh`",
            f.lang.chars().take(40).collect::<String>()
        ))
    })?;
    if let Some(user) = &viewer.user {
        users::set_lang(&state.db, user.id, lang).await?;
    }
    let secure = if state.config.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    let cookie = format!(
        "{LANG_COOKIE}={}; Path=/; Max-Age={COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax{secure}",
        lang.as_str()
    );
    let mut resp = Redirect::to(&local_path(f.next.as_deref())).into_response();
    if let Ok(v) = cookie.parse() {
        resp.headers_mut().append(SET_COOKIE, v);
    }
    Ok(resp)
}
