//! The instructor's view of a kata, per version: figures from submissions graded through the
//! workers (by the scripted grader, `fake_grader.rs`: the figures, not the grading, are under
//! test), the page for staff only, and the same figures as CSV.

use crate::browser::Browser;
use crate::helpers::{Options, fake_grader, reference, spawn_app};
use server::db::users::{self, Role};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(90);
const WRONG: &str = "pub fn power(_b: f64, _e: i32) -> f64 { 0.0 }\npub fn pow_mod(_b: u64, _e: u64, _m: u64) -> u64 { 0 }\n";

#[tokio::test]
async fn an_instructor_sees_a_katas_learners_by_version_and_can_export_them() {
    let grader = fake_grader();
    let app = spawn_app(Options::default(), Some(grader)).await;
    let (ada, bob) = (app.user("ada").await, app.user("bob").await);
    // Ada fails once, then solves it; Bob solves it at once; a run is not an attempt.
    for (token, source, mode) in [
        (&ada, WRONG, "submit"),
        (&ada, reference("fast-power"), "submit"),
        (&bob, reference("fast-power"), "submit"),
        (&bob, WRONG, "run"),
    ] {
        let id = app.submit_id(token, "fast-power", source, mode).await;
        app.verdict(token, id, WAIT).await;
    }

    let hash = server::password::hash("long enough pw").unwrap();
    for (name, role) in [("ines", Role::Instructor), ("lea", Role::Learner)] {
        users::create(&app.app.state.db, name, role, Some(&hash))
            .await
            .unwrap();
    }
    let learner = Browser::new(&app);
    learner.login("lea", "long enough pw").await;
    assert_eq!(learner.get("/admin/katas/fast-power").await.status(), 403);
    assert_eq!(
        learner
            .get("/admin/katas/fast-power/stats.csv")
            .await
            .status(),
        403
    );

    let staff = Browser::new(&app);
    staff.login("ines", "long enough pw").await;
    let admin = staff.page("/admin").await;
    assert!(admin.contains("href=\"/admin/katas/fast-power\""));
    let page = staff.page("/admin/katas/fast-power").await;
    let row = page
        .split("id=\"kata-stats\"")
        .nth(1)
        .and_then(|t| t.split("<tbody>").nth(1))
        .and_then(|t| t.split("</tr>").next())
        .unwrap_or_default();
    for cell in [
        "version 1",
        "data-label=\"Attempts\">3</td>",
        "data-label=\"Learners\">2</td>",
        "67%",
        "Accepted 2 · Wrong answer 1",
        "power: 2^10 (1)",
    ] {
        assert!(row.contains(cell), "{cell} missing from {row}");
    }
    assert_eq!(staff.get("/admin/katas/no-such-kata").await.status(), 404);

    let csv = staff.get("/admin/katas/fast-power/stats.csv").await;
    assert_eq!(csv.status(), 200);
    assert!(
        csv.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let text = csv.text().await.unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some(
            "version,attempts,learners,accepted,accept_rate,verdicts,first_failing_case,first_failing_count,median_ms_to_first_accept"
        )
    );
    let fields: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(
        &fields[..8],
        [
            "1",
            "3",
            "2",
            "2",
            "0.6667",
            "accepted=2;wrong_answer=1",
            "power: 2^10",
            "1"
        ]
    );
    assert!(fields[8].parse::<i64>().unwrap() >= 0);

    staff.switch_lang("zh", "/admin/katas/fast-power").await;
    let page = staff.page("/admin/katas/fast-power").await;
    assert!(
        page.contains("第 1 版") && page.contains("通过率"),
        "{page}"
    );
}
