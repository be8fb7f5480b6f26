//! Nothing stale, nothing guessed, in headless Chromium on the real app: a new run clears the
//! last one's result, cases and gutter marks (also when it ends in a compile error, which has
//! no cases), the gutter's tooltip lists every message on a line, the "starter" note follows
//! edits and the editor/result split resizes (needs the sandbox); the Custom input tab shows the input's format, an example per
//! entry point, in English and 中文, and Run and Submit on screen on a phone; finishing an interview asks first, its clock stays in view
//! while scrolling, and its report shows the learner's answer beside the expected one on a
//! phone. Needs Debian's `chromium` (required under `INFRAKATA_CI=1`).

use crate::cdp::{Chromium, VERDICT, WAIT, browser};
use crate::chromium_drills::fill_and_commit;
use crate::helpers::{Options, fake_grader, grader, spawn_app, spawn_idle};
use katas_drills::Key;
use std::time::Duration;

const PHONE: (u32, u32) = (390, 844);
const DESKTOP: (u32, u32) = (1400, 1000);
const NOTE: &str = "document.getElementById('source-note').textContent";
const FORM: &str = "document.getElementById('editor-form')";

fn fits(b: &mut Chromium, width: u32, what: &str) {
    let widest =
        b.eval("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)");
    assert!(
        widest.as_u64().unwrap() <= u64::from(width),
        "{what}: {widest} px wide in a {width} px window"
    );
}

/// With `INFRAKATA_SCREENS=DIR`, what the window shows now (not the whole page) as `DIR/name`.
fn window_shot(b: &mut Chromium, name: &str) {
    use base64::Engine as _;
    let Some(dir) = std::env::var_os("INFRAKATA_SCREENS") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let shot = b.call(
        "Page.captureScreenshot",
        serde_json::json!({ "format": "png" }),
    );
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot["data"].as_str().unwrap())
        .unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}

#[tokio::test]
async fn a_new_run_clears_the_last_result_and_a_compile_error_leaves_no_cases() {
    let Some(grader) = grader() else { return };
    let Some(binary) = browser() else { return };
    let app = spawn_app(Options::default(), Some(grader)).await;
    let base = app.app.url();
    tokio::task::spawn_blocking(move || {
        let mut b = Chromium::signed_up(binary, &base, "mei");
        b.viewport(DESKTOP.0, DESKTOP.1, false);
        b.goto(&format!("{base}/katas/fast-power"));

        // The note beside the file name follows the code: the starter, edited, the starter again.
        assert_eq!(b.eval(NOTE), "the starter");
        b.eval(&format!("{FORM}.editor.focus(); true"));
        b.type_text("// mine\n");
        assert_eq!(b.eval(NOTE), "your draft");
        b.eval("window.confirm = () => true; document.getElementById('reset-starter').click(); true");
        assert_eq!(b.eval(NOTE), "the starter");

        // A wrong answer fills the Cases tab.
        let wrong = "pub fn power(_b: f64, _e: i32) -> f64 { 0.0 }\npub fn pow_mod(_b: u64, _e: u64, _m: u64) -> u64 { 0 }\n";
        b.eval(&format!(
            "{FORM}.editor.value = {}; document.querySelector('button[value=\"run\"]').click(); true",
            serde_json::to_string(wrong).unwrap()
        ));
        b.wait_for(&format!("{VERDICT} === 'Wrong answer'"), WAIT);
        b.wait_for("!document.querySelector('button[value=\"run\"]').disabled", WAIT);
        assert_eq!(b.eval("!!document.querySelector('#cases .r-cases')"), true);
        let count = b.eval("document.getElementById('cases-count').textContent");
        assert!(count.as_str().unwrap().starts_with('('), "{count}");

        // Two errors on one line: the next run starts clean at once (no verdict, no cases), and
        // its compile error leaves the Cases tab as before any run.
        let broken = "pub fn power(_b: f64, _e: i32) -> f64 {\n    let a: u8 = \"a\"; let b: u8 = \"b\"; 0.0\n}\npub fn pow_mod(_b: u64, _e: u64, _m: u64) -> u64 { 0 }\n";
        let started = b.eval(&format!(
            "(() => {{ const f = {FORM}; const mark = f.editor.mark.bind(f.editor);
               window.__marks = null;
               f.editor.mark = (m) => {{ window.__marks = Array.from(m.entries()); mark(m); }};
               f.editor.value = {};
               document.querySelector('button[value=\"run\"]').click();
               return [!document.querySelector('#result .verdict'), !document.querySelector('#cases .r-cases'),
                       document.getElementById('cases-count').textContent]; }})()",
            serde_json::to_string(broken).unwrap()
        ));
        assert_eq!(started, serde_json::json!([true, true, ""]), "cleared at once");
        b.wait_for(&format!("{VERDICT} === 'Compile error'"), WAIT);
        b.wait_for("!document.querySelector('button[value=\"run\"]').disabled", WAIT);
        assert_eq!(b.eval("!!document.querySelector('#cases .r-cases')"), false);
        assert_eq!(b.eval("document.getElementById('cases-count').textContent"), "");
        let placeholder = b.eval("document.getElementById('cases').textContent.trim()");
        assert!(!placeholder.as_str().unwrap().is_empty(), "{placeholder}");

        // The editor/result split: the grip gives the result more room by keyboard too.
        let grown = b.eval(
            "(() => { const g = document.getElementById('hdivider');
               const pane = () => document.getElementById('pane-result').getBoundingClientRect().height;
               const before = pane(); g.focus();
               for (let i = 0; i < 3; i++) g.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }));
               return [g.getAttribute('aria-valuenow'), pane() > before]; })()",
        );
        assert_eq!(grown, serde_json::json!(["49", true]));

        // The gutter's tooltip on line 2 lists both errors, numbered, the first one first.
        let marks = b.wait_for(
            "window.__marks && window.__marks.length && window.__marks",
            WAIT,
        );
        let line2 = marks
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m[0] == 2)
            .unwrap_or_else(|| panic!("a mark on line 2: {marks}"));
        assert_eq!(line2[1]["level"], "error");
        let message = line2[1]["message"].as_str().unwrap();
        assert!(
            message.starts_with("1. ") && message.contains("\n2. "),
            "{message}"
        );
    })
    .await
    .unwrap();
}

