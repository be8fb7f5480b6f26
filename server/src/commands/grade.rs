//! `infrakata grade <slug> <file.rs>`: the same grading path the server's workers use.

use crate::table;
use anyhow::Context as _;
use graders::{GradeReport, Grader, GraderConfig, Stage};
use indicatif::{ProgressBar, ProgressStyle};
use katas::Mode;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

pub fn run(slug: &str, file: &Path, mode: Mode, json: bool) -> anyhow::Result<ExitCode> {
    let source = read_source(file)?;
    known(slug)?;
    let report = with_grader(|grader, progress| grader.grade(slug, &source, mode, progress))?;
    show(&report, json)
}

/// `grade --custom INPUT`: the learner's program on their own input through
/// [`Grader::custom`], the path the service's custom runs take.
pub fn run_custom(slug: &str, file: &Path, input: &str, json: bool) -> anyhow::Result<ExitCode> {
    let source = read_source(file)?;
    let kata = known(slug)?;
    let input = read_input(input)?;
    // Refused before the grader starts (nothing is compiled), in the kata's own words.
    kata.check_custom(&input)
        .map_err(|e| anyhow::anyhow!("{}", e.message(katas::Lang::En)))?;
    let report = with_grader(|grader, progress| grader.custom(slug, &source, &input, progress))?;
    show(&report, json)
}

pub(super) fn read_source(file: &Path) -> anyhow::Result<String> {
    let source = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    String::from_utf8(source).map_err(|_| anyhow::anyhow!("{} is not valid UTF-8", file.display()))
}

fn known(slug: &str) -> anyhow::Result<&'static dyn katas::Kata> {
    katas::builtin::find(slug).ok_or_else(|| {
        anyhow::anyhow!("unknown kata `{slug}`; `infrakata kata list` shows them all")
    })
}

/// `--custom`'s value: the JSON itself, or `@FILE` (`@-`: standard input).
pub(super) fn read_input(arg: &str) -> anyhow::Result<String> {
    let Some(path) = arg.strip_prefix('@') else {
        return Ok(arg.to_string());
    };
    let bytes = if path == "-" {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf).context("reading stdin")?;
        buf
    } else {
        std::fs::read(path).with_context(|| format!("reading {path}"))?
    };
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{path} is not valid UTF-8"))
}

/// Starts the grader behind a spinner and runs `grade` with a progress callback; our failures
/// are told apart from bad requests.
pub(super) fn with_grader<T>(
    grade: impl FnOnce(&Grader, &dyn Fn(Stage)) -> Result<T, graders::GradeError>,
) -> anyhow::Result<T> {
    let spinner = ProgressBar::new_spinner();
    spinner.set_style(
        ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("valid template"),
    );
    spinner.enable_steady_tick(Duration::from_millis(100));
    spinner.set_message("preparing the grader (first run builds the kata library)…");
    let grader = Grader::new(GraderConfig::for_checkout()).context("starting the grader")?;
    // Say what isolation this grading had; stderr keeps `--json` output a single object.
    spinner.suspend(|| eprintln!("sandbox: {}", grader.describe()));
    let progress = |stage: Stage| {
        spinner.set_message(match stage {
            Stage::Queued => "queued…",
            Stage::Compiling => "compiling…",
            Stage::Running => "running the cases…",
            Stage::Measuring => "measuring performance against the reference…",
            Stage::Done => "done",
        })
    };
    let report = grade(&grader, &progress);
    spinner.finish_and_clear();
    report.map_err(|e| {
        if e.is_bad_request() {
            anyhow::anyhow!("{e}")
        } else {
            anyhow::anyhow!("internal error (not your code's fault): {e}")
        }
    })
}

