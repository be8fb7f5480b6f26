//! View models the templates print: everything already formatted as text, so templates hold
//! no logic beyond loops and conditions (and askama escapes every string they print).

use super::i18n::Text;
use chrono::DateTime;
use graders::GradeReport;
use katas::{Outcome, Verdict};

/// `2026-12-02 11:20 UTC` for a Unix-epoch millisecond timestamp.
pub fn datetime(ms: i64) -> String {
    formatted(ms, "%Y-%m-%d %H:%M UTC")
}

/// `2026-12-02 11:20:07 UTC`: a learner's submissions minutes apart must stay apart.
pub fn datetime_seconds(ms: i64) -> String {
    formatted(ms, "%Y-%m-%d %H:%M:%S UTC")
}

/// `2026-12-02T11:20:07Z`: a `<time datetime>` the page script shows in the viewer's own time
/// zone (the UTC text stays for readers without it).
pub fn iso(ms: i64) -> String {
    formatted(ms, "%Y-%m-%dT%H:%M:%SZ")
}

/// chrono covers ±262,000 years; a stored time beyond that is corrupt, and showing the raw
/// number tells an admin so where a made-up date would not.
fn formatted(ms: i64, format: &str) -> String {
    match DateTime::from_timestamp_millis(ms) {
        Some(t) => t.format(format).to_string(),
        None => format!("{ms} ms"),
    }
}

/// `just now`, `42 s ago`, `5 min ago`, `3 h ago`, `2 days ago`.
pub fn ago(ms: i64, now_ms: i64) -> String {
    let s = (now_ms - ms).max(0) / 1000;
    match s {
        0..=2 => "just now".into(),
        3..=59 => format!("{s} s ago"),
        60..=3599 => format!("{} min ago", s / 60),
        3600..=86_399 => format!("{} h ago", s / 3600),
        _ => format!("{} days ago", s / 86_400),
    }
}

/// `1 234 567` (thin-space thousands).
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    out
}

pub fn ratio(r: f64) -> String {
    format!("{r:.2}×")
}

/// The CSS class of a verdict badge.
pub fn verdict_class(v: Verdict) -> &'static str {
    match v {
        Verdict::Accepted => "ok",
        Verdict::CompileError => "warn",
        Verdict::InternalError | Verdict::InputRefused => "muted",
        _ => "bad",
    }
}

/// Failing cases shown open; the rest are folded under their count.
pub const SHOWN_FAILURES: usize = 3;

#[derive(Debug, Clone)]
pub struct ReportView {
    pub verdict: String,
    pub verdict_class: &'static str,
    pub mode: &'static str,
    /// `run`, `submit` or `custom`: the page unlocks the reference after an accepted submit.
    pub mode_key: &'static str,
    pub passed: usize,
    pub total: usize,
    pub message: Option<String>,
    /// Failing cases first (each with its details), then the passed and the not-run ones, which
    /// the page folds under their counts.
    pub failed: Vec<CaseView>,
    /// Failing cases beyond the first [`SHOWN_FAILURES`], folded (a long wrong answer must not
    /// bury the page).
    pub failed_more: Vec<CaseView>,
    pub passed_cases: Vec<CaseView>,
    pub not_run: Vec<CaseView>,
    /// Errors, each on its own card; warnings, folded into one line the learner can open.
    pub errors: Vec<DiagnosticView>,
    pub warnings: Vec<DiagnosticView>,
    pub performance: Option<PerfView>,
    /// GPU katas: one row per timed performance case.
    pub gpu: Vec<GpuRowView>,
    pub output: Option<String>,
    pub compile: String,
    pub run: String,
    /// A custom-input run: the input and both answers, shown side by side.
    pub custom: Option<CustomView>,
}

#[derive(Debug, Clone)]
pub struct CustomView {
    /// The one case's outcome, and what the check said when it failed.
    pub outcome: String,
    pub outcome_class: &'static str,
    pub problem: Option<String>,
    pub notes: Vec<String>,
    pub input: String,
    pub reference: String,
    /// `None`: the program gave no answer (it panicked, ran out of time, ...).
    pub learner: Option<String>,
}

#[derive(Debug, Clone)]
pub struct GpuRowView {
    pub case: String,
    pub median: String,
    pub rate: String,
    pub peak: String,
    pub speedup: String,
    pub suspect: bool,
}

