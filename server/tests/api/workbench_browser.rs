//! The workbench in headless Chromium, at a desktop size and on a 390×844 phone: no page is
//! wider than the window, axe-core finds no serious or critical problem, the learner loop works
//! on a phone (tabs, shortcuts, Escape leaves the editor, a draft survives a reload, the verdict
//! shows before the performance figure, the reference unlocks in place), and dark mode follows
//! the system with a remembered switch. Needs the sandbox, Debian's `chromium` and axe-core
//! (`editor/node_modules`, installed by `scripts/build-editor.sh`); under `INFRAKATA_CI=1` all are
//! required. With `INFRAKATA_SCREENS=DIR` every page is also saved as a PNG at both sizes.

use crate::cdp::{Chromium, VERDICT, WAIT, browser, required};
use crate::helpers::{Options, TestApp, fake_grader, grader, reference, spawn_app};
use server::db::users::{self, Role};
use std::path::PathBuf;

const DESKTOP: (u32, u32) = (1400, 1000);
const PHONE: (u32, u32) = (390, 844);

/// axe-core's browser build, from the editor's npm dev dependencies.
fn axe() -> Option<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../editor/node_modules/axe-core/axe.min.js");
    let found = std::fs::read_to_string(path).ok();
    if found.is_none() {
        required("axe-core (run scripts/build-editor.sh)");
    }
    found
}

fn screens() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os("INFRAKATA_SCREENS")?);
    std::fs::create_dir_all(&dir).unwrap();
    Some(dir)
}

async fn admin(app: &TestApp) {
    let db = &app.app.state.db;
    let hash = server::password::hash("long enough pw").unwrap();
    users::create(db, "root", Role::Admin, Some(&hash))
        .await
        .unwrap();
    // Two GPU katas' checks left to workers (no worker here has a GPU, so they stay): one run
    // by a remote worker, one waiting; `/admin` lists them.
    use server::db::package_checks;
    for slug in ["pow-mod-drill", "tp-linear-drill"] {
        package_checks::queue(db, slug, "0123abcd", true, b"candidate")
            .await
            .unwrap();
    }
    package_checks::claim(db, "gpu-node-1", true, 15 * 60 * 1000)
        .await
        .unwrap()
        .unwrap();
}

const WIDEST: &str = "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)";

/// The page is no wider than the window (`width`: a phone's layout viewport grows with wide
/// content, so the device's width is the measure); names the widest element when it is.
fn assert_fits(b: &mut Chromium, width: u32, what: &str) {
    let fits = b.eval(&format!("{WIDEST} <= {width}"));
    if fits != true {
        let culprit = b.eval(&format!(
            "(() => {{ const w = {width}; let worst = null;
               const clipped = (el) => {{ for (let p = el.parentElement; p; p = p.parentElement)
                 if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) return true; return false; }};
               for (const el of document.querySelectorAll('body *')) {{
                 if (clipped(el)) continue;
                 const r = el.getBoundingClientRect();
                 if (r.right > w + 1 && (!worst || r.right > worst.r)) worst = {{ r: r.right, el }};
               }}
               return worst ? worst.el.outerHTML.slice(0, 200) + ' right=' + worst.r : 'none'; }})()"
        ));
        panic!(
            "{what}: the page is {} px wide in a {width} px window; widest: {culprit}",
            b.eval(WIDEST)
        );
    }
}