#[tokio::test]
async fn custom_input_shows_its_format_for_every_entry_point() {
    let Some(binary) = browser() else { return };
    let idle = Options {
        workers: 0,
        ..Options::default()
    };
    let app = spawn_app(idle, Some(fake_grader())).await;
    app.with_examples("fast-power").await;
    let base = app.app.url();
    tokio::task::spawn_blocking(move || {
        let mut b = Chromium::signed_up(binary, &base, "mei");
        for (lang, heading) in [
            ("en", "Input format: an example for each entry point"),
            ("zh", "输入格式：每个入口函数各一个示例"),
        ] {
            b.viewport(PHONE.0, PHONE.1, true);
            b.goto(&format!("{base}/katas/fast-power"));
            if lang == "zh" {
                b.switch_lang("zh");
            }
            // Run and Submit are on screen as the page opens on a phone, without scrolling.
            let reach = b.eval(
                "Array.from(document.querySelectorAll('#editor-form button[type=submit]')).map((x) => {
                   const r = x.getBoundingClientRect(); return window.scrollY === 0 && r.top >= 0 && r.bottom <= window.innerHeight; })",
            );
            assert_eq!(reach, serde_json::json!([true, true]), "{lang}");
            window_shot(&mut b, &format!("window-{lang}-kata-phone.png"));
            b.eval("document.getElementById('tab-result').click(); document.getElementById('btab-custom').click(); true");
            let format = b.eval(
                "(() => { const d = document.getElementById('custom-format');
                   return [d.open, d.querySelector('summary').textContent,
                     Array.from(d.querySelectorAll('.custom-example')).map((e) => [e.dataset.entry,
                       Object.keys(JSON.parse(e.querySelector('pre').textContent))[0]])]; })()",
            );
            assert_eq!(
                format,
                serde_json::json!([true, heading, [["Power", "Power"], ["PowMod", "PowMod"]]]),
                "{lang}"
            );
            fits(&mut b, PHONE.0, "the input's format on a phone");
            // "Use this example" starts the input from it.
            let used = b.eval(
                "(() => { document.querySelector('.use-example[data-example=\"1\"]').click();
                   return document.getElementById('custom-input').value === document.getElementById('custom-example-1').textContent
                     && document.activeElement.id; })()",
            );
            assert_eq!(used, "custom-input", "{lang}");
            window_shot(&mut b, &format!("window-{lang}-custom-phone.png"));
        }
    })
    .await
    .unwrap();
}

