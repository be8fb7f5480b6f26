//! The one grading path: (kata, source, mode) → compile → run → judge → report. Used by
//! `infrakata grade` and by the server's workers.

use crate::GradeError;
use crate::cache::{Binary, CacheLimits, CompileCache};
use crate::compile::Compiled;
use crate::diagnostics::Diagnostic;
use crate::gpu::{GpuHost, GpuInfo, Peak};
use crate::report::{GradeReport, Measured, Resources};
use crate::sandbox::{Sandbox, SandboxConfig};
use crate::toolchain::Toolchain;
use katas::gpu::DeviceTiming;
use katas::judge::CaseInfo;
use katas::{Kata, KataKind, Mode, Verdict};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, PoisonError};

mod bank;
mod custom;
mod figure;
mod gpu;
mod io;
mod io_verify;
mod package;
mod package_custom;
mod seam;

pub use io_verify::PackageCheck;
pub use seam::Grade;

/// The largest learner file accepted.
pub const MAX_SOURCE_BYTES: usize = 64 << 10;
/// The largest compiled program run. Bigger means large statics or tables baked in at compile
/// time: its pages could be read without being charged as memory, and it would crowd the cache.
pub const MAX_PROGRAM_BYTES: u64 = 32 << 20;
/// valgrind's instruction counter without cache simulation (cachegrind `--cache-sim=no`,
/// about half callgrind's cost here), a static executable (Debian's layout).
const MEASURE_TOOL: &str = "/usr/libexec/valgrind/cachegrind-amd64-linux";

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
    /// The instruction counter, when this host has one.
    measure_tool: Option<PathBuf>,
    /// The empty harness's instruction count per kata, measured once per grader.
    harness_cost: Mutex<HashMap<String, Result<u64, String>>>,
    /// Reference counts on input sets drawn ahead, one per kata, each taken once.
    reference_bank: bank::ReferenceBank,
    /// What GPU jobs' sandboxes get from this host.
    gpu_host: GpuHost,
    /// The device and its measured copy bandwidth, when this host has a GPU.
    gpu: Option<(GpuInfo, Peak)>,
    /// The reference's device timings per GPU version ([`FunctionPackage::key`]), per
    /// performance case, measured once.
    reference_timing: Mutex<HashMap<String, HashMap<String, DeviceTiming>>>,
    /// Each version's cases as its judge lists them, by [`FunctionPackage::key`]: which cases
    /// there are and their groups do not depend on the seed, so a figure need not start a
    /// judge only to learn them.
    ///
    /// [`FunctionPackage::key`]: crate::package::FunctionPackage::key
    case_lists: Mutex<HashMap<String, Vec<CaseInfo>>>,
}

