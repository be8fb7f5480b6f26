//! expected-verdict: wrong_answer
//! Starts the running max at 0.0 instead of −∞: when every score is far below 0, each exp(score − 0) underflows to 0 and the answer is 0 / 0.

/// Online softmax whose running max can never drop below 0.
pub fn attention_row(keys: Vec<(f32, Vec<f32>)>, tile: usize) -> Vec<f32> {
    let dim = keys[0].1.len();
    let mut m = 0.0f32;
    let mut l = 0.0f32;
    let mut acc = vec![0.0f32; dim];
    for block in keys.chunks(tile) {
        let tile_max = block
            .iter()
            .map(|(s, _)| *s)
            .fold(f32::NEG_INFINITY, f32::max);
        let m_new = m.max(tile_max);
        let alpha = (m - m_new).exp();
        l *= alpha;
        for a in acc.iter_mut() {
            *a *= alpha;
        }
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
