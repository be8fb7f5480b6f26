//! expected-verdict: time_limit_exceeded
//! After every tile, recomputes a stable softmax over all the keys seen so far instead of updating a running state: right, but O(n² / tile) work, far too slow on 200 000 keys.

/// The prefix's attention output, recomputed from scratch after each tile.
pub fn attention_row(keys: Vec<(f32, Vec<f32>)>, tile: usize) -> Vec<f32> {
    let dim = keys[0].1.len();
    let mut out = vec![0.0f32; dim];
    let mut seen = 0;
    while seen < keys.len() {
        seen = (seen + tile).min(keys.len());
        let prefix = &keys[..seen];
        let m = prefix
            .iter()
            .map(|(s, _)| *s)
            .fold(f32::NEG_INFINITY, f32::max);
        let mut l = 0.0f32;
        let mut acc = vec![0.0f32; dim];
        for (s, v) in prefix {
            let p = (s - m).exp();
            l += p;
            for (a, x) in acc.iter_mut().zip(v) {
                *a += p * x;
            }
        }
        out = acc.iter().map(|a| a / l).collect();
    }
    out
}
