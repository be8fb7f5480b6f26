//! expected-verdict: wrong_answer
//! Top-p adds up the shifted exponentials exp((x − max) / T) and compares that sum with p without dividing by their total: the top token alone already contributes exp(0) = 1 >= p, so the nucleus is always one token. Top-k is right.

use std::cmp::Ordering;

/// Top-k, correct.
pub fn top_k(logits: Vec<f64>, temperature: f64, k: usize) -> Vec<f64> {
    let weights = shifted_exp(&logits, temperature);
    let mut order: Vec<usize> = (0..logits.len()).collect();
    order.sort_by(|&a, &b| rank(&logits, a, b));
    order.truncate(k);
    renormalized(&weights, &order)
}

/// Top-p whose running mass is in units of the top token's weight, not of probability.
pub fn top_p(logits: Vec<f64>, temperature: f64, p: f64) -> Vec<f64> {
    let weights = shifted_exp(&logits, temperature);
    let mut order: Vec<usize> = (0..logits.len()).collect();
    order.sort_by(|&a, &b| rank(&logits, a, b));
    let mut mass = 0.0;
    let mut kept = 0;
    for &i in &order {
        mass += weights[i];
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

fn rank(logits: &[f64], a: usize, b: usize) -> Ordering {
    logits[b].total_cmp(&logits[a]).then(a.cmp(&b))
}

fn renormalized(weights: &[f64], kept: &[usize]) -> Vec<f64> {
    let sum: f64 = kept.iter().map(|&i| weights[i]).sum();
    let mut out = vec![0.0; weights.len()];
    for &i in kept {
        out[i] = weights[i] / sum;
    }
    out
}
