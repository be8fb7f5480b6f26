//! How a GPU kata becomes a [`KataSpec`]: a kata implements [`GpuKata`] (shapes, input
//! generation, a per-element check, and how its solution is run on the device), and
//! [`GpuSpec`] does the rest the same way for every kata — kernel compilation with NVRTC,
//! poisoned outputs, inputs verified unchanged, warm-up, L2 flushes, timed runs with fresh
//! inputs, and the trusted check of every output element and of every timed run's samples.
//!
//! Untrusted side ([`KataSpec::solve`], inside the sandbox): everything that touches the
//! device. Trusted side ([`KataSpec::check`]): regenerates the inputs from the case seed and
//! judges what came back; it never needs a GPU.

use super::driver::{Arg, Buf, Buffers, Element, Gpu, GpuError, HostBuf};
use super::launch::{KernelSig, Launch};
use super::timing::{DeviceTiming, TIMED_RUNS, WARMUP_RUNS, Work};
use super::{nvrtc, probe};
use crate::spec::{Case, Check, Group, KataSpec, Message};
use cudarc::driver::CudaFunction;
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::collections::HashMap;
use std::fmt::Debug;
use std::marker::PhantomData;
use std::sync::{Mutex, PoisonError};

/// What a GPU kata's `kata.rs` implements.
pub trait GpuKata: Sized + Send + Sync + 'static {
    /// The learner's `KERNEL` and host-side functions, one field per `entry_points` name.
    type Solution: Copy + Send + Sync + 'static;
    /// One case's sizes (the data is generated from a seed, on both sides).
    type Shape: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync + 'static;
    /// The output's element type.
    type Out: Element;
    /// What the kata's own code records while running a solution (transfers made, kernels
    /// launched), judged on the trusted side by [`GpuKata::check_log`].
    type Log: Serialize
        + DeserializeOwned
        + Default
        + Clone
        + Debug
        + PartialEq
        + Send
        + Sync
        + 'static;

    /// The `extern "C" __global__` functions the learner's `KERNEL` must define.
    const KERNELS: &'static [KernelSig];

    fn kernel_source(solution: &Self::Solution) -> &'static str;

    /// The cases; `Group::Performance` ones are also timed.
    fn shapes() -> Vec<Case<Self::Shape>>;

    /// The input buffers of one run. Deterministic in `rng`.
    fn inputs(shape: &Self::Shape, rng: &mut fastrand::Rng) -> Vec<HostBuf>;

    fn output_len(shape: &Self::Shape) -> usize;

    /// What the output buffer holds before a run: `None` poisons it (NaN / all ones), for
    /// outputs that must be fully written; in-place katas start from their data.
    fn initial_output(_shape: &Self::Shape, _inputs: &[HostBuf]) -> Option<Vec<Self::Out>> {
        None
    }

    /// Untrusted: runs the solution once on the device (queue work only; the harness
    /// synchronises and times).
    fn run(
        device: &mut Device<'_>,
        solution: Self::Solution,
        shape: &Self::Shape,
        log: &mut Self::Log,
    ) -> Result<(), GpuError>;

    /// Trusted: judges output element `index`; `Err` says what was expected (and the tolerance).
    fn check_element(
        shape: &Self::Shape,
        inputs: &[HostBuf],
        index: usize,
        got: Self::Out,
    ) -> Result<(), String>;

    /// Trusted: judges what the run recorded; `Ok` carries notes for the report.
    fn check_log(_shape: &Self::Shape, _log: &Self::Log) -> Result<Vec<Message>, Message> {
        Ok(Vec::new())
    }

    /// The least work a correct solution must do, for the rate.
    fn work(shape: &Self::Shape) -> Work;

    /// The shape in a failure report, in English and 中文.
    fn describe(shape: &Self::Shape) -> Message;
}

/// The [`KataSpec`] of a [`GpuKata`]; `kata.rs` says `pub type Spec = GpuSpec<Kata>;`.
#[derive(Debug)]
pub struct GpuSpec<K>(PhantomData<K>);

/// One case: its shape, the seed its data comes from, and how many timed runs it gets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GpuCase<S> {
    pub shape: S,
    pub seed: u64,
    pub timed_runs: u32,
}

