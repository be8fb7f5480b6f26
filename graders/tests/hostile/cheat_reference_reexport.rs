//! expected-verdict: compile_error
//! mode: submit
//! attack: re-exports the kata's own reference solution, which the grader links into every submission as `katas::problems::fast_power::reference` (the wrong/ solutions and all cases are reachable the same way)
//! defence: the library submissions link against must not expose the answer key (reference/wrong modules private or compiled out of the grader's build) -> compile_error; TODAY THIS IS ACCEPTED: a cheat, not an escape, left failing on purpose

pub use katas::problems::fast_power::reference::{pow_mod, power};
