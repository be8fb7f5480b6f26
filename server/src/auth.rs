//! Who is calling. API routes take `Authorization: Bearer <token>` or the browser's session
//! cookie; a cookie-authenticated request that changes anything must also echo the session's
//! CSRF token (`X-CSRF-Token` header, or the `csrf` field of a form). Pages take the session
//! cookie. The worker API takes the server's worker token, compared in constant time.
//!
//! CSRF: a signed-in browser's token is stored with its session; before signing in (the log-in
//! and sign-up forms) the token is a random cookie the form must echo (double submit). Cookies
//! are `HttpOnly` and `SameSite=Lax`, and `Secure` when the server is configured for TLS.

use crate::db::sessions::{self, Session};
use crate::db::users::{self, User};
use crate::error::AppError;
use crate::state::AppState;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use katas::Lang;
use subtle::ConstantTimeEq as _;

pub const SESSION_COOKIE: &str = "ik_session";
/// The pre-session CSRF token (log-in and sign-up forms).
pub const CSRF_COOKIE: &str = "ik_csrf";
pub const CSRF_HEADER: &str = "x-csrf-token";

fn bearer(parts: &Parts) -> Option<&str> {
    parts
        .headers
        .get(axum::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    CookieJar::from_headers(headers)
        .get(name)
        .map(|c| c.value().to_string())
}

/// A cookie with the service's attributes: `HttpOnly`, `SameSite=Lax`, path `/`, and `Secure`
/// when configured.
pub fn make_cookie(state: &AppState, name: &'static str, value: String) -> Cookie<'static> {
    Cookie::build((name, value))
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(state.config.secure_cookies)
        .path("/")
        .build()
}

/// The session named by the request's cookie, if it is live. Looked up once per request.
pub async fn session(headers: &HeaderMap, state: &AppState) -> Result<Option<Session>, AppError> {
    match cookie(headers, SESSION_COOKIE) {
        Some(secret) => Ok(sessions::find(&state.db, &secret).await?),
        None => Ok(None),
    }
}

async fn cached_session(parts: &mut Parts, state: &AppState) -> Result<Option<Session>, AppError> {
    #[derive(Clone)]
    struct Looked(Option<Session>);
    if let Some(Looked(s)) = parts.extensions.get::<Looked>() {
        return Ok(s.clone());
    }
    let s = session(&parts.headers, state).await?;
    parts.extensions.insert(Looked(s.clone()));
    Ok(s)
}

/// Compares a presented CSRF token with the expected one in constant time.
pub fn csrf_matches(expected: &str, given: &str) -> bool {
    !expected.is_empty() && bool::from(given.as_bytes().ct_eq(expected.as_bytes()))
}

fn csrf_refused() -> AppError {
    AppError::Forbidden(
        "missing or stale CSRF token: reload the page and try again (API clients: send the \
         `X-CSRF-Token` header, or use a Bearer token)"
            .into(),
    )
    .zh("页面的安全令牌缺失或已过期：请刷新页面后再试")
}

/// A signed-in learner, instructor or admin (API routes).
#[derive(Debug, Clone)]
pub struct CurrentUser(pub User);

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        if let Some(token) = bearer(parts) {
            let user = users::by_token(&state.db, token)
                .await?
                .ok_or(AppError::Unauthorized)?;
            return Ok(Self(user));
        }
        let session = cached_session(parts, state)
            .await?
            .ok_or(AppError::Unauthorized)?;
        let safe = matches!(parts.method, Method::GET | Method::HEAD | Method::OPTIONS);
        if !safe {
            let given = parts
                .headers
                .get(CSRF_HEADER)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            if !csrf_matches(&session.csrf, given) {
                return Err(csrf_refused());
            }
        }
        Ok(Self(session.user))
    }
}

/// Whoever is looking at a page: the signed-in user, if any, the CSRF token this browser's
/// forms carry, the language the pages speak to them, and the page they asked for (where the
/// language switch brings them back to).
#[derive(Debug, Clone, Default)]
pub struct Viewer {
    pub user: Option<User>,
    pub csrf: String,
    pub lang: Lang,
    pub here: String,
}

/// The cookie that remembers a visitor's page language (a signed-in user's is saved with them).
pub const LANG_COOKIE: &str = "ik_lang";

