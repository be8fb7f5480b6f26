//! A drill set file (`katas/drills/<set>/set.toml`) as data: the set, its items and each item's
//! answer specification. Also compiled into `build.rs` (via `#[path]`), so it uses only `std`
//! and `serde`.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The file every drill set folder holds.
pub const SET_FILE: &str = "set.toml";

/// One text in both languages the product speaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    pub en: String,
    pub zh: String,
}

impl Text {
    /// The text in `lang` (`"zh"` or anything else for English).
    pub fn get(&self, lang: &str) -> &str {
        if lang == "zh" { &self.zh } else { &self.en }
    }
}

/// One drill set: the items practising one concept question of the bank.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrillSet {
    /// Equals the folder name; used in URLs and `infrakata drill TOPIC`.
    pub slug: String,
    pub title: Text,
    /// The interview question this set drills, as the bank asks it.
    pub question: Text,
    /// Listing position: lower comes first.
    pub order: u32,
    #[serde(rename = "item")]
    pub items: Vec<Item>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    /// Unique within its set; kebab-case.
    pub id: String,
    /// What the pages list it as; the id stands in where an item has none.
    #[serde(default)]
    pub title: Option<Text>,
    /// May name parameters as `{name}`; they are filled in per attempt.
    pub prompt: Text,
    /// Shown once the learner has committed an answer.
    pub explanation: Text,
    /// Free topic words (`"nccl"`, `"pickle"`), for review and interview picking.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Slugs of the katas this item belongs with; checked against the catalogue at build time.
    #[serde(default)]
    pub katas: Vec<String>,
    /// Values drawn per attempt, so the numbers differ every time.
    #[serde(default)]
    pub params: BTreeMap<String, Param>,
    pub answer: AnswerSpec,
}

impl Item {
    /// Its title in `lang`, or its id where it has none.
    pub fn title_in(&self, lang: &str) -> &str {
        self.title.as_ref().map_or(&self.id, |t| t.get(lang))
    }
}

/// Where a parameter's value comes from: `min..=max` in steps of `step` (default 1), or one of
/// `values`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Param {
    #[serde(default)]
    pub min: Option<f64>,
    #[serde(default)]
    pub max: Option<f64>,
    #[serde(default)]
    pub step: Option<f64>,
    #[serde(default)]
    pub values: Vec<f64>,
}

/// How an item is answered and what counts as right.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AnswerSpec {
    /// A number in `unit`, right within `max(abs_tol, rel_tol·|expected|)` of `formula`
    /// evaluated on the drawn parameters.
    Numeric {
        formula: String,
        unit: String,
        #[serde(default)]
        rel_tol: Option<f64>,
        #[serde(default)]
        abs_tol: Option<f64>,
        /// Common wrong ways to work it out, each a formula on the same parameters. The build
        /// proves that none lands near the right answer for any draw, and an answer near one
        /// gets its `why` as feedback.
        #[serde(default)]
        mistakes: Vec<Mistake>,
    },
    /// Options shown shuffled; `multiple` lets the learner pick several.
    Choice {
        #[serde(default)]
        multiple: bool,
        options: Vec<ChoiceOption>,
    },
    /// `steps` in their right order; shown shuffled, partial credit for pairs kept in order.
    Ordering { steps: Vec<Text> },
    /// Each `left` entry is matched with one `right` entry (a right entry may serve several).
    Matching {
        left: Vec<MatchLeft>,
        right: Vec<MatchRight>,
    },
    /// Predict the result of a chain of operations, one part at a time.
    Predict { parts: Vec<PredictPart> },
}

/// A common mistake on a numeric item: what it computes, and what went wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mistake {
    pub formula: String,
    pub why: Text,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChoiceOption {
    pub text: Text,
    #[serde(default)]
    pub correct: bool,
    /// Why this option is right or wrong, shown after answering.
    pub feedback: Text,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchLeft {
    pub text: Text,
    /// The `id` of the right entry it belongs with.
    pub answer: String,
    #[serde(default)]
    pub feedback: Option<Text>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchRight {
    pub id: String,
    pub text: Text,
}

/// One thing to predict: a tuple of integers (`tuple`, one formula per element, e.g. a shape
/// or strides), one integer (`number`), or one of a few words (`choices` + `answer`, e.g.
/// `true`/`false` or `ok`/`raises`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PredictPart {
    pub label: Text,
    #[serde(default)]
    pub tuple: Vec<String>,
    #[serde(default)]
    pub number: Option<String>,
    #[serde(default)]
    pub choices: Vec<String>,
    #[serde(default)]
    pub answer: Option<String>,
}
