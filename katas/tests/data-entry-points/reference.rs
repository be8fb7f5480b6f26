use std::collections::BTreeSet;

pub fn blocks_for(tokens: u64, block_size: u32) -> u64 {
    tokens.div_ceil(u64::from(block_size))
}

/// `(seq, n)` appends `n > 0` tokens to `seq`; `(seq, 0)` frees it.
pub fn live_sequences(ops: Vec<(u32, u32)>) -> Vec<u32> {
    let mut live = BTreeSet::new();
    for (seq, n) in ops {
        if n == 0 {
            live.remove(&seq);
        } else {
            live.insert(seq);
        }
    }
    live.into_iter().rev().collect()
}

pub fn fill(tokens: u64, block_size: u32) -> f64 {
    tokens as f64 / (blocks_for(tokens, block_size) * u64::from(block_size)) as f64
}
