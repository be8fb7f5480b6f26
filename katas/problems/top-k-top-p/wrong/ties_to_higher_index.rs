//! expected-verdict: wrong_answer
//! Breaks ties between equal logits toward the higher index (a stable sort of the reversed row, or a comparison written the wrong way round), so when equal logits straddle the k boundary or the point where the mass crosses p, the wrong token is kept.

use std::cmp::Ordering;

/// Top-k with ties broken toward the higher index.
pub fn top_k(logits: Vec<f64>, temperature: f64, k: usize) -> Vec<f64> {
    let weights = shifted_exp(&logits, temperature);
    let mut order: Vec<usize> = (0..logits.len()).collect();
    order.sort_by(|&a, &b| rank(&logits, a, b));
    order.truncate(k);
    renormalized(&weights, &order)
}

/// Top-p with ties broken toward the higher index.
pub fn top_p(logits: Vec<f64>, temperature: f64, p: f64) -> Vec<f64> {
    let weights = shifted_exp(&logits, temperature);
    let total: f64 = weights.iter().sum();
    let mut order: Vec<usize> = (0..logits.len()).collect();
    order.sort_by(|&a, &b| rank(&logits, a, b));
    let mut mass = 0.0;
    let mut kept = 0;
    for &i in &order {
        mass += weights[i] / total;
        kept += 1;
        if mass >= p {
            break;
        }
    }
    renormalized(&weights, &order[..kept])
}

fn shifted_exp(logits: &[f64], temperature: f64) -> Vec<f64> {
    let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    logits
        .iter()
        .map(|&x| ((x - max) / temperature).exp())
        .collect()
}

/// The higher logit first, and of equal logits the *higher* index: the bug.
fn rank(logits: &[f64], a: usize, b: usize) -> Ordering {
    logits[b].total_cmp(&logits[a]).then(b.cmp(&a))
}

fn renormalized(weights: &[f64], kept: &[usize]) -> Vec<f64> {
    let sum: f64 = kept.iter().map(|&i| weights[i]).sum();
    let mut out = vec![0.0; weights.len()];
    for &i in kept {
        out[i] = weights[i] / sum;
    }
    out
}
