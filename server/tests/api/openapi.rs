//! The OpenAPI document is generated: `routes::router` registers every handler through
//! `utoipa_axum::routes!`, which adds the route and its documented operation from the same
//! `#[utoipa::path]`. So there is no route list here; these tests walk the served document
//! and check it against the running app and the README.

use crate::helpers::spawn_idle;
use serde_json::Value;
use server::domain::{JobKind, Word as _};

async fn document(app: &crate::helpers::TestApp) -> Value {
    let resp = app
        .client
        .get(app.url("/api/openapi.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(
        resp.headers()["content-type"],
        "application/json",
        "served as JSON, as before"
    );
    resp.json().await.unwrap()
}

/// Every `{name}` of a documented path filled in; `1` parses as any id and names nothing.
fn filled(path: &str) -> String {
    let mut out = String::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').expect("a closed path parameter") + open;
        out.push_str(&rest[..open]);
        out.push('1');
        rest = &rest[close + 1..];
    }
    out + rest
}

#[tokio::test]
async fn every_documented_operation_is_served() {
    let app = spawn_idle().await;
    let doc = document(&app).await;
    // What the router says for an address it has no route for (the app's fallback).
    let unrouted = app.public_json("/api/no-such-route").await;
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths.len() > 20, "the document lists the API");
    for (path, item) in paths {
        for method in item.as_object().unwrap().keys() {
            let method: reqwest::Method = method.to_uppercase().parse().unwrap();
            // No credentials: a handler's extractors answer at once (401/403, or the anonymous
            // routes' answer), so the long-polling claim does not wait.
            let resp = app
                .client
                .request(method.clone(), app.url(&filled(path)))
                .send()
                .await
                .unwrap();
            let status = resp.status();
            assert_ne!(status, 405, "{method} {path}: documented, not routed");
            if status == 404 {
                let body: Value = resp.json().await.unwrap();
                assert_ne!(body, unrouted, "{method} {path}: documented, not routed");
            }
        }
    }
}

#[tokio::test]
async fn the_document_is_openapi_3_1_with_what_clients_rely_on() {
    let app = spawn_idle().await;
    let doc = document(&app).await;
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["title"], "InfraKata");
    for scheme in ["bearer", "session", "worker"] {
        assert!(
            doc["components"]["securitySchemes"][scheme].is_object(),
            "{scheme}"
        );
    }
    assert_eq!(
        doc["components"]["securitySchemes"]["session"]["name"],
        server::auth::SESSION_COOKIE
    );
    let error = &doc["components"]["schemas"]["Error"];
    assert_eq!(error["required"], serde_json::json!(["error"]));

    let verdicts: Vec<&str> = doc["components"]["schemas"]["Verdict"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(
        verdicts,
        katas::Verdict::ALL.map(katas::Verdict::as_str).to_vec()
    );
    let kinds = &doc["components"]["schemas"]["JobKind"]["enum"];
    let names: Vec<&str> = JobKind::ALL.iter().map(|k| k.as_str()).collect();
    assert_eq!(kinds, &serde_json::json!(names));

    let claim = &doc["paths"]["/api/worker/claim"]["post"];
    assert_eq!(claim["security"], serde_json::json!([{ "worker": [] }]));
    assert_eq!(
        claim["requestBody"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/WorkerHello"
    );
    let publish = &doc["paths"]["/api/katas/{slug}/versions"]["post"];
    assert!(
        publish["responses"]["422"].is_object(),
        "the refused report"
    );
    assert!(
        publish["requestBody"]["content"]["application/gzip"].is_object()
            && publish["requestBody"]["content"]["application/zip"].is_object()
    );
    // Every refusal a learner's route documents carries the error body.
    let create = &doc["paths"]["/api/submissions"]["post"];
    assert_eq!(
        create["responses"]["401"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/Error"
    );
    assert_eq!(
        create["security"],
        serde_json::json!([{ "bearer": [] }, { "session": [] }])
    );
}

/// Every `METHOD /api/...` the README names is in the document (`/api/worker/...` stands for
/// the worker routes as a group).
#[tokio::test]
async fn the_routes_the_readme_names_are_documented() {
    let app = spawn_idle().await;
    let doc = document(&app).await;
    let readme = include_str!("../../../README.md");
    let mut named = 0;
    for method in ["GET", "POST", "PUT", "DELETE"] {
        for (at, _) in readme.match_indices(&format!("`{method} /api/")) {
            let mention = &readme[at + 1..];
            // The path ends at the backtick or at a body written after it.
            let path = mention[method.len() + 1..]
                .split(['`', ' '])
                .next()
                .unwrap();
            if path.ends_with("...") {
                let prefix = path.trim_end_matches("...");
                assert!(
                    doc["paths"]
                        .as_object()
                        .unwrap()
                        .keys()
                        .any(|p| p.starts_with(prefix)),
                    "{path}"
                );
            } else {
                assert!(
                    doc["paths"][path][method.to_lowercase()].is_object(),
                    "the README names {method} {path}"
                );
            }
            named += 1;
        }
    }
    assert!(named >= 5, "the README's API section was found");
}

#[tokio::test]
async fn a_worker_hello_with_an_unknown_job_kind_is_refused_with_the_reason() {
    let app = spawn_idle().await;
    let claim = |kinds: serde_json::Value| {
        app.client
            .post(app.url("/api/worker/claim"))
            .bearer_auth(crate::helpers::WORKER_TOKEN)
            .json(&serde_json::json!({
                "worker_id": "w", "name": "w", "capabilities": { "cores": 1, "kinds": kinds }
            }))
            .send()
    };
    let resp = claim(serde_json::json!(["cpu", "tpu"])).await.unwrap();
    assert_eq!(resp.status(), 400);
    let body: serde_json::Value = resp.json().await.unwrap();
    let error = body["error"].as_str().unwrap();
    assert!(
        error.contains("malformed worker hello") && error.contains("tpu"),
        "{error}"
    );
    assert!(
        server::db::workers::list(&app.app.state.db)
            .await
            .unwrap()
            .is_empty(),
        "a refused hello records no worker"
    );
    // A known kind still claims (nothing queued: 204 once the long poll ends).
    assert_eq!(
        claim(serde_json::json!(["cpu"])).await.unwrap().status(),
        204
    );
}
