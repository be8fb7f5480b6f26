//! `GET /api/katas`, `GET /api/katas/{slug}`.

use crate::error::AppError;
use crate::services::submissions::unknown_kata;
use axum::Json;
use axum::extract::Path;
use katas::Kata;
use serde_json::{Value, json};

fn summary(k: &dyn Kata) -> Value {
    let m = k.meta();
    json!({
        "slug": m.slug,
        "title": m.title,
        "summary": m.summary,
        "difficulty": m.difficulty,
        "kind": m.kind,
        "topics": m.topics,
    })
}

pub async fn list() -> Json<Value> {
    Json(Value::Array(
        katas::catalogue::all()
            .iter()
            .map(|k| summary(*k))
            .collect(),
    ))
}

pub async fn show(Path(slug): Path<String>) -> Result<Json<Value>, AppError> {
    let kata = katas::catalogue::find(&slug).ok_or_else(|| unknown_kata(&slug))?;
    let statement = kata.statement();
    let mut body = summary(kata);
    body["statement"] = json!(statement.public_markdown());
    body["hints"] = json!(statement.hints().len());
    body["starter"] = json!(kata.package().starter);
    body["entry_points"] = json!(kata.meta().entry_points);
    // A sample input to start a custom input from; null where none is offered (GPU katas).
    body["custom_input"] = json!(kata.sample_input());
    Ok(Json(body))
}
