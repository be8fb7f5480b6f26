//! expected-verdict: wrong_answer
//! Leaves eps out of the denominator: close enough while the variance is large, but a constant row (or a single value) gives 0 / 0 = NaN, and small variances blow up.

/// Welford LayerNorm and RMSNorm without eps.
pub fn normalize(rows: Vec<Vec<f64>>, eps: f64, rms: bool) -> Vec<Vec<f64>> {
    let _ = eps;
    rows.iter()
        .map(|row| {
            let mut mean = 0.0;
            let mut m2 = 0.0;
            let mut sum_sq = 0.0;
            for (k, &x) in row.iter().enumerate() {
                let d = x - mean;
                mean += d / (k + 1) as f64;
                m2 += d * (x - mean);
                sum_sq += x * x;
            }
            let n = row.len() as f64;
            let (shift, var) = if rms {
                (0.0, sum_sq / n)
            } else {
                (mean, m2 / n)
            };
            let inv = 1.0 / var.sqrt();
            row.iter().map(|&x| (x - shift) * inv).collect()
        })
        .collect()
}