/// What the untrusted side sends back for one case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum GpuOutput<T, L> {
    /// NVRTC refused `KERNEL`, or it lacks a required entry point: the learner's compile error.
    KernelRejected(String),
    /// No usable GPU or NVRTC inside the sandbox: our side failed.
    Unavailable(String),
    Ran(Ran<T, L>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ran<T, L> {
    /// The whole output of the correctness run.
    pub values: Vec<T>,
    /// The first input element the run changed: `(buffer, index, before, after)`.
    pub input_changed: Option<(usize, usize, String, String)>,
    pub log: L,
    pub timed: Vec<TimedRun<T>>,
}

/// One timed run: its device time and a sample of its output at positions the kernel cannot
/// know in advance (they come from the case seed, which is fresh for every grading).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimedRun<T> {
    pub ms: f32,
    pub samples: Vec<(u64, T)>,
    pub input_changed: Option<(usize, usize, String, String)>,
}

/// Sampled positions per timed run (plus the first and the last element).
const SAMPLES: usize = 512;
/// Outputs up to this many elements are compared element by element in full.
const FULL_CHECK: usize = 1 << 22;
/// Positions compared in a larger correctness output (all are scanned for poison).
const BIG_SAMPLE: usize = 1 << 16;

/// The seed of timed run `run`'s inputs (run 0 is the correctness run).
fn run_seed(case_seed: u64, run: u32) -> u64 {
    case_seed ^ u64::from(run).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The generator run `run` of a case draws its inputs from (for tests of a kata's checker).
pub fn run_rng(case_seed: u64, run: u32) -> fastrand::Rng {
    fastrand::Rng::with_seed(run_seed(case_seed, run))
}

/// The output positions sampled from timed run `run` (for tests of a kata's checker).
pub fn sample_positions(case_seed: u64, run: u32, len: usize) -> Vec<usize> {
    if len == 0 {
        return Vec::new();
    }
    let mut rng = fastrand::Rng::with_seed(run_seed(case_seed, run) ^ 0x5A3F_17E5);
    let mut at: Vec<usize> = (0..SAMPLES.min(len)).map(|_| rng.usize(..len)).collect();
    at.extend([0, len - 1]);
    at.sort_unstable();
    at.dedup();
    at
}

impl std::fmt::Debug for Device<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device")
            .field("inputs", &self.inputs)
            .field("output", &self.output)
            .finish_non_exhaustive()
    }
}

/// The handle a kata's [`GpuKata::run`] gets: the run's buffers and the learner's kernels.
pub struct Device<'a> {
    gpu: &'a mut Gpu,
    bufs: &'a mut Buffers,
    inputs: usize,
    output: Buf,
    learner: &'a HashMap<&'static str, (CudaFunction, KernelSig)>,
}

impl Device<'_> {
    /// Input buffer `i`, in the order [`GpuKata::inputs`] made them. Kernels must not write it.
    pub fn input(&self, i: usize) -> Buf {
        assert!(i < self.inputs, "input {i} of {}", self.inputs);
        Buf(i)
    }

    pub fn output(&self) -> Buf {
        self.output
    }

    pub fn len(&self, buf: Buf) -> usize {
        self.bufs.len(buf)
    }

    /// A new buffer of `len` elements of `like`'s type, poisoned; freed after the run.
    pub fn scratch(&mut self, like: Buf, len: usize) -> Result<Buf, GpuError> {
        self.bufs.scratch(self.gpu, like, len)
    }

    /// Launches the learner's kernel `name` (one of the kata's [`GpuKata::KERNELS`]).
    pub fn launch(&mut self, name: &str, launch: Launch, args: &[Arg]) -> Result<(), GpuError> {
        let (function, sig) = self
            .learner
            .get(name)
            .ok_or_else(|| GpuError(format!("no kernel `{name}` in this kata")))?;
        self.bufs.launch(self.gpu, function, sig, launch, args)
    }

    /// Launches one of the kata's own kernels (`source` is the kata's, never the learner's).
    pub fn launch_own(
        &mut self,
        source: &'static str,
        sig: &KernelSig,
        launch: Launch,
        args: &[Arg],
    ) -> Result<(), GpuError> {
        let ptx = compiled(source, self.gpu.arch(), std::slice::from_ref(sig)).map_err(|e| {
            GpuError(format!(
                "the kata's own kernel `{}` did not compile: {e}",
                sig.name
            ))
        })?;
        let function = self.gpu.function(&ptx, sig.name)?;
        self.bufs.launch(self.gpu, &function, sig, launch, args)
    }

    /// Copies `len` elements between buffers of one type, on the stream.
    pub fn copy(
        &mut self,
        src: (Buf, usize),
        dst: (Buf, usize),
        len: usize,
    ) -> Result<(), GpuError> {
        self.bufs.copy(self.gpu, src, dst, len)
    }
}

