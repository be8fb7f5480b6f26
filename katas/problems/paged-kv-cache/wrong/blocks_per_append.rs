//! expected-verdict: wrong_answer
//! Gives every append ceil(n / block_size) fresh blocks, ignoring the free slots left in the sequence's last block.

use std::collections::HashMap;

pub fn blocks_in_use(block_size: u32, ops: Vec<(u32, u32)>) -> Vec<u64> {
    let block_size = u64::from(block_size);
    // Blocks handed to each live sequence so far.
    let mut owned: HashMap<u32, u64> = HashMap::new();
    let mut total = 0u64;
    let mut out = Vec::with_capacity(ops.len());
    for (seq, n) in ops {
        if n == 0 {
            if let Some(blocks) = owned.remove(&seq) {
                total -= blocks;
            }
        } else {
            let fresh = u64::from(n).div_ceil(block_size);
            *owned.entry(seq).or_insert(0) += fresh;
            total += fresh;
        }
        out.push(total);
    }
    out
}
