//! expected-verdict: wrong_answer
//! Re-bases the state on each tile's own max rather than the running max: right on paper, but after a tile of high scores a tile of far lower ones makes exp(m_old − m_tile) overflow to inf.

/// Online softmax that shifts every tile by that tile's max, even when it is lower.
pub fn attention_row(keys: Vec<(f32, Vec<f32>)>, tile: usize) -> Vec<f32> {
    let dim = keys[0].1.len();
    let mut m = f32::NEG_INFINITY;
    let mut l = 0.0f32;
    let mut acc = vec![0.0f32; dim];
    for block in keys.chunks(tile) {
        // Should be m.max(tile max): the reference point may only go up.
        let m_new = block
            .iter()
            .map(|(s, _)| *s)
            .fold(f32::NEG_INFINITY, f32::max);
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
