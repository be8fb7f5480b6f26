//! Keep a running total: an op changes the block count of one sequence only, so add or
//! subtract that sequence's difference instead of re-summing every sequence.

/// Sequence ids are below this (the statement's constraint), so a table indexed by id holds
/// every sequence; unlike a `HashMap`, its work does not depend on a random hash seed, so the
/// reference counts the same instructions on the same input every run.
const SEQUENCES: usize = 100_000;

/// The number of KV-cache blocks in use after each op. `(seq, n)` with `n > 0` appends `n`
/// tokens to `seq`; `(seq, 0)` frees `seq` and releases all of its blocks.
pub fn blocks_in_use(block_size: u32, ops: Vec<(u32, u32)>) -> Vec<u64> {
    let block_size = u64::from(block_size);
    let blocks = |tokens: u64| tokens.div_ceil(block_size);
    // Tokens held by each sequence; a freed one goes back to zero. u64 throughout: one
    // sequence can collect 200 000 × 10 000 = 2·10⁹ tokens.
    let mut tokens = vec![0u64; SEQUENCES];
    let mut total = 0u64;
    let mut out = Vec::with_capacity(ops.len());
    for (seq, n) in ops {
        let held = &mut tokens[seq as usize];
        if n == 0 {
            // Freeing a sequence that holds nothing releases nothing.
            total -= blocks(*held);
            *held = 0;
        } else {
            let before = blocks(*held);
            *held += u64::from(n);
            // Only a crossing of a block boundary allocates; the last block fills up first.
            total += blocks(*held) - before;
        }
        out.push(total);
    }
    out
}
