//! Custom input: a learner's own input for a kata, written as JSON (the kata's `Input` type as
//! serde sees it), admitted only within the statement's constraints ([`KataSpec::admit`]),
//! answered by the reference on the trusted side, and run as one case through the same session
//! loop as every other run: the runner receives the input's wire bytes instead of a seed.

use crate::judge::{CaseInfo, CaseResult, JudgeFailure, Judging, Prepared, Trial};
use crate::lang::Lang;
use crate::panics::panic_message;
use crate::report::CaseReport;
use crate::spec::{Case, Group, KataSpec, Refusal};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// The largest custom input accepted, as JSON text.
pub const MAX_INPUT_BYTES: usize = 64 << 10;
/// Outputs shown beside each other are cut to this many bytes.
pub const MAX_SHOWN_BYTES: usize = 16 << 10;
/// The name of the one case of a custom run.
pub use crate::runner::{CUSTOM_CASE as CASE_NAME, CUSTOM_CASE_ZH as CASE_NAME_ZH};

/// Why a custom input cannot be run. All but [`CustomError::Reference`] are the learner's input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CustomError {
    #[error("the input is {bytes} bytes; the limit is {limit}")]
    TooLarge { bytes: usize, limit: usize },
    /// The text is not JSON, or not this kata's input; where, and serde's detail for a wrong
    /// shape (it names the field or variant).
    #[error("{}", json_message(*.fault, *.line, *.column, .detail, Lang::En))]
    Json {
        fault: JsonFault,
        line: usize,
        column: usize,
        detail: String,
    },
    #[error("{}", .0.en)]
    Refused(Refusal),
    /// The reference failed on an admitted input: the kata's `admit` let through what it
    /// should not have. Our failure.
    #[error("the reference failed on this input (our bug, not yours): {0}")]
    Reference(String),
}

impl CustomError {
    /// Whether the learner's input is at fault (a 422), as opposed to our side.
    pub fn is_input(&self) -> bool {
        !matches!(self, Self::Reference(_))
    }

    /// The message in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (Self::Refused(r), lang) => r.in_lang(lang).to_string(),
            (_, Lang::En) => self.to_string(),
            (Self::TooLarge { bytes, limit }, Lang::Zh) => {
                format!("输入为 {bytes} 字节；上限为 {limit} 字节")
            }
            (
                Self::Json {
                    fault,
                    line,
                    column,
                    detail,
                },
                Lang::Zh,
            ) => json_message(*fault, *line, *column, detail, Lang::Zh),
            (Self::Reference(why), Lang::Zh) => {
                format!("参考解在此输入上失败（是我们的问题，不是你的）：{why}")
            }
        }
    }
}

/// What is wrong with a custom input's JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonFault {
    /// Not JSON at all at that point (a missing comma, quote or bracket).
    Syntax,
    /// The text stops while something is still open.
    Eof,
    /// Valid JSON of the wrong shape for this kata (a misspelt variant, a string for a number).
    Shape,
}

impl CustomError {
    fn json(e: &serde_json::Error) -> Self {
        use serde_json::error::Category;
        let fault = match e.classify() {
            Category::Eof => JsonFault::Eof,
            Category::Data => JsonFault::Shape,
            Category::Syntax | Category::Io => JsonFault::Syntax,
        };
        // serde's text ends with its own " at line L column C", said again in our words.
        let text = e.to_string();
        let detail = text
            .rsplit_once(" at line ")
            .map_or(text.as_str(), |(detail, _)| detail)
            .to_string();
        Self::Json {
            fault,
            line: e.line(),
            column: e.column(),
            detail: cut(detail),
        }
    }
}