/// NVRTC output per (source, arch), so each kernel compiles once per process.
type CompiledKernels = HashMap<(String, (u32, u32)), Result<String, nvrtc::NvrtcError>>;

fn compiled(
    source: &str,
    arch: (u32, u32),
    sigs: &[KernelSig],
) -> Result<String, nvrtc::NvrtcError> {
    static CACHE: Mutex<Option<CompiledKernels>> = Mutex::new(None);
    let key = (source.to_string(), arch);
    if let Some(hit) = CACHE
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert_with(HashMap::new)
        .get(&key)
    {
        return hit.clone();
    }
    let result = nvrtc::compile(source, arch, sigs);
    CACHE
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert_with(HashMap::new)
        .insert(key, result.clone());
    result
}

/// The process's device, opened on first use. One lock: cases on a GPU run one at a time, so
/// no two timings overlap.
static DEVICE: Mutex<Option<Result<Gpu, String>>> = Mutex::new(None);

impl<K: GpuKata> KataSpec for GpuSpec<K> {
    type Solution = K::Solution;
    type Input = GpuCase<K::Shape>;
    type Output = GpuOutput<K::Out, K::Log>;

    fn cases(seed: u64) -> Vec<Case<Self::Input>> {
        K::shapes()
            .into_iter()
            .enumerate()
            .map(|(i, c)| Case {
                name: c.name,
                name_zh: c.name_zh,
                group: c.group,
                input: GpuCase {
                    shape: c.input,
                    seed: seed ^ (i as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03),
                    timed_runs: if c.group == Group::Performance {
                        TIMED_RUNS
                    } else {
                        0
                    },
                },
            })
            .collect()
    }

    fn oracle(_input: &Self::Input) -> Option<Self::Output> {
        // `check` recomputes everything from the case seed; nothing to precompute.
        Some(GpuOutput::Unavailable(String::new()))
    }

    fn solve(solution: K::Solution, case: &Self::Input) -> Self::Output {
        let arch = probe::probe()
            .map(|info| info.compute_capability)
            .unwrap_or(nvrtc::DEFAULT_ARCH);
        let ptx = match compiled(K::kernel_source(&solution), arch, K::KERNELS) {
            Ok(ptx) => ptx,
            Err(nvrtc::NvrtcError::Rejected(log)) => return GpuOutput::KernelRejected(log),
            Err(e @ nvrtc::NvrtcError::Unavailable(_)) => {
                return GpuOutput::Unavailable(e.to_string());
            }
        };
        if let Err(why) = probe::probe() {
            return GpuOutput::Unavailable(why.to_string());
        }
        let mut device = DEVICE.lock().unwrap_or_else(PoisonError::into_inner);
        let gpu = match device.get_or_insert_with(|| Gpu::open().map_err(|e| e.to_string())) {
            Ok(gpu) => gpu,
            Err(why) => return GpuOutput::Unavailable(why.clone()),
        };
        match run_case::<K>(gpu, &ptx, solution, case) {
            Ok(ran) => GpuOutput::Ran(ran),
            // The learner's runtime error (bad launch, fault on the device): a panic is how the
            // runner reports one, with this message.
            Err(e) => panic!("{e}"),
        }
    }

