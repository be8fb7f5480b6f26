//! Temperature, then top-k or top-p (nucleus) filtering of one decoding step's logits. Both
//! start from exp((logit − max) / temperature): every exponent is at most 0, so nothing
//! overflows, and the largest logit's weight is exactly 1. Top-k selects the k highest logits
//! in O(n) (`select_nth_unstable_by`); top-p sorts by logit, O(n log n), and walks the sorted
//! tokens until their probability reaches p. The kept weights are divided by their own sum.

use std::cmp::Ordering;

/// Probabilities after temperature and top-k: softmax(logits / temperature) restricted to the k
/// highest logits (ties: the lower index is kept first), renormalized to sum to 1; 0 elsewhere.
pub fn top_k(logits: Vec<f64>, temperature: f64, k: usize) -> Vec<f64> {
    let weights = shifted_exp(&logits, temperature);
    let mut order: Vec<usize> = (0..logits.len()).collect();
    if k < order.len() {
        // A total order (logit, then index), so the k selected are exactly the k first of the
        // sorted row, whatever the selection algorithm does with ties.
        order.select_nth_unstable_by(k - 1, |&a, &b| rank(&logits, a, b));
        order.truncate(k);
    }
    renormalized(&weights, &order)
}

/// Probabilities after temperature and top-p (nucleus): tokens sorted by probability, highest
/// first (ties: lower index first); keep the shortest prefix whose probability mass reaches p (at
/// least one token), renormalized; 0 elsewhere.
pub fn top_p(logits: Vec<f64>, temperature: f64, p: f64) -> Vec<f64> {
    let weights = shifted_exp(&logits, temperature);
    // The largest weight is exactly 1, so the sum is at least 1: dividing by it is safe.
    let total: f64 = weights.iter().sum();
    let mut order: Vec<usize> = (0..logits.len()).collect();
    // Probability is an increasing function of the logit, so sorting by logit sorts by
    // probability, and equal logits are the only equal probabilities that matter.
    order.sort_unstable_by(|&a, &b| rank(&logits, a, b));
    let mut mass = 0.0;
    let mut kept = 0;
    for &i in &order {
        mass += weights[i] / total;
        kept += 1;
        // The token that takes the mass to p is kept. If rounding leaves the full sum a hair
        // below p = 1.0, the loop simply keeps every token.
        if mass >= p {
            break;
        }
    }
    renormalized(&weights, &order[..kept])
}

/// exp((x − max) / temperature) for every logit: the softmax's numerators, shifted so that the
/// largest is exp(0) = 1 and none can overflow. An exponent below about −745 underflows to 0,
/// which is what that token's probability rounds to anyway.
fn shifted_exp(logits: &[f64], temperature: f64) -> Vec<f64> {
    let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    logits
        .iter()
        .map(|&x| ((x - max) / temperature).exp())
        .collect()
}

/// Token `a` before token `b`: the higher logit first, and of equal logits the lower index.
fn rank(logits: &[f64], a: usize, b: usize) -> Ordering {
    logits[b].total_cmp(&logits[a]).then(a.cmp(&b))
}

/// The weights of the `kept` tokens divided by their sum; every other token gets 0. The kept
/// set always holds the largest logit (weight 1), so the sum is at least 1.
fn renormalized(weights: &[f64], kept: &[usize]) -> Vec<f64> {
    let sum: f64 = kept.iter().map(|&i| weights[i]).sum();
    let mut out = vec![0.0; weights.len()];
    for &i in kept {
        out[i] = weights[i] / sum;
    }
    out
}
