//! The one grading path: (kata, source, mode) → compile → run → judge → report. Used by
//! `infrakata grade` and by the server's workers.

use crate::GradeError;
use crate::cache::{CacheLimits, CompileCache};
use crate::compile::{self, Compiled};
use crate::gpu::{GpuHost, GpuInfo, Peak};
use crate::perf;
use crate::report::{GpuCaseSpeed, GpuPerformance, GradeReport, Performance, Resources, Score};
use crate::run;
use crate::sandbox::{Sandbox, SandboxConfig};
use crate::toolchain::Toolchain;
use katas::catalogue::CaseInfo;
use katas::gpu::DeviceTiming;
use katas::{CaseReport, Group, Kata, KataKind, Mode, Report, Verdict};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, PoisonError};

/// The largest learner file accepted.
pub const MAX_SOURCE_BYTES: usize = 64 << 10;

/// What a caller can show while a grading is in progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Queued,
    Compiling,
    Running,
    /// Counting instructions for the performance score (accepted submissions only).
    Measuring,
    Done,
}

#[derive(Debug, Clone)]
pub struct GraderConfig {
    /// The checkout holding `katas/` (the library is built from it).
    pub workspace_root: PathBuf,
    /// Compile cache, prebuilt library and build folders.
    pub cache_dir: PathBuf,
    /// Bounds of the compile cache under `cache_dir`.
    pub cache_limits: CacheLimits,
    /// Gradings at once; defaults to the number of cores.
    pub parallel: usize,
    pub sandbox: SandboxConfig,
}

impl GraderConfig {
    /// Defaults for a checkout: caches under `target/infrakata/`.
    pub fn for_checkout() -> Self {
        let workspace_root = PathBuf::from(katas::CRATE_DIR)
            .parent()
            .map(PathBuf::from)
            .unwrap_or_default();
        Self {
            cache_dir: workspace_root.join("target").join("infrakata"),
            cache_limits: CacheLimits::default(),
            workspace_root,
            parallel: std::thread::available_parallelism().map_or(1, |n| n.get()),
            sandbox: SandboxConfig::default(),
        }
    }
}

#[derive(Debug)]
pub struct Grader {
    sandbox: Sandbox,
    toolchain: Toolchain,
    cache: CompileCache,
    slots: Slots,
    /// The reference's instruction count per kata, measured once per grader.
    reference_cost: Mutex<HashMap<String, Option<u64>>>,
    /// What GPU jobs' sandboxes get from this host.
    gpu_host: GpuHost,
    /// The device and its measured copy bandwidth, when this host has a GPU.
    gpu: Option<(GpuInfo, Peak)>,
    /// The reference's device timings per GPU kata, per performance case, measured once.
    reference_timing: Mutex<HashMap<String, HashMap<String, DeviceTiming>>>,
}

impl Grader {
    /// Probes the sandbox and builds the `katas` library; fails with what is missing.
    pub fn new(config: GraderConfig) -> Result<Self, GradeError> {
        let sandbox = Sandbox::new(config.sandbox)?;
        let toolchain = Toolchain::prepare(
            &config.workspace_root,
            &config.cache_dir.join("katas-target"),
        )?;
        let cache = CompileCache::new(config.cache_dir.join("bin"), config.cache_limits)
            .map_err(|e| GradeError::io("creating the compile cache", e))?;
        let gpu = crate::gpu::probe()
            .ok()
            .and_then(|info| katas::gpu::measure_peak().ok().map(|peak| (info, peak)));
        Ok(Self {
            sandbox,
            toolchain,
            cache,
            slots: Slots::new(config.parallel.max(1)),
            reference_cost: Mutex::new(HashMap::new()),
            gpu_host: GpuHost::discover(&config.workspace_root),
            gpu,
            reference_timing: Mutex::new(HashMap::new()),
        })
    }

    /// What the sandbox enforces on this host, for start-up logs.
    pub fn describe(&self) -> String {
        let mut text = self.sandbox.describe();
        if let Some((info, peak)) = &self.gpu {
            text.push_str(&format!(
                "; GPU {info}, copy bandwidth {:.0} GB/s",
                peak.copy_bytes_per_s / 1e9
            ));
        }
        text
    }

