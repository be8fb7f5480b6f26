//! The web workbench: server-rendered pages (askama; templates in the top-level `templates/`).
//! One module per group of pages; each page's `#[derive(Template)]` struct sits next to its
//! handler. Every page extends `base.html`, which reads the page's [`Layout`].

mod accounts;
mod admin;
mod assets;
mod catalogue;
mod drill_stats;
mod drills;
mod form;
pub mod i18n;
mod i18n_practice;
mod i18n_publishing;
mod interviews;
mod kata;
mod kata_stats;
mod kata_versions;
mod language;
pub mod markdown;
pub mod next;
mod progress;
mod rejudges;
mod submissions;
pub mod view;

use crate::auth::Viewer;
use crate::db::users::User;
use crate::error::{AppError, ErrorInfo};
use crate::state::AppState;
use askama::Template;
use axum::Router;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use i18n::Text;
use katas::Lang;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(catalogue::index))
        .route("/signup", get(accounts::signup_form).post(accounts::signup))
        .route("/login", get(accounts::login_form).post(accounts::login))
        .route("/logout", post(accounts::logout))
        .route("/lang", post(language::switch))
        .route("/katas/{slug}", get(kata::show))
        .route(
            "/katas/{slug}/submissions",
            get(submissions::history).post(kata::submit),
        )
        .route("/katas/{slug}/solution", get(kata::solution))
        .route("/katas/{slug}/leaderboard", get(progress::leaderboard))
        .route("/submissions/{id}", get(submissions::show))
        .route("/submissions/{id}/report", get(submissions::report))
        .route("/submissions/{id}/cancel", post(submissions::cancel))
        .route("/progress", get(progress::show))
        .route("/drills", get(drills::index))
        .route("/drills/{set}", get(drills::set))
        .route("/drills/{set}/{item}/start", post(drills::start))
        .route("/drills/{set}/next", post(drills::next))
        .route(
            "/drills/attempts/{id}",
            get(drills::attempt).post(drills::answer),
        )
        .route("/review", get(drills::review_page))
        .route("/interviews", get(interviews::list).post(interviews::start))
        .route("/interviews/{id}", get(interviews::show))
        .route("/interviews/{id}/hint", post(interviews::hint))
        .route("/interviews/{id}/submit", post(interviews::submit))
        .route("/interviews/{id}/finish", post(interviews::finish))
        .route("/interviews/{id}/report", get(interviews::report))
        .route("/admin", get(admin::show))
        .route("/admin/submissions/{id}/{action}", post(admin::act))
        .route("/admin/katas/{slug}", get(kata_stats::show))
        .route("/admin/katas/{slug}/stats.csv", get(kata_stats::csv))
        .route(
            "/admin/katas/{slug}/versions",
            post(kata_versions::upload).layer(axum::extract::DefaultBodyLimit::max(
                // The archive plus the form's framing and its CSRF field.
                crate::services::publishing::upload_limit() + (64 << 10),
            )),
        )
        .route(
            "/admin/katas",
            post(kata_versions::upload_new).layer(axum::extract::DefaultBodyLimit::max(
                crate::services::publishing::upload_limit() + (64 << 10),
            )),
        )
        .route(
            "/admin/katas/{slug}/uploads/{id}",
            get(kata_versions::upload_report),
        )
        .route("/admin/katas/{slug}/rejudges", post(rejudges::start))
        .route("/admin/katas/{slug}/rejudges/{id}", get(rejudges::show))
        .route("/admin/katas/{slug}/live", post(kata_versions::make_live))
        .route(
            "/admin/katas/{slug}/availability",
            post(kata_stats::set_availability),
        )
        .route("/admin/drills", get(drill_stats::show))
        .route("/admin/drills/reload", post(drill_stats::reload_from_disk))
        .route("/static/{file}", get(assets::serve))
}

/// What the shared layout (`base.html`) needs: who is signed in, the CSRF token of the log-out
/// form, which navigation item is current, and the page's language with its words (`t`).
#[derive(Debug, Clone)]
pub struct Layout {
    pub user: Option<User>,
    pub csrf: String,
    pub active: &'static str,
    pub staff: bool,
    pub lang: Lang,
    pub t: &'static Text,
    /// Where the language switch returns to: this page.
    pub here: String,
}