/// Runs axe-core in the page; fails on any serious or critical violation.
fn assert_accessible(b: &mut Chromium, axe_js: &str, what: &str) {
    b.eval(axe_js);
    let found = b.eval(
        "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations
           .filter((v) => v.impact === 'serious' || v.impact === 'critical')
           .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`))",
    );
    assert_eq!(found, serde_json::json!([]), "{what}: axe-core violations");
}

/// Submits `source` from inside the page (the API, with the page's CSRF token); returns the id
/// once the submission is done.
fn submit_and_wait(b: &mut Chromium, source: &str, mode: &str) -> i64 {
    let id = b.eval(&format!(
        "fetch('/api/submissions', {{ method: 'POST', credentials: 'same-origin',
           headers: {{ 'content-type': 'application/json',
                      'x-csrf-token': document.querySelector('meta[name=\"csrf-token\"]').content }},
           body: JSON.stringify({{ kata: 'fast-power', source: {}, mode: '{mode}' }}) }})
         .then((r) => r.json()).then((b) => b.id)",
        serde_json::to_string(source).unwrap()
    ));
    let id = id.as_i64().expect("a submission id");
    b.wait_for(
        &format!(
            "fetch('/api/submissions/{id}').then((r) => r.json()).then((s) => s.state === 'done')"
        ),
        WAIT,
    );
    id
}

fn log_in(b: &mut Chromium, base: &str) {
    b.goto(&format!("{base}/login"));
    b.eval(
        "(() => { const f = document.querySelector('form.stack');
           f.name.value = 'root'; f.password.value = 'long enough pw'; f.submit(); return true; })()",
    );
    b.wait_for("!!document.querySelector('.who')", WAIT);
}

/// A stdin/stdout kata published through the API with a learner's accepted submit, a candidate
/// version of it with one more case, and a rejudge against the candidate, graded to its end:
/// the pages of these (the same in both languages' sweeps).
async fn published_io_pages(app: &TestApp) -> Vec<(&'static str, String)> {
    let db = &app.app.state.db;
    let ines = users::create(db, "ines", Role::Admin, None).await.unwrap();
    let staff = users::issue_token(db, ines.id).await.unwrap();
    let package = crate::io_katas::fresh_copy("Shown in the page sweep.");
    let (ok, out) = crate::publishing::publish(app, package.path(), &staff, &[]).await;
    assert!(ok, "{out}");
    let learner = app.user("lea").await;
    let source = std::fs::read_to_string(package.path().join("reference.rs")).unwrap();
    let id = app
        .submit_id(&learner, "pair-sums", &source, "submit")
        .await;
    app.verdict(&learner, id, WAIT).await;
    let extra = package.path().join("data/secret/extra");
    std::fs::create_dir_all(&extra).unwrap();
    std::fs::write(extra.join("1.in"), "1\n5 6\n").unwrap();
    std::fs::write(extra.join("1.ans"), "11\n").unwrap();
    let (ok, out) = crate::publishing::publish(app, package.path(), &staff, &["--candidate"]).await;
    assert!(ok, "{out}");
    let started: serde_json::Value = app
        .client
        .post(app.url("/api/katas/pair-sums/rejudges"))
        .bearer_auth(&staff)
        .json(&serde_json::json!({ "version": 2, "scope": "all" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let at = started["rejudge"].as_str().unwrap().to_string();
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let diff: serde_json::Value = app.get(&staff, &at).await.json().await.unwrap();
        if diff["done"] == diff["total"] {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{diff}");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    let base = app.app.url();
    vec![
        ("kata-io", format!("{base}/katas/pair-sums")),
        ("admin-kata-io", format!("{base}/admin/katas/pair-sums")),
        (
            "rejudge",
            format!("{base}{}", at.replace("/api/katas", "/admin/katas")),
        ),
    ]
}

/// The pages a signed-in admin sees beside the kata and its submissions (the same in both
/// languages' sweeps).
fn account_pages(base: &str, interview: &str) -> Vec<(&'static str, String)> {
    [
        ("solution", "/katas/fast-power/solution".to_string()),
        ("leaderboard", "/katas/fast-power/leaderboard".into()),
        ("progress", "/progress".into()),
        ("admin", "/admin".into()),
        ("kata-gpu", format!("/katas/{}", gpu_slug())),
        ("drills", "/drills".into()),
        ("drill-set", "/drills/python-gil".into()),
        ("review", "/review".into()),
        ("interviews", "/interviews".into()),
        ("interview", interview.into()),
        ("admin-drills", "/admin/drills".into()),
        ("admin-kata-build", "/admin/katas/fast-power".into()),
    ]
    .into_iter()
    .map(|(name, path)| (name, format!("{base}{path}")))
    .collect()
}

#[tokio::test]
async fn every_page_fits_a_phone_and_a_desktop_and_passes_axe() {
    let Some(grader) = grader() else { return };
    let Some(binary) = browser() else { return };
    let Some(axe_js) = axe() else { return };
    let app = spawn_app(Options::default(), Some(grader)).await;
    admin(&app).await;
    let io_pages = published_io_pages(&app).await;
    let base = app.app.url();
    tokio::task::spawn_blocking(move || {
        let mut b = Chromium::launch(binary);
        b.open(&format!("{base}/"));
        let shots = screens();
        let sweep = |b: &mut Chromium, pages: &[(&str, String)]| {
            for (name, url) in pages {
                for (size, (w, h)) in [("desktop", DESKTOP), ("phone", PHONE)] {
                    b.viewport(w, h, size == "phone");
                    b.goto(url);
                    assert_fits(b, w, &format!("{name} at {w}×{h}"));
                    if name.starts_with("kata") && size == "phone" {
                        for tab in ["statement", "result"] {
                            b.eval(&format!("document.getElementById('tab-{tab}').click(); true"));
                            assert_fits(b, w, &format!("{name}, tab {tab}, at {w}×{h}"));
                        }
                        b.eval("document.getElementById('btab-custom').click(); true");
                        assert_fits(b, w, &format!("{name}, Custom input, at {w}×{h}"));
                        assert_accessible(b, &axe_js, &format!("{name}, Custom input, at {w}×{h}"));
                        b.eval("document.getElementById('btab-result').click(); true");
                        b.eval("document.getElementById('tab-code').click(); true");
                    }
                    assert_accessible(b, &axe_js, &format!("{name} at {w}×{h}"));
                    if let Some(dir) = &shots {
                        b.screenshot(&dir.join(format!("{name}-{size}.png")));
                    }
                }
            }
        };
        sweep(
            &mut b,
            &[
                ("catalogue-anonymous", format!("{base}/")),
                ("login", format!("{base}/login")),
                ("signup", format!("{base}/signup")),
                ("kata-anonymous", format!("{base}/katas/fast-power")),
                ("not-found", format!("{base}/katas/no-such-kata")),
            ],
        );
        b.viewport(DESKTOP.0, DESKTOP.1, false);
        log_in(&mut b, &base);
        let broken = "pub fn power(_b: f64, e: i32) -> f64 {\n    e // returned as it is\n}\npub fn pow_mod(_b: u64, _e: u64, _m: u64) -> u64 { 0 }\n";
        let failed = submit_and_wait(&mut b, broken, "run");
        // A fresh name each run: a cached build keeps no compiler messages.
        let nonce = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let wrong = format!(
            "pub fn power(_b: f64, _e: i32) -> f64 {{\n    let unused_{nonce} = 1;\n    0.0\n}}\npub fn pow_mod(_b: u64, _e: u64, _m: u64) -> u64 {{ 0 }}\n"
        );
        let wrong = submit_and_wait(&mut b, &wrong, "submit");
        let accepted = submit_and_wait(&mut b, reference("fast-power"), "submit");
        let interview = b.start_interview(&base);
        sweep(
            &mut b,
            &[
                ("catalogue", format!("{base}/")),
                ("kata", format!("{base}/katas/fast-power")),
                ("history", format!("{base}/katas/fast-power/submissions")),
                ("submission-compile-error", format!("{base}/submissions/{failed}")),
                ("submission-wrong", format!("{base}/submissions/{wrong}")),
                ("submission-accepted", format!("{base}/submissions/{accepted}")),
            ]
            .into_iter()
            .chain(account_pages(&base, &interview))
            .chain(io_pages)
            .collect::<Vec<_>>(),
        );
        // The compile error's card carries rustc's label, and its line link lands on a line.
        b.goto(&format!("{base}/submissions/{failed}"));
        let card = b.eval("document.querySelector('.diag.error').textContent");
        assert!(
            card.as_str().unwrap().contains("expected `f64`, found `i32`"),
            "{card}"
        );
        let target = b.eval(
            "document.getElementById(document.querySelector('.diag.error a.place').getAttribute('href').slice(1)).textContent",
        );
        assert!(target.as_str().unwrap().contains("returned as it is"), "{target}");
        b.goto(&format!("{base}/submissions/{wrong}"));
        let warnings = b.eval(
            "[document.querySelectorAll('details.warnings').length, document.querySelector('details.warnings summary').textContent]",
        );
        assert_eq!(warnings[0], 1, "warnings fold into one line: {warnings}");
        assert!(
            warnings[1].as_str().unwrap().contains("unused variable"),
            "{warnings}"
        );
    })
    .await
    .unwrap();
}

fn gpu_slug() -> String {
    katas::catalogue::all()
        .iter()
        .find(|k| k.meta().kind == katas::KataKind::Gpu)
        .map_or_else(|| "fast-power".into(), |k| k.meta().slug.clone())
}

/// Clears the editor and puts the caret in it.
const FOCUS_EDITOR: &str = r#"(() => {
  const form = document.getElementById('editor-form');
  form.editor.value = '';
  form.editor.focus();
  return true;
})()"#;

const EDITOR_FOCUSED: &str =
    "!!(document.activeElement && document.activeElement.closest('.cm-host, #source'))";

#[tokio::test]
async fn the_learner_loop_on_a_phone() {
    let Some(grader) = grader() else { return };
    let Some(binary) = browser() else { return };
    let app = spawn_app(Options::default(), Some(grader)).await;
    let base = app.app.url();
    tokio::task::spawn_blocking(move || {
        let mut b = Chromium::launch(binary);
        b.open(&format!("{base}/signup"));
        b.viewport(PHONE.0, PHONE.1, true);
        b.sign_up("mei");
        // The header is folded behind Menu on a phone.
        assert_eq!(b.eval("getComputedStyle(document.querySelector('.who')).display === 'none' || !document.querySelector('.who').offsetParent"), true);
        b.eval("document.getElementById('menu-toggle').click(); true");
        assert_eq!(b.eval("!!document.querySelector('.who').offsetParent"), true, "Menu opens the account");

        b.goto(&format!("{base}/katas/fast-power"));
        // Tabs: the code is shown, the statement one tap away.
        assert_eq!(b.eval("document.getElementById('pane-statement').offsetParent === null"), true);
        b.eval("document.getElementById('tab-statement').click(); true");
        assert_eq!(b.eval("document.getElementById('pane-statement').offsetParent !== null"), true);
        b.eval("document.getElementById('tab-code').click(); true");

        // Tab indents inside the editor; Escape gives the keyboard back to the page.
        b.eval(FOCUS_EDITOR);
        assert_eq!(b.eval(EDITOR_FOCUSED), true);
        b.key("Tab", "Tab", 9, 0);
        assert_eq!(b.eval("document.getElementById('editor-form').editor.value"), "    ");
        assert_eq!(b.eval(EDITOR_FOCUSED), true, "Tab indents and keeps focus");
        b.key("Escape", "Escape", 27, 0);
        assert_eq!(b.eval(EDITOR_FOCUSED), false, "Escape releases the editor");
        assert_eq!(b.eval("document.activeElement.value"), "run");

        // A wrong answer, run with Ctrl+' from the editor: the Result tab opens on it.
        let wrong = "pub fn power(_b: f64, _e: i32) -> f64 { 0.0 }\npub fn pow_mod(_b: u64, _e: u64, _m: u64) -> u64 { 0 }\n";
        b.eval(FOCUS_EDITOR);
        b.type_text(wrong);
        b.key("'", "Quote", 222, 2);
        assert_eq!(b.eval("document.getElementById('workbench').dataset.tab"), "result");
        assert_eq!(b.eval("document.querySelector('button[value=\"submit\"]').disabled"), true, "no second click while grading");
        let verdict = b.wait_for(&format!("{VERDICT} === 'Wrong answer' && {VERDICT}"), WAIT);
        assert_eq!(verdict, "Wrong answer");
        b.wait_for("!document.querySelector('button[value=\"submit\"]').disabled", WAIT);
        let first = b.eval("document.querySelector('#result .first-fail').textContent");
        assert!(first.as_str().unwrap().contains("power: 2^10"), "{first}");
        b.eval("document.getElementById('btab-cases').click(); true");
        let cases = b.eval("document.getElementById('cases').textContent");
        assert!(cases.as_str().unwrap().contains("failed"), "{cases}");
        assert_fits(&mut b, PHONE.0, "the Cases tab on a phone");

        // A compile error: rustc's label reaches the card and the editor's marker, and the
        // card's line link puts the caret on that line.
        b.eval("document.getElementById('tab-code').click(); true");
        b.eval(FOCUS_EDITOR);
        b.type_text("pub fn power(_b: f64, e: i32) -> f64 {\n    e\n}\npub fn pow_mod(_b: u64, _e: u64, _m: u64) -> u64 { 0 }\n");
        b.eval("document.querySelector('button[value=\"run\"]').click(); true");
        let verdict = b.wait_for(&format!("{VERDICT} === 'Compile error' && {VERDICT}"), WAIT);
        assert_eq!(verdict, "Compile error");
        let tooltip = b.eval("document.querySelector('#result .diag.error .diag-text').textContent");
        assert_eq!(tooltip, "mismatched types: expected `f64`, found `i32`; expected `f64` because of return type");
        b.wait_for("!!document.querySelector('.cm-host').shadowRoot.querySelector('.cm-lint-marker-error')", WAIT);
        b.eval("document.querySelector('#result .diag.error a.place').click(); true");
        assert_eq!(b.eval("document.getElementById('workbench').dataset.tab"), "code");
        assert_eq!(b.eval(EDITOR_FOCUSED), true);
        b.wait_for("!document.querySelector('button[value=\"submit\"]').disabled", WAIT);

        // The draft survives a reload (saved on the server a moment after typing).
        b.eval("document.getElementById('tab-code').click(); true");
        b.eval(FOCUS_EDITOR);
        b.type_text("// keep me\n");
        b.wait_for("document.getElementById('draft-status').textContent === 'Draft saved'", WAIT);
        b.reload();
        assert_eq!(b.eval("document.getElementById('editor-form').editor.value"), "// keep me\n");
        b.eval("localStorage.clear(); true");
        b.reload();
        assert_eq!(
            b.eval("document.getElementById('editor-form').editor.value"),
            "// keep me\n",
            "from the server, not only this browser"
        );
        // Reset to starter.
        b.eval("window.confirm = () => true; document.getElementById('reset-starter').click(); true");
        let reset = b.eval("document.getElementById('editor-form').editor.value");
        assert!(reset.as_str().unwrap().contains("todo!("), "{reset}");

        // Accepted, submitted with Ctrl+Enter: the verdict shows before the figure, and the
        // page unlocks the reference and offers the next kata without a reload.
        b.eval(
            "window.__seen = {};
             new MutationObserver(() => {
               const t = performance.now(), r = document.getElementById('result');
               if (!__seen.verdict && r.querySelector('.verdict-label')) __seen.verdict = t;
               if (!__seen.pending && r.querySelector('.perf-pending')) __seen.pending = t;
               if (!__seen.figure && r.querySelector('.perf')) __seen.figure = t;
             }).observe(document.getElementById('result'), { childList: true, subtree: true }); true",
        );
        assert_eq!(b.eval("document.getElementById('next-kata').hidden"), true);
        b.eval(FOCUS_EDITOR);
        b.type_text(reference("fast-power"));
        b.key("Enter", "Enter", 13, 2);
        let verdict = b.wait_for(VERDICT, WAIT);
        assert_eq!(verdict, "Accepted");
        let seen = b.wait_for("__seen.figure && __seen", WAIT);
        let (v, p, f) = (&seen["verdict"], &seen["pending"], &seen["figure"]);
        assert!(
            p.is_number() && v.as_f64() < f.as_f64(),
            "the verdict ({v} ms) and 'measuring' ({p}) before the figure ({f})"
        );
        assert_eq!(b.eval("document.getElementById('next-kata').hidden"), false);
        assert_eq!(b.eval("document.getElementById('solution-link').hidden"), false);
        assert_eq!(b.eval("!!document.getElementById('solution-locked')"), false);
        assert_fits(&mut b, PHONE.0, "the Result tab on a phone");
        if let Some(dir) = screens() {
            b.screenshot(&dir.join("kata-accepted-phone.png"));
            b.viewport(DESKTOP.0, DESKTOP.1, false);
            b.screenshot(&dir.join("kata-accepted-desktop.png"));
        }
    })
    .await
    .unwrap();
}

#[tokio::test]
async fn dark_mode_follows_the_system_and_the_switch_is_remembered() {
    let Some(binary) = browser() else { return };
    let Some(axe_js) = axe() else { return };
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
        let mut b = Chromium::launch(binary);
        b.open(&format!("{base}/"));
        b.color_scheme("dark");
        b.goto(&format!("{base}/katas/fast-power"));
        let background = "getComputedStyle(document.body).backgroundColor";
        assert_eq!(
            b.eval(background),
            "rgb(18, 21, 28)",
            "dark from the system"
        );
        // The dark palette keeps its contrast too.
        for (name, url) in [("kata-dark", "/katas/fast-power"), ("catalogue-dark", "/")] {
            b.goto(&format!("{base}{url}"));
            for (size, (w, h)) in [("desktop", DESKTOP), ("phone", PHONE)] {
                b.viewport(w, h, size == "phone");
                assert_accessible(&mut b, &axe_js, &format!("{name} at {w}×{h}"));
                if let Some(dir) = screens() {
                    b.screenshot(&dir.join(format!("{name}-{size}.png")));
                }
            }
        }
        b.viewport(DESKTOP.0, DESKTOP.1, false);
        b.goto(&format!("{base}/katas/fast-power"));
        // The switch says what a click does: while dark, it offers light.
        let label = "document.getElementById('theme-toggle').textContent";
        let name = "document.getElementById('theme-toggle').getAttribute('aria-label')";
        assert_eq!(b.eval(label), "Light mode");
        assert_eq!(b.eval(name), "Switch to light mode");
        b.eval("document.getElementById('theme-toggle').click(); true");
        assert_eq!(
            b.eval(background),
            "rgb(246, 247, 249)",
            "the switch turns it light"
        );
        assert_eq!(b.eval(label), "Dark mode");
        assert_eq!(b.eval(name), "Switch to dark mode");
        b.goto(&format!("{base}/"));
        assert_eq!(
            b.eval(background),
            "rgb(246, 247, 249)",
            "and is remembered"
        );
        b.color_scheme("light");
        b.eval("document.getElementById('theme-toggle').click(); true");
        b.reload();
        assert_eq!(b.eval(background), "rgb(18, 21, 28)", "dark by choice");
    })
    .await
    .unwrap();
}

/// The same sweep in 中文: switched with the header's button (a cookie for the visitor, then
/// saved with the account), every page is Chinese (`<html lang="zh-CN">`), fits both sizes and
/// passes axe-core; the result panel and report speak Chinese too.
#[tokio::test]
async fn every_page_in_chinese_fits_and_passes_axe() {
    let Some(grader) = grader() else { return };
    let Some(binary) = browser() else { return };
    let Some(axe_js) = axe() else { return };
    let app = spawn_app(Options::default(), Some(grader)).await;
    admin(&app).await;
    let io_pages = published_io_pages(&app).await;
    let base = app.app.url();
    tokio::task::spawn_blocking(move || {
        let mut b = Chromium::launch(binary);
        b.open(&format!("{base}/"));
        b.wait_for(
            "document.readyState === 'complete' && !!document.querySelector('.lang-switch')",
            WAIT,
        );
        b.switch_lang("zh");
        let shots = screens();
        let sweep = |b: &mut Chromium, pages: &[(&str, String)]| {
            for (name, url) in pages {
                for (size, (w, h)) in [("desktop", DESKTOP), ("phone", PHONE)] {
                    b.viewport(w, h, size == "phone");
                    b.goto(url);
                    let what = format!("{name} in Chinese at {w}×{h}");
                    assert_eq!(b.eval("document.documentElement.lang"), "zh-CN", "{what}");
                    assert_fits(b, w, &what);
                    assert_accessible(b, &axe_js, &what);
                    if name.starts_with("kata") {
                        // The Custom input tab's words (or the GPU kata's note) in 中文 too.
                        b.eval("document.getElementById('tab-result').click(); document.getElementById('btab-custom').click(); true");
                        let what = format!("{what}, Custom input");
                        let words = b.eval("document.getElementById('custom').textContent");
                        let words = words.as_str().unwrap();
                        assert!(
                            words.contains("输入") && !words.contains("Input") && !words.contains("input"),
                            "{what}: {words}"
                        );
                        assert_fits(b, w, &what);
                        assert_accessible(b, &axe_js, &what);
                    }
                    if let Some(dir) = &shots {
                        b.screenshot(&dir.join(format!("zh-{name}-{size}.png")));
                    }
                }
            }
        };
        sweep(
            &mut b,
            &[
                ("catalogue-anonymous", format!("{base}/")),
                ("login", format!("{base}/login")),
                ("signup", format!("{base}/signup")),
                ("kata-anonymous", format!("{base}/katas/fast-power")),
                ("not-found", format!("{base}/katas/no-such-kata")),
            ],
        );
        b.viewport(DESKTOP.0, DESKTOP.1, false);
        log_in(&mut b, &base);
        let wrong = "pub fn power(_b: f64, _e: i32) -> f64 {\n    0.0\n}\npub fn pow_mod(_b: u64, _e: u64, _m: u64) -> u64 { 0 }\n";
        let wrong = submit_and_wait(&mut b, wrong, "submit");
        let accepted = submit_and_wait(&mut b, reference("fast-power"), "submit");
        let interview = b.start_interview(&base);
        b.goto(&format!("{base}/submissions/{wrong}"));
        let panel = b.eval("document.getElementById('result').textContent");
        let panel = panel.as_str().unwrap();
        assert!(
            panel.contains("答案错误") && panel.contains("期望") && panel.contains("实际"),
            "{panel}"
        );
        // The failing case's name and its input's summary read in 中文 too (issue 23 §15).
        assert!(
            panel.contains("power：2^10") && panel.contains("1 个 power 查询（底数，指数）"),
            "{panel}"
        );
        sweep(
            &mut b,
            &[
                ("catalogue", format!("{base}/")),
                ("kata", format!("{base}/katas/fast-power")),
                ("history", format!("{base}/katas/fast-power/submissions")),
                ("submission-wrong", format!("{base}/submissions/{wrong}")),
                ("submission-accepted", format!("{base}/submissions/{accepted}")),
            ]
            .into_iter()
            .chain(account_pages(&base, &interview))
            .chain(io_pages)
            .collect::<Vec<_>>(),
        );
    })
    .await
    .unwrap();
}

#[tokio::test]
async fn the_textarea_fallback_stays_usable_without_the_editor_bundle() {
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
        let mut b = Chromium::launch(binary);
        b.open(&format!("{base}/signup"));
        // As if the bundle were missing: the page keeps its textarea.
        b.call("Network.enable", serde_json::json!({}));
        b.call(
            "Network.setBlockedURLs",
            serde_json::json!({ "urls": ["*/static/editor.js"] }),
        );
        b.sign_up("mei");
        b.goto(&format!("{base}/katas/fast-power"));
        assert_eq!(b.eval("!!document.querySelector('.cm-host')"), false);
        b.eval(FOCUS_EDITOR);
        assert_eq!(b.eval("document.activeElement.id"), "source");
        b.key("Tab", "Tab", 9, 0);
        assert_eq!(b.eval("document.getElementById('source').value"), "    ");
        b.key("z", "KeyZ", 90, 2);
        assert_eq!(
            b.eval("document.getElementById('source').value"),
            "",
            "Ctrl+Z undoes the Tab"
        );
        b.key("Escape", "Escape", 27, 0);
        assert_eq!(
            b.eval("document.activeElement.value"),
            "run",
            "Escape leaves the textarea"
        );
        b.eval(FOCUS_EDITOR);
        b.type_text("// typed in the fallback\n");
        b.wait_for(
            "document.getElementById('draft-status').textContent === 'Draft saved'",
            WAIT,
        );
        b.reload();
        assert_eq!(
            b.eval("document.getElementById('source').value"),
            "// typed in the fallback\n"
        );
        b.eval("document.getElementById('source').focus(); true");
        b.key("'", "Quote", 222, 2);
        b.wait_for(
            "!!document.querySelector('#result .panel[data-submission]')",
            WAIT,
        );
        assert_eq!(
            b.eval("document.querySelector('button[value=\"run\"]').disabled"),
            true,
            "disabled while it waits"
        );
    })
    .await
    .unwrap();
}

/// The selected bottom tab's id and whether it has the keyboard focus.
const BOTTOM_TAB: &str =
    "[document.querySelector('.bottom-tabs [aria-selected=true]').id, document.activeElement.id]";

/// The custom run's verdict once it is done (falsy before).
const CUSTOM_VERDICT: &str = "(document.querySelector('#custom-result .panel[data-state=\"done\"] .verdict-label') || {}).textContent";

/// Custom input on the kata page: the third bottom tab, reached with the arrow keys like the
/// other two, pre-filled with the sample; the reference run on it gives Accepted with both
/// answers equal, side by side; an input out of the statement's constraints is refused by the
/// kata's judge as the run's verdict, and text that is not JSON inline, the textarea's text kept (also across a reload, until "reset to the sample"); on a
/// 390×844 phone the answers stack and nothing overflows; axe-core clean throughout. Graded by
/// the scripted grader (`fake_grader.rs`): the page, not the custom run, is under test.
#[tokio::test]
async fn custom_input_runs_beside_the_reference_and_a_refusal_keeps_the_text() {
    let grader = fake_grader();
    let Some(binary) = browser() else { return };
    let Some(axe_js) = axe() else { return };
    let app = spawn_app(Options::default(), Some(grader)).await;
    app.with_examples("fast-power").await;
    let base = app.app.url();
    let sample = katas::catalogue::find("fast-power")
        .unwrap()
        .sample_input()
        .unwrap();
    tokio::task::spawn_blocking(move || {
        let mut b = Chromium::signed_up(binary, &base, "mei");
        b.viewport(DESKTOP.0, DESKTOP.1, false);
        b.goto(&format!("{base}/katas/fast-power"));
        b.eval(&format!(
            "document.getElementById('editor-form').editor.value = {}; true",
            serde_json::to_string(reference("fast-power")).unwrap()
        ));
        // The actions bar opens the tab (the bottom panel is closed until then).
        assert_eq!(b.eval("document.getElementById('pane-result').hidden"), true);
        b.eval("document.getElementById('open-custom').click(); true");
        assert_eq!(b.eval(BOTTOM_TAB), serde_json::json!(["btab-custom", "custom-input"]));
        assert_eq!(b.eval("document.getElementById('custom-input').value"), sample.as_str());
        assert_accessible(&mut b, &axe_js, "the Custom input tab");
        // Arrow keys move between the three tabs like between the first two, wrapping.
        b.eval("document.getElementById('btab-custom').focus(); true");
        b.key("ArrowRight", "ArrowRight", 39, 0);
        assert_eq!(b.eval(BOTTOM_TAB), serde_json::json!(["btab-result", "btab-result"]));
        b.key("ArrowLeft", "ArrowLeft", 37, 0);
        assert_eq!(b.eval(BOTTOM_TAB), serde_json::json!(["btab-custom", "btab-custom"]));
        b.key("ArrowLeft", "ArrowLeft", 37, 0);
        assert_eq!(b.eval(BOTTOM_TAB), serde_json::json!(["btab-cases", "btab-cases"]));
        b.key("End", "End", 35, 0);
        assert_eq!(b.eval(BOTTOM_TAB), serde_json::json!(["btab-custom", "btab-custom"]));
        assert_eq!(b.eval("document.getElementById('custom').hidden"), false);

        // The sample with the reference: Accepted, both answers the same, and no second
        // grading can start meanwhile.
        b.eval("document.getElementById('run-custom').click(); true");
        assert_eq!(
            b.eval("[document.getElementById('run-custom').disabled, document.querySelector('button[value=\"run\"]').disabled]"),
            serde_json::json!([true, true]),
            "disabled while the custom run grades"
        );
        let verdict = b.wait_for(CUSTOM_VERDICT, WAIT);
        assert_eq!(verdict, "Accepted");
        b.wait_for("!document.getElementById('run-custom').disabled", WAIT);
        let answers = b.eval(
            "['learner', 'reference'].map((w) => document.querySelector(`#custom-result [data-answer=${w}]`).textContent)",
        );
        assert_eq!(answers[0], answers[1], "{answers}");
        assert!(answers[0].as_str().unwrap().starts_with('{'), "{answers}");
        assert_eq!(
            b.eval("document.querySelector('#custom-result .verdict').dataset.mode"),
            "custom"
        );
        assert_accessible(&mut b, &axe_js, "a custom run's answers");

        // Out of the constraints: the kata's judge refuses it, its words under the input as
        // the run's verdict, the text kept.
        let refused = r#"{"PowMod":[[2,10,0]]}"#;
        b.eval("const i = document.getElementById('custom-input'); i.focus(); i.select(); true");
        b.type_text(refused);
        b.eval("document.getElementById('run-custom').click(); true");
        assert_eq!(b.wait_for(CUSTOM_VERDICT, WAIT), "Input refused");
        let said = b.eval("document.getElementById('custom-result').textContent");
        assert!(
            said.as_str().unwrap().contains("modulus 0 is outside"),
            "{said}"
        );
        assert_eq!(b.eval("document.getElementById('custom-input').value"), refused);
        b.wait_for("!document.getElementById('run-custom').disabled", WAIT);
        // Its verdict is brought into view within the panel, however short the panel is.
        b.wait_for(
            "(() => { const v = document.querySelector('#custom-result .verdict').getBoundingClientRect(); \
             const p = document.getElementById('custom').getBoundingClientRect(); \
             return v.top >= p.top - 1 && v.bottom <= p.bottom + 1; })()",
            WAIT,
        );
        assert_accessible(&mut b, &axe_js, "a custom input the judge refused");
        // Not JSON at all: refused at once, inline, nothing queued.
        let set_input = |b: &mut Chromium, text: &str| {
            b.eval(&format!(
                "(() => {{ const i = document.getElementById('custom-input'); i.value = {}; \
                 i.dispatchEvent(new Event('input')); return true; }})()",
                serde_json::to_string(text).unwrap()
            ));
        };
        set_input(&mut b, "{not json");
        b.eval("document.getElementById('run-custom').click(); true");
        let error = b.wait_for(
            "!document.getElementById('custom-error').hidden && document.getElementById('custom-error').textContent",
            WAIT,
        );
        assert!(error.as_str().unwrap().contains("not valid JSON"), "{error}");
        assert_eq!(b.eval("document.getElementById('run-custom').disabled"), false);
        assert_accessible(&mut b, &axe_js, "a refused custom input");
        set_input(&mut b, refused);

        // Kept per kata across a reload; "reset to the sample" brings the sample back.
        b.reload();
        assert_eq!(b.eval("document.getElementById('custom-input').value"), refused);
        b.eval("document.getElementById('reset-sample').click(); true");
        assert_eq!(b.eval("document.getElementById('custom-input').value"), sample.as_str());
        b.reload();
        assert_eq!(b.eval("document.getElementById('custom-input').value"), sample.as_str());

        // On a phone: Result, then the Custom input tab; the answers stack, nothing overflows.
        b.viewport(PHONE.0, PHONE.1, true);
        b.goto(&format!("{base}/katas/fast-power"));
        b.eval("document.getElementById('tab-result').click(); document.getElementById('btab-custom').click(); true");
        assert_fits(&mut b, PHONE.0, "the Custom input tab on a phone");
        b.eval("document.getElementById('run-custom').click(); true");
        assert_eq!(b.wait_for(CUSTOM_VERDICT, WAIT), "Accepted");
        let boxes = b.eval(
            "Array.from(document.querySelectorAll('#custom-result .answer')).map((a) => { const r = a.getBoundingClientRect(); return [r.left, r.top]; })",
        );
        assert_eq!(boxes[0][0], boxes[1][0], "stacked: same left edge {boxes}");
        assert!(boxes[0][1].as_f64() < boxes[1][1].as_f64(), "one above the other {boxes}");
        assert_fits(&mut b, PHONE.0, "a custom run's answers on a phone");
        assert_accessible(&mut b, &axe_js, "a custom run's answers on a phone");
        if let Some(dir) = screens() {
            b.screenshot(&dir.join("kata-custom-phone.png"));
            b.viewport(DESKTOP.0, DESKTOP.1, false);
            b.screenshot(&dir.join("kata-custom-desktop.png"));
        }
    })
    .await
    .unwrap();
}

