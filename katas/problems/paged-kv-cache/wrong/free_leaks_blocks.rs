//! expected-verdict: wrong_answer
//! Free forgets the sequence but never takes its blocks off the running total: freed blocks stay counted as in use.

use std::collections::HashMap;

pub fn blocks_in_use(block_size: u32, ops: Vec<(u32, u32)>) -> Vec<u64> {
    let block_size = u64::from(block_size);
    let mut tokens: HashMap<u32, u64> = HashMap::new();
    let mut total = 0u64;
    let mut out = Vec::with_capacity(ops.len());
    for (seq, n) in ops {
        if n == 0 {
            tokens.remove(&seq);
        } else {
            let held = tokens.entry(seq).or_insert(0);
            let before = held.div_ceil(block_size);
            *held += u64::from(n);
            total += held.div_ceil(block_size) - before;
        }
        out.push(total);
    }
    out
}
