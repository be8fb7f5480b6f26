//! What a kata's `kata.rs` implements.

use serde::{Deserialize, Serialize, de::DeserializeOwned};

/// One kata's cases, runner and checker. Implemented by a unit struct `Spec` in each `kata.rs`.
pub trait KataSpec: 'static {
    /// The learner's functions as a struct of `fn` pointers, one field per `entry_points` name.
    type Solution: Copy + Send + Sync + 'static;
    type Input: Serialize + DeserializeOwned + Send + Sync + 'static;
    type Output: Serialize + DeserializeOwned + Send + Sync + 'static;

    /// Unsigned values an output may hold that the statement writes by name (graph-fusion's
    /// `NO_KERNEL` for `usize::MAX`): shown to the learner by that name ([`crate::shown`]).
    const SHOWN_NAMES: &'static [(u64, &'static str)] = &[];

    /// Every case, in report order: samples, edge cases, random cases, performance cases.
    /// Deterministic for a given seed.
    fn cases(seed: u64) -> Vec<Case<Self::Input>>;

    /// The expected output computed without running the reference, for katas whose reference
    /// needs hardware this machine may lack (GPU katas judge from the input alone), or given by
    /// the instructor (a data-only case's `answer`, which the reference is then graded against).
    /// `None`: run the reference.
    fn oracle(_input: &Self::Input) -> Option<Self::Output> {
        None
    }

    /// Runs `solution` on one input. Untrusted side: this is what runs inside the sandbox.
    fn solve(solution: Self::Solution, input: &Self::Input) -> Self::Output;

    /// Trusted side: judges `got` for `input`; `expected` is what the reference produced.
    fn check(input: &Self::Input, expected: &Self::Output, got: &Self::Output) -> Check;

    /// A one-line description of an input for failure reports, in English and 中文 (the
    /// caller trims it).
    fn describe(input: &Self::Input) -> Message;

    /// Custom input: whether a learner's own `input` is within the statement's constraints and
    /// small enough that the trusted reference run on it stays cheap. Runs on the trusted side
    /// before anything is queued; an input it admits must never make the reference or the
    /// checker panic. The default refuses every input: custom input is not offered (GPU katas,
    /// whose reference needs a device). The package lint requires CPU katas to define it.
    fn admit(_input: &Self::Input) -> Result<(), Refusal> {
        Err(Refusal::not_offered())
    }

    /// A rank kata's face for the grader, which then runs every rank as its own sandboxed
    /// process and routes their traffic (`Some(&katas::ranks::Ranked::<Self>::FACE)`; see
    /// [`crate::ranks`]). `None`: the whole case runs in one process.
    fn ranked() -> Option<&'static dyn crate::rank_net::RankedKata> {
        None
    }

    /// One rank's process of a rank kata (`katas::ranks::serve_rank::<Self>`); `false` for a
    /// kata that has no ranks.
    fn serve_rank(
        _solution: Self::Solution,
        _role: &crate::rank_net::RankRole,
        _nonce: &[u8; 16],
    ) -> bool {
        false
    }
}

/// Words we show a learner, in every language we write statements in: a checker's
/// explanation, a limit that stopped a run, a refused custom input. `zh` is absent only where
/// the words are not ours to translate (a panic's own message, a compiler's log) and in reports
/// stored before checkers spoke Chinese; the pages then show the English.
///
/// Serialized flat into the object that carries it (`#[serde(flatten)]`), as `message` and
/// `message_zh`: the JSON API's `message` stays an English string, and a stored report written
/// before `message_zh` existed still decodes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    #[serde(rename = "message")]
    pub en: String,
    #[serde(
        rename = "message_zh",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub zh: Option<String>,
}

/// Why a learner's own input was refused ([`KataSpec::admit`]).
pub type Refusal = Message;

impl Message {
    /// Our own words, in English and 中文.
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Self {
        Self {
            en: en.into(),
            zh: Some(zh.into()),
        }
    }

