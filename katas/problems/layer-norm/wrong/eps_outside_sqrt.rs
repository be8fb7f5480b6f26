//! expected-verdict: wrong_answer
//! Divides by sqrt(var) + eps instead of sqrt(var + eps): the same when the variance dwarfs eps, but far off when it does not (a row of spread 0.1 with eps = 0.01 comes out 1.9 times too large).

/// Welford LayerNorm and RMSNorm with eps added after the square root.
pub fn normalize(rows: Vec<Vec<f64>>, eps: f64, rms: bool) -> Vec<Vec<f64>> {
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
            let scale = var.sqrt() + eps;
            row.iter().map(|&x| (x - shift) / scale).collect()
        })
        .collect()
}