/// Serde's "expected value at line 1 column 2" in the learner's terms, in `lang`.
fn json_message(fault: JsonFault, line: usize, column: usize, detail: &str, lang: Lang) -> String {
    match (fault, lang) {
        (JsonFault::Syntax, Lang::En) => format!(
            "the input is not valid JSON at line {line}, column {column}: look there for a \
             missing comma, quote or bracket"
        ),
        (JsonFault::Syntax, Lang::Zh) => {
            format!(
                "输入在第 {line} 行第 {column} 列处不是合法的 JSON：请检查那里是否缺了逗号、引号或括号"
            )
        }
        (JsonFault::Eof, Lang::En) => format!(
            "the input ends too early, at line {line}, column {column}: a bracket, brace or \
             quote is still open"
        ),
        (JsonFault::Eof, Lang::Zh) => {
            format!("输入在第 {line} 行第 {column} 列处提前结束：还有括号、花括号或引号没有闭合")
        }
        (JsonFault::Shape, Lang::En) => format!(
            "the input is JSON but not this kata's input (line {line}, column {column}): \
             {detail}; start from the sample input to see its shape"
        ),
        (JsonFault::Shape, Lang::Zh) => format!(
            "输入是 JSON，但不符合此题的输入格式（第 {line} 行第 {column} 列）：{detail}；\
             可以从示例输入出发，照着它的结构修改"
        ),
    }
}

/// A custom input that was admitted and answered by the reference: what a run of it needs.
#[derive(Debug)]
pub struct CustomCase {
    /// The one selected case (index 0).
    pub info: CaseInfo,
    /// The input in the wire format, for the runner.
    pub input: Vec<u8>,
    /// Judges the one case against the reference's answer, with the kata's checker.
    pub judging: Arc<dyn Judging>,
    /// The reference's answer as JSON, non-finite floats and named values as the statement
    /// writes them ([`crate::shown`]; cut to [`MAX_SHOWN_BYTES`]).
    pub reference_output: String,
    learner: Arc<Mutex<Option<String>>>,
}

impl CustomCase {
    /// The learner's answer as JSON, once judged and if it decoded (cut to [`MAX_SHOWN_BYTES`]).
    pub fn learner_output(&self) -> Option<String> {
        self.learner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// What the custom-input form of a kata starts from ([`sample`] and [`examples`]): for a
/// version built from its package, made by its judge when it is published and stored with it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InputExamples {
    pub sample: Option<String>,
    pub examples: Vec<(String, String)>,
}

/// The checks of `json` that need no kata code: its size and that it is JSON at all. A version
/// built from its package admits the rest (shape, constraints) in its sandboxed judge.
pub fn check_json(json: &str) -> Result<(), CustomError> {
    if json.len() > MAX_INPUT_BYTES {
        return Err(CustomError::TooLarge {
            bytes: json.len(),
            limit: MAX_INPUT_BYTES,
        });
    }
    serde_json::from_str::<serde::de::IgnoredAny>(json)
        .map(drop)
        .map_err(|e| CustomError::json(&e))
}

/// Parses and admits `json` for kata `S`: cheap, no code of anyone's runs.
pub fn parse<S: KataSpec>(json: &str) -> Result<S::Input, CustomError> {
    check_json(json)?;
    let input: S::Input = serde_json::from_str(json).map_err(|e| CustomError::json(&e))?;
    S::admit(&input).map_err(CustomError::Refused)?;
    Ok(input)
}

/// Parses, admits and answers `json` with `reference` (or the kata's oracle).
pub fn prepare<S: KataSpec>(
    reference: S::Solution,
    json: &str,
    limit: Duration,
) -> Result<CustomCase, CustomError> {
    let input = parse::<S>(json)?;
    let expected = match S::oracle(&input) {
        Some(out) => out,
        None => {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| S::solve(reference, &input)))
                .map_err(|p| CustomError::Reference(panic_message(p.as_ref())))?
        }
    };
    let shown = |out: &S::Output| {
        crate::shown::output_json::<S>(out)
            .map(cut)
            .map_err(|e| CustomError::Reference(e.to_string()))
    };
    let reference_output = shown(&expected)?;
    let wire = crate::wire::encode(&input).map_err(|e| CustomError::Reference(e.to_string()))?;
    let bound = crate::wire::encode(&expected)
        .map(|b| 2 * b.len() + (64 << 10))
        .map_err(|e| CustomError::Reference(e.to_string()))?;
    let trial = Arc::new(Trial::<S> {
        cases: vec![Case::new(CASE_NAME, Group::Sample, input).zh(CASE_NAME_ZH)],
        expected: vec![expected],
    });
    let learner = Arc::new(Mutex::new(None));
    Ok(CustomCase {
        info: CaseInfo {
            index: 0,
            name: CASE_NAME.to_string(),
            name_zh: Some(CASE_NAME_ZH.to_string()),
            group: Group::Sample,
        },
        input: wire,
        judging: Arc::new(Shown::<S> {
            prepared: Prepared::bounded(trial, vec![bound], limit),
            learner: Arc::clone(&learner),
        }),
        reference_output,
        learner,
    })
}