impl Layout {
    pub fn new(viewer: &Viewer, active: &'static str) -> Self {
        Self {
            staff: viewer.user.as_ref().is_some_and(|u| u.role.is_staff()),
            user: viewer.user.clone(),
            csrf: viewer.csrf.clone(),
            active,
            lang: viewer.lang,
            t: Text::of(viewer.lang),
            here: next::local_path(Some(&viewer.here)),
        }
    }

    /// The languages the switch offers: every one but the page's, each named in itself (one
    /// short button in the header while there are two).
    pub fn other_languages(&self) -> Vec<LangChoice> {
        Lang::ALL
            .iter()
            .filter(|&&l| l != self.lang)
            .map(|&l| LangChoice {
                code: l.as_str(),
                tag: l.tag(),
                name: l.native_name(),
            })
            .collect()
    }
}

/// One button of the language switch.
#[derive(Debug, Clone)]
pub struct LangChoice {
    pub code: &'static str,
    pub tag: &'static str,
    pub name: &'static str,
}

/// Renders a page to an HTML response. A page's words depend on the language, chosen from the
/// cookies and `Accept-Language`, so a cache must key on both.
pub fn render(page: &impl Template) -> Result<Response, AppError> {
    Ok(with_vary(Html(page.render()?).into_response()))
}

fn with_vary(mut resp: Response) -> Response {
    resp.headers_mut().insert(
        axum::http::header::VARY,
        axum::http::HeaderValue::from_static("Accept-Language, Cookie"),
    );
    resp
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage {
    layout: Layout,
    status: u16,
    title: String,
    /// The message in pieces: `true` for a piece the message quoted in backticks (shown as code).
    message_parts: Vec<(bool, String)>,
}

/// "unknown kata `x`" → [(false, "unknown kata "), (true, "x")].
fn backtick_parts(message: &str) -> Vec<(bool, String)> {
    message
        .split('`')
        .enumerate()
        .filter(|(_, s)| !s.is_empty())
        .map(|(i, s)| (i % 2 == 1, s.to_string()))
        .collect()
}

/// Percent-encodes a path for a `next=` query parameter.
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Outside `/api/`, turns an [`AppError`] response into the HTML error page (same status and
/// message); a page that needs a signed-in user redirects to the log-in form instead.
pub async fn html_errors(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if req.uri().path().starts_with("/api/") {
        return next.run(req).await;
    }
    let method = req.method().clone();
    let headers = req.headers().clone();
    let target = req
        .uri()
        .path_and_query()
        .map_or("/".to_string(), |p| p.as_str().to_string());
    let resp = next.run(req).await;
    let Some(info) = resp.extensions().get::<ErrorInfo>().cloned() else {
        return resp;
    };
    if info.status == StatusCode::UNAUTHORIZED && method == Method::GET {
        return Redirect::to(&format!("/login?next={}", encode(&target))).into_response();
    }
    let mut viewer = Viewer::from_headers(&headers, &state).await;
    viewer.here = target;
    let t = Text::of(viewer.lang);
    let page = ErrorPage {
        layout: Layout::new(&viewer, ""),
        status: info.status.as_u16(),
        title: t
            .status_title(info.status.as_u16())
            .or(info.status.canonical_reason())
            .unwrap_or(t.error)
            .to_string(),
        message_parts: backtick_parts(info.message_in(viewer.lang)),
    };
    match page.render() {
        Ok(html) => {
            let mut page = with_vary((info.status, Html(html)).into_response());
            if let Some(retry) = resp.headers().get(axum::http::header::RETRY_AFTER) {
                page.headers_mut()
                    .insert(axum::http::header::RETRY_AFTER, retry.clone());
            }
            page
        }
        Err(_) => resp,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn quoted_parts_of_error_messages_become_code() {
        assert_eq!(
            super::backtick_parts("unknown kata `a<b`, sorry"),
            [
                (false, "unknown kata ".to_string()),
                (true, "a<b".to_string()),
                (false, ", sorry".to_string())
            ]
        );
    }

    #[test]
    fn next_is_percent_encoded() {
        assert_eq!(super::encode("/a b?c=d"), "/a%20b%3Fc%3Dd");
    }
}
