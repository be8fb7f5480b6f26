//! expected-verdict: wrong_answer
//! One pass with the textbook var = E[x²] − E[x]²: when |mean| is far above the spread, both terms are about mean², their difference is lost to rounding, and the variance comes out wrong or negative (NaN).

/// LayerNorm and RMSNorm from a row's sum and sum of squares, gathered in one loop.
pub fn normalize(rows: Vec<Vec<f64>>, eps: f64, rms: bool) -> Vec<Vec<f64>> {
    rows.iter()
        .map(|row| {
            let n = row.len() as f64;
            let mut sum = 0.0;
            let mut sum_sq = 0.0;
            for &x in row {
                sum += x;
                sum_sq += x * x;
            }
            let mean_sq = sum_sq / n;
            let (mean, var) = if rms {
                (0.0, mean_sq)
            } else {
                let mean = sum / n;
                (mean, mean_sq - mean * mean)
            };
            let inv = 1.0 / (var + eps).sqrt();
            row.iter().map(|&x| (x - mean) * inv).collect()
        })
        .collect()
}