    fn check(case: &Self::Input, _expected: &Self::Output, got: &Self::Output) -> Check {
        let ran = match got {
            GpuOutput::KernelRejected(log) => return Check::KernelRejected(log.clone()),
            GpuOutput::Unavailable(why) => return Check::Unavailable(why.clone()),
            GpuOutput::Ran(ran) => ran,
        };
        let shape = &case.shape;
        let inputs = K::inputs(shape, &mut fastrand::Rng::with_seed(run_seed(case.seed, 0)));
        let len = K::output_len(shape);
        if ran.values.len() != len {
            return Check::fail(
                Message::new("output has the wrong length", "输出的长度不对"),
                len,
                ran.values.len(),
            );
        }
        if let Some(fail) = changed_input(&ran.input_changed, None) {
            return fail;
        }
        // The kata's rules first: a run that broke one is explained by the rule, not by the
        // output it happened to produce.
        let mut notes = match K::check_log(shape, &ran.log) {
            Ok(notes) => notes,
            Err(why) => return Check::fail(why, "a run within the kata's rules", "see above"),
        };
        // Every element is scanned for the poison; values are compared everywhere up to
        // FULL_CHECK elements and at a large seeded sample beyond (performance cases, whose
        // timed runs are sampled too), so the trusted side stays quick on 10^7 elements.
        if let Some(i) = ran.values.iter().position(|v| v.is_poison()) {
            return judge_element::<K>(shape, &inputs, i, ran.values[i], None)
                .unwrap_or_else(Check::pass);
        }
        let positions: Vec<usize> = if len <= FULL_CHECK {
            (0..len).collect()
        } else {
            let mut rng = fastrand::Rng::with_seed(case.seed ^ 0xF011_C4EC);
            let mut at: Vec<usize> = (0..BIG_SAMPLE).map(|_| rng.usize(..len)).collect();
            at.extend([0, len - 1]);
            at
        };
        for i in positions {
            if let Some(fail) = judge_element::<K>(shape, &inputs, i, ran.values[i], None) {
                return fail;
            }
        }
        if case.timed_runs == 0 {
            return Check::pass_with(notes);
        }
        if ran.timed.len() != case.timed_runs as usize {
            return Check::fail(
                Message::new("wrong number of timed runs", "计时运行的次数不对"),
                case.timed_runs,
                ran.timed.len(),
            );
        }
        for (r, run) in ran.timed.iter().enumerate() {
            let r = r as u32 + 1;
            let inputs = K::inputs(shape, &mut fastrand::Rng::with_seed(run_seed(case.seed, r)));
            let at = Some(r);
            if let Some(fail) = changed_input(&run.input_changed, at) {
                return fail;
            }
            let want = sample_positions(case.seed, r, len);
            if run.samples.len() != want.len()
                || run.samples.iter().zip(&want).any(|(s, &w)| s.0 != w as u64)
            {
                return Check::fail(
                    timed_run(at, Message::new("samples missing", "缺少抽样结果")),
                    want.len(),
                    run.samples.len(),
                );
            }
            for &(i, v) in &run.samples {
                if let Some(fail) = judge_element::<K>(shape, &inputs, i as usize, v, at) {
                    return fail;
                }
            }
        }
        let times: Vec<f32> = ran.timed.iter().map(|t| t.ms).collect();
        match DeviceTiming::from_samples(&times, K::work(shape)) {
            Some(timing) => {
                notes.push(timing.note());
                Check::PassTimed { notes, timing }
            }
            None => Check::pass_with(notes),
        }
    }

    fn describe(case: &Self::Input) -> Message {
        K::describe(&case.shape)
    }
}

/// `message` said of timed run `run` (fresh inputs), or as it is for the checked run (`None`).
fn timed_run(run: Option<u32>, message: Message) -> Message {
    match run {
        None => message,
        Some(r) => message.after(
            &format!("timed run {r} (fresh inputs): "),
            &format!("第 {r} 次计时运行（新的输入）："),
        ),
    }
}

fn changed_input(
    changed: &Option<(usize, usize, String, String)>,
    at: Option<u32>,
) -> Option<Check> {
    changed.as_ref().map(|(buf, i, before, after)| {
        Check::fail(
            timed_run(
                at,
                Message::new(
                    format!("input buffer {buf} was modified at element {i}; inputs are read-only"),
                    format!("输入缓冲区 {buf} 中下标为 {i} 的元素被改动了；输入是只读的"),
                ),
            ),
            before,
            after,
        )
    })
}

fn judge_element<K: GpuKata>(
    shape: &K::Shape,
    inputs: &[HostBuf],
    i: usize,
    v: K::Out,
    at: Option<u32>,
) -> Option<Check> {
    if v.is_poison() {
        let expected = K::check_element(shape, inputs, i, v)
            .err()
            .unwrap_or_default();
        return Some(Check::fail(
            timed_run(
                at,
                Message::new(
                    format!(
                        "output[{i}] still holds the poison value the output was filled with \
                         before the launch (NaN / all bits set): it was never written"
                    ),
                    format!(
                        "output[{i}] 仍是启动前填入的毒值（NaN / 全 1 位）：这个元素从未被写入"
                    ),
                ),
            ),
            expected,
            format!("{v:?}"),
        ));
    }
    K::check_element(shape, inputs, i, v).err().map(|expected| {
        Check::fail(
            timed_run(
                at,
                Message::new(
                    format!("output[{i}] is wrong"),
                    format!("output[{i}] 的值不对"),
                ),
            ),
            expected,
            format!("{v:?}"),
        )
    })
}

