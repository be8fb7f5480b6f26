//! LayerNorm and RMSNorm, one row at a time. The statistics come from a single pass over the
//! row: Welford's running mean and M2 (the sum of squared deviations from the running mean) for
//! LayerNorm, a plain sum of squares for RMSNorm (all terms are positive, so nothing cancels).
//! A second loop writes the outputs, as a fused kernel does from the row it keeps in registers.

/// Each row normalized on its own: LayerNorm (x − mean) / sqrt(var + eps) with the population
/// variance, or RMSNorm x / sqrt(mean(x²) + eps) when `rms`. An empty row stays empty.
pub fn normalize(rows: Vec<Vec<f64>>, eps: f64, rms: bool) -> Vec<Vec<f64>> {
    rows.iter()
        .map(|row| {
            if rms {
                rms_norm(row, eps)
            } else {
                layer_norm(row, eps)
            }
        })
        .collect()
}

fn layer_norm(row: &[f64], eps: f64) -> Vec<f64> {
    if row.is_empty() {
        return Vec::new();
    }
    let mut mean = 0.0;
    let mut m2 = 0.0;
    for (k, &x) in row.iter().enumerate() {
        // Welford: move the mean a 1/(k+1) step towards x, and add the product of x's
        // deviations from the old and the new mean. Both deviations are small when the values
        // are close together, so nothing large is ever subtracted from anything large.
        let delta = x - mean;
        mean += delta / (k + 1) as f64;
        m2 += delta * (x - mean);
    }
    // Population variance: divide by n, not n − 1. m2 >= 0 by construction, and eps > 0, so
    // the square root is of a positive number even for a constant row.
    let inv_std = 1.0 / (m2 / row.len() as f64 + eps).sqrt();
    row.iter().map(|&x| (x - mean) * inv_std).collect()
}

fn rms_norm(row: &[f64], eps: f64) -> Vec<f64> {
    if row.is_empty() {
        return Vec::new();
    }
    let sum_sq: f64 = row.iter().map(|&x| x * x).sum();
    let inv_rms = 1.0 / (sum_sq / row.len() as f64 + eps).sqrt();
    row.iter().map(|&x| x * inv_rms).collect()
}
