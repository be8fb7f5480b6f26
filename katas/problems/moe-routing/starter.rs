//! moe-routing: implement `route`. `cargo test -p katas moe-routing` checks it.

/// For each expert, the tokens it accepts, in token order. Token `t` has the scores
/// `scores[t * experts..(t + 1) * experts]` (a trailing partial row is ignored) and picks its
/// `min(k, experts)` best experts, a tie going to the lower index; an expert accepts at most
/// `capacity` tokens, first come first served in token order, and a choice past that is dropped.
pub fn route(scores: Vec<i32>, experts: usize, k: usize, capacity: usize) -> Vec<Vec<usize>> {
    todo!(
        "route {} scores over {experts} experts, top-{k}, capacity {capacity}",
        scores.len()
    )
}
