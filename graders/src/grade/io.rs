//! Grading a stdin/stdout kata ([`katas::io`]): the learner's file compiled as a whole
//! program, run once per case in the run sandbox with the case's input on stdin, and its
//! output judged by the default validator (ours, here) or by the kata's own output validator
//! (the instructor's code, in the sandbox: [`crate::validator`]). The first failing case
//! decides the verdict and the rest are not run, as on Kattis.

use super::{Grader, Stage, ms};
use crate::GradeError;
use crate::compile::{self, Target};
use crate::report::GradeReport;
use crate::sandbox::{self, ExitStatus, Job, LimitHit, Profile};
use crate::validator::{self, BuildFailed, Program, Sandboxed};
use katas::io::{IoCase, IoPackage, ValidatorKind, case_report, judge_output};
use katas::meta::Limits;
use katas::{CaseReport, Group, Message, Mode, Outcome, Report};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// Threads beyond the kata's own the runtime may start (as for function katas).
const THREAD_HEADROOM: u32 = 8;

impl Grader {
    /// Grades `source` as a program for the io kata `package`: every case for a submit, the
    /// samples for a run. `Err` only for a bad request or our own failure; a validator that
    /// fails is an `internal_error` report that says so (the instructor's to fix).
    pub fn grade_io(
        &self,
        package: &IoPackage,
        source: &str,
        mode: Mode,
        progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError> {
        let slug = package.slug();
        super::check_source_size(source)?;
        progress(Stage::Queued);
        let _slot = self.slots.acquire();
        progress(Stage::Compiling);
        let (compiled, validator) = std::thread::scope(|s| {
            let validator = s.spawn(|| self.output_validator(package));
            let target = Target::Program { slug };
            let compiled =
                compile::compile(&self.sandbox, &self.toolchain, &self.cache, target, source);
            (compiled, validator.join())
        });
        let validator = validator
            .map_err(|_| GradeError::Internal("building the output validator panicked".into()))??;
        let done = |report: GradeReport| {
            progress(Stage::Done);
            Ok(report)
        };
        let (binary, mut resources, diagnostics) = match self.built(slug, compiled?, mode)? {
            Ok(built) => built,
            Err(report) => return done(report),
        };
        let validator = match validator {
            Some(Err(BuildFailed(why))) => {
                return done(GradeReport::internal_error(
                    slug,
                    mode,
                    Message::new(
                        format!("the kata's output validator does not build: {why}"),
                        format!("题目的输出校验程序无法构建：{why}"),
                    ),
                ));
            }
            Some(Ok(program)) => Some(Sandboxed {
                sandbox: &self.sandbox,
                cache: &self.cache,
                program,
            }),
            None => None,
        };
        let program_bytes = std::fs::metadata(&binary)
            .map_err(|e| GradeError::io("reading the compiled program's size", e))?
            .len();
        progress(Stage::Running);
        let limits = &package.meta.limits;
        let selected: Vec<&IoCase> = package
            .cases
            .iter()
            .filter(|c| mode.includes(c.group))
            .collect();
        let validator = validator
            .as_ref()
            .map(|v| v as &(dyn katas::io::OutputValidator + Sync));
        // Outputs are judged on a second thread while the next case runs: a validator in the
        // sandbox (a Python start per case) then costs little more than the slower of the two.
        // Judging keeps case order, and the first failure still ends the run.
        let failed = AtomicBool::new(false);
        let (outputs, judged) = mpsc::channel::<(&IoCase, Result<Vec<u8>, CaseReport>, f64)>();
        let mut cases = std::thread::scope(|s| -> Result<Vec<CaseReport>, GradeError> {
            let judge = s.spawn(|| {
                let mut reports = Vec::new();
                for (case, ran, time_ms) in judged {
                    let report = match ran {
                        Err(report) => report,
                        Ok(stdout) => judged_output(case, &stdout, time_ms, validator),
                    };
                    if report.outcome != Outcome::Passed {
                        failed.store(true, Ordering::Relaxed);
                    }
                    reports.push(report);
                }
                reports
            });
            let mut cpu_used = Duration::ZERO;
            for &case in &selected {
                if failed.load(Ordering::Relaxed) {
                    break;
                }
                let ran = self.run_case(&binary, program_bytes, case, limits)?;
                cpu_used += ran.cpu;
                resources.run_wall_ms += ms(ran.wall);
                resources.run_cpu_ms += ms(ran.cpu);
                resources.peak_memory_bytes =
                    resources.peak_memory_bytes.max(ran.peak_memory_bytes);
                let time_ms = ms(ran.cpu);
                let over_total = cpu_used > Duration::from_millis(limits.total_time_ms);
                let result = match (ended_badly(&ran, case, limits), over_total) {
                    (Some((outcome, message)), _) => {
                        Err(case_report(case, outcome, time_ms, Some(message)))
                    }
                    (None, true) => Err(case_report(
                        case,
                        Outcome::TimeLimitExceeded,
                        time_ms,
                        Some(Message::new(
                            format!(
                                "used more than {} ms of CPU time in all",
                                limits.total_time_ms
                            ),
                            format!("CPU 时间总计超过 {} ms", limits.total_time_ms),
                        )),
                    )),
                    (None, false) => Ok(ran.stdout),
                };
                let stop = result.is_err();
                // The judging thread only ends by panicking; `join` below reports that.
                let _ = outputs.send((case, result, time_ms));
                if stop {
                    break;
                }
            }
            drop(outputs);
            judge
                .join()
                .map_err(|_| GradeError::Internal("judging an output panicked".into()))
        })?;
        // A case that ran while an earlier one was being found wrong did not count.
        if let Some(first) = cases.iter().position(|c| c.outcome != Outcome::Passed) {
            cases.truncate(first + 1);
        }
        for case in &selected[cases.len()..] {
            cases.push(case_report(case, Outcome::NotRun, 0.0, None));
        }
        let judged = Report::from_cases(slug, cases);
        let mut report = GradeReport::judged(judged, mode, diagnostics, resources, None, None);
        report.case_time_ms = Some(package.meta.limits.case_time_ms);
        if report.verdict == katas::Verdict::Accepted && mode == Mode::Submit {
            report.performance_missing = Some(
                "stdin/stdout katas are judged on their cases alone: no performance figure".into(),
            );
        }
        done(report)
    }

    /// The kata's custom output validator, built; `None` for the default validator.
    fn output_validator(
        &self,
        package: &IoPackage,
    ) -> Result<Option<Result<Program, BuildFailed>>, GradeError> {
        let decl = &package.decl;
        if decl.validator != ValidatorKind::Custom {
            return Ok(None);
        }
        let Some(language) = decl.validator_language else {
            return Ok(Some(Err(BuildFailed("no validator_language".into()))));
        };
        let files: Vec<(String, Vec<u8>)> = decl
            .validator_files
            .iter()
            .filter_map(|name| package.files.get(name).map(|b| (name.clone(), b.to_vec())))
            .collect();
        validator::build(
            &self.sandbox,
            &self.toolchain,
            &self.cache,
            language,
            &files,
        )
        .map(Some)
    }

    fn run_case(
        &self,
        binary: &Path,
        program_bytes: u64,
        case: &IoCase,
        limits: &Limits,
    ) -> Result<sandbox::Outcome, GradeError> {
        let case_time = Duration::from_millis(limits.case_time_ms);
        let job = Job {
            profile: Profile::Run {
                program: binary.to_path_buf(),
            },
            argv: vec!["/prog".into()],
            env: Vec::new(),
            cwd: PathBuf::from("/tmp"),
            stdin: case.input.clone(),
            limits: sandbox::Limits {
                // Waiting is not working: CPU time decides, the wall clock only backs it up.
                wall: case_time * 2 + Duration::from_secs(1),
                cpu: case_time,
                // The program's own pages may sit in the page cache uncharged (see run/mod.rs).
                memory_bytes: (limits.memory_mb << 20)
                    .saturating_sub(program_bytes)
                    .max(8 << 20),
                address_space_bytes: Some((limits.memory_mb << 20) * 4 + (1 << 30)),
                pids: limits.max_threads + 2 + THREAD_HEADROOM,
                stdout_bytes: (limits.output_kb as usize) << 10,
                stderr_bytes: 64 << 10,
                file_bytes: 16 << 20,
                open_files: 64,
            },
        };
        Ok(self.sandbox.run(&job, &mut sandbox::NoWatch)?)
    }
}

/// One normal run's output judged; a validator's failure is the kata's, said so.
fn judged_output(
    case: &IoCase,
    stdout: &[u8],
    time_ms: f64,
    validator: Option<&(dyn katas::io::OutputValidator + Sync)>,
) -> CaseReport {
    let validator = validator.map(|v| v as &dyn katas::io::OutputValidator);
    judge_output(case, stdout, time_ms, validator).unwrap_or_else(|why| {
        case_report(
            case,
            Outcome::InternalError,
            time_ms,
            Some(Message::new(
                format!("the kata's {why} (the kata's fault, not yours)"),
                format!("题目的校验出错（题目的问题，不是你的）：{why}"),
            )),
        )
    })
}

/// The case's outcome when the program did not end normally; `None` when it exited 0 and its
/// output is to be judged.
fn ended_badly(
    ran: &sandbox::Outcome,
    case: &IoCase,
    limits: &Limits,
) -> Option<(Outcome, Message)> {
    let said = || {
        // A sample's input is in the statement anyway; a secret case's stderr could carry
        // its input out, so only samples show what the program said.
        let text = String::from_utf8_lossy(&ran.stderr);
        let tail: String = text
            .trim()
            .lines()
            .rev()
            .take(3)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join("\n");
        (case.group == Group::Sample && !tail.is_empty()).then(|| katas::report::trim(&tail))
    };
    let with_said = |message: Message| match said() {
        Some(tail) => message.then(&format!(": {tail}"), &format!("：{tail}")),
        None => message,
    };
    match ran.limit {
        Some(LimitHit::Cpu | LimitHit::Wall | LimitHit::Deadline) => Some((
            Outcome::TimeLimitExceeded,
            Message::new(
                format!("ran past {} ms", limits.case_time_ms),
                format!("运行超过 {} ms", limits.case_time_ms),
            ),
        )),
        Some(LimitHit::Memory) => Some((
            Outcome::MemoryLimitExceeded,
            Message::new(
                format!("used more than {} MiB of memory", limits.memory_mb),
                format!("内存使用超过 {} MiB", limits.memory_mb),
            ),
        )),
        Some(LimitHit::Stdout | LimitHit::Stderr) => Some((
            Outcome::OutputLimitExceeded,
            Message::new(
                format!("printed more than {} KiB", limits.output_kb),
                format!("输出超过 {} KiB", limits.output_kb),
            ),
        )),
        Some(LimitHit::Pids) => Some((
            Outcome::RuntimeError,
            Message::new(
                format!("started more than {} threads", limits.max_threads),
                format!("启动的线程超过 {} 个", limits.max_threads),
            ),
        )),
        Some(LimitHit::FileSize) => Some((
            Outcome::RuntimeError,
            Message::new(
                "wrote a file past its size limit",
                "写入的文件超过了大小限制",
            ),
        )),
        None => match ran.status {
            ExitStatus::Exited(0) => None,
            ExitStatus::Exited(code) => Some((
                Outcome::RuntimeError,
                with_said(Message::new(
                    format!("the program exited with status {code}"),
                    format!("程序以退出码 {code} 结束"),
                )),
            )),
            ExitStatus::Signaled(signal) => Some((
                Outcome::RuntimeError,
                with_said(Message::new(
                    format!("the program was killed by signal {signal}"),
                    format!("程序被信号 {signal} 终止"),
                )),
            )),
        },
    }
}
