//! What a learner's program links against, and nothing else: the shape of a kata
//! ([`KataSpec`], its cases and checks), the byte format answers cross the sandbox in
//! ([`wire`]), the sandboxed runner that calls the solution ([`runner`]), simulated ranks
//! ([`ranks`], [`rank_net`]), reports and verdicts as data, the GPU launch types (with `cuda`, the CUDA calls and the
//! harness a GPU kata implements), and what a
//! data-only kata's generated code calls ([`data`]).
//!
//! The `katas` crate re-exports every module here at the same path (`katas::spec`,
//! `katas::runner`, …), so a kata package and a learner's file say `use katas::…` whichever
//! crate a name lives in. What judges (`katas::judge`, `katas::judge_process`), the catalogue,
//! the authoring tools and the drills stay in `katas`, which this crate never names.

// `deny`, not `forbid`: the CUDA calls of `gpu::driver` and `gpu::probe` (feature `cuda`) need
// `unsafe`, allowed on exactly those (see `gpu/mod.rs`); a test in `gpu/probe.rs` fails on an
// `allow` anywhere else.
#![deny(unsafe_code)]

pub mod checker;
pub mod data;
pub mod gpu;
pub mod lang;
pub mod panics;
pub mod rank_net;
pub mod ranks;
pub mod report;
pub mod runner;
pub mod spec;
pub mod verdict;
pub mod wire;

pub use lang::Lang;
pub use report::{CaseReport, Outcome, Report};
pub use spec::{Case, Check, Group, KataSpec, Message, Mismatch, Mode, Refusal, decimal, rounded};
pub use verdict::Verdict;
