//! Several server replicas on one database, and the queue under competing claimers. On SQLite
//! the replicas share the file; the PostgreSQL pass (`INFRAKATA_TEST_DB=postgres`) is the
//! deployment these stand for.

use crate::browser::Browser;
use crate::helpers::{Options, TestApp, fake_grader, spawn_app, spawn_idle, spawn_replica};
use server::db::submissions;
use server::db::users::{self, Role};
use server::db::{jobs, queue_state};
use server::domain::{JobKind, Slug, SubmissionId};
use std::collections::HashSet;
use std::time::Duration;

async fn queue_directly(app: &TestApp, n: usize, mode: katas::Mode) -> Vec<SubmissionId> {
    let db = &app.app.state.db;
    let user = users::create(db, &format!("q{n}{mode:?}"), Role::Learner, None)
        .await
        .unwrap();
    let slug = Slug::parse("fast-power").unwrap();
    let mut ids = Vec::new();
    for i in 0..n {
        let source = format!("// {i}");
        let id = submissions::create(db, user.id, &slug, JobKind::Cpu, mode, &source)
            .await
            .unwrap();
        ids.push(id);
    }
    ids
}

#[tokio::test]
async fn eight_competing_claimers_take_each_job_exactly_once() {
    let app = spawn_idle().await;
    let ids = queue_directly(&app, 60, katas::Mode::Submit).await;
    let mut claimers = Vec::new();
    for c in 0..8 {
        let db = app.app.state.db.clone();
        claimers.push(tokio::spawn(async move {
            let mut got = Vec::new();
            loop {
                let (job, _) = jobs::claim(
                    &db,
                    &format!("w{c}"),
                    &[JobKind::Cpu],
                    server::domain::JobPhase::Verdict,
                    60_000,
                )
                .await
                .unwrap();
                match job {
                    Some(job) => got.push(job.submission_id),
                    None => return got,
                }
            }
        }));
    }
    let mut all = Vec::new();
    for c in claimers {
        all.extend(c.await.unwrap());
    }
    let distinct: HashSet<SubmissionId> = all.iter().copied().collect();
    assert_eq!(all.len(), ids.len(), "every job claimed once: {all:?}");
    assert_eq!(distinct, ids.into_iter().collect());
}

#[tokio::test]
async fn claims_take_runs_before_submits_and_older_before_newer() {
    let app = spawn_idle().await;
    let submits = queue_directly(&app, 2, katas::Mode::Submit).await;
    let runs = queue_directly(&app, 2, katas::Mode::Run).await;
    let db = &app.app.state.db;
    assert_eq!(queue_state::position(db, runs[0]).await.unwrap(), Some(0));
    assert_eq!(
        queue_state::position(db, submits[0]).await.unwrap(),
        Some(2)
    );
    let mut order = Vec::new();
    while let (Some(job), _) = jobs::claim(
        db,
        "w",
        &[JobKind::Cpu],
        server::domain::JobPhase::Verdict,
        60_000,
    )
    .await
    .unwrap()
    {
        order.push(job.submission_id);
    }
    assert_eq!(order, [runs[0], runs[1], submits[0], submits[1]]);
}

#[tokio::test]
async fn the_submission_rate_limit_holds_across_replicas() {
    let opts = || Options {
        workers: 0,
        burst: 2,
        ..Options::default()
    };
    let a = spawn_app(opts(), None).await;
    let b = spawn_replica(&a, opts(), None).await;
    let token = a.user("rita").await;
    assert_eq!(
        a.submit(&token, "fast-power", "// 1", "run").await.status(),
        202
    );
    assert_eq!(
        b.submit(&token, "fast-power", "// 2", "run").await.status(),
        202
    );
    assert_eq!(
        a.submit(&token, "fast-power", "// 3", "run").await.status(),
        429
    );
    assert_eq!(
        b.submit(&token, "fast-power", "// 4", "run").await.status(),
        429
    );
    assert_eq!(a.count("submissions").await, 2);
}