/// The pages' language: the user's saved choice, else the browser's cookie, else its
/// `Accept-Language`, else English.
pub fn page_lang(saved: Option<Lang>, headers: &HeaderMap) -> Lang {
    saved
        .or_else(|| cookie(headers, LANG_COOKIE).and_then(|c| Lang::from_tag(&c)))
        .or_else(|| {
            headers
                .get(axum::http::header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .and_then(Lang::from_accept_language)
        })
        .unwrap_or_default()
}

/// The one role check behind [`Staff`] and [`StaffUser`]; each refuses in its own words.
fn admit_staff(user: &User, refusal: impl FnOnce() -> AppError) -> Result<(), AppError> {
    if user.role.is_staff() {
        Ok(())
    } else {
        Err(refusal())
    }
}

/// An instructor or admin looking at a staff page. Anyone else is refused before the handler
/// runs: 401 when signed out (which pages turn into the log-in redirect), 403 for a learner.
#[derive(Debug, Clone)]
pub struct Staff(pub Viewer);

impl Staff {
    fn admit(viewer: Viewer) -> Result<Self, AppError> {
        admit_staff(viewer.require()?, || {
            AppError::Forbidden("This page is for instructors and admins.".into())
                .zh("这个页面只对教师和管理员开放。")
        })?;
        Ok(Self(viewer))
    }
}

impl FromRequestParts<AppState> for Staff {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        Self::admit(Viewer::from_request_parts(parts, state).await?)
    }
}

/// An instructor or admin calling the API ([`CurrentUser`]'s rules, CSRF header included):
/// 401 without a user, 403 for a learner. Today only kata versions are staff-only in the API,
/// hence the refusal's words.
#[derive(Debug, Clone)]
pub struct StaffUser(pub User);

impl FromRequestParts<AppState> for StaffUser {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let CurrentUser(user) = CurrentUser::from_request_parts(parts, state).await?;
        admit_staff(&user, || {
            AppError::Forbidden("only instructors and admins manage kata versions".into())
                .zh("只有教师和管理员可以管理题目版本")
        })?;
        Ok(Self(user))
    }
}

/// A signed-in user looking at a page, refused with 401 (the log-in redirect) before the
/// handler runs — and before its form is read, so a signed-out post is sent to log in rather
/// than told its form is stale.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub user: User,
    pub viewer: Viewer,
}

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let viewer = Viewer::from_request_parts(parts, state).await?;
        let user = viewer.require()?.clone();
        Ok(Self { user, viewer })
    }
}

/// The pre-session token minted for a browser that had none; set as a cookie on the response.
#[derive(Debug, Clone)]
pub struct FreshCsrf(pub String);

impl Viewer {
    pub async fn from_headers(headers: &HeaderMap, state: &AppState) -> Self {
        // A broken database shows the page as signed out rather than failing the error page.
        let session = session(headers, state).await.ok().flatten();
        Self::from_parts_of(session, headers, None, "/")
    }

    fn from_parts_of(
        session: Option<Session>,
        headers: &HeaderMap,
        fresh: Option<&str>,
        here: &str,
    ) -> Self {
        let here = here.to_string();
        match session {
            Some(s) => Self {
                lang: page_lang(s.lang, headers),
                user: Some(s.user),
                csrf: s.csrf,
                here,
            },
            None => Self {
                user: None,
                csrf: cookie(headers, CSRF_COOKIE)
                    .or_else(|| fresh.map(str::to_string))
                    .unwrap_or_default(),
                lang: page_lang(None, headers),
                here,
            },
        }
    }

    /// The signed-in user, or 401 (which pages turn into a redirect to the log-in form).
    pub fn require(&self) -> Result<&User, AppError> {
        self.user.as_ref().ok_or(AppError::Unauthorized)
    }

    /// Checks a form's `csrf` field. Called by [`crate::pages::form::CsrfForm`], and by hand
    /// only where a form is multipart (the kata version upload).
    pub fn check_csrf(&self, given: &str) -> Result<(), AppError> {
        if csrf_matches(&self.csrf, given) {
            Ok(())
        } else {
            Err(csrf_refused())
        }
    }
}

impl FromRequestParts<AppState> for Viewer {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let session = cached_session(parts, state).await?;
        let fresh = parts.extensions.get::<FreshCsrf>().map(|f| f.0.clone());
        // The path alone: a query may carry someone else's `next=` (a log-in link), which the
        // page must not echo back as the language switch's target.
        let here = parts.uri.path();
        Ok(Self::from_parts_of(
            session,
            &parts.headers,
            fresh.as_deref(),
            here,
        ))
    }
}

/// Ensures every browser has a pre-session CSRF cookie before it sees a form: mints one for a
/// request without it (visible to the handler as [`FreshCsrf`]) and sets it on the response.
pub async fn csrf_cookie(
    axum::extract::State(state): axum::extract::State<AppState>,
    mut req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let has = cookie(req.headers(), CSRF_COOKIE).is_some();
    let is_api = req.uri().path().starts_with("/api/");
    if has || is_api {
        return next.run(req).await;
    }
    let token = users::random_secret("");
    req.extensions_mut().insert(FreshCsrf(token.clone()));
    let mut resp = next.run(req).await;
    let c = make_cookie(&state, CSRF_COOKIE, token);
    if let Ok(v) = c.to_string().parse() {
        resp.headers_mut().append(axum::http::header::SET_COOKIE, v);
    }
    resp
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
