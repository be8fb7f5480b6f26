use crate::fake_grader::FakeGrader;
use graders::sandbox::SandboxConfig;
use graders::{Grade, Grader, GraderConfig};
use server::app::{self, App, AppConfig};
use server::db::Location;
use server::db::users::{self, Role};
use server::domain::SubmissionId;
use server::grader_slot::GraderSlot;
use server::state::ServerConfig;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

pub const WORKER_TOKEN: &str = "wk_test_token";

/// The real grader, for the tests of grading itself: one for the whole test binary (sandbox
/// slots are host-wide; the library builds once). `None` (the test skips, saying why) where
/// the host has no sandbox; under `INFRAKATA_CI=1` that fails instead.
pub fn grader() -> Option<Arc<dyn Grade>> {
    real_grader().map(|g| g as Arc<dyn Grade>)
}

/// The scripted grader ([`FakeGrader`]), for the tests of the service around grading: no
/// sandbox, no root, never skipped.
pub fn fake_grader() -> Arc<dyn Grade> {
    Arc::new(FakeGrader)
}

fn real_grader() -> Option<Arc<Grader>> {
    static GRADER: OnceLock<Option<Arc<Grader>>> = OnceLock::new();
    GRADER
        .get_or_init(|| {
            let mut config = GraderConfig::for_checkout();
            // The test binary cannot host the sandbox's stages; the real binary can.
            config.sandbox = SandboxConfig {
                stage_exe: PathBuf::from(env!("CARGO_BIN_EXE_infrakata")),
                ..SandboxConfig::default()
            };
            match Grader::new(config) {
                Ok(g) => Some(Arc::new(g)),
                Err(e) => {
                    assert!(
                        std::env::var_os("INFRAKATA_CI").is_none(),
                        "the sandbox is required under INFRAKATA_CI=1: {e}"
                    );
                    println!("skipping: no sandbox here ({e})");
                    None
                }
            }
        })
        .clone()
}

pub struct TestApp {
    pub app: App,
    pub dir: tempfile::TempDir,
    /// Its database (a replica started with [`spawn_replica`] shares it).
    pub db: Location,
    pub client: reqwest::Client,
}

pub struct Options {
    pub workers: usize,
    pub lease: Duration,
    /// Submissions a user may make at once.
    pub burst: u32,
    /// Any other change to the server's configuration.
    pub configure: fn(&mut ServerConfig),
}

impl Default for Options {
    fn default() -> Self {
        Self {
            workers: 1,
            lease: Duration::from_secs(30),
            burst: 10,
            configure: |_| {},
        }
    }
}

pub async fn spawn_app(opts: Options, grader: Option<Arc<dyn Grade>>) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    spawn_on(dir, opts, grader).await
}

/// An app with no worker: jobs stay queued.
pub async fn spawn_idle() -> TestApp {
    spawn_app(
        Options {
            workers: 0,
            ..Options::default()
        },
        None,
    )
    .await
}

/// Starts an app on an existing folder's database (for restart tests).
pub async fn spawn_on(
    dir: tempfile::TempDir,
    opts: Options,
    grader: Option<Arc<dyn Grade>>,
) -> TestApp {
    let db = database(&dir).await;
    start_on(dir, db, opts, grader.into()).await
}

/// An app whose grader is still being prepared when it starts serving, as `infrakata serve`'s.
pub async fn spawn_preparing(opts: Options, grader: GraderSlot) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir).await;
    start_on(dir, db, opts, grader).await
}

/// Another replica of `of`: its own process state (events, workers), the same database.
pub async fn spawn_replica(of: &TestApp, opts: Options, grader: Option<Arc<dyn Grade>>) -> TestApp {
    start_on(
        tempfile::tempdir().unwrap(),
        of.db.clone(),
        opts,
        grader.into(),
    )
    .await
}

async fn start_on(
    dir: tempfile::TempDir,
    db: Location,
    opts: Options,
    grader: GraderSlot,
) -> TestApp {
    let mut server = ServerConfig {
        lease: opts.lease,
        worker_token: WORKER_TOKEN.into(),
        long_poll: Duration::from_secs(2),
        submission_burst: std::num::NonZeroU32::new(opts.burst).unwrap(),
        ..ServerConfig::default()
    };
    (opts.configure)(&mut server);
    let config = AppConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: db.clone(),
        workers: opts.workers,
        server,
    };
    let app = app::start(config, grader).await.expect("the app starts");
    TestApp {
        app,
        dir,
        db,
        client: reqwest::Client::new(),
    }
}

