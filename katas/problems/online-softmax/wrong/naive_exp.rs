//! expected-verdict: wrong_answer
//! Textbook softmax, exp(score) / Σ exp(score), without subtracting the max: exp overflows to inf past a score of about 88.7 (and every weight underflows to 0 below about −104), so the answer is NaN.

/// Softmax straight from the formula, then the weighted sum of the value rows.
pub fn attention_row(keys: Vec<(f32, Vec<f32>)>, tile: usize) -> Vec<f32> {
    let dim = keys[0].1.len();
    let mut sum = 0.0f32;
    let mut acc = vec![0.0f32; dim];
    for block in keys.chunks(tile) {
        for (s, v) in block {
            let p = s.exp();
            sum += p;
            for (a, x) in acc.iter_mut().zip(v) {
                *a += p * x;
            }
        }
    }
    acc.iter().map(|a| a / sum).collect()
}
