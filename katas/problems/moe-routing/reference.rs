//! Pick each token's best experts with a linear-time selection, then walk the tokens in order
//! and let one counter per expert decide in O(1) whether a choice still fits.

use std::cmp::Reverse;

/// For each expert, the tokens it accepts, in token order. Token `t` has the scores
/// `scores[t * experts..(t + 1) * experts]` (a trailing partial row is ignored) and picks its
/// `min(k, experts)` best experts, a tie going to the lower index; an expert accepts at most
/// `capacity` tokens, first come first served in token order, and a choice past that is dropped.
pub fn route(scores: Vec<i32>, experts: usize, k: usize, capacity: usize) -> Vec<Vec<usize>> {
    let k = k.min(experts);
    let mut received: Vec<Vec<usize>> = vec![Vec::new(); experts];
    // Expert indices 0..experts, reordered in place for each token (no allocation per token).
    let mut order: Vec<usize> = (0..experts).collect();
    // `chunks_exact` yields the `scores.len() / experts` whole rows and leaves out the rest.
    for (token, row) in scores.chunks_exact(experts).enumerate() {
        // Rank by score, highest first, then by index, lowest first: a total order, so the
        // first `k` after selection are exactly the token's choices. Their order among
        // themselves does not matter: each names a different expert.
        let rank = |&e: &usize| (Reverse(row[e]), e);
        if k < experts {
            order.select_nth_unstable_by_key(k, rank);
        }
        for &e in &order[..k] {
            // The expert's load is the length of its list: O(1), no recount.
            if received[e].len() < capacity {
                received[e].push(token);
            }
        }
    }
    received
}
