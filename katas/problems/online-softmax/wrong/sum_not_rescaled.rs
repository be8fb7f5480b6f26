//! expected-verdict: wrong_answer
//! When a tile raises the running max, scales the output accumulator by exp(m_old − m_new) but leaves the running sum as it was, so the earlier keys' weights stay too large in the denominator.

/// Online softmax that forgets to re-base the running sum on the new max.
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
        let alpha = (m - m_new).exp();
        for a in acc.iter_mut() {
            *a *= alpha;
        }
        // Missing: l *= alpha;
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
