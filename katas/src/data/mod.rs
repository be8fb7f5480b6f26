//! Data-only katas: a package with no `kata.rs`. Its `kata.toml` declares the learner's
//! signature, a stock checker and the statement's constraints under `[data]`
//! ([`decl::DataDecl`]); its cases are `data/cases.toml` plus declared random groups. `codegen`
//! (with `build.rs`) turns that into the same `Spec: KataSpec` a hand-written `kata.rs` defines,
//! so these katas take the one grading path.
//!
//! What the generated code calls at run time (the checkers, the constraints' refusals) is
//! `katas_runtime::data`, re-exported here: it is compiled into every submission.

#[cfg(feature = "packages")]
pub mod codegen;
#[cfg(test)]
mod entry_tests;
#[cfg(test)]
mod tests;

pub use crate::meta::data_decl as decl;
pub use katas_runtime::data::*;
