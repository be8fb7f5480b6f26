//! Sign up, log in, log out. Sign-up makes a learner; instructors and admins are made with
//! `infrakata user add`. Forms echo the browser's CSRF token; passwords are argon2id-hashed on
//! the blocking pool. Failed log-ins are throttled per account and per address
//! ([`crate::login_throttle`]): beyond the allowance the form answers 429 with `Retry-After`.

use super::form::{Button, CsrfForm};
use super::i18n::Text;
use super::markdown::code_spans;
use super::next::local_path;
use super::{Layout, render};
use crate::auth::{SESSION_COOKIE, Viewer, make_cookie};
use crate::db::sessions;
use crate::db::users::{self, Role, UserError};
use crate::error::AppError;
use crate::password;
use crate::state::AppState;
use askama::Template;
use axum::extract::{ConnectInfo, Query, State};
use axum::http::StatusCode;
use axum::http::header::RETRY_AFTER;
use axum::response::{IntoResponse, Redirect, Response};
use axum_extra::extract::cookie::{Cookie, CookieJar};
use serde::Deserialize;
use std::net::SocketAddr;

#[derive(Debug, Deserialize, Default)]
pub struct NextQuery {
    next: Option<String>,
}

/// `?next=…` for a link between log-in and sign-up, so the way back survives the switch;
/// empty when `next` is the home page anyway.
fn next_query(next: &str) -> String {
    if next == "/" {
        String::new()
    } else {
        format!("?next={}", super::encode(next))
    }
}

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    layout: Layout,
    next: String,
    /// For the link to sign-up.
    next_query: String,
    name: String,
    /// HTML: messages quote names in backticks, shown as code.
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "signup.html")]
struct SignupPage {
    layout: Layout,
    /// Where a new account goes once made: the page that sent the visitor to log in.
    next: String,
    /// For the link to log-in.
    next_query: String,
    name: String,
    /// HTML: messages quote names and characters in backticks, shown as code.
    error: Option<String>,
}

pub async fn login_form(viewer: Viewer, Query(q): Query<NextQuery>) -> Result<Response, AppError> {
    let next = local_path(q.next.as_deref());
    render(&LoginPage {
        layout: Layout::new(&viewer, "login"),
        next_query: next_query(&next),
        next,
        name: String::new(),
        error: None,
    })
}

pub async fn signup_form(viewer: Viewer, Query(q): Query<NextQuery>) -> Result<Response, AppError> {
    let next = local_path(q.next.as_deref());
    render(&SignupPage {
        layout: Layout::new(&viewer, "signup"),
        next_query: next_query(&next),
        next,
        name: String::new(),
        error: None,
    })
}

#[derive(Debug, Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    name: String,
    #[serde(default)]
    password: String,
    next: Option<String>,
}

/// Starts a session for `user` and sends the browser on to `to`.
async fn start_session(
    state: &AppState,
    jar: CookieJar,
    user: &users::User,
    to: &str,
) -> Result<Response, AppError> {
    let (secret, _) = sessions::create(&state.db, user).await?;
    let jar = jar.add(make_cookie(state, SESSION_COOKIE, secret));
    Ok((jar, Redirect::to(to)).into_response())
}

pub async fn login(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    viewer: Viewer,
    jar: CookieJar,
    CsrfForm(f): CsrfForm<LoginForm>,
) -> Result<Response, AppError> {
    let next = local_path(f.next.as_deref());
    let page = |error: String| LoginPage {
        layout: Layout::new(&viewer, "login"),
        next_query: next_query(&next),
        next: next.clone(),
        name: f.name.clone(),
        error: Some(code_spans(&error)),
    };
    let attempt = match state.login_throttle.attempt(&f.name, peer.ip()).await? {
        Ok(attempt) => attempt,
        Err(refusal) => {
            let retry = [(RETRY_AFTER, refusal.retry_after_secs().to_string())];
            let page = page(refusal.message(viewer.lang));
            return Ok((StatusCode::TOO_MANY_REQUESTS, retry, render(&page)?).into_response());
        }
    };
    let found = users::by_name_with_hash(&state.db, &f.name).await?;
    let (user, hash) = match found {
        Some((u, h)) => (Some(u), h),
        None => (None, None),
    };
    let password = f.password.clone();
    let ok = tokio::task::spawn_blocking(move || password::verify(&password, hash.as_deref()))
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
    match user {
        Some(user) if ok => {
            attempt.succeeded().await?;
            start_session(&state, jar, &user, &next).await
        }
        _ => {
            let page = page(Text::of(viewer.lang).wrong_credentials.into());
            Ok((StatusCode::UNAUTHORIZED, render(&page)?).into_response())
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct SignupForm {
    #[serde(default)]
    name: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    confirm: String,
    next: Option<String>,
}

pub async fn signup(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    viewer: Viewer,
    jar: CookieJar,
    CsrfForm(f): CsrfForm<SignupForm>,
) -> Result<Response, AppError> {
    let t = Text::of(viewer.lang);
    let next = local_path(f.next.as_deref());
    let problem = if !users::valid_name(&f.name) {
        Some(t.bad_name.to_string())
    } else if f.password.chars().count() < password::MIN_LEN {
        Some(t.password_too_short(password::MIN_LEN))
    } else if f.password.len() > password::MAX_LEN {
        Some(t.password_too_long(password::MAX_LEN))
    } else if f.password != f.confirm {
        Some(t.passwords_differ.into())
    } else {
        None
    };
    let refuse = |error: String, status: StatusCode| -> Result<Response, AppError> {
        let page = SignupPage {
            layout: Layout::new(&viewer, "signup"),
            next_query: next_query(&next),
            next: next.clone(),
            name: f.name.clone(),
            error: Some(code_spans(&error)),
        };
        Ok((status, render(&page)?).into_response())
    };
    if let Some(error) = problem {
        return refuse(error, StatusCode::UNPROCESSABLE_ENTITY);
    }
    // Before the argon2 hash: a flood of sign-ups is refused at the cost of one upsert each.
    if let Err(refusal) = state.login_throttle.sign_up(peer.ip()).await? {
        let retry = [(RETRY_AFTER, refusal.retry_after_secs().to_string())];
        let page = SignupPage {
            layout: Layout::new(&viewer, "signup"),
            next_query: next_query(&next),
            next: next.clone(),
            name: f.name.clone(),
            error: Some(code_spans(&refusal.message(viewer.lang))),
        };
        return Ok((StatusCode::TOO_MANY_REQUESTS, retry, render(&page)?).into_response());
    }
    let pw = f.password.clone();
    let hash = tokio::task::spawn_blocking(move || password::hash(&pw))
        .await
        .map_err(|e| AppError::Internal(e.into()))?
        .map_err(AppError::Internal)?;
    match users::create(&state.db, &f.name, Role::Learner, Some(&hash)).await {
        Ok(user) => start_session(&state, jar, &user, &next).await,
        Err(UserError::Taken(name)) => refuse(t.name_taken(&name), StatusCode::CONFLICT),
        Err(UserError::BadName) => refuse(t.bad_name.into(), StatusCode::CONFLICT),
        Err(UserError::Db(e)) => Err(e.into()),
    }
}

pub async fn logout(
    State(state): State<AppState>,
    jar: CookieJar,
    _: CsrfForm<Button>,
) -> Result<Response, AppError> {
    if let Some(c) = jar.get(SESSION_COOKIE) {
        sessions::delete(&state.db, c.value()).await?;
    }
    let jar = jar.remove(Cookie::build(SESSION_COOKIE).path("/"));
    Ok((jar, Redirect::to("/")).into_response())
}
