//! The drills browser tests. One: headless Chromium runs a mock interview in 中文 (switched with
//! the header's button, as on every page; the clock cut short by moving its end close: the
//! page's own countdown opens the report), answers a drill item, submits the kata, reads the
//! report; then, switched back to English, a missed drill item comes due on the Review page and
//! is answered there. No grader is needed (the kata's submit stays queued). Two: the
//! interview's kata has the kata page's editor and shows its verdict live, without a reload
//! (graded by the scripted grader, `fake_grader.rs`). Both need Debian's `chromium` (required
//! under `INFRAKATA_CI=1`).

use crate::cdp::{Chromium, VERDICT, WAIT, browser};
use crate::helpers::{Options, fake_grader, reference, spawn_app, spawn_idle};
use katas_drills::{Key, KeyBody};
use std::time::Duration;

/// JavaScript that fills the open attempt's form with `key`'s model answer and submits it.
pub(crate) fn fill_and_commit(key: &Key) -> String {
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

/// The number in the path's segment `at` (`/interviews/7` → 7 at 2).
fn id_in_path(b: &mut Chromium, at: usize) -> i64 {
    b.eval(&format!("location.pathname.split('/')[{at}]"))
        .as_str()
        .unwrap()
        .parse()
        .unwrap()
}

#[tokio::test]
async fn a_learner_runs_an_interview_and_a_review_in_the_browser() {
    let Some(binary) = browser() else { return };
    let app = spawn_idle().await;
    let base = app.app.url();
    let db = app.app.state.db.clone();
    let handle = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let key_of = |id: i64| -> Key { handle.block_on(crate::helpers::answer_key(&db, id)) };
        let mut b = Chromium::signed_up(binary, &base, "mei");

        // The interview, in 中文 by the header's switch, 45 minutes as offered.
        b.goto(&format!("{base}/interviews"));
        b.switch_lang("zh");
        assert_eq!(b.eval("location.pathname"), "/interviews");
        let text = b.eval("document.querySelector('main').textContent");
        assert!(text.as_str().unwrap().contains("开始面试"), "{text}");
        b.navigate_by(
            "document.querySelector('form[action=\"/interviews\"]').submit()",
            "!!document.getElementById('clock-left')",
        );
        let left = b.eval("document.getElementById('clock-left').textContent");
        assert!(left.as_str().unwrap().starts_with("44:") || left == "45:00", "{left}");
        let id = id_in_path(&mut b, 2);
        let heading = b.eval("document.querySelector('main h2').textContent");
        assert_eq!(heading, "编程题");

        // Answer the first drill item; back on the interview page it is marked answered.
        let href = b.eval(
            "document.querySelector('a[href^=\"/drills/attempts/\"]').getAttribute('href')",
        );
        let href = href.as_str().unwrap().to_string();
        b.goto(&format!("{base}{href}"));
        let attempt = id_in_path(&mut b, 3);
        b.wait_for("!!document.querySelector('form.drill-form')", WAIT);
        b.navigate_by(
            &fill_and_commit(&key_of(attempt)),
            "!!document.getElementById('clock-left') && document.body.textContent.includes('已作答')",
        );

        // Submit the kata from the interview page without its script (the form still works).
        b.navigate_by(
            "const f = document.getElementById('interview-form'); f.source.value = 'pub fn nothing() {}'; f.submit();",
            "!!document.querySelector('[data-verdict]')",
        );
        let best = b.eval("document.querySelector('[data-verdict]').textContent");
        assert!(best.as_str().unwrap().contains("等待中"), "{best}");

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
        let kata = b.eval("document.querySelector('[data-verdict]').dataset.verdict");
        assert_eq!(kata, "pending");

        // In English again: miss a drill item, find it due on the Review page, answer it there.
        let start = "form[action=\"/drills/python-gil/pep-703/start\"]";
        b.goto(&format!("{base}/drills/python-gil"));
        b.switch_lang("en");
        b.navigate_by(
            &format!("document.querySelector('{start}').submit()"),
            "!!document.querySelector('form.drill-form')",
        );
        let attempt = id_in_path(&mut b, 3);
        let key = key_of(attempt);
        let KeyBody::Choice { options, .. } = &key.body else {
            panic!("a choice")
        };
        let wrong = options.iter().find(|o| !o.correct).unwrap().label.clone();
        b.navigate_by(
            &format!(
                "const f = document.querySelector('form.drill-form'); f.querySelector('input[name=pick][value=\"{wrong}\"]').checked = true; f.submit();"
            ),
            "document.body.textContent.includes('Explanation')",
        );
        b.goto(&format!("{base}/review"));
        b.navigate_by(
            &format!("document.querySelector('{start}').submit()"),
            "!!document.querySelector('form.drill-form')",
        );
        let attempt = id_in_path(&mut b, 3);
        b.navigate_by(
            &fill_and_commit(&key_of(attempt)),
            "document.body.textContent.includes('Explanation') && document.body.textContent.includes('Right')",
        );
    })
    .await
    .unwrap();
}

/// The interview's kata in the kata page's editor (CodeMirror), submitted with Ctrl+Enter from
/// the editor: the verdict shows on the same page, live, without a reload.
#[tokio::test]
async fn the_interview_kata_has_the_editor_and_a_live_verdict() {
    let grader = fake_grader();
    let Some(binary) = browser() else { return };
    let app = spawn_app(Options::default(), Some(grader)).await;
    let base = app.app.url();
    tokio::task::spawn_blocking(move || {
        let mut b = Chromium::signed_up(binary, &base, "mei");
        b.start_interview(&base);
        assert_eq!(b.eval("!!document.querySelector('#interview-form .cm-host')"), true, "CodeMirror");
        let slug = b.eval("document.getElementById('interview-form').dataset.kata");
        let slug = slug.as_str().unwrap().to_string();
        b.eval(
            "(() => { const f = document.getElementById('interview-form'); f.editor.value = '';
               f.querySelector('.cm-host').shadowRoot.querySelector('.cm-content').focus(); return true; })()",
        );
        b.type_text(reference(&slug));
        b.eval("window.__stayed = true");
        b.key("Enter", "Enter", 13, 2);
        assert_eq!(
            b.eval("document.querySelector('#interview-form button[type=submit]').disabled"),
            true,
            "disabled while it is graded"
        );
        let verdict = b.wait_for(VERDICT, WAIT);
        assert_eq!(verdict, "Accepted");
        // The best submit so far follows once the grading is over, still without a reload.
        let best = b.wait_for(
            "(() => { const s = document.querySelector('#best-submit .badge'); return s && s.dataset.verdict; })()",
            WAIT,
        );
        assert_eq!(best, "accepted");
        assert_eq!(b.eval("window.__stayed === true"), true, "no reload");
        let typed = b.eval("document.getElementById('interview-form').editor.value");
        assert_eq!(typed, reference(&slug), "the code stays in the editor");
    })
    .await
    .unwrap();
}