/// Everything the untrusted side does for one case.
fn run_case<K: GpuKata>(
    gpu: &mut Gpu,
    ptx: &str,
    solution: K::Solution,
    case: &GpuCase<K::Shape>,
) -> Result<Ran<K::Out, K::Log>, GpuError> {
    let mut learner = HashMap::new();
    for sig in K::KERNELS {
        learner.insert(sig.name, (gpu.function(ptx, sig.name)?, *sig));
    }
    let shape = &case.shape;
    let inputs = K::inputs(shape, &mut fastrand::Rng::with_seed(run_seed(case.seed, 0)));
    let mut bufs = Buffers::new();
    for input in &inputs {
        bufs.upload(gpu, input)?;
    }
    let len = K::output_len(shape);
    let initial = |inputs: &[HostBuf]| {
        K::initial_output(shape, inputs).unwrap_or_else(|| vec![K::Out::POISON; len])
    };
    let output = bufs.upload(gpu, &K::Out::host(initial(&inputs)))?;
    bufs.start_run();
    let mut log = K::Log::default();
    {
        let mut device = Device {
            gpu,
            bufs: &mut bufs,
            inputs: inputs.len(),
            output,
            learner: &learner,
        };
        K::run(&mut device, solution, shape, &mut log)?;
    }
    gpu.sync()?;
    let values = download_out::<K>(gpu, &bufs, output)?;
    let input_changed = first_change(gpu, &bufs, &inputs)?;

    let mut timed = Vec::new();
    if case.timed_runs > 0 {
        for _ in 0..WARMUP_RUNS {
            reset::<K>(gpu, &mut bufs, &inputs, output, &initial)?;
            one_run::<K>(gpu, &mut bufs, &inputs, output, &learner, solution, shape)?;
            gpu.sync()?;
        }
    }
    for r in 1..=case.timed_runs {
        let fresh = K::inputs(shape, &mut fastrand::Rng::with_seed(run_seed(case.seed, r)));
        reset::<K>(gpu, &mut bufs, &fresh, output, &initial)?;
        gpu.flush_l2()?;
        let ((), ms) = gpu
            .time(|gpu| one_run::<K>(gpu, &mut bufs, &fresh, output, &learner, solution, shape))?;
        let out = download_out::<K>(gpu, &bufs, output)?;
        let samples = sample_positions(case.seed, r, len)
            .into_iter()
            .filter_map(|i| out.get(i).map(|&v| (i as u64, v)))
            .collect();
        timed.push(TimedRun {
            ms,
            samples,
            input_changed: first_change(gpu, &bufs, &fresh)?,
        });
    }
    Ok(Ran {
        values,
        input_changed,
        log,
        timed,
    })
}

/// Fresh inputs in place and the output back to its initial state (poison, usually).
fn reset<K: GpuKata>(
    gpu: &mut Gpu,
    bufs: &mut Buffers,
    inputs: &[HostBuf],
    output: Buf,
    initial: &dyn Fn(&[HostBuf]) -> Vec<K::Out>,
) -> Result<(), GpuError> {
    for (i, input) in inputs.iter().enumerate() {
        bufs.refill(gpu, Buf(i), input)?;
    }
    bufs.refill(gpu, output, &K::Out::host(initial(inputs)))?;
    gpu.sync()
}

fn one_run<K: GpuKata>(
    gpu: &mut Gpu,
    bufs: &mut Buffers,
    inputs: &[HostBuf],
    output: Buf,
    learner: &HashMap<&'static str, (CudaFunction, KernelSig)>,
    solution: K::Solution,
    shape: &K::Shape,
) -> Result<(), GpuError> {
    bufs.start_run();
    let mut device = Device {
        gpu,
        bufs,
        inputs: inputs.len(),
        output,
        learner,
    };
    K::run(&mut device, solution, shape, &mut K::Log::default())
}

fn download_out<K: GpuKata>(
    gpu: &Gpu,
    bufs: &Buffers,
    output: Buf,
) -> Result<Vec<K::Out>, GpuError> {
    let host = bufs.download(gpu, output)?;
    K::Out::of(&host)
        .map(<[K::Out]>::to_vec)
        .ok_or_else(|| GpuError("output buffer of an unexpected type".into()))
}

fn first_change(
    gpu: &Gpu,
    bufs: &Buffers,
    inputs: &[HostBuf],
) -> Result<Option<(usize, usize, String, String)>, GpuError> {
    for (b, input) in inputs.iter().enumerate() {
        let now = bufs.download(gpu, Buf(b))?;
        if let Some((i, before, after)) = input.first_difference(&now) {
            return Ok(Some((b, i, before, after)));
        }
    }
    Ok(None)
}