impl Grader {
    /// Probes the sandbox and builds the `katas` library; fails with what is missing.
    pub fn new(config: GraderConfig) -> Result<Self, GradeError> {
        let sandbox = Sandbox::new(config.sandbox)?;
        let toolchain = Toolchain::prepare(
            &sandbox,
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
            measure_tool: Path::new(MEASURE_TOOL)
                .is_file()
                .then(|| PathBuf::from(MEASURE_TOOL)),
            harness_cost: Mutex::new(HashMap::new()),
            reference_bank: bank::ReferenceBank::default(),
            gpu_host: GpuHost::discover(&config.workspace_root),
            gpu,
            reference_timing: Mutex::new(HashMap::new()),
            case_lists: Mutex::new(HashMap::new()),
        })
    }

    /// What the sandbox enforces on this host and how it counts figures, for start-up logs.
    pub fn describe(&self) -> String {
        let mut text = self.sandbox.describe();
        match &self.measure_tool {
            Some(tool) => text.push_str(&format!(
                "; figures: valgrind {} without cache simulation",
                tool.display()
            )),
            None => text.push_str(&format!(
                "; figures: none ({MEASURE_TOOL} is missing; verdicts come without them)"
            )),
        }
        text.push_str(&format!("; {}", crate::hardware_counter::describe()));
        if let Some((info, peak)) = &self.gpu {
            text.push_str(&format!(
                "; GPU {info}, copy bandwidth {:.0} GB/s",
                peak.copy_bytes_per_s / 1e9
            ));
        }
        text
    }

    /// Grades `source` for the kata `slug`: [`Grader::judge`], then [`Grader::measure`].
    /// `Err` only for bad requests (unknown kata, source too large) and for our own failures;
    /// everything the source does is in the report.
    pub fn grade(
        &self,
        slug: &str,
        source: &str,
        mode: Mode,
        progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError> {
        let judged = self.judge(slug, source, mode, progress)?;
        self.measure(judged, progress)
    }

    /// Compiles and runs the cases: the verdict, final the moment it is returned. An accepted
    /// `submit` of a CPU kata still owes its instruction count ([`Judged::owes_instruction_count`]),
    /// which [`Grader::measure`] adds; callers publish the verdict in between (a GPU kata's
    /// device figures come with its verdict). Every kata is graded through the package made
    /// from the build's own files ([`crate::package::builtin`]), exactly as a published
    /// version is.
    pub fn judge(
        &self,
        slug: &str,
        source: &str,
        mode: Mode,
        progress: &dyn Fn(Stage),
    ) -> Result<Judged, GradeError> {
        let (kata, package) = builtin_for(slug, source)?;
        let report = self.grade_package(package, source, mode, progress)?;
        let owed = report.awaits_figure().then(|| Owed {
            kata,
            source: source.to_string(),
        });
        Ok(Judged { report, owed })
    }

    /// Adds the performance figure an accepted `submit` owes (instruction counts on a secret
    /// input set, or device timings); a grading that owes nothing is returned as it is.
    pub fn measure(
        &self,
        judged: Judged,
        progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError> {
        let Judged {
            mut report,
            owed: Some(owed),
        } = judged
        else {
            return Ok(judged.report);
        };
        let _slot = self.slots.acquire();
        progress(Stage::Measuring);
        // Inline (`infrakata grade`), there is no later attempt: a measurement the host was
        // too busy for is reported missing with the reason.
        match self.measure_submission(&owed.kata.meta().slug, &owed.source, &|_| {}) {
            Ok(Measured::Figure(figure)) => report.performance = Some(figure),
            Ok(Measured::Missing(why)) | Err(GradeError::Unavailable(why)) => {
                report.performance_missing = Some(why)
            }
            Err(e) => return Err(e),
        }
        progress(Stage::Done);
        Ok(report)
    }
}

impl Grader {
    /// A compile's outcome: the binary within the size bound, with its compile figures and
    /// warnings, or the compile-error report to return instead. Shared by every kind of kata.
    #[allow(clippy::type_complexity)]
    fn built(
        &self,
        slug: &str,
        compiled: Compiled,
        mode: Mode,
    ) -> Result<Result<(Binary, Resources, Vec<Diagnostic>), GradeReport>, GradeError> {
        let (binary, resources, diagnostics) = match compiled {
            Compiled::Failed {
                diagnostics,
                message,
                wall,
            } => {
                let resources = Resources {
                    compile_ms: ms(wall),
                    ..Resources::default()
                };
                return Ok(Err(GradeReport::compile_error(
                    slug,
                    mode,
                    diagnostics,
                    message,
                    resources,
                )));
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
        let program_bytes = std::fs::metadata(&binary)
            .map_err(|e| GradeError::io("reading the compiled program's size", e))?
            .len();
        if program_bytes > MAX_PROGRAM_BYTES {
            let message = katas::Message::new(
                format!(
                    "the compiled program is {} MiB; the limit is {} MiB — large tables or \
                     statics belong in code that computes them at run time",
                    program_bytes >> 20,
                    MAX_PROGRAM_BYTES >> 20
                ),
                format!(
                    "编译出的程序有 {} MiB；上限是 {} MiB —— 大的表或 static 应改为在运行时计算",
                    program_bytes >> 20,
                    MAX_PROGRAM_BYTES >> 20
                ),
            );
            return Ok(Err(GradeReport::compile_error(
                slug,
                mode,
                diagnostics,
                Some(message),
                resources,
            )));
        }
        Ok(Ok((binary, resources, diagnostics)))
    }
}

/// A grading whose verdict is known and final. An accepted `submit` also owes its performance
/// figure until [`Grader::measure`] has run.
#[derive(Debug)]
pub struct Judged {
    /// Verdict, cases and diagnostics; `performance` is still empty while a figure is owed.
    pub report: GradeReport,
    owed: Option<Owed>,
}

impl Judged {
    /// A verdict that owes nothing: final as it is. For [`Grade`] implementations other than
    /// [`Grader`] (a scripted grader in the service's tests).
    pub fn settled(report: GradeReport) -> Self {
        Self { report, owed: None }
    }

    /// An accepted `submit` of the CPU kata `slug` still owing its instruction count, as
    /// [`Grader::judge`] returns one: measuring it ([`Grader::measure`]) counts `source` on
    /// the kata's submit cases. For [`Grade`] implementations other than [`Grader`]. `Err`
    /// for an unknown kata, a source over the limit, a GPU kata (whose figure comes with its
    /// verdict) or a report that is not an accepted submit.
    pub fn owing_instruction_count(
        report: GradeReport,
        slug: &str,
        source: &str,
    ) -> Result<Self, GradeError> {
        let kata = kata_for(slug, source)?;
        if kata.meta().kind != KataKind::Cpu {
            return Err(GradeError::Internal(format!(
                "`{slug}` is not a CPU kata: it owes no instruction count"
            )));
        }
        if report.verdict != Verdict::Accepted || report.mode != Mode::Submit {
            return Err(GradeError::Internal(format!(
                "only an accepted submit owes a figure, not a {:?} {:?}",
                report.verdict, report.mode
            )));
        }
        Ok(Self {
            report,
            owed: Some(Owed {
                kata,
                source: source.to_string(),
            }),
        })
    }

    /// The figure owed, an instruction count ([`Grader::measure_submission`], a job of its
    /// own): only a CPU kata's accepted submit owes one, since a GPU kata's device timings
    /// come with its verdict.
    pub fn owes_instruction_count(&self) -> bool {
        self.owed.is_some()
    }
}

/// What measuring needs from the judging run: the same source (its program, from the compile
/// cache); the figure is counted on inputs drawn for it alone.
#[derive(Debug)]
struct Owed {
    kata: &'static dyn Kata,
    source: String,
}

/// A seed from the OS random source: a grading's secret cases and a measurement's single-use
/// inputs are drawn from it, never from a generator whose state could be guessed.
pub(crate) fn fresh_seed() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the OS random source works");
    u64::from_le_bytes(bytes)
}

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Bounds concurrent gradings (each one compiles and runs on a core).
#[derive(Debug)]
struct Slots {
    free: Mutex<usize>,
    released: Condvar,
    capacity: usize,
}

struct Slot<'a>(&'a Slots);

impl Slots {
    fn new(n: usize) -> Self {
        Self {
            free: Mutex::new(n),
            released: Condvar::new(),
            capacity: n,
        }
    }

    /// How many gradings run at once.
    fn capacity(&self) -> usize {
        self.capacity
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

/// The kata `slug` names, once `source` is within the size any grading accepts.
fn kata_for(slug: &str, source: &str) -> Result<&'static dyn katas::catalogue::Kata, GradeError> {
    let kata =
        katas::builtin::find(slug).ok_or_else(|| GradeError::UnknownKata(slug.to_string()))?;
    check_source_size(source)?;
    Ok(kata)
}

/// The build's kata `slug` and the package made from its files, which grades it.
fn builtin_for(
    slug: &str,
    source: &str,
) -> Result<(&'static dyn Kata, &'static crate::package::FunctionPackage), GradeError> {
    let kata = kata_for(slug, source)?;
    let package = crate::package::builtin(slug)
        .ok_or_else(|| GradeError::Internal(format!("the build's kata `{slug}` has no package")))?;
    Ok((kata, package))
}

/// Refuses a learner's file over the size any grading accepts.
fn check_source_size(source: &str) -> Result<(), GradeError> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(GradeError::SourceTooLarge {
            bytes: source.len(),
            limit: MAX_SOURCE_BYTES,
        });
    }
    Ok(())
}

/// `run` on every item, at most `width` at once, the results in the items' order.
pub(super) fn side_by_side<T: Sync, R: Send>(
    items: &[T],
    width: usize,
    run: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<R>>> =
        items.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..width.clamp(1, items.len().max(1)) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let result = run(item);
                    *results[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(result);
                }
            });
        }
    });
    results
        .into_iter()
        .map(|slot| {
            let result = slot.into_inner().unwrap_or_else(PoisonError::into_inner);
            result.expect("a thread ran every item (a panic would have ended the scope)")
        })
        .collect()
}