#[derive(Debug, Clone)]
pub struct CaseView {
    pub name: String,
    pub group: &'static str,
    pub outcome: String,
    pub outcome_class: &'static str,
    pub time: String,
    pub input: Option<String>,
    pub problem: Option<String>,
    pub expected: Option<String>,
    pub got: Option<String>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct DiagnosticView {
    pub level: String,
    pub code: String,
    pub message: String,
    /// `line 3, column 7`, or empty when the problem is not in the learner's file.
    pub place: String,
    /// The line in the learner's file (0: none); the editor marks it.
    pub line: u32,
    /// rustc's words at each place ("expected `u32`, found `&str`"), the primary one first.
    pub labels: Vec<String>,
    /// The message and its labels in one line: the editor marker's tooltip.
    pub summary: String,
    pub rendered: String,
}

#[derive(Debug, Clone)]
pub struct PerfView {
    pub ratio: String,
    pub summary: String,
    pub instructions: String,
    pub reference: String,
    pub cases: usize,
}

/// rustc's closing lines ("aborting due to 2 previous errors", "1 warning emitted") say
/// nothing the other messages do not.
fn closing_summary(d: &graders::diagnostics::Diagnostic) -> bool {
    let said = &d.message.en;
    let warning_count = d.level == "warning" && d.line.is_none() && said.ends_with(" emitted");
    said.starts_with("aborting due to") || warning_count
}

fn outcome_label(o: Outcome, t: &Text) -> String {
    match o {
        Outcome::Passed => t.passed.into(),
        Outcome::NotRun => t.not_run.into(),
        other => Verdict::parse(other.as_str()).map_or_else(
            || other.as_str().replace('_', " "),
            |v| t.verdict_label(v).to_string(),
        ),
    }
}

impl ReportView {
    /// The report's view, its words in `t`'s language.
    pub fn new(r: &GradeReport, t: &Text) -> Self {
        // The grading's own limit (a published version's); reports stored before it was
        // recorded fall back on the build's.
        let case_limit_ms = r
            .case_time_ms
            .or_else(|| katas::builtin::find(&r.kata).map(|k| k.meta().limits.case_time_ms));
        let cases: Vec<CaseView> = r
            .cases
            .iter()
            .map(|c| CaseView {
                name: c.name_in(t.lang).to_string(),
                group: t.group_label(c.group),
                outcome: outcome_label(c.outcome, t),
                outcome_class: match c.outcome {
                    Outcome::Passed => "ok",
                    Outcome::NotRun => "muted",
                    _ => "bad",
                },
                // A case stopped by its limit has no time of its own worth showing (often 0):
                // the limit it ran past says what happened.
                time: if let (Outcome::TimeLimitExceeded, Some(limit)) = (c.outcome, case_limit_ms)
                {
                    format!("> {limit} ms")
                } else if c.time_ms < 0.05 {
                    "<0.1 ms".into()
                } else {
                    format!("{:.1} ms", c.time_ms)
                },
                input: c.input_in(t.lang).map(str::to_string),
                problem: c
                    .mismatch
                    .as_ref()
                    .map(|m| &m.message)
                    .or(c.message.as_ref())
                    .map(|m| m.in_lang(t.lang).to_string()),
                expected: c.mismatch.as_ref().map(|m| m.expected.clone()),
                got: c.mismatch.as_ref().map(|m| m.got.clone()),
                notes: c.notes_in(t.lang).to_vec(),
            })
            .collect();
        // The one case of a custom run is shown beside both answers, not in a case table; a
        // refused input has neither (the message says why).
        let answered = r.verdict != Verdict::InputRefused;
        let custom = r.custom.as_ref().filter(|_| answered).map(|c| {
            let case = cases.first();
            CustomView {
                outcome: case.map_or_else(String::new, |k| k.outcome.clone()),
                outcome_class: case.map_or("muted", |k| k.outcome_class),
                problem: case.and_then(|k| k.problem.clone()),
                notes: case.map(|k| k.notes.clone()).unwrap_or_default(),
                input: c.input.clone(),
                reference: c.reference.clone(),
                learner: c.learner.clone(),
            }
        });
        let diagnostics: Vec<DiagnosticView> = r
            .diagnostics
            .iter()
            // rustc's closing summaries say nothing the other messages do not.
            .filter(|d| !closing_summary(d))
            .map(|d| (d, d.message.in_lang(t.lang).to_string()))
            .map(|(d, message)| DiagnosticView {
                level: d.level.clone(),
                code: d.code.clone().unwrap_or_default(),
                message: message.clone(),
                place: d.line.map_or_else(String::new, |l| t.place(l, d.column)),
                line: d.line.unwrap_or(0),
                labels: d.labels.clone(),
                summary: if d.labels.is_empty() {
                    message
                } else {
                    format!("{message}: {}", d.labels.join("; "))
                },
                rendered: d.rendered.clone(),
            })
            .collect();
        let (errors, warnings) = diagnostics
            .into_iter()
            .partition(|d: &DiagnosticView| d.level != "warning");
        let performance = r.performance.as_ref().map(|p| PerfView {
            ratio: ratio(p.ratio),
            summary: t.perf_summary(p.ratio),
            instructions: thousands(p.instructions),
            reference: thousands(p.reference_instructions),
            cases: p.cases,
        });
        let gpu = r
            .gpu_performance
            .iter()
            .flat_map(|g| &g.cases)
            .map(|c| GpuRowView {
                case: c.case.clone(),
                median: format!("{:.3} ms", c.timing.median_ms),
                rate: c.speed.rate_text.clone(),
                peak: c
                    .speed
                    .percent_of_peak
                    .map_or_else(|| "—".into(), |p| format!("{p:.0}%")),
                speedup: c
                    .speed
                    .speedup_over_reference
                    .map_or_else(|| "—".into(), |x| format!("{x:.2}×")),
                suspect: c.speed.suspect,
            })
            .collect();
        let res = &r.resources;
        Self {
            verdict: t.verdict_label(r.verdict).to_string(),
            verdict_class: verdict_class(r.verdict),
            mode: match r.mode {
                _ if r.custom.is_some() => t.mode_custom_long,
                katas::Mode::Run => t.mode_run_long,
                katas::Mode::Submit => t.mode_submit_long,
            },
            mode_key: match r.mode {
                _ if r.custom.is_some() => "custom",
                katas::Mode::Run => "run",
                katas::Mode::Submit => "submit",
            },
            passed: r.score.passed,
            total: r.score.total,
            message: r.message.as_ref().map(|m| m.in_lang(t.lang).to_string()),
            failed: cases
                .iter()
                .filter(|c| c.outcome_class == "bad")
                .take(SHOWN_FAILURES)
                .cloned()
                .collect(),
            failed_more: cases
                .iter()
                .filter(|c| c.outcome_class == "bad")
                .skip(SHOWN_FAILURES)
                .cloned()
                .collect(),
            passed_cases: cases
                .iter()
                .filter(|c| c.outcome_class == "ok")
                .cloned()
                .collect(),
            not_run: cases
                .into_iter()
                .filter(|c| c.outcome_class == "muted")
                .collect(),
            errors,
            warnings,
            performance,
            gpu,
            output: r.output.clone().filter(|o| !o.is_empty()),
            compile: if res.compile_cached {
                t.cached.into()
            } else {
                format!("{:.0} ms", res.compile_ms)
            },
            run: format!("{:.0} ms", res.run_wall_ms),
            custom,
        }
    }

