//! Keep a running total: an op changes the block count of one sequence only, so add or
//! subtract that sequence's difference instead of re-summing every sequence.

use std::collections::HashMap;

/// The number of KV-cache blocks in use after each op. `(seq, n)` with `n > 0` appends `n`
/// tokens to `seq`; `(seq, 0)` frees `seq` and releases all of its blocks.
pub fn blocks_in_use(block_size: u32, ops: Vec<(u32, u32)>) -> Vec<u64> {
    let block_size = u64::from(block_size);
    let blocks = |tokens: u64| tokens.div_ceil(block_size);
    // Tokens held by each live sequence. A freed sequence is removed, so it restarts at zero.
    // u64 throughout: one sequence can collect 200 000 × 10 000 = 2·10⁹ tokens.
    let mut tokens: HashMap<u32, u64> = HashMap::new();
    let mut total = 0u64;
    let mut out = Vec::with_capacity(ops.len());
    for (seq, n) in ops {
        if n == 0 {
            // Freeing a sequence that holds nothing finds nothing to remove.
            if let Some(held) = tokens.remove(&seq) {
                total -= blocks(held);
            }
        } else {
            let held = tokens.entry(seq).or_insert(0);
            let before = blocks(*held);
            *held += u64::from(n);
            // Only a crossing of a block boundary allocates; the last block fills up first.
            total += blocks(*held) - before;
        }
        out.push(total);
    }
    out
}
