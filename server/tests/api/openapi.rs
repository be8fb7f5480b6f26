use crate::helpers::spawn_idle;

/// Every route the router serves under /api, as `METHOD path`.
const ROUTES: [(&str, &str); 26] = [
    ("get", "/api/health"),
    ("get", "/api/openapi.json"),
    ("get", "/api/katas"),
    ("get", "/api/katas/{slug}"),
    ("get", "/api/katas/{slug}/draft"),
    ("put", "/api/katas/{slug}/draft"),
    ("put", "/api/katas/{slug}/hints/{index}"),
    ("post", "/api/katas/{slug}/custom"),
    ("get", "/api/drills"),
    ("get", "/api/drills/{set}"),
    ("post", "/api/drills/{set}/{item}/attempts"),
    ("get", "/api/drill-attempts/{id}"),
    ("post", "/api/drill-attempts/{id}/answer"),
    ("get", "/api/review"),
    ("post", "/api/interviews"),
    ("get", "/api/interviews/{id}"),
    ("post", "/api/interviews/{id}/finish"),
    ("post", "/api/submissions"),
    ("get", "/api/submissions/{id}"),
    ("get", "/api/submissions/{id}/events"),
    ("post", "/api/submissions/{id}/cancel"),
    ("post", "/api/worker/claim"),
    ("post", "/api/worker/jobs/{id}/heartbeat"),
    ("post", "/api/worker/jobs/{id}/verdict"),
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
}
