//! Click-to-verdict as the learner sees it: headless Chromium on the kata page clicks Run or
//! Submit on an accepted `fast-power` solution, and the page's own clock (`performance.now()`)
//! times the click to the verdict on screen and, for a submit, to the performance figure; beside
//! it, the grader's own compile + run time for the same submission from its report. Every
//! source is new to the compile cache (a learner who edited gets a fresh build).
//!
//! `cargo bench -p server --bench browser` (as root: grading uses the sandbox; needs Debian's
//! `chromium`). `INFRAKATA_BENCH_ROUNDS` changes the rounds per mode (default 20).

// The browser tests' DevTools driver; the bench uses part of it.
#[path = "../tests/api/cdp.rs"]
#[allow(dead_code)]
mod cdp;

use graders::{Grader, GraderConfig};
use serde_json::Value;
use server::app::{self, AppConfig};
use server::db::users::{self, Role};
use server::domain::SubmissionId;
use server::grader_slot::GraderSlot;
use server::state::ServerConfig;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(120);

fn main() {
    graders::sandbox::run_stage_if_requested();
    let Some(binary) = cdp::find() else {
        println!("browser bench skipped: no chromium here");
        return;
    };
    let grader = match Grader::new(GraderConfig::for_checkout()) {
        Ok(g) => Arc::new(g),
        Err(e) => {
            println!("browser bench skipped: {e}");
            return;
        }
    };
    let rounds: usize = std::env::var("INFRAKATA_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(20);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let app = runtime.block_on(async {
        let config = AppConfig {
            addr: "127.0.0.1:0".parse().unwrap(),
            db: dir.path().join("bench.db").into(),
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            server: ServerConfig {
                submissions_per_minute: NonZeroU32::new(100_000).unwrap(),
                submission_burst: NonZeroU32::new(100_000).unwrap(),
                ..ServerConfig::default()
            },
        };
        let app = app::start(config, GraderSlot::ready(Some(grader)))
            .await
            .unwrap();
        let hash = server::password::hash("long enough pw").unwrap();
        users::create(&app.state.db, "bench", Role::Learner, Some(&hash))
            .await
            .unwrap();
        app
    });
    let base = app.url();
    let mut b = cdp::Chromium::launch(binary);
    b.open(&format!("{base}/login"));
    b.wait_for(
        "document.readyState === 'complete' && !!document.querySelector('form.stack')",
        WAIT,
    );
    b.eval(
        "(() => { const f = document.querySelector('form.stack');
           f.name.value = 'bench'; f.password.value = 'long enough pw'; f.submit(); return true; })()",
    );
    b.wait_for("!!document.querySelector('.who')", WAIT);
    b.eval(&format!("location.href = '{base}/katas/fast-power'; true"));
    b.wait_for(
        "document.readyState === 'complete' && !!(document.getElementById('editor-form') || {}).editor",
        WAIT,
    );

    let reference = katas::catalogue::find("fast-power")
        .unwrap()
        .package()
        .reference;
    let tag = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let (mut run_verdict, mut submit_verdict, mut submit_figure) = (vec![], vec![], vec![]);
    let (mut run_grader, mut submit_grader) = (vec![], vec![]);
    for i in 0..rounds {
        for mode in ["run", "submit"] {
            let source = format!("{reference}\n// click {tag} {i} {mode}\n");
            b.eval(&format!(
                "document.getElementById('editor-form').editor.value = {}; true",
                serde_json::to_string(&source).unwrap()
            ));
            let t = b.eval(&format!(
                "(() => {{
                   const r = document.getElementById('result');
                   r.replaceChildren();
                   window.__t = {{}};
                   new MutationObserver((_, obs) => {{
                     const now = performance.now();
                     if (!__t.verdict && r.querySelector('.verdict-label')) __t.verdict = now;
                     if (!__t.figure && r.querySelector('.perf')) {{ __t.figure = now; obs.disconnect(); }}
                   }}).observe(r, {{ childList: true, subtree: true }});
                   __t.click = performance.now();
                   document.querySelector('button[value=\"{mode}\"]').click();
                   return true; }})()"
            ));
            assert_eq!(t, true);
            b.wait_for(
                "__t.verdict && !document.querySelector('button[value=\"run\"]').disabled",
                WAIT,
            );
            let times = b.eval("__t");
            let label = b.eval("document.querySelector('#result .verdict-label').textContent");
            assert_eq!(label, "Accepted", "round {i} {mode}");
            let id = b.eval("Number(document.querySelector('#result .panel').dataset.submission)");
            let report = runtime.block_on(report_of(&app, SubmissionId(id.as_i64().unwrap())));
            let grader_ms = report["resources"]["compile_ms"].as_f64().unwrap_or(0.0)
                + report["resources"]["run_wall_ms"].as_f64().unwrap_or(0.0);
            let click = times["click"].as_f64().unwrap();
            let verdict = times["verdict"].as_f64().unwrap() - click;
            if mode == "run" {
                run_verdict.push(verdict);
                run_grader.push(grader_ms);
            } else {
                submit_verdict.push(verdict);
                submit_grader.push(grader_ms);
                if let Some(f) = times["figure"].as_f64() {
                    submit_figure.push(f - click);
                }
            }
        }
    }
    println!("click → on screen in Chromium, accepted fast-power, {rounds} rounds per mode (ms):");
    for (what, v) in [
        ("Run: click → verdict", &mut run_verdict),
        ("Run: the grader's compile + run", &mut run_grader),
        ("Submit: click → verdict", &mut submit_verdict),
        ("Submit: click → performance figure", &mut submit_figure),
        ("Submit: the grader's compile + run", &mut submit_grader),
    ] {
        v.sort_by(f64::total_cmp);
        if v.is_empty() {
            continue;
        }
        let at = |p: f64| v[((v.len() as f64 - 1.0) * p).round() as usize];
        println!(
            "  {what:<38} p50 {:>8.1}  p90 {:>8.1}  max {:>8.1}",
            at(0.5),
            at(0.9),
            at(1.0)
        );
    }
    app.stop();
}

/// The submission's stored report (the grader's own figures).
async fn report_of(app: &app::App, id: SubmissionId) -> Value {
    let s = server::db::submissions::get(&app.state.db, id)
        .await
        .unwrap()
        .expect("the submission exists");
    s.report.unwrap_or(Value::Null)
}
