//! `/static/{file}`: the stylesheet and scripts, compiled into the binary (no CDN: the service
//! runs on machines without internet access).

use crate::error::AppError;
use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

const STYLE: &str = include_str!("../../../static/style.css");
const APP_JS: &str = include_str!("../../../static/app.js");

pub async fn serve(Path(file): Path<String>) -> Result<Response, AppError> {
    let (body, kind) = match file.as_str() {
        "style.css" => (STYLE, "text/css; charset=utf-8"),
        "app.js" => (APP_JS, "text/javascript; charset=utf-8"),
        _ => return Err(AppError::NotFound(format!("no static file `{file}`"))),
    };
    Ok(([(CONTENT_TYPE, kind), (CACHE_CONTROL, "no-cache")], body).into_response())
}
