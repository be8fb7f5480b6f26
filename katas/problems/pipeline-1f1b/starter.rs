//! pipeline-1f1b: implement `one_f_one_b`. `cargo test -p katas pipeline-1f1b` checks it.

use katas::problems::pipeline_1f1b::Op;

/// Each stage's ops in the order it runs them under non-interleaved 1F1B, with start times.
/// Stage `s` of `p` runs `min(p - s - 1, m)` warm-up forwards, then alternates one forward and
/// one backward, then runs the backwards left. An op starts as soon as its stage is free and its
/// input has arrived: a forward waits for the previous stage's forward of the same micro-batch,
/// a backward for the next stage's backward of it. `stage_times[s]` is `(forward, backward)`.
pub fn one_f_one_b(stage_times: Vec<(u32, u32)>, micro_batches: u32) -> Vec<Vec<Op>> {
    todo!(
        "schedule {micro_batches} micro-batches over {} stages",
        stage_times.len()
    )
}