    /// From a stored report (the JSON of `grade --json`).
    pub fn from_json(v: &serde_json::Value, t: &Text) -> Option<Self> {
        serde_json::from_value::<GradeReport>(v.clone())
            .ok()
            .map(|r| Self::new(&r, t))
    }
}

#[cfg(test)]
mod tests {
    use super::ReportView;
    use crate::pages::i18n::Text;
    use katas::Lang;

    /// A report as stored before messages had a 中文 wording: no `message_zh` anywhere.
    const OLD_REPORT: &str = r#"{
        "kata": "fast-power", "mode": "run", "verdict": "time_limit_exceeded",
        "score": {"passed": 0, "total": 2},
        "cases": [
            {"name": "power: 2^10", "group": "sample", "outcome": "wrong_answer", "time_ms": 0.1,
             "input": "2^10", "mismatch": {"message": "power(2.0, 10) is off", "expected": "1024.0",
             "got": "0.0"}, "message": null, "notes": []},
            {"name": "pow_mod", "group": "sample", "outcome": "time_limit_exceeded",
             "time_ms": 1000.0, "input": null, "mismatch": null,
             "message": "no answer within 1000 ms", "notes": []}
        ],
        "diagnostics": [], "performance": null,
        "resources": {"compile_ms": 1.0, "compile_cached": false, "run_wall_ms": 2.0,
                      "run_cpu_ms": 1.0, "peak_memory_bytes": 0},
        "message": "no answer within 1000 ms", "output": null
    }"#;

