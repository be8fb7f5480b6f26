//! How a data-only kata's answer is checked, as its `kata.toml` declares it: the stock checker
//! and the float tolerance. Serde and std only: `build.rs` includes this file as well.

use serde::{Deserialize, Serialize};

/// How the learner's answer is compared with the reference's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckerKind {
    /// Equal, element by element (floats within `tolerance` when one is given).
    #[default]
    Exact,
    /// The same elements in any order (the answer is a `Vec`).
    Multiset,
    /// The same groups, each in any order, in any order (the answer is a `Vec<Vec<_>>`).
    Partition,
}

/// `|got - want| <= max(abs, rel * |want|)`; NaN matches only NaN, an infinity only itself.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tolerance {
    #[serde(default)]
    pub rel: f64,
    #[serde(default)]
    pub abs: f64,
}
