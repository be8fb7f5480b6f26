//! The GPU katas' learner-facing data: launch shapes and kernel signatures ([`launch`]) and a
//! case's device timing ([`timing`]). Compiling and running kernels is `katas::gpu`'s.

pub mod launch;
pub mod timing;

pub use launch::{KernelSig, Launch, Param, ceil_div};
pub use timing::{DeviceTiming, Peak, Speed, Work};
