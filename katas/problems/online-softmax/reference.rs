//! Online softmax, as FlashAttention computes it: walk the keys tile by tile, keeping a running
//! max `m`, a running sum `l` of exp(score − m) and an unnormalized output `acc`; when a tile
//! raises the max, scale `l` and `acc` down by exp(m_old − m_new) before adding the tile. Divide
//! once at the end. Every exponent is at most 0, so nothing overflows.

/// One query's attention output: the softmax of the scores, used as weights on the value rows.
/// `keys[i]` is `(score_i, value_row_i)`; the keys are visited in tiles of `tile` keys (the last
/// tile may be shorter).
pub fn attention_row(keys: Vec<(f32, Vec<f32>)>, tile: usize) -> Vec<f32> {
    let dim = keys[0].1.len();
    // Running state over the keys seen so far. `m` starts at −∞ so that the first tile's
    // rescale factor exp(−∞ − m_new) is exactly 0 and the (empty) state drops out.
    let mut m = f32::NEG_INFINITY;
    let mut l = 0.0f32;
    let mut acc = vec![0.0f32; dim];
    // The tile's own sums, kept apart and merged once per tile, as a GPU kernel keeps them
    // in registers: fewer large-plus-small additions into the running state.
    let mut tile_acc = vec![0.0f32; dim];
    for block in keys.chunks(tile) {
        let tile_max = block
            .iter()
            .map(|(s, _)| *s)
            .fold(f32::NEG_INFINITY, f32::max);
        let m_new = m.max(tile_max);
        let mut tile_l = 0.0f32;
        tile_acc.fill(0.0);
        for (s, v) in block {
            // s − m_new <= 0: the weight is in (0, 1], never an overflow.
            let p = (s - m_new).exp();
            tile_l += p;
            for (a, x) in tile_acc.iter_mut().zip(v) {
                *a += p * x;
            }
        }
        // The old state was relative to exp(m); re-base it on exp(m_new). Both `l` and `acc`
        // take the same factor, since both are sums of the same weights.
        let alpha = (m - m_new).exp();
        l = l * alpha + tile_l;
        for (a, t) in acc.iter_mut().zip(&tile_acc) {
            *a = *a * alpha + t;
        }
        m = m_new;
    }
    // The max key contributes exp(0) = 1, so l >= 1: the division is safe.
    acc.iter().map(|a| a / l).collect()
}
