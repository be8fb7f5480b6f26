//! `/static/{file}`: the stylesheet and scripts, compiled into the binary (no CDN: the service
//! runs on machines without internet access). `editor.js` is the committed CodeMirror bundle
//! (`scripts/build-editor.sh`); `theme.js` applies the remembered light/dark choice before paint; `favicon.svg` is the
//! tab icon (the brand mark), linked from every page.

use crate::error::AppError;
use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

const STYLE: &str = include_str!("../../../static/style.css");
const APP_JS: &str = include_str!("../../../static/app.js");
const THEME_JS: &str = include_str!("../../../static/theme.js");
const INTERVIEW_JS: &str = include_str!("../../../static/interview.js");
const FAVICON: &str = include_str!("../../../static/favicon.svg");
#[cfg(editor_bundle)]
const EDITOR_JS: Option<&str> = Some(include_str!("../../../static/vendor/editor.js"));
#[cfg(not(editor_bundle))]
const EDITOR_JS: Option<&str> = None;

/// Whether this binary carries the CodeMirror editor.
pub const HAS_EDITOR: bool = EDITOR_JS.is_some();

pub async fn serve(Path(file): Path<String>) -> Result<Response, AppError> {
    let (body, kind) = match file.as_str() {
        "style.css" => (STYLE, "text/css; charset=utf-8"),
        "app.js" => (APP_JS, "text/javascript; charset=utf-8"),
        "theme.js" => (THEME_JS, "text/javascript; charset=utf-8"),
        "interview.js" => (INTERVIEW_JS, "text/javascript; charset=utf-8"),
        "favicon.svg" => (FAVICON, "image/svg+xml"),
        "editor.js" if HAS_EDITOR => (EDITOR_JS.unwrap_or(""), "text/javascript; charset=utf-8"),
        _ => {
            let file = crate::services::submissions::truncated(&file);
            return Err(AppError::NotFound(format!("no static file `{file}`")));
        }
    };
    Ok(([(CONTENT_TYPE, kind), (CACHE_CONTROL, "no-cache")], body).into_response())
}
