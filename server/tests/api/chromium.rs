//! The browser test: headless Chromium signs up, opens `fast-power`, types a correct solution
//! into the editor, submits, and sees Accepted; types a wrong one and sees Wrong answer with the
//! failing case. Graded by the scripted grader (`fake_grader.rs`: the page, not the grading, is
//! under test); needs Debian's `chromium`, required under `INFRAKATA_CI=1` (`.ci/run` installs
//! it).

use crate::cdp::{Chromium, VERDICT, WAIT, browser};
use crate::helpers::{Options, fake_grader, reference, spawn_app};

/// Clears the editor (CodeMirror or the textarea) and puts the caret in it.
const FOCUS_EDITOR: &str = r#"(() => {
  const form = document.getElementById('editor-form');
  form.editor.value = '';
  const cm = document.querySelector('.cm-host');
  const target = cm ? cm.shadowRoot.querySelector('.cm-content') : document.getElementById('source');
  target.focus();
  return true;
})()"#;

#[tokio::test]
async fn a_learner_solves_fast_power_in_the_browser() {
    let grader = fake_grader();
    let Some(binary) = browser() else { return };
    let app = spawn_app(Options::default(), Some(grader)).await;
    let base = app.app.url();
    tokio::task::spawn_blocking(move || {
        let mut b = Chromium::signed_up(binary, &base, "mei");
        b.goto(&format!("{base}/katas/fast-power"));
        b.eval(FOCUS_EDITOR);
        b.type_text(reference("fast-power"));
        let typed = b.eval("document.getElementById('editor-form').editor.value");
        assert!(typed.as_str().unwrap().contains("pub fn pow_mod"), "{typed}");
        b.eval("document.querySelector('button[value=\"submit\"]').click()");
        let verdict = b.wait_for(VERDICT, WAIT);
        assert_eq!(verdict, "Accepted");
        let text = b.eval("document.getElementById('result').textContent");
        assert!(text.as_str().unwrap().contains("47 / 47"), "{text}");

        let wrong = "pub fn power(_b: f64, _e: i32) -> f64 { 0.0 }\npub fn pow_mod(_b: u64, _e: u64, _m: u64) -> u64 { 0 }\n";
        // The buttons stay disabled until the submit is done, figure included: a click before
        // that starts nothing.
        b.wait_for("!document.querySelector('button[value=\"run\"]').disabled", WAIT);
        b.eval(FOCUS_EDITOR);
        b.type_text(wrong);
        b.eval("document.querySelector('button[value=\"run\"]').click()");
        let verdict = b.wait_for(
            &format!("{VERDICT} === 'Wrong answer' && {VERDICT}"),
            WAIT,
        );
        assert_eq!(verdict, "Wrong answer");
        let text = b.eval("document.getElementById('result').textContent");
        let text = text.as_str().unwrap();
        assert!(text.contains("power: 2^10") && text.contains("Expected"), "{text}");
    })
    .await
    .unwrap();
}

/// The header's language switch on the kata page: to 中文 (the statement, its headings and the
/// layout change, the code stays) and back to English, each time on the same page.
#[tokio::test]
async fn the_language_switch_turns_the_kata_page_chinese_and_back() {
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
        b.open(&format!("{base}/katas/fast-power"));
        b.wait_for(
            "document.readyState === 'complete' && document.documentElement.lang === 'en'",
            WAIT,
        );
        let text = b.eval("document.querySelector('main').textContent");
        assert!(text.as_str().unwrap().contains("The question"), "{text}");

        b.switch_lang("zh");
        assert_eq!(b.eval("location.pathname"), "/katas/fast-power");
        let h1 = b.eval("document.querySelector('main h1').textContent");
        assert!(h1.as_str().unwrap().contains("快速幂"), "{h1}");
        let text = b.eval("document.querySelector('main').textContent");
        let text = text.as_str().unwrap();
        assert!(
            text.contains("面试题") && text.contains("pub fn pow_mod(base: u64"),
            "{text}"
        );
        let nav = b.eval("document.querySelector('.nav').textContent");
        assert!(nav.as_str().unwrap().contains("题库"), "{nav}");
        assert_eq!(
            b.eval(
                "[...document.querySelectorAll('.lang-switch button')].map(b => b.value).join()"
            ),
            "en",
            "the switch offers the other language"
        );

        b.switch_lang("en");
        assert_eq!(b.eval("location.pathname"), "/katas/fast-power");
        let text = b.eval("document.querySelector('main').textContent");
        assert!(text.as_str().unwrap().contains("The question"), "{text}");
    })
    .await
    .unwrap();
}