/// The test's database: a SQLite file in `dir`, or under `INFRAKATA_TEST_DB=postgres` a fresh
/// PostgreSQL database whose name is kept in `dir`, so a restarted app finds the same data.
pub async fn database(dir: &tempfile::TempDir) -> Location {
    if !crate::postgres::selected() {
        return Location::Sqlite(dir.path().join("infrakata.db"));
    }
    let marker = dir.path().join("postgres-url");
    if let Ok(url) = std::fs::read_to_string(&marker) {
        return Location::Postgres(url);
    }
    let url = crate::postgres::fresh_database().await;
    std::fs::write(&marker, &url).unwrap();
    Location::Postgres(url)
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.app.url())
    }

    pub async fn user(&self, name: &str) -> String {
        let user = users::create(&self.app.state.db, name, Role::Learner, None)
            .await
            .unwrap();
        users::issue_token(&self.app.state.db, user.id)
            .await
            .unwrap()
    }

    pub async fn submit(
        &self,
        token: &str,
        kata: &str,
        source: &str,
        mode: &str,
    ) -> reqwest::Response {
        self.client
            .post(self.url("/api/submissions"))
            .bearer_auth(token)
            .json(&serde_json::json!({ "kata": kata, "source": source, "mode": mode }))
            .send()
            .await
            .unwrap()
    }

    /// Submits and returns the new submission's id (asserting the 202).
    pub async fn submit_id(
        &self,
        token: &str,
        kata: &str,
        source: &str,
        mode: &str,
    ) -> SubmissionId {
        let resp = self.submit(token, kata, source, mode).await;
        assert_eq!(resp.status(), 202);
        SubmissionId(
            resp.json::<serde_json::Value>().await.unwrap()["id"]
                .as_i64()
                .unwrap(),
        )
    }

    /// Kata `slug` as `GET /api/katas/{slug}` shows it once its judge has made the custom-input
    /// form's examples (the service makes a build's own after it starts, in the sandbox).
    pub async fn with_examples(&self, slug: &str) -> serde_json::Value {
        let deadline = std::time::Instant::now() + Duration::from_secs(180);
        loop {
            let kata = self.public_json(&format!("/api/katas/{slug}")).await;
            if kata["custom_input"].as_str().is_some_and(|s| !s.is_empty()) {
                return kata;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "no custom-input examples for {slug}: {kata}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// `GET path` with no credentials, its body as JSON.
    pub async fn public_json(&self, path: &str) -> serde_json::Value {
        self.client
            .get(self.url(path))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    pub async fn get(&self, token: &str, path: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
    }

    /// Polls until the submission is done (or fails the test after `limit`).
    pub async fn verdict(
        &self,
        token: &str,
        id: SubmissionId,
        limit: Duration,
    ) -> serde_json::Value {
        until_done(limit, || async {
            self.get(token, &format!("/api/submissions/{id}"))
                .await
                .json()
                .await
                .unwrap()
        })
        .await
    }

    pub async fn count(&self, table: &str) -> i64 {
        sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(&self.app.state.db)
            .await
            .unwrap()
    }
}

pub fn reference(slug: &str) -> &'static str {
    katas::catalogue::find(slug).unwrap().package().reference
}

/// Polls `view` (a submission's JSON, fetched however the test is signed in) until its state is
/// `done`; fails the test after `limit`.
pub async fn until_done<F, Fut>(limit: Duration, mut view: F) -> serde_json::Value
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = serde_json::Value>,
{
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        let body = view().await;
        if body["state"] == "done" {
            return body;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "submission not done in time: {body}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The hidden key of drill attempt `id`, as the trusted side stored it.
pub async fn answer_key(db: &server::db::Db, id: i64) -> katas_drills::Key {
    let text: String = sqlx::query_scalar("SELECT answer_key FROM drill_attempts WHERE id = $1")
        .bind(id)
        .fetch_one(db)
        .await
        .unwrap();
    serde_json::from_str(&text).unwrap()
}