/// The first sample case's input as pretty JSON, when the kata admits it (CPU katas).
pub fn sample<S: KataSpec>(cases: &[Case<S::Input>]) -> Option<String> {
    let first = cases.iter().find(|c| c.group == Group::Sample)?;
    S::admit(&first.input).ok()?;
    serde_json::to_string_pretty(&first.input).ok()
}

/// The input's format shown by example: one input for each entry point (the top-level variant
/// of the kata's `Input` as serde names it, `""` for an input that is not an enum), as JSON,
/// in the order the cases first use them. A sample case is preferred; otherwise the
/// shortest admitted case (under [`EXAMPLE_MAX_BYTES`] as compact JSON) stands for its entry
/// point. Compact JSON: a line or two each, beside the pretty sample being edited. Empty for
/// GPU katas.
pub fn examples<S: KataSpec>(cases: &[Case<S::Input>]) -> Vec<(String, String)> {
    // (entry point, from a sample, compact length, value) in first-use order.
    let mut best: Vec<(String, bool, usize, serde_json::Value)> = Vec::new();
    for case in cases {
        let sample = case.group == Group::Sample;
        // A performance case's input runs to megabytes: its first bytes tell it is too long.
        if !sample && !compact_within(&case.input, EXAMPLE_MAX_BYTES) {
            continue;
        }
        if S::admit(&case.input).is_err() {
            continue;
        }
        let Ok(value) = serde_json::to_value(&case.input) else {
            continue;
        };
        let entry = match &value {
            serde_json::Value::Object(map) if map.len() == 1 => {
                map.keys().next().cloned().unwrap_or_default()
            }
            _ => String::new(),
        };
        let len = value.to_string().len();
        if len > EXAMPLE_MAX_BYTES && !sample {
            continue;
        }
        match best.iter_mut().find(|(e, ..)| *e == entry) {
            Some(kept) => {
                if (sample && !kept.1) || (sample == kept.1 && !kept.1 && len < kept.2) {
                    *kept = (entry, sample, len, value);
                }
            }
            None => best.push((entry, sample, len, value)),
        }
    }
    best.into_iter()
        .map(|(entry, _, _, value)| (entry, value.to_string()))
        .collect()
}

/// An example input that is not a sample is shown only under this size (compact JSON).
pub const EXAMPLE_MAX_BYTES: usize = 600;

/// Whether `input` as compact JSON takes at most `max` bytes; writing stops once past them.
fn compact_within(input: &impl serde::Serialize, max: usize) -> bool {
    struct Bounded {
        left: usize,
    }
    impl std::io::Write for Bounded {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.left = self
                .left
                .checked_sub(bytes.len())
                .ok_or_else(|| std::io::Error::other("past the bound"))?;
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    serde_json::to_writer(Bounded { left: max }, input).is_ok()
}

/// The one case's judging, keeping the learner's decoded answer to show.
struct Shown<S: KataSpec> {
    prepared: Prepared<S>,
    learner: Arc<Mutex<Option<String>>>,
}

impl<S: KataSpec> std::fmt::Debug for Shown<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shown").finish_non_exhaustive()
    }
}

impl<S: KataSpec> Judging for Shown<S> {
    fn answer_bound(&self, index: usize) -> usize {
        self.prepared.answer_bound(index)
    }

    fn input_bytes(&self, index: usize) -> Result<Vec<u8>, crate::judge::KataError> {
        self.prepared.input_bytes(index)
    }

    fn judge(
        &self,
        index: usize,
        result: CaseResult,
        time_ms: f64,
    ) -> Result<CaseReport, JudgeFailure> {
        if let Ok(bytes) = &result
            && let Ok(got) = crate::wire::decode::<S::Output>(bytes)
            && let Ok(json) = crate::shown::output_json::<S>(&got)
        {
            *self.learner.lock().unwrap_or_else(PoisonError::into_inner) = Some(cut(json));
        }
        self.prepared.judge(index, result, time_ms)
    }
}