#[tokio::test]
async fn finishing_an_interview_asks_first_and_the_report_shows_both_answers() {
    let Some(binary) = browser() else { return };
    let app = spawn_idle().await;
    let base = app.app.url();
    let db = app.app.state.db.clone();
    let handle = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let key_of = |id: i64| -> Key { handle.block_on(crate::helpers::answer_key(&db, id)) };
        let mut b = Chromium::signed_up(binary, &base, "mei");
        b.viewport(PHONE.0, PHONE.1, true);
        let at = b.start_interview(&base);

        // One drill item answered with its model answer.
        let href = b.eval("document.querySelector('a[href^=\"/drills/attempts/\"]').getAttribute('href')");
        let href = href.as_str().unwrap().to_string();
        b.goto(&format!("{base}{href}"));
        let attempt: i64 = href.rsplit('/').next().unwrap().parse().unwrap();
        b.navigate_by(
            &fill_and_commit(&key_of(attempt)),
            "!!document.getElementById('clock-left')",
        );
        assert_eq!(b.eval("location.pathname"), at.as_str());

        // Scrolled to the end, the clock is still on screen, under the top bar.
        let clock = b.eval(
            "window.scrollTo(0, document.body.scrollHeight);
             new Promise((done) => requestAnimationFrame(() => {
               const c = document.getElementById('clock').getBoundingClientRect();
               const bar = document.getElementById('topbar').getBoundingClientRect();
               done([window.scrollY > 0, c.top >= bar.bottom - 1, c.bottom <= window.innerHeight]);
             }))",
        );
        assert_eq!(clock, serde_json::json!([true, true, true]), "the clock in view");
        window_shot(&mut b, "window-interview-scrolled-phone.png");

        // "Finish" asks first: no keeps the interview running, yes opens the report.
        let asked = b.eval(
            "(() => { let asked = null; window.confirm = (q) => { asked = q; return false; };
               document.querySelector('form.interview-finish button').click(); return asked; })()",
        );
        assert!(
            asked.as_str().unwrap().starts_with("Finish the interview now?"),
            "{asked}"
        );
        std::thread::sleep(Duration::from_millis(500));
        assert_eq!(b.eval("location.pathname"), at.as_str(), "still running");
        b.navigate_by(
            "window.confirm = () => true; document.querySelector('form.interview-finish button').click()",
            "location.pathname.endsWith('/report')",
        );

        // The report: the answer beside the expected one, with the numbers; fits a phone, in
        // both languages.
        let answers = b.eval(
            "Array.from(document.querySelectorAll('[data-answers] tbody tr')).map((r) =>
               [r.querySelector('[data-given]').textContent, r.querySelector('[data-expected]').textContent])",
        );
        let rows = answers.as_array().unwrap();
        assert!(!rows.is_empty(), "{answers}");
        assert!(
            rows.iter().all(|r| r[1] != ""),
            "every part has its expected answer: {answers}"
        );
        fits(&mut b, PHONE.0, "the interview report on a phone");
        b.switch_lang("zh");
        let head = b.eval("document.querySelector('[data-answers] thead').textContent");
        assert!(head.as_str().unwrap().contains("正确答案"), "{head}");
        fits(&mut b, PHONE.0, "the interview report on a phone, 中文");
        // The item's own result page, now the interview is over, fits as well.
        b.goto(&format!("{base}{href}"));
        assert_eq!(b.eval("!!document.querySelector('table.drill-result')"), true);
        fits(&mut b, PHONE.0, "a drill result on a phone, 中文");
        window_shot(&mut b, "window-zh-drill-result-phone.png");
        b.goto(&format!("{base}{at}/report"));
        if let Some(dir) = std::env::var_os("INFRAKATA_SCREENS") {
            let dir = std::path::PathBuf::from(dir);
            std::fs::create_dir_all(&dir).unwrap();
            b.screenshot(&dir.join("zh-interview-report-phone.png"));
            b.switch_lang("en");
            b.screenshot(&dir.join("interview-report-phone.png"));
        }
    })
    .await
    .unwrap();
}

