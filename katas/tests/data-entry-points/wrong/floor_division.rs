//! expected-verdict: wrong_answer
//! Rounds the block count down: only `blocks_for` and `fill` are wrong.

use std::collections::BTreeSet;

pub fn blocks_for(tokens: u64, block_size: u32) -> u64 {
    tokens / u64::from(block_size)
}

pub fn live_sequences(ops: Vec<(u32, u32)>) -> Vec<u32> {
    let mut live = BTreeSet::new();
    for (seq, n) in ops {
        if n == 0 {
            live.remove(&seq);
        } else {
            live.insert(seq);
        }
    }
    live.into_iter().collect()
}

pub fn fill(tokens: u64, block_size: u32) -> f64 {
    tokens as f64 / (blocks_for(tokens, block_size).max(1) * u64::from(block_size)) as f64
}