#[tokio::test]
async fn a_stream_on_one_replica_sees_the_verdict_a_worker_gave_through_another() {
    let grader = fake_grader();
    // Replica A takes the submission and the stream; only B grades.
    let a = spawn_app(
        Options {
            workers: 0,
            ..Options::default()
        },
        None,
    )
    .await;
    let b = spawn_replica(&a, Options::default(), Some(grader)).await;
    let token = a.user("sven").await;
    let id = a
        .submit_id(
            &token,
            "fast-power",
            crate::helpers::reference("fast-power"),
            "run",
        )
        .await;
    let text = tokio::time::timeout(
        Duration::from_secs(120),
        a.get(&token, &format!("/api/submissions/{id}/events"))
            .await
            .text(),
    )
    .await
    .expect("the stream ends with the verdict")
    .unwrap();
    let last = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .next_back()
        .unwrap();
    let report: serde_json::Value = serde_json::from_str(last).unwrap();
    assert_eq!(report["verdict"], "accepted", "{text}");
    assert_eq!(report["state"], "done");
    let seen_on_b = b.verdict(&token, id, Duration::from_secs(5)).await;
    assert_eq!(seen_on_b["verdict"], "accepted");
}

#[tokio::test]
async fn a_replica_that_dies_mid_burst_loses_nothing_and_grades_nothing_twice() {
    let grader = fake_grader();
    let opts = || Options {
        workers: 1,
        lease: Duration::from_secs(3),
        burst: 100,
        ..Options::default()
    };
    let a = spawn_app(opts(), Some(grader.clone())).await;
    let b = spawn_replica(&a, opts(), Some(grader)).await;
    let token = a.user("burst").await;
    let reference = crate::helpers::reference("fast-power");
    let mut ids = Vec::new();
    for i in 0..12 {
        // Distinct sources, each graded a while, so B dies holding one.
        let source = format!("{reference}\n// fake: accepted\n// fake: slow 300ms\n// {i}\n");
        let on = if i % 2 == 0 { &a } else { &b };
        ids.push(on.submit_id(&token, "fast-power", &source, "run").await);
    }
    // B goes away with whatever its worker holds; its leases expire and A's worker retries.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let b_db = b.db.clone();
    b.app.stop();
    for id in &ids {
        let v = a.verdict(&token, *id, Duration::from_secs(300)).await;
        assert_eq!(v["verdict"], "accepted", "{v}");
    }
    let db = &a.app.state.db;
    let done: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM jobs WHERE state = 'done'")
        .fetch_one(db)
        .await
        .unwrap();
    assert_eq!(done, ids.len() as i64);
    // One stored result per submission: each run case appears once.
    let dupes: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM (SELECT submission_id, name FROM case_results
           GROUP BY submission_id, name HAVING COUNT(*) > 1) AS d",
    )
    .fetch_one(db)
    .await
    .unwrap();
    assert_eq!(dupes, 0);
    assert_eq!(b_db, a.db);
}

#[tokio::test]
async fn sweepers_on_every_replica_end_an_exhausted_job_once() {
    let app = spawn_idle().await;
    let ids = queue_directly(&app, 1, katas::Mode::Submit).await;
    let db = &app.app.state.db;
    // Its last allowed lease has expired.
    sqlx::query(
        "UPDATE jobs SET state = 'leased', lease_token = 'gone', lease_expires_at = 1,
           attempts = $1 WHERE submission_id = $2",
    )
    .bind(jobs::MAX_ATTEMPTS)
    .bind(ids[0])
    .execute(db)
    .await
    .unwrap();
    let sweeps: Vec<_> = (0..8)
        .map(|c| {
            let db = db.clone();
            tokio::spawn(async move {
                jobs::claim(
                    &db,
                    &format!("s{c}"),
                    &[JobKind::Cpu],
                    server::domain::JobPhase::Verdict,
                    60_000,
                )
                .await
                .unwrap()
            })
        })
        .collect();
    let mut failed = Vec::new();
    for s in sweeps {
        let (job, exhausted) = s.await.unwrap();
        assert!(job.is_none(), "an exhausted job is never leased again");
        failed.extend(exhausted);
    }
    assert_eq!(failed, ids, "exactly one sweeper ended it");
    let s = submissions::get(db, ids[0]).await.unwrap().unwrap();
    assert_eq!(s.verdict, Some(katas::Verdict::InternalError));
}

