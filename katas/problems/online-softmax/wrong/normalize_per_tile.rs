//! expected-verdict: wrong_answer
//! Keeps the output normalized after every tile but updates it as (α·o + Σ p·v) / l_new, forgetting that the old normalized output must be weighted by its old sum l_old·α, not by α alone.

/// Online softmax with a normalized running output, merged with the wrong weight.
pub fn attention_row(keys: Vec<(f32, Vec<f32>)>, tile: usize) -> Vec<f32> {
    let dim = keys[0].1.len();
    let mut m = f32::NEG_INFINITY;
    let mut l = 0.0f32;
    let mut out = vec![0.0f32; dim];
    for block in keys.chunks(tile) {
        let tile_max = block
            .iter()
            .map(|(s, _)| *s)
            .fold(f32::NEG_INFINITY, f32::max);
        let m_new = m.max(tile_max);
        let alpha = (m - m_new).exp();
        let mut tile_l = 0.0f32;
        let mut tile_acc = vec![0.0f32; dim];
        for (s, v) in block {
            let p = (s - m_new).exp();
            tile_l += p;
            for (a, x) in tile_acc.iter_mut().zip(v) {
                *a += p * x;
            }
        }
        let l_new = l * alpha + tile_l;
        for (o, t) in out.iter_mut().zip(&tile_acc) {
            // Should be (l * alpha * o + t) / l_new.
            *o = (alpha * *o + t) / l_new;
        }
        l = l_new;
        m = m_new;
    }
    out
}
