//! expected-verdict: wrong_answer
//! Free releases the sequence's blocks but leaves its token count, so a freed sequence that appends again continues from its old length.

use std::collections::HashMap;

#[derive(Default)]
struct Seq {
    tokens: u64,
    blocks: u64,
}

pub fn blocks_in_use(block_size: u32, ops: Vec<(u32, u32)>) -> Vec<u64> {
    let block_size = u64::from(block_size);
    let mut seqs: HashMap<u32, Seq> = HashMap::new();
    let mut total = 0u64;
    let mut out = Vec::with_capacity(ops.len());
    for (seq, n) in ops {
        let s = seqs.entry(seq).or_default();
        if n == 0 {
            total -= s.blocks;
            s.blocks = 0;
        } else {
            s.tokens += u64::from(n);
            let now = s.tokens.div_ceil(block_size);
            total += now - s.blocks;
            s.blocks = now;
        }
        out.push(total);
    }
    out
}
