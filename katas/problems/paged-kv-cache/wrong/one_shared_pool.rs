//! expected-verdict: wrong_answer
//! Rounds up the total token count of all sequences, as if sequences could share a block: two half-full blocks count as one.

use std::collections::HashMap;

pub fn blocks_in_use(block_size: u32, ops: Vec<(u32, u32)>) -> Vec<u64> {
    let block_size = u64::from(block_size);
    let mut tokens: HashMap<u32, u64> = HashMap::new();
    let mut all_tokens = 0u64;
    let mut out = Vec::with_capacity(ops.len());
    for (seq, n) in ops {
        if n == 0 {
            all_tokens -= tokens.remove(&seq).unwrap_or(0);
        } else {
            *tokens.entry(seq).or_insert(0) += u64::from(n);
            all_tokens += u64::from(n);
        }
        out.push(all_tokens.div_ceil(block_size));
    }
    out
}
