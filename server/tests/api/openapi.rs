use crate::helpers::spawn_idle;
use server::domain::{JobKind, Word as _};

/// Every route the router serves under /api, as `METHOD path`.
const ROUTES: [(&str, &str); 32] = [
    ("get", "/api/health"),
    ("get", "/api/openapi.json"),
    ("get", "/api/katas"),
    ("get", "/api/katas/{slug}"),
    ("get", "/api/katas/{slug}/draft"),
    ("put", "/api/katas/{slug}/draft"),
    ("put", "/api/katas/{slug}/hints/{index}"),
    ("post", "/api/katas/{slug}/custom"),
    ("get", "/api/katas/{slug}/versions"),
    ("post", "/api/katas/{slug}/versions"),
    ("post", "/api/katas/{slug}/live"),
    ("get", "/api/drills"),
    ("get", "/api/drills/{set}"),
    ("post", "/api/drills/{set}/{item}/attempts"),
    ("get", "/api/drill-attempts/{id}"),
    ("post", "/api/drill-attempts/{id}/answer"),
    ("get", "/api/review"),
    ("post", "/api/interviews"),
    ("get", "/api/interviews/{id}"),
    ("post", "/api/interviews/{id}/finish"),
    ("put", "/api/interviews/{id}/draft"),
    ("post", "/api/submissions"),
    ("get", "/api/submissions/{id}"),
    ("get", "/api/submissions/{id}/events"),
    ("post", "/api/submissions/{id}/cancel"),
    ("post", "/api/worker/claim"),
    ("post", "/api/worker/jobs/{id}/heartbeat"),
    ("post", "/api/worker/jobs/{id}/verdict"),
    ("post", "/api/worker/jobs/{id}/hand-over"),
    ("post", "/api/worker/jobs/{id}/measured"),
    ("post", "/api/worker/jobs/{id}/result"),
    ("post", "/api/worker/jobs/{id}/release"),
];

#[tokio::test]
async fn the_openapi_document_is_served_and_covers_every_route() {
    let app = spawn_idle().await;
    let resp = app
        .client
        .get(app.url("/api/openapi.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let doc: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    for (method, path) in ROUTES {
        assert!(
            doc["paths"][path][method].is_object(),
            "{method} {path} is not documented"
        );
    }
    let documented: usize = doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .map(|p| p.as_object().unwrap().len())
        .sum();
    assert_eq!(documented, ROUTES.len(), "no stale operations");
    let verdicts = doc["components"]["schemas"]["Verdict"]["enum"]
        .as_array()
        .unwrap();
    let names: Vec<&str> = verdicts.iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(
        names,
        katas::Verdict::ALL.map(katas::Verdict::as_str).to_vec()
    );
    let kinds = &doc["components"]["schemas"]["JobKind"]["enum"];
    let names: Vec<&str> = JobKind::ALL.iter().map(|k| k.as_str()).collect();
    assert_eq!(kinds, &serde_json::json!(names));
    let hello = &doc["paths"]["/api/worker/claim"]["post"]["requestBody"]["content"]["application/json"]
        ["schema"]["$ref"];
    assert_eq!(hello, "#/components/schemas/WorkerHello");
    assert!(doc["components"]["schemas"]["WorkerHello"].is_object());
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