    #[test]
    fn a_timed_out_case_shows_the_limit_it_ran_past() {
        let mut report: serde_json::Value = serde_json::from_str(OLD_REPORT).unwrap();
        report["cases"][1]["time_ms"] = 0.0.into();
        let limit = katas::builtin::find("fast-power")
            .unwrap()
            .meta()
            .limits
            .case_time_ms;
        let en = ReportView::from_json(&report, Text::of(Lang::En)).unwrap();
        let timed_out = en.failed.iter().find(|c| c.name == "pow_mod").unwrap();
        assert_eq!(timed_out.time, format!("> {limit} ms"));
    }

    #[test]
    fn a_published_kata_s_timed_out_case_shows_its_version_s_limit() {
        // No kata of the build has this slug: the limit comes from the report alone.
        let mut report: serde_json::Value = serde_json::from_str(OLD_REPORT).unwrap();
        report["kata"] = "pair-sums".into();
        report["cases"][1]["time_ms"] = 0.0.into();
        report["case_time_ms"] = 1500.into();
        let en = ReportView::from_json(&report, Text::of(Lang::En)).unwrap();
        let timed_out = en.failed.iter().find(|c| c.name == "pow_mod").unwrap();
        assert_eq!(timed_out.time, "> 1500 ms");
    }

    #[test]
    fn messages_show_in_the_viewer_s_language_with_english_where_there_is_no_other() {
        let old: serde_json::Value = serde_json::from_str(OLD_REPORT).unwrap();
        let zh = ReportView::from_json(&old, Text::of(Lang::Zh)).expect("an old report decodes");
        assert_eq!(zh.message.as_deref(), Some("no answer within 1000 ms"));
        assert_eq!(
            zh.failed[0].problem.as_deref(),
            Some("power(2.0, 10) is off")
        );

        let mut new = old;
        new["cases"][0]["mismatch"]["message_zh"] = "power(2.0, 10) 的结果偏差过大".into();
        new["message_zh"] = "1000 ms 内没有给出答案".into();
        let zh = ReportView::from_json(&new, Text::of(Lang::Zh)).unwrap();
        assert_eq!(zh.message.as_deref(), Some("1000 ms 内没有给出答案"));
        assert_eq!(
            zh.failed[0].problem.as_deref(),
            Some("power(2.0, 10) 的结果偏差过大")
        );
        assert_eq!(zh.failed[0].expected.as_deref(), Some("1024.0"));
        let en = ReportView::from_json(&new, Text::of(Lang::En)).unwrap();
        assert_eq!(
            en.failed[0].problem.as_deref(),
            Some("power(2.0, 10) is off")
        );
        // The case's group reads in the viewer's language too.
        assert_eq!(zh.failed[0].group, "样例");
        assert_eq!(en.failed[0].group, "sample");
    }
    #[test]
    fn formats_dates_numbers_and_ages() {
        assert_eq!(super::datetime(0), "1970-01-01 00:00 UTC");
        assert_eq!(super::datetime(1_796_210_400_000), "2026-12-02 11:20 UTC");
        assert_eq!(
            super::datetime_seconds(1_796_210_407_000),
            "2026-12-02 11:20:07 UTC"
        );
        assert_eq!(super::iso(1_796_210_407_000), "2026-12-02T11:20:07Z");
        // Before the epoch, a leap day, the last millisecond of a year.
        assert_eq!(super::datetime_seconds(-1), "1969-12-31 23:59:59 UTC");
        assert_eq!(super::datetime(1_709_208_000_000), "2024-02-29 12:00 UTC");
        assert_eq!(
            super::datetime_seconds(1_735_689_599_999),
            "2024-12-31 23:59:59 UTC"
        );
        assert_eq!(super::datetime(i64::MAX), format!("{} ms", i64::MAX));
        assert_eq!(super::thousands(1_234_567), "1\u{202f}234\u{202f}567");
        assert_eq!(super::thousands(999), "999");
        assert_eq!(super::ago(0, 125_000), "2 min ago");
    }
}
