//! expected-verdict: wrong_answer
//! Centres the row in RMSNorm too, computing (x − mean) / sqrt(mean((x − mean)²) + eps): that is LayerNorm again, and RMSNorm's whole point is to skip the mean.

/// LayerNorm for both flags.
pub fn normalize(rows: Vec<Vec<f64>>, eps: f64, rms: bool) -> Vec<Vec<f64>> {
    let _ = rms;
    rows.iter()
        .map(|row| {
            let n = row.len() as f64;
            let mean = row.iter().sum::<f64>() / n;
            let var = row.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
            let inv = 1.0 / (var + eps).sqrt();
            row.iter().map(|x| (x - mean) * inv).collect()
        })
        .collect()
}
