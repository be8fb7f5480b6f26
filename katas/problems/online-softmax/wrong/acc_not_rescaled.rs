//! expected-verdict: wrong_answer
//! When a tile raises the running max, scales the running sum by exp(m_old − m_new) but not the output accumulator, so the earlier keys' values keep weights measured against the old, smaller max.

/// Online softmax that forgets to re-base the unnormalized output on the new max.
pub fn attention_row(keys: Vec<(f32, Vec<f32>)>, tile: usize) -> Vec<f32> {
    let dim = keys[0].1.len();
    let mut m = f32::NEG_INFINITY;
    let mut l = 0.0f32;
    let mut acc = vec![0.0f32; dim];
    for block in keys.chunks(tile) {
        let tile_max = block
            .iter()
            .map(|(s, _)| *s)
            .fold(f32::NEG_INFINITY, f32::max);
        let m_new = m.max(tile_max);
        l *= (m - m_new).exp();
        // Missing: acc *= exp(m - m_new);
        for (s, v) in block {
            let p = (s - m_new).exp();
            l += p;
            for (a, x) in acc.iter_mut().zip(v) {
                *a += p * x;
            }
        }
        m = m_new;
    }
    acc.iter().map(|a| a / l).collect()
}
