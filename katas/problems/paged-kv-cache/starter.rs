//! paged-kv-cache: implement `blocks_in_use`. `cargo test -p katas paged-kv-cache` checks it.

/// The number of KV-cache blocks in use after each op, one entry per op. Each block holds
/// `block_size` tokens; `(seq, n)` with `n > 0` appends `n` tokens to sequence `seq`, and
/// `(seq, 0)` frees `seq`, releasing all of its blocks.
pub fn blocks_in_use(block_size: u32, ops: Vec<(u32, u32)>) -> Vec<u64> {
    todo!("replay {} ops on blocks of {block_size} tokens", ops.len())
}