    /// Grades `source` for the kata `slug`. `Err` only for bad requests (unknown kata, source
    /// too large) and for our own failures; everything the source does is in the report.
    pub fn grade(
        &self,
        slug: &str,
        source: &str,
        mode: Mode,
        progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError> {
        let kata = katas::catalogue::find(slug)
            .ok_or_else(|| GradeError::UnknownKata(slug.to_string()))?;
        if source.len() > MAX_SOURCE_BYTES {
            return Err(GradeError::SourceTooLarge {
                bytes: source.len(),
                limit: MAX_SOURCE_BYTES,
            });
        }
        let cases = kata
            .case_list()
            .map_err(|why| GradeError::Internal(format!("kata `{slug}` is broken: {why}")))?;
        let selected: Vec<_> = cases
            .into_iter()
            .filter(|c| mode.includes(c.group))
            .collect();

        progress(Stage::Queued);
        let _slot = self.slots.acquire();
        progress(Stage::Compiling);
        let compiled = compile::compile(
            &self.sandbox,
            &self.toolchain,
            &self.cache,
            kata.meta(),
            source,
        )?;
        let (binary, mut resources, diagnostics) = match compiled {
            Compiled::Failed {
                diagnostics,
                message,
                wall,
            } => {
                progress(Stage::Done);
                let resources = Resources {
                    compile_ms: ms(wall),
                    ..Resources::default()
                };
                return Ok(GradeReport::compile_error(
                    slug,
                    mode,
                    diagnostics,
                    message,
                    resources,
                ));
            }
            Compiled::Binary {
                path,
                cached,
                wall,
                diagnostics,
            } => (
                path,
                Resources {
                    compile_ms: ms(wall),
                    compile_cached: cached,
                    ..Resources::default()
                },
                diagnostics,
            ),
        };
        progress(Stage::Running);
        let is_gpu = kata.meta().kind == KataKind::Gpu;
        // GPU katas get fresh inputs every grading, from a seed the submission cannot know
        // when it is written; CPU katas keep the default so instruction counts compare.
        let seed = if is_gpu {
            fastrand::u64(..)
        } else {
            katas::DEFAULT_SEED
        };
        let ran = run::run(
            &self.sandbox,
            kata,
            &binary,
            &selected,
            seed,
            &self.gpu_host,
        )?;
        resources.run_wall_ms = ms(ran.wall);
        resources.run_cpu_ms = ms(ran.cpu);
        resources.peak_memory_bytes = ran.peak_memory_bytes;
        let judged = Report::from_cases(slug, ran.cases);
        if judged.verdict == Verdict::CompileError {
            // A GPU kernel NVRTC refused (every case says the same): reported like a Rust
            // compile error, its errors marked on the learner's lines.
            let log = judged.cases.iter().find_map(|c| c.message.clone());
            let mut diagnostics = diagnostics;
            if let Some(log) = &log {
                diagnostics.extend(crate::diagnostics::from_nvrtc(log, source));
            }
            progress(Stage::Done);
            return Ok(GradeReport::compile_error(
                slug,
                mode,
                diagnostics,
                log,
                resources,
            ));
        }
        let measure = judged.verdict == Verdict::Accepted && mode == Mode::Submit;
        let performance = if measure && !is_gpu {
            progress(Stage::Measuring);
            self.performance(kata, &binary, &selected)?
        } else {
            None
        };
        let gpu_performance = if measure && is_gpu {
            Some(self.gpu_performance(kata, &judged.cases, &selected)?)
        } else {
            None
        };
        progress(Stage::Done);
        Ok(GradeReport {
            kata: slug.to_string(),
            mode,
            verdict: judged.verdict,
            score: Score {
                passed: judged.passed,
                total: judged.total,
            },
            cases: judged.cases,
            diagnostics,
            performance,
            resources,
            message: ran.message,
            output: ran.output,
            gpu_performance,
        })
    }
}

impl Grader {
    /// Device timings of an accepted GPU solution against the device's peak and the
    /// reference kernel (timed once per grader, the same way).
    fn gpu_performance(
        &self,
        kata: &dyn Kata,
        cases: &[CaseReport],
        selected: &[CaseInfo],
    ) -> Result<GpuPerformance, GradeError> {
        let slug = kata.meta().slug.clone();
        let known = self
            .reference_timing
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&slug)
            .cloned();
        let reference = match known {
            Some(timings) => timings,
            None => {
                let timings = self.reference_timings(kata, selected)?;
                self.reference_timing
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(slug, timings.clone());
                timings
            }
        };
        let peak = self.gpu.as_ref().map(|(_, peak)| *peak);
        Ok(GpuPerformance {
            device: self.gpu.as_ref().map(|(info, _)| info.clone()),
            peak,
            cases: cases
                .iter()
                .filter_map(|c| {
                    let timing = c.device.clone()?;
                    let speed =
                        katas::gpu::timing::speed(&timing, peak.as_ref(), reference.get(&c.name));
                    Some(GpuCaseSpeed {
                        case: c.name.clone(),
                        timing,
                        speed,
                    })
                })
                .collect(),
        })
    }

