//! online-softmax: implement `attention_row`. `cargo test -p katas online-softmax` checks it.

/// One query's attention output: softmax over the keys' scores, used as weights on their value
/// rows. `keys[i]` is `(score_i, value_row_i)`; visit the keys in tiles of `tile` keys, keeping a
/// running max and a running sum, and never take exp of a positive number.
pub fn attention_row(keys: Vec<(f32, Vec<f32>)>, tile: usize) -> Vec<f32> {
    todo!("attend over {} keys in tiles of {tile}", keys.len())
}
