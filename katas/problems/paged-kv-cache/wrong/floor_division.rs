//! expected-verdict: wrong_answer
//! Counts a sequence's blocks as tokens / block_size, rounding down: a partly filled last block is never counted.

use std::collections::HashMap;

pub fn blocks_in_use(block_size: u32, ops: Vec<(u32, u32)>) -> Vec<u64> {
    let block_size = u64::from(block_size);
    let mut tokens: HashMap<u32, u64> = HashMap::new();
    let mut total = 0u64;
    let mut out = Vec::with_capacity(ops.len());
    for (seq, n) in ops {
        if n == 0 {
            if let Some(held) = tokens.remove(&seq) {
                total -= held / block_size;
            }
        } else {
            let held = tokens.entry(seq).or_insert(0);
            let before = *held / block_size;
            *held += u64::from(n);
            total += *held / block_size - before;
        }
        out.push(total);
    }
    out
}