    /// Text that is not ours to translate (the learner's panic message, a compiler's log):
    /// shown as it is in every language.
    pub fn verbatim(text: impl Into<String>) -> Self {
        Self {
            en: text.into(),
            zh: None,
        }
    }

    /// What [`KataSpec::admit`] says for a kata that offers no custom input.
    pub fn not_offered() -> Self {
        Self::new(
            "custom input is not offered for this kata (GPU katas judge on a device)",
            "此题不提供自定义输入（GPU 题需要在设备上评测）",
        )
    }

    /// The words in `lang`; English where there is no translation.
    pub fn in_lang(&self, lang: crate::Lang) -> &str {
        match (lang, &self.zh) {
            (crate::Lang::Zh, Some(zh)) => zh,
            _ => &self.en,
        }
    }

    /// The same words followed by more of ours, in each language.
    pub fn then(self, en: &str, zh: &str) -> Self {
        Self {
            en: format!("{}{en}", self.en),
            zh: self.zh.map(|z| format!("{z}{zh}")),
        }
    }

    /// The same words after a prefix of ours (`timed run 2: `), in each language; a verbatim
    /// message keeps no translation.
    pub fn after(self, en: &str, zh: &str) -> Self {
        Self {
            en: format!("{en}{}", self.en),
            zh: self.zh.map(|z| format!("{zh}{z}")),
        }
    }
}

impl std::fmt::Display for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.en)
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
    /// The name in 中文; the package test requires it of every kata with a `README.zh.md`.
    pub name_zh: Option<String>,
    pub group: Group,
    pub input: I,
}

impl<I> Case<I> {
    pub fn new(name: impl Into<String>, group: Group, input: I) -> Self {
        Self {
            name: name.into(),
            name_zh: None,
            group,
            input,
        }
    }

    /// The same case, named in 中文 too.
    pub fn zh(mut self, name: impl Into<String>) -> Self {
        self.name_zh = Some(name.into());
        self
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
    /// A stdin/stdout kata's hidden cases (Kattis's `data/secret`).
    Secret,
}

impl Group {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Sample => "sample",
            Self::Edge => "edge",
            Self::Random => "random",
            Self::Performance => "performance",
            Self::Secret => "secret",
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
        notes: Vec<Message>,
    },
    Fail(Mismatch),
    /// Correct, with the device timing of a GPU performance case.
    PassTimed {
        notes: Vec<Message>,
        timing: crate::gpu::DeviceTiming,
    },
    /// A GPU kata's `KERNEL` did not compile (NVRTC's log) or lacks a required entry point:
    /// the learner's compile error.
    KernelRejected(String),
    /// The untrusted side found no usable GPU: our infrastructure failed, not the learner.
    Unavailable(String),
}

/// Why an output is wrong, phrased for the learner. `expected` and `got` are values, the same
/// in every language; `message` says what is wrong in words.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Mismatch {
    #[serde(flatten)]
    pub message: Message,
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

/// `x` to `significant` digits, then written as [`decimal`] writes it: a tolerance or a
/// computed value the way a statement would write it (`0.0005`, `1e-12`, `1.2345679`), not
/// `5.0e-4` or `1.0088817841970012e-12`.
pub fn rounded(x: f64, significant: usize) -> String {
    let digits = significant.max(1) - 1;
    // Scientific notation rounds to significant digits; reading it back gives the shortest
    // float for that rounded value. NaN and infinities read back as themselves.
    let r: f64 = format!("{x:.digits$e}").parse().unwrap_or(x);
    decimal(r)
}

impl Check {
    pub fn pass() -> Self {
        Self::Pass { notes: Vec::new() }
    }

    pub fn pass_with(notes: Vec<Message>) -> Self {
        Self::Pass { notes }
    }

