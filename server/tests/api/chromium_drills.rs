//! The drills browser test: headless Chromium runs a mock interview in 中文 (the clock cut
//! short by moving its end close: the page's own countdown opens the report), answers a drill
//! item, submits the kata, reads the report; then, in English, a missed drill item comes due on
//! the Review page and is answered there. Needs Debian's `chromium` (required under
//! `INFRAKATA_CI=1`); no grader is needed (the kata's submit stays queued).

use crate::cdp::{self, Chromium};
use crate::helpers::spawn_idle;
use katas::drills::{Key, KeyBody};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(60);

fn browser() -> Option<&'static str> {
    let found = cdp::find();
    if found.is_none() {
        assert!(
            std::env::var_os("INFRAKATA_CI").is_none(),
            "the drills browser test needs chromium under INFRAKATA_CI=1"
        );
        println!("skipping: no chromium here");
    }
    found
}

/// Runs `js`, which navigates, and waits until the page it leads to satisfies `ready`. An
/// evaluation in flight while the page unloads fails, so polling starts once the navigation has
/// had time to begin.
fn navigate(b: &mut Chromium, js: &str, ready: &str) {
    b.eval(&format!("setTimeout(() => {{ {js} }}, 0); true"));
    std::thread::sleep(Duration::from_millis(800));
    b.wait_for(ready, WAIT);
}

/// JavaScript that fills the open attempt's form with `key`'s model answer and submits it.
fn fill_and_commit(key: &Key) -> String {
    let parts = key.model_response().parts;
    let choice = matches!(key.body, KeyBody::Choice { .. });
    let parts = serde_json::to_string(&parts).unwrap();
    format!(
        "const f = document.querySelector('form.drill-form'); const parts = {parts};
         if ({choice}) {{ for (const p of parts) f.querySelector(`input[name=pick][value=\"${{p}}\"]`).checked = true; }}
         else {{ parts.forEach((p, i) => {{ f.elements['p' + i].value = p; }}); }}
         f.submit();"
    )
}

#[tokio::test]
async fn a_learner_runs_an_interview_and_a_review_in_the_browser() {
    let Some(binary) = browser() else { return };
    let app = spawn_idle().await;
    let base = app.app.url();
    let db = app.app.state.db.clone();
    let handle = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let key_of = |id: i64| -> Key {
            let text: String = handle
                .block_on(
                    sqlx::query_scalar("SELECT answer_key FROM drill_attempts WHERE id = $1")
                        .bind(id)
                        .fetch_one(&db),
                )
                .unwrap();
            serde_json::from_str(&text).unwrap()
        };
        let mut b = Chromium::launch(binary);
        b.open(&format!("{base}/signup"));
        b.wait_for("document.readyState === 'complete' && !!document.querySelector('form.stack')", WAIT);
        navigate(
            &mut b,
            "const f = document.querySelector('form.stack'); f.name.value = 'mei'; f.password.value = 'long enough pw'; f.confirm.value = 'long enough pw'; f.submit();",
            "document.readyState === 'complete' && document.querySelector('.who') && document.querySelector('.who').textContent",
        );

        // The interview, in 中文, 45 minutes as offered.
        navigate(
            &mut b,
            &format!("location.href = '{base}/interviews?lang=zh'"),
            "document.readyState === 'complete' && document.body.textContent.includes('开始面试')",
        );
        navigate(
            &mut b,
            "document.querySelector('form[action=\"/interviews\"]').submit()",
            "document.readyState === 'complete' && !!document.getElementById('clock-left')",
        );
        let left = b.eval("document.getElementById('clock-left').textContent");
        assert!(left.as_str().unwrap().starts_with("44:") || left == "45:00", "{left}");
        let id: i64 = b
            .eval("location.pathname.split('/')[2]")
            .as_str()
            .unwrap()
            .parse()
            .unwrap();

        // Answer the first drill item; back on the interview page it is marked answered.
        let href = b.eval(
            "document.querySelector('a[href^=\"/drills/attempts/\"]').getAttribute('href')",
        );
        let href = href.as_str().unwrap().to_string();
        let attempt: i64 = href
            .trim_start_matches("/drills/attempts/")
            .split('?')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        navigate(
            &mut b,
            &format!("location.href = '{base}{href}'"),
            "document.readyState === 'complete' && !!document.querySelector('form.drill-form')",
        );
        navigate(
            &mut b,
            &fill_and_commit(&key_of(attempt)),
            "document.readyState === 'complete' && !!document.getElementById('clock-left') && document.body.textContent.includes('已作答')",
        );

        // Submit the kata from the interview page.
        navigate(
            &mut b,
            "const f = document.querySelector('form[action$=\"/submit\"]'); f.source.value = 'pub fn nothing() {}'; f.submit();",
            "document.readyState === 'complete' && !!document.querySelector('[data-verdict]')",
        );

        // Cut the clock short: the page's own countdown reaches zero and opens the report.
        handle
            .block_on(
                sqlx::query("UPDATE interviews SET ends_at = $1 WHERE id = $2")
                    .bind(server::db::now_ms() + 1_500)
                    .bind(id)
                    .execute(&db),
            )
            .unwrap();
        b.eval("setTimeout(() => location.reload(), 0); true");
        std::thread::sleep(Duration::from_secs(4));
        b.wait_for(
            "location.pathname.endsWith('/report') && document.readyState === 'complete' && document.body.textContent.includes('面试报告')",
            WAIT,
        );
        let right = b.eval("document.querySelectorAll('[data-outcome=\"right\"]').length");
        assert_eq!(right, 1);
        let kata = b.eval("document.querySelector('[data-verdict]').textContent");
        assert_eq!(kata, "pending");

        // In English: miss a drill item, find it due on the Review page, answer it there.
        let start = "form[action=\"/drills/python-gil/pep-703/start\"]";
        navigate(
            &mut b,
            &format!("location.href = '{base}/drills/python-gil'"),
            &format!("document.readyState === 'complete' && !!document.querySelector('{start}')"),
        );
        navigate(
            &mut b,
            &format!("document.querySelector('{start}').submit()"),
            "document.readyState === 'complete' && !!document.querySelector('form.drill-form')",
        );
        let attempt: i64 = b
            .eval("location.pathname.split('/')[3]")
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        let key = key_of(attempt);
        let KeyBody::Choice { options, .. } = &key.body else {
            panic!("a choice")
        };
        let wrong = options.iter().find(|o| !o.correct).unwrap().label.clone();
        navigate(
            &mut b,
            &format!(
                "const f = document.querySelector('form.drill-form'); f.querySelector('input[name=pick][value=\"{wrong}\"]').checked = true; f.submit();"
            ),
            "document.readyState === 'complete' && document.body.textContent.includes('Explanation')",
        );
        navigate(
            &mut b,
            &format!("location.href = '{base}/review'"),
            &format!("document.readyState === 'complete' && !!document.querySelector('{start}')"),
        );
        navigate(
            &mut b,
            &format!("document.querySelector('{start}').submit()"),
            "document.readyState === 'complete' && !!document.querySelector('form.drill-form')",
        );
        let attempt: i64 = b
            .eval("location.pathname.split('/')[3]")
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        navigate(
            &mut b,
            &fill_and_commit(&key_of(attempt)),
            "document.readyState === 'complete' && document.body.textContent.includes('Explanation') && document.body.textContent.includes('Right')",
        );
    })
    .await
    .unwrap();
}