/// The interview's editor keeps its code on the server: after answering a drill item, a reload,
/// or reopening the interview from the list, the code typed is back, never the starter.
#[tokio::test]
async fn the_interview_editor_keeps_its_code() {
    let Some(binary) = browser() else { return };
    let app = crate::helpers::spawn_idle().await;
    let base = app.app.url();
    tokio::task::spawn_blocking(move || {
        let mut b = Chromium::signed_up(binary, &base, "mei");
        let at = b.start_interview(&base);
        const FORM: &str = "document.getElementById('interview-form')";
        b.eval(&format!(
            "{FORM}.editor.value = ''; {FORM}.editor.focus(); true"
        ));
        b.type_text("// kept through the interview\n");
        b.wait_for(&format!("{FORM}.dataset.draft === 'saved'"), WAIT);

        let href =
            b.eval("document.querySelector('a[href^=\"/drills/attempts/\"]').getAttribute('href')");
        b.goto(&format!("{base}{}", href.as_str().unwrap()));
        b.wait_for("!!document.querySelector('form.drill-form')", WAIT);
        b.goto(&format!("{base}{at}"));
        let value = format!("{FORM}.editor.value");
        assert_eq!(b.eval(&value), "// kept through the interview\n");
        b.reload();
        assert_eq!(b.eval(&value), "// kept through the interview\n");
        b.goto(&format!("{base}/interviews"));
        b.navigate_by(
            &format!("document.querySelector('a[href=\"{at}\"]').click()"),
            "!!document.getElementById('interview-form')",
        );
        assert_eq!(b.eval(&value), "// kept through the interview\n");
    })
    .await
    .unwrap();
}