    pub fn fail(message: Message, expected: impl ToString, got: impl ToString) -> Self {
        Self::Fail(Mismatch {
            message,
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
    use super::{Message, Mismatch, decimal, rounded};
    use crate::Lang;
    use crate::report::CaseReport;

    #[test]
    fn a_message_speaks_the_viewer_s_language_and_falls_back_to_english() {
        let ours = Message::new("wrong shape", "形状不对");
        assert_eq!(ours.in_lang(Lang::En), "wrong shape");
        assert_eq!(ours.in_lang(Lang::Zh), "形状不对");
        let theirs = Message::verbatim("panicked: index out of bounds");
        assert_eq!(theirs.in_lang(Lang::Zh), "panicked: index out of bounds");
        let at = ours.after("step 2: ", "第 2 步：");
        assert_eq!(at.in_lang(Lang::En), "step 2: wrong shape");
        assert_eq!(at.in_lang(Lang::Zh), "第 2 步：形状不对");
        assert_eq!(
            theirs.after("x: ", "甲：").zh,
            None,
            "a verbatim message gains no translation"
        );
    }

    #[test]
    fn messages_serialize_flat_and_old_reports_still_decode() {
        let m = Mismatch {
            message: Message::new("wrong shape", "形状不对"),
            expected: "2×3".into(),
            got: "3×2".into(),
        };
        let json = serde_json::to_value(&m).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "message": "wrong shape", "message_zh": "形状不对",
                "expected": "2×3", "got": "3×2"
            })
        );
        assert_eq!(serde_json::from_value::<Mismatch>(json).unwrap(), m);
        // Written before checkers spoke Chinese: no `message_zh`.
        let old: Mismatch =
            serde_json::from_str(r#"{"message": "wrong shape", "expected": "2×3", "got": "3×2"}"#)
                .unwrap();
        assert_eq!(old.message, Message::verbatim("wrong shape"));
        assert_eq!(old.message.in_lang(Lang::Zh), "wrong shape");
        let verbatim = serde_json::to_value(Message::verbatim("boom")).unwrap();
        assert_eq!(verbatim, serde_json::json!({"message": "boom"}));

        // A case report as stored before: `message` a string or null, no `message_zh`.
        let case = |message: &str| {
            format!(
                r#"{{"name": "sample 1", "group": "sample", "outcome": "wrong_answer",
                    "time_ms": 0.5, "input": "n = 3", "mismatch": {{"message": "off by one",
                    "expected": "3", "got": "4"}}, "message": {message}, "notes": []}}"#
            )
        };
        let old: CaseReport = serde_json::from_str(&case(r#""no answer within 1000 ms""#)).unwrap();
        assert_eq!(
            old.message,
            Some(Message::verbatim("no answer within 1000 ms"))
        );
        assert_eq!(old.mismatch.unwrap().message.en, "off by one");
        let none: CaseReport = serde_json::from_str(&case("null")).unwrap();
        assert_eq!(none.message, None);
        // And a new one round-trips with both languages.
        let mut new = none;
        new.message = Some(Message::new(
            "no answer within 1000 ms",
            "1000 ms 内没有给出答案",
        ));
        let json = serde_json::to_value(&new).unwrap();
        assert_eq!(json["message"], "no answer within 1000 ms");
        assert_eq!(json["message_zh"], "1000 ms 内没有给出答案");
        assert_eq!(serde_json::from_value::<CaseReport>(json).unwrap(), new);
    }

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
        assert_eq!(rounded(1.0 + 4.0 * 10.0 * f64::EPSILON, 2), "1.0");
        assert_eq!(rounded(1e-12 + 40.0 * f64::EPSILON, 2), "1e-12");
        assert_eq!(rounded(5.004e-4, 2), "0.0005");
        assert_eq!(rounded(1.234_567_891_2, 8), "1.2345679");
        assert_eq!(rounded(-2.5e-7, 3), "-2.5e-7");
        assert_eq!(rounded(f64::NAN, 3), "NaN");
    }
}