/// A kata's availability at 390 px in both languages: the instructor's form, the catalogue's
/// "unlisted" badge (staff preview), and a retired kata's page with its note and no Run or
/// Submit.
#[tokio::test]
async fn availability_pages_fit_a_phone_in_both_languages() {
    let Some(binary) = browser() else { return };
    let app = spawn_idle().await;
    let hash = server::password::hash("long enough pw").unwrap();
    server::db::users::create(
        &app.app.state.db,
        "root",
        server::db::users::Role::Admin,
        Some(&hash),
    )
    .await
    .unwrap();
    let base = app.app.url();
    tokio::task::spawn_blocking(move || {
        let mut b = Chromium::launch(binary);
        b.open(&format!("{base}/login"));
        b.wait_for("!!document.querySelector('form.stack')", WAIT);
        b.navigate_by(
            "const f = document.querySelector('form.stack'); f.name.value = 'root'; f.password.value = 'long enough pw'; f.submit();",
            "!!document.querySelector('.who')",
        );
        b.viewport(PHONE.0, PHONE.1, true);
        for (slug, status) in [("fast-power", "unlisted"), ("ring-allreduce", "retired")] {
            b.goto(&format!("{base}/admin/katas/{slug}"));
            b.navigate_by(
                &format!(
                    "const f = document.querySelector('form.availability-form');
                     f.querySelector('input[value=\"{status}\"]').checked = true; f.submit();"
                ),
                "true",
            );
        }
        for lang in ["en", "zh"] {
            if lang == "zh" {
                b.switch_lang("zh");
            }
            for (name, path) in [
                ("catalogue", "/"),
                ("kata-stats", "/admin/katas/fast-power"),
                ("kata-retired", "/katas/ring-allreduce"),
            ] {
                b.goto(&format!("{base}{path}"));
                fits(&mut b, PHONE.0, &format!("{name} in {lang}"));
                window_shot(&mut b, &format!("window-{lang}-{name}-phone.png"));
            }
            b.goto(&format!("{base}/katas/ring-allreduce"));
            let note = b.eval("(document.querySelector('.availability') || {}).textContent");
            assert!(note.as_str().is_some_and(|n| !n.is_empty()), "{lang}: {note}");
            // It takes no submissions, so it offers no button that would be refused.
            assert_eq!(
                b.eval("['button[value=\"run\"]', 'button[value=\"submit\"]', '#run-custom'].map((q) => !!document.querySelector(q))"),
                serde_json::json!([false, false, false]),
                "{lang}"
            );
        }
    })
    .await
    .unwrap();
}

/// A GPU kata's submission waits in the queue (no GPU worker here); a reload of the page does
/// not lose it: the page follows the same submission again, its panel on the Result tab and
/// Run and Submit held until it ends (issue 23 §9). In 中文, its state reads 排队中.
#[tokio::test]
async fn a_queued_gpu_submission_survives_a_reload() {
    let Some(binary) = browser() else { return };
    let app = spawn_app(
        Options {
            workers: 0,
            ..Options::default()
        },
        None,
    )
    .await;
    let base = app.app.url();
    tokio::task::spawn_blocking(move || {
        let mut b = Chromium::signed_up(binary, &base, "ren");
        b.viewport(DESKTOP.0, DESKTOP.1, false);
        b.goto(&format!("{base}/katas/gpu-pow-mod"));
        b.eval("document.querySelector('button[value=\"submit\"]').click(); true");
        let id = b.wait_for(
            "(() => { const p = document.querySelector('#result .panel'); return p && p.dataset.submission; })()",
            WAIT,
        );
        let id = id.as_str().unwrap().to_string();
        assert_eq!(
            b.eval("document.querySelector('#result .panel').dataset.state"),
            "queued"
        );

        b.reload();
        let again = b.wait_for(
            "(() => { const p = document.querySelector('#result .panel'); return p && p.dataset.submission; })()",
            WAIT,
        );
        assert_eq!(again.as_str().unwrap(), id, "the same submission, followed again");
        assert_eq!(b.eval(&format!("{FORM}.dataset.pending")), id.as_str());
        assert_eq!(
            b.eval("document.querySelector('#result .panel').dataset.state"),
            "queued"
        );
        assert_eq!(
            b.eval("!document.getElementById('pane-result').hidden"),
            true,
            "the result pane is open"
        );
        assert_eq!(
            b.eval("document.querySelector('button[value=\"submit\"]').disabled"),
            true,
            "one grading at a time: Submit waits for the queued one"
        );

        b.switch_lang("zh");
        let step = b.wait_for(
            "(() => { const s = document.querySelector('#result [data-step=\"queued\"]'); return s && s.textContent; })()",
            WAIT,
        );
        assert!(step.as_str().unwrap().contains("排队中"), "{step}");
        window_shot(&mut b, "zh-gpu-kata-queued-after-reload.png");
        // The editor (CodeMirror) takes its label from the page, in the page's language.
        assert_eq!(
            b.eval(&format!("{FORM}.editor.content.getAttribute('aria-label')")),
            "你的解答"
        );
    })
    .await
    .unwrap();
}