/// `text` cut to [`MAX_SHOWN_BYTES`] on a character boundary, marked when cut.
pub fn cut(mut text: String) -> String {
    if text.len() > MAX_SHOWN_BYTES {
        let mut end = MAX_SHOWN_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push_str(" …");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::KataKind;

    fn cpu_katas() -> impl Iterator<Item = &'static dyn crate::Kata> {
        crate::catalogue::all()
            .iter()
            .copied()
            .filter(|k| k.meta().kind == KataKind::Cpu)
    }

    #[test]
    fn every_cpu_kata_offers_and_admits_its_first_sample() {
        let mut seen = 0;
        for kata in cpu_katas() {
            let slug = &kata.meta().slug;
            let sample = kata
                .sample_input()
                .unwrap_or_else(|| panic!("{slug}: no sample"));
            let case = kata
                .custom(&sample)
                .unwrap_or_else(|e| panic!("{slug}: {e}"));
            assert!(!case.reference_output.is_empty(), "{slug}");
            assert_eq!(case.info.name, CASE_NAME);
            seen += 1;
        }
        assert!(seen >= 6, "every CPU kata: {seen}");
    }

    #[test]
    fn an_infinite_answer_reads_as_the_statement_writes_it() {
        let kata = crate::catalogue::find("fast-power").expect("kata");
        let case = kata
            .custom(r#"{"Power":[[0.0,-3],[2.0,3]]}"#)
            .expect("admitted");
        assert_eq!(case.reference_output, r#"{"Power":[inf,8.0]}"#);
    }

    #[test]
    fn the_format_shows_an_admitted_example_for_every_entry_point() {
        let fast = crate::catalogue::find("fast-power").expect("kata");
        let entries: Vec<String> = fast.input_examples().into_iter().map(|(e, _)| e).collect();
        assert_eq!(entries, ["Power", "PowMod"], "both entry points");
        for kata in crate::catalogue::all()
            .iter()
            .filter(|k| k.meta().kind == crate::KataKind::Cpu)
        {
            let slug = &kata.meta().slug;
            let examples = kata.input_examples();
            assert!(!examples.is_empty(), "{slug}");
            for (entry, json) in examples {
                kata.check_custom(&json)
                    .unwrap_or_else(|e| panic!("{slug} {entry}: {e}"));
            }
        }
        let gpu = crate::catalogue::all()
            .iter()
            .find(|k| k.meta().kind == crate::KataKind::Gpu)
            .expect("a GPU kata");
        assert!(gpu.input_examples().is_empty());
    }

    #[test]
    fn the_size_bound_stops_at_the_first_byte_past_it() {
        let three: Vec<u8> = vec![1, 2, 3];
        assert_eq!(serde_json::to_string(&three).unwrap().len(), 7);
        assert!(compact_within(&three, 7));
        assert!(!compact_within(&three, 6));
        // A performance case's size: refused without writing it all.
        assert!(!compact_within(&vec![0u64; 1 << 20], EXAMPLE_MAX_BYTES));
    }

    #[test]
    fn gpu_katas_say_custom_input_is_not_offered() {
        for kata in crate::catalogue::all()
            .iter()
            .filter(|k| k.meta().kind == KataKind::Gpu)
        {
            assert_eq!(kata.sample_input(), None);
            let err = kata.check_custom("{}").unwrap_err();
            assert_eq!(err, CustomError::Refused(Refusal::not_offered()));
        }
    }

    fn refusal(slug: &str, json: &str) -> CustomError {
        let kata = crate::catalogue::find(slug).expect("kata");
        let err = kata.check_custom(json).expect_err(json);
        assert!(err.is_input(), "{slug}: {err}");
        assert!(!err.message(Lang::Zh).is_empty());
        err
    }

    #[test]
    fn out_of_constraint_inputs_are_refused_with_the_kata_message() {
        let cases = [
            ("fast-power", r#"{"PowMod":[[2,10,0]]}"#, "modulus 0"),
            ("fast-power", r#"{"Power":[]}"#, "number of queries"),
            (
                "ring-allreduce",
                r#"{"ranks":17,"len":1,"values":{"Seeded":1}}"#,
                "N (ranks) is 17",
            ),
            (
                "ring-allreduce",
                r#"{"ranks":2,"len":1,"values":{"Listed":[[1.0],[1.5]]}}"#,
                "integers in [-1000, 1000]",
            ),
            (
                "tp-split",
                r#"{"Column":{"ranks":2,"x":{"rows":1,"cols":2,"data":[1,2]},"w":{"rows":3,"cols":1,"data":[1,2,3]},"bias":[0]}}"#,
                "x.cols = w.rows",
            ),
            (
                "view-contiguous",
                r#"{"storage_len":4,"layout":{"shape":[2,3],"strides":[3,1],"offset":0},"ops":[]}"#,
                "reaches outside",
            ),
            (
                "view-contiguous",
                r#"{"storage_len":6,"layout":{"shape":[2,3],"strides":[3,1],"offset":0},"ops":[{"Permute":[0,0]}]}"#,
                "operation 1",
            ),
            (
                "graph-fusion",
                r#"{"Fuse":{"nodes":[{"op":"Input","inputs":[],"shape":[2,3]},{"op":"MatMul","inputs":[0,0],"shape":[2,3]}]}}"#,
                "node 1",
            ),
            (
                "graph-fusion",
                r#"{"Fold":{"linear":{"out_features":1,"in_features":1,"weight":[1],"bias":[0]},"bn":{"gamma":[1],"beta":[0],"running_mean":[0],"running_var":[-1],"eps":0.001}}}"#,
                "running_var",
            ),
        ];
        for (slug, json, says) in cases {
            let err = refusal(slug, json);
            assert!(matches!(err, CustomError::Refused(_)), "{slug}: {err}");
            assert!(err.to_string().contains(says), "{slug}: {err}");
        }
    }

    #[test]
    fn bad_json_and_oversized_inputs_are_refused_before_admitting() {
        let syntax = refusal("fast-power", "{not json");
        assert!(matches!(
            syntax,
            CustomError::Json {
                fault: JsonFault::Syntax,
                line: 1,
                column: 2,
                ..
            }
        ));
        assert_eq!(
            syntax.to_string(),
            "the input is not valid JSON at line 1, column 2: look there for a missing comma, \
             quote or bracket"
        );
        assert!(syntax.message(Lang::Zh).contains("第 1 行第 2 列"));
        let open = refusal("fast-power", "{\"Power\": [[2.0, 3]");
        assert!(matches!(
            open,
            CustomError::Json {
                fault: JsonFault::Eof,
                ..
            }
        ));
        assert!(open.message(Lang::Zh).contains("没有闭合"), "{open:?}");
        let shape = refusal("fast-power", r#"{"Cube":[1]}"#);
        let en = shape.to_string();
        assert!(
            en.contains("not this kata's input") && en.contains("Cube") && en.contains("sample"),
            "{en}"
        );
        assert!(!en.contains(" at line "), "said once, in our words: {en}");
        assert!(shape.message(Lang::Zh).contains("示例输入"));
        let big = format!(
            r#"{{"Power":[{}]}}"#,
            "[1.0,1],".repeat(MAX_INPUT_BYTES / 4)
        );
        assert!(matches!(
            refusal("fast-power", &big),
            CustomError::TooLarge { .. }
        ));
    }

    #[test]
    fn the_learner_output_is_kept_when_judged() {
        let kata = crate::catalogue::find("fast-power").expect("kata");
        let case = kata.custom(r#"{"PowMod":[[3,4,7]]}"#).expect("admitted");
        assert_eq!(case.reference_output, r#"{"PowMod":[4]}"#);
        let wrong = crate::wire::encode(&serde_json::json!(null)).ok();
        assert!(wrong.is_some());
        let report = case
            .judging
            .judge(0, Err("panicked: boom".into()), 1.0)
            .expect("judged");
        assert_eq!(report.outcome, crate::Outcome::RuntimeError);
        assert_eq!(case.learner_output(), None);
    }
}