    fn reference_timings(
        &self,
        kata: &dyn Kata,
        selected: &[CaseInfo],
    ) -> Result<HashMap<String, DeviceTiming>, GradeError> {
        let timed: Vec<CaseInfo> = selected
            .iter()
            .filter(|c| c.group == Group::Performance)
            .cloned()
            .collect();
        let path = match compile::compile(
            &self.sandbox,
            &self.toolchain,
            &self.cache,
            kata.meta(),
            kata.package().reference,
        )? {
            Compiled::Binary { path, .. } => path,
            Compiled::Failed { diagnostics, .. } => {
                return Err(GradeError::Internal(format!(
                    "the reference of `{}` does not compile: {diagnostics:?}",
                    kata.meta().slug
                )));
            }
        };
        let ran = run::run(
            &self.sandbox,
            kata,
            &path,
            &timed,
            fastrand::u64(..),
            &self.gpu_host,
        )?;
        Ok(ran
            .cases
            .into_iter()
            .filter_map(|c| c.device.map(|t| (c.name, t)))
            .collect())
    }
}

impl Grader {
    /// Instruction counts of the solution and of the reference on the performance cases.
    fn performance(
        &self,
        kata: &dyn Kata,
        binary: &Path,
        selected: &[CaseInfo],
    ) -> Result<Option<Performance>, GradeError> {
        let cases: Vec<CaseInfo> = selected
            .iter()
            .filter(|c| c.group == Group::Performance)
            .cloned()
            .collect();
        let scratch = self.cache.dir();
        let Some(instructions) =
            perf::count(&self.sandbox, scratch, binary, &cases, katas::DEFAULT_SEED)?
        else {
            return Ok(None);
        };
        let slug = kata.meta().slug.clone();
        let known = self
            .reference_cost
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&slug)
            .copied();
        let reference = match known {
            Some(cost) => cost,
            None => {
                let cost = match compile::compile(
                    &self.sandbox,
                    &self.toolchain,
                    &self.cache,
                    kata.meta(),
                    kata.package().reference,
                )? {
                    Compiled::Binary { path, .. } => {
                        perf::count(&self.sandbox, scratch, &path, &cases, katas::DEFAULT_SEED)?
                    }
                    Compiled::Failed { diagnostics, .. } => {
                        return Err(GradeError::Internal(format!(
                            "the reference of `{slug}` does not compile: {diagnostics:?}"
                        )));
                    }
                };
                self.reference_cost
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(slug, cost);
                cost
            }
        };
        Ok(reference
            .filter(|&r| r > 0)
            .map(|reference_instructions| Performance {
                instructions,
                reference_instructions,
                ratio: instructions as f64 / reference_instructions as f64,
                cases: cases.len(),
            }))
    }
}

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Bounds concurrent gradings (each one compiles and runs on a core).
#[derive(Debug)]
struct Slots {
    free: Mutex<usize>,
    released: Condvar,
}

struct Slot<'a>(&'a Slots);

impl Slots {
    fn new(n: usize) -> Self {
        Self {
            free: Mutex::new(n),
            released: Condvar::new(),
        }
    }

    fn acquire(&self) -> Slot<'_> {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        while *free == 0 {
            free = self
                .released
                .wait(free)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *free -= 1;
        Slot(self)
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        *self.0.free.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        self.0.released.notify_one();
    }
}