pub(super) fn show(report: &GradeReport, json: bool) -> anyhow::Result<ExitCode> {
    if json {
        println!("{}", serde_json::to_string_pretty(report)?);
    } else {
        print_report(report);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_report(r: &GradeReport) {
    if r.custom.is_some() {
        println!("{}: {} — custom input", r.kata, r.verdict.label());
    } else {
        println!(
            "{}: {} — {}/{} cases",
            r.kata,
            r.verdict.label(),
            r.score.passed,
            r.score.total
        );
    }
    for d in &r.diagnostics {
        print!("{}", d.rendered);
    }
    if let Some(c) = &r.custom
        && r.verdict == katas::Verdict::InputRefused
    {
        // Nothing ran: the message below says why.
        println!("  input:     {}", c.input);
    } else if let Some(c) = &r.custom {
        print!("{}", custom_lines(c, r.cases.first()));
    } else if !r.cases.is_empty() {
        let rows: Vec<Vec<String>> = r
            .cases
            .iter()
            .map(|c| {
                vec![
                    c.name.clone(),
                    c.group.as_str().to_string(),
                    c.outcome.as_str().to_string(),
                    format!("{:.1} ms", c.time_ms),
                ]
            })
            .collect();
        print!(
            "{}",
            table::render(&["case", "group", "outcome", "time"], &rows)
        );
    }
    if let Some(case) = r.cases.iter().find(|c| {
        !matches!(c.outcome, katas::Outcome::Passed | katas::Outcome::NotRun) && r.custom.is_none()
    }) {
        println!("\nfirst failing case: {}", case.name);
        if let Some(input) = &case.input {
            println!("  input:    {input}");
        }
        if let Some(m) = &case.mismatch {
            // A stdin/stdout sample's answers span lines: each continues under its first.
            let lines = |text: &str| text.replace('\n', "\n            ");
            println!(
                "  problem:  {}\n  expected: {}\n  got:      {}",
                m.message,
                lines(&m.expected),
                lines(&m.got)
            );
        }
        if let Some(msg) = &case.message {
            println!("  message:  {msg}");
        }
    }
    if let Some(msg) = &r.message {
        println!("\n{msg}");
    }
    if let Some(p) = &r.performance {
        println!(
            "\nperformance: {:.3}× the reference's instructions ({} vs {})",
            p.ratio, p.instructions, p.reference_instructions
        );
    }
    if let Some(g) = &r.gpu_performance {
        for line in gpu_lines(g) {
            println!("{line}");
        }
    }
    let res = &r.resources;
    println!(
        "\ncompile {:.0} ms{} · run {:.0} ms wall, {:.0} ms CPU · peak memory {:.1} MiB",
        res.compile_ms,
        if res.compile_cached { " (cached)" } else { "" },
        res.run_wall_ms,
        res.run_cpu_ms,
        res.peak_memory_bytes as f64 / (1 << 20) as f64
    );
}

/// A custom run's input and both answers, then what the check said when they disagree.
fn custom_lines(c: &graders::CustomOutputs, case: Option<&katas::CaseReport>) -> String {
    let mut out = format!(
        "  input:     {}\n  reference: {}\n  yours:     {}\n",
        c.input,
        c.reference,
        c.learner.as_deref().unwrap_or("(no answer)")
    );
    if let Some(case) = case {
        out.push_str(&format!("  outcome:   {}\n", case.outcome.as_str()));
        if let Some(m) = &case.mismatch {
            out.push_str(&format!("  problem:   {}\n", m.message));
        }
        if let Some(msg) = &case.message {
            out.push_str(&format!("  message:   {msg}\n"));
        }
    }
    out
}

/// The device timings of an accepted GPU submit, one line per performance case.
fn gpu_lines(g: &graders::GpuPerformance) -> Vec<String> {
    let mut lines = vec![match &g.device {
        Some(device) => format!("\nGPU performance on {device}:"),
        None => "\nGPU performance:".to_string(),
    }];
    for c in &g.cases {
        let mut line = format!(
            "  {}: median {:.3} ms, {}",
            c.case, c.timing.median_ms, c.speed.rate_text
        );
        if let Some(p) = c.speed.percent_of_peak {
            line.push_str(&format!(", {p:.0}% of the measured peak"));
        }
        if let Some(x) = c.speed.speedup_over_reference {
            line.push_str(&format!(", {x:.2}× the reference's speed"));
        }
        if c.speed.suspect {
            line.push_str(" — SUSPECT: faster than the device can be");
        }
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use katas::gpu::{DeviceTiming, Peak, Work, timing::speed};

    #[test]
    fn gpu_lines_give_rate_peak_speedup_and_flag_the_impossible() {
        let peak = Peak {
            copy_bytes_per_s: 4.0e12,
            matrix_flops_per_s: None,
        };
        let honest = DeviceTiming::from_samples(&[1.0], Work::Bytes(2_000_000_000)).unwrap();
        let reference = DeviceTiming::from_samples(&[1.5], Work::Bytes(2_000_000_000)).unwrap();
        let forged = DeviceTiming::from_samples(&[0.01], Work::Bytes(2_000_000_000)).unwrap();
        let case = |name: &str, t: &DeviceTiming| graders::GpuCaseSpeed {
            case: name.into(),
            timing: t.clone(),
            speed: speed(t, Some(&peak), Some(&reference)),
        };
        let lines = gpu_lines(&graders::GpuPerformance {
            device: None,
            peak: Some(peak),
            cases: vec![case("big", &honest), case("forged", &forged)],
        });
        assert_eq!(
            lines[1],
            "  big: median 1.000 ms, 2000.0 GB/s, 50% of the measured peak, 1.50× the reference's speed"
        );
        assert!(
            lines[2].ends_with("SUSPECT: faster than the device can be"),
            "{}",
            lines[2]
        );
    }
}