#[tokio::test]
async fn on_postgres_an_event_on_one_replica_reaches_the_others_at_once() {
    if !crate::postgres::selected() {
        println!("skipping: LISTEN/NOTIFY is PostgreSQL's (INFRAKATA_TEST_DB=postgres)");
        return;
    }
    let a = spawn_idle().await;
    let b = spawn_replica(
        &a,
        Options {
            workers: 0,
            ..Options::default()
        },
        None,
    )
    .await;
    let mut heard = a.app.state.events.subscribe();
    // The listeners connect in the background: say it again until A hears it.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        b.app
            .state
            .publish(SubmissionId(4242), server::domain::State::Measuring);
        let got = tokio::time::timeout(Duration::from_millis(200), async {
            loop {
                match heard.recv().await {
                    Ok(e) if e.submission_id == SubmissionId(4242) => return e,
                    _ => continue,
                }
            }
        })
        .await;
        if let Ok(e) = got {
            assert!(e.remote);
            assert_eq!(e.state, server::domain::State::Measuring);
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "A never heard B's event"
        );
    }
}

#[tokio::test]
async fn failed_log_ins_on_one_replica_count_on_another() {
    fn small_throttle(c: &mut server::state::ServerConfig) {
        // Nothing drains during the test.
        let every = Duration::from_secs(600);
        c.login_failures_per_account = server::login_throttle::FailureQuota { burst: 3, every };
        c.login_failures_per_address = server::login_throttle::FailureQuota { burst: 5, every };
    }
    let opts = || Options {
        workers: 0,
        configure: small_throttle,
        ..Options::default()
    };
    let a = spawn_app(opts(), None).await;
    let b = spawn_replica(&a, opts(), None).await;
    let hash = server::password::hash("long enough pw").unwrap();
    users::create(&a.app.state.db, "ada", Role::Learner, Some(&hash))
        .await
        .unwrap();
    let here: std::net::IpAddr = "127.0.0.1".parse().unwrap();
    let there: std::net::IpAddr = "127.0.0.2".parse().unwrap();
    let on = |app: &TestApp, from| Browser::from_address(app, Some(from));

    // Two failures on A and one on B use up ada's three, wherever the next attempt lands.
    assert_eq!(on(&a, here).login("ada", "wrong").await.status(), 401);
    assert_eq!(on(&a, there).login("ada", "wrong").await.status(), 401);
    assert_eq!(on(&b, there).login("ada", "wrong").await.status(), 401);
    for app in [&a, &b] {
        let resp = on(app, here).login("ada", "long enough pw").await;
        assert_eq!(resp.status(), 429);
        assert!(resp.text().await.unwrap().contains("this account"));
    }

    // "there" has spent two of its five on ada; three unknown names on A spend the rest, and
    // B refuses it even a name it has never seen.
    for name in ["nobody", "no-one", "none"] {
        assert_eq!(on(&a, there).login(name, "wrong").await.status(), 401);
    }
    let resp = on(&b, there).login("fresh", "wrong").await;
    assert_eq!(resp.status(), 429);
    assert!(resp.text().await.unwrap().contains("network address"));
}

