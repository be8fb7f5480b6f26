pub fn blocks_for(tokens: u64, block_size: u32) -> u64 {
    todo!("{tokens} {block_size}")
}

pub fn live_sequences(ops: Vec<(u32, u32)>) -> Vec<u32> {
    todo!("{ops:?}")
}

pub fn fill(tokens: u64, block_size: u32) -> f64 {
    todo!("{tokens} {block_size}")
}
