//! What a kata's `kata.rs` implements.

use serde::{Serialize, de::DeserializeOwned};

/// One kata's cases, runner and checker. Implemented by a unit struct `Spec` in each `kata.rs`.
pub trait KataSpec: 'static {
    /// The learner's functions as a struct of `fn` pointers, one field per `entry_points` name.
    type Solution: Copy + Send + Sync + 'static;
    type Input: Serialize + DeserializeOwned + Send + Sync + 'static;
    type Output: Serialize + DeserializeOwned + Send + Sync + 'static;

    /// Every case, in report order: samples, edge cases, random cases, performance cases.
    /// Deterministic for a given seed.
    fn cases(seed: u64) -> Vec<Case<Self::Input>>;

    /// The expected output computed without running the reference, for katas whose reference
    /// needs hardware this machine may lack (GPU katas judge from the input alone). `None`: run
    /// the reference.
    fn oracle(_input: &Self::Input) -> Option<Self::Output> {
        None
    }

    /// Runs `solution` on one input. Untrusted side: this is what runs inside the sandbox.
    fn solve(solution: Self::Solution, input: &Self::Input) -> Self::Output;

    /// Trusted side: judges `got` for `input`; `expected` is what the reference produced.
    fn check(input: &Self::Input, expected: &Self::Output, got: &Self::Output) -> Check;

    /// A one-line description of an input for failure reports (the caller trims it).
    fn describe(input: &Self::Input) -> String;

    /// Custom input: whether a learner's own `input` is within the statement's constraints and
    /// small enough that the trusted reference run on it stays cheap. Runs on the trusted side
    /// before anything is queued; an input it admits must never make the reference or the
    /// checker panic. The default refuses every input: custom input is not offered (GPU katas,
    /// whose reference needs a device). The package lint requires CPU katas to define it.
    fn admit(_input: &Self::Input) -> Result<(), Refusal> {
        Err(Refusal::not_offered())
    }
}

/// Why a learner's own input was refused, in every language we write statements in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub en: String,
    pub zh: String,
}

impl Refusal {
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Self {
        Self {
            en: en.into(),
            zh: zh.into(),
        }
    }

    /// What [`KataSpec::admit`] says for a kata that offers no custom input.
    pub fn not_offered() -> Self {
        Self::new(
            "custom input is not offered for this kata (GPU katas judge on a device)",
            "此题不提供自定义输入（GPU 题需要在设备上评测）",
        )
    }

    pub fn in_lang(&self, lang: crate::Lang) -> &str {
        match lang {
            crate::Lang::En => &self.en,
            crate::Lang::Zh => &self.zh,
        }
    }
}

/// `Ok` when `value` is at most `max`, else a refusal naming `what` in both languages.
pub fn at_most(what: (&str, &str), value: usize, max: usize) -> Result<(), Refusal> {
    if value <= max {
        Ok(())
    } else {
        Err(Refusal::new(
            format!("{} is {value}; custom input allows at most {max}", what.0),
            format!("{} 为 {value}；自定义输入最多允许 {max}", what.1),
        ))
    }
}

/// `Ok` when `value` lies in `lo..=hi`, else a refusal naming `what` in both languages.
pub fn within(what: (&str, &str), value: usize, lo: usize, hi: usize) -> Result<(), Refusal> {
    if (lo..=hi).contains(&value) {
        Ok(())
    } else {
        Err(Refusal::new(
            format!("{} is {value}; it must be between {lo} and {hi}", what.0),
            format!("{} 为 {value}；必须在 {lo} 到 {hi} 之间", what.1),
        ))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Case<I> {
    pub name: String,
    pub group: Group,
    pub input: I,
}

impl<I> Case<I> {
    pub fn new(name: impl Into<String>, group: Group, input: I) -> Self {
        Self {
            name: name.into(),
            group,
            input,
        }
    }
}

/// Case groups, in the order they are run and reported.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    /// Visible in the statement; the only cases of a `run`.
    Sample,
    Edge,
    Random,
    /// Large inputs that separate the expected complexity from a naive one.
    Performance,
}

impl Group {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Sample => "sample",
            Self::Edge => "edge",
            Self::Random => "random",
            Self::Performance => "performance",
        }
    }
}

/// `run` gives quick feedback on the sample cases; `submit` runs every case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Run,
    Submit,
}

impl Mode {
    pub fn includes(self, group: Group) -> bool {
        match self {
            Self::Run => group == Group::Sample,
            Self::Submit => true,
        }
    }
}

/// The checker's judgement of one output.
#[derive(Debug, Clone, PartialEq)]
pub enum Check {
    /// Correct; `notes` carry figures worth showing (model time, bytes moved, cost).
    Pass {
        notes: Vec<String>,
    },
    Fail(Mismatch),
    /// Correct, with the device timing of a GPU performance case.
    PassTimed {
        notes: Vec<String>,
        timing: crate::gpu::DeviceTiming,
    },
    /// A GPU kata's `KERNEL` did not compile (NVRTC's log) or lacks a required entry point:
    /// the learner's compile error.
    KernelRejected(String),
    /// The untrusted side found no usable GPU: our infrastructure failed, not the learner.
    Unavailable(String),
}

/// Why an output is wrong, phrased for the learner.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Mismatch {
    pub message: String,
    pub expected: String,
    pub got: String,
}

/// A float as the statements write it, for expected and got values: the shortest decimal that
/// reads back to the same value (`0.25`, `1024.0`, `9.261000000000001`, `inf`), with an exponent
/// only for magnitudes below 1e-5 or from 1e16 (`1e-7`), where plain digits would not be read.
/// An `f32` is printed as itself (`0.1`), not as the `f64` it widens to.
pub fn decimal<F: Into<f64> + std::fmt::Debug>(x: F) -> String {
    format!("{x:?}")
}

impl Check {
    pub fn pass() -> Self {
        Self::Pass { notes: Vec::new() }
    }

    pub fn pass_with(notes: Vec<String>) -> Self {
        Self::Pass { notes }
    }

    pub fn fail(message: impl Into<String>, expected: impl ToString, got: impl ToString) -> Self {
        Self::Fail(Mismatch {
            message: message.into(),
            expected: expected.to_string(),
            got: got.to_string(),
        })
    }

    pub fn is_pass(&self) -> bool {
        matches!(self, Self::Pass { .. } | Self::PassTimed { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::decimal;

    #[test]
    fn numbers_read_as_the_statements_write_them() {
        assert_eq!(decimal(0.25), "0.25");
        assert_eq!(decimal(1024.0), "1024.0");
        assert_eq!(decimal(2.1f64.powi(3)), "9.261000000000001");
        assert_eq!(decimal(f64::INFINITY), "inf");
        assert_eq!(decimal(-0.5), "-0.5");
        assert_eq!(decimal(1e-7), "1e-7");
        assert_eq!(decimal(1e300), "1e300");
        assert_eq!(decimal(123_456.789), "123456.789");
        assert_eq!(decimal(0.1f32), "0.1");
    }
}
