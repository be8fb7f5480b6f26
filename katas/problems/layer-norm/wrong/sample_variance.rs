//! expected-verdict: wrong_answer
//! Divides the sum of squared deviations by n − 1 (the sample variance, as statistics courses and torch.var default to) instead of n: every LayerNorm output is sqrt((n − 1) / n) too small.

/// Two-pass LayerNorm with Bessel's correction; RMSNorm as it should be.
pub fn normalize(rows: Vec<Vec<f64>>, eps: f64, rms: bool) -> Vec<Vec<f64>> {
    rows.iter()
        .map(|row| {
            let n = row.len() as f64;
            if rms {
                let ms = row.iter().map(|x| x * x).sum::<f64>() / n;
                let inv = 1.0 / (ms + eps).sqrt();
                return row.iter().map(|x| x * inv).collect();
            }
            let mean = row.iter().sum::<f64>() / n;
            let ss: f64 = row.iter().map(|x| (x - mean) * (x - mean)).sum();
            let var = ss / (n - 1.0);
            let inv = 1.0 / (var + eps).sqrt();
            row.iter().map(|x| (x - mean) * inv).collect()
        })
        .collect()
}
