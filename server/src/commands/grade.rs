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
    let source = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    let source = String::from_utf8(source)
        .map_err(|_| anyhow::anyhow!("{} is not valid UTF-8", file.display()))?;
    if katas::catalogue::find(slug).is_none() {
        anyhow::bail!("unknown kata `{slug}`; `infrakata kata list` shows them all");
    }
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
    let report = grader.grade(slug, &source, mode, &progress);
    spinner.finish_and_clear();
    let report = report.map_err(|e| {
        if e.is_bad_request() {
            anyhow::anyhow!("{e}")
        } else {
            anyhow::anyhow!("internal error (not your code's fault): {e}")
        }
    })?;
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_report(&report);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_report(r: &GradeReport) {
    println!(
        "{}: {} — {}/{} cases",
        r.kata,
        r.verdict.label(),
        r.score.passed,
        r.score.total
    );
    for d in &r.diagnostics {
        print!("{}", d.rendered);
    }
    if !r.cases.is_empty() {
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
    if let Some(case) = r.cases.iter().find(|c| c.input.is_some()) {
        println!("\nfirst failing case: {}", case.name);
        if let Some(input) = &case.input {
            println!("  input:    {input}");
        }
        if let Some(m) = &case.mismatch {
            println!(
                "  problem:  {}\n  expected: {}\n  got:      {}",
                m.message, m.expected, m.got
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