/// A rolling deploy: replicas of the old and the new binary sync their catalogues in any
/// order, as often as they restart, and the table ends as the newer catalogue says.
#[tokio::test]
async fn catalogue_syncs_end_in_the_newer_catalogue_whatever_their_order() {
    use server::db::katas::{Catalogue, Row, Synced, sync_catalogue};
    let row = |slug: &str, title: &str| Row {
        slug: slug.into(),
        title: title.into(),
        summary: format!("{slug} in brief"),
        difficulty: "easy".into(),
        kind: "cpu".into(),
        topics: "[]".into(),
        version: server::db::kata_versions::Published {
            content_hash: format!("{slug}-{title}"),
            grading_hash: format!("{slug}-{title}"),
            api: katas::learner_api::LearnerApi::default(),
            starter: String::new(),
            source: server::domain::VersionSource::Build,
            statements: None,
            published_by: None,
        },
        package: None,
    };
    let old = Catalogue {
        generation: 1_700_000_000,
        fingerprint: "old".into(),
        katas: vec![
            row("alpha", "Alpha"),
            row("beta", "Beta, old"),
            row("gamma", "Gamma"),
        ],
    };
    let new = Catalogue {
        generation: 1_800_000_000,
        fingerprint: "new".into(),
        katas: vec![
            row("beta", "Beta, new"),
            row("delta", "Delta"),
            row("alpha", "Alpha"),
        ],
    };
    let mut ends = Vec::new();
    for order in [[&old, &new, &old], [&new, &old, &old]] {
        let dir = tempfile::tempdir().unwrap();
        let db = server::db::open(crate::helpers::database(&dir).await)
            .await
            .unwrap();
        let mut outcomes = Vec::new();
        for catalogue in order {
            outcomes.push(sync_catalogue(&db, catalogue).await.unwrap());
        }
        let older = Synced::Older {
            stored: new.generation,
        };
        assert_eq!(
            outcomes.last(),
            Some(&older),
            "an old replica restarting changes nothing"
        );
        let rows: Vec<(String, String, i64, i64)> =
            sqlx::query_as("SELECT slug, title, position, listed FROM katas ORDER BY slug")
                .fetch_all(&db)
                .await
                .unwrap();
        ends.push(rows);
    }
    assert_eq!(ends[0], ends[1], "the order of the syncs does not matter");
    let listed: Vec<(&str, &str, i64)> = ends[0]
        .iter()
        .filter(|r| r.3 == 1)
        .map(|r| (r.0.as_str(), r.1.as_str(), r.2))
        .collect();
    assert_eq!(
        listed,
        [
            ("alpha", "Alpha", 2),
            ("beta", "Beta, new", 0),
            ("delta", "Delta", 1)
        ]
    );
    // The old binary's own kata keeps a row (what it serves can be submitted), unlisted.
    assert!(ends[0].iter().any(|r| r.0 == "gamma" && r.3 == 0));
}

#[tokio::test]
async fn concurrent_log_ins_on_two_replicas_never_overrun_the_burst() {
    fn small_throttle(c: &mut server::state::ServerConfig) {
        let every = Duration::from_secs(600);
        c.login_failures_per_account = server::login_throttle::FailureQuota { burst: 3, every };
        c.login_failures_per_address = server::login_throttle::FailureQuota { burst: 100, every };
    }
    let opts = || Options {
        workers: 0,
        configure: small_throttle,
        ..Options::default()
    };
    let a = spawn_app(opts(), None).await;
    let b = spawn_replica(&a, opts(), None).await;
    let attempts: Vec<_> = (0..16)
        .map(|i| {
            let throttle = if i % 2 == 0 { &a } else { &b }
                .app
                .state
                .login_throttle
                .clone();
            tokio::spawn(async move {
                let from = std::net::IpAddr::from([192, 0, 2, i as u8]);
                // Held as failures: each reservation counts.
                throttle.attempt("ada", from).await.unwrap().is_ok()
            })
        })
        .collect();
    let mut let_in = 0;
    for attempt in attempts {
        let_in += usize::from(attempt.await.unwrap());
    }
    assert_eq!(
        let_in, 3,
        "exactly the burst, however the attempts interleave"
    );
}
