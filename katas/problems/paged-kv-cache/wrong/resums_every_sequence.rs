//! expected-verdict: time_limit_exceeded
//! Keeps each sequence's token count and re-sums the blocks of every live sequence after each op: correct, but O(ops × sequences).

use std::collections::HashMap;

pub fn blocks_in_use(block_size: u32, ops: Vec<(u32, u32)>) -> Vec<u64> {
    let block_size = u64::from(block_size);
    let mut tokens: HashMap<u32, u64> = HashMap::new();
    let mut out = Vec::with_capacity(ops.len());
    for (seq, n) in ops {
        if n == 0 {
            tokens.remove(&seq);
        } else {
            *tokens.entry(seq).or_insert(0) += u64::from(n);
        }
        out.push(tokens.values().map(|t| t.div_ceil(block_size)).sum());
    }
    out
}
