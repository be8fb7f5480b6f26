//! expected-verdict: wrong_answer
//! Walks keys.len() / tile whole tiles, rounding down, so the keys of a last, shorter tile are never visited (and a row shorter than one tile gives 0 / 0).

/// Online softmax over whole tiles only.
pub fn attention_row(keys: Vec<(f32, Vec<f32>)>, tile: usize) -> Vec<f32> {
    let dim = keys[0].1.len();
    let mut m = f32::NEG_INFINITY;
    let mut l = 0.0f32;
    let mut acc = vec![0.0f32; dim];
    for t in 0..keys.len() / tile {
        let block = &keys[t * tile..(t + 1) * tile];
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
