//! expected-verdict: wrong_answer
//! Keeps the right tokens but returns their probabilities from the full softmax, without dividing by the kept mass: the answer sums to less than 1 whenever a token with any probability was dropped.

use std::cmp::Ordering;

/// Top-k that zeroes the dropped tokens and leaves the kept ones as they were.
pub fn top_k(logits: Vec<f64>, temperature: f64, k: usize) -> Vec<f64> {
    let probs = softmax(&logits, temperature);
    let mut order: Vec<usize> = (0..logits.len()).collect();
    order.sort_by(|&a, &b| rank(&logits, a, b));
    order.truncate(k);
    masked(&probs, &order)
}

/// Top-p that zeroes the dropped tokens and leaves the kept ones as they were.
pub fn top_p(logits: Vec<f64>, temperature: f64, p: f64) -> Vec<f64> {
    let probs = softmax(&logits, temperature);
    let mut order: Vec<usize> = (0..logits.len()).collect();
    order.sort_by(|&a, &b| rank(&logits, a, b));
    let mut mass = 0.0;
    let mut kept = 0;
    for &i in &order {
        mass += probs[i];
        kept += 1;
        if mass >= p {
            break;
        }
    }
    masked(&probs, &order[..kept])
}

fn softmax(logits: &[f64], temperature: f64) -> Vec<f64> {
    let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = logits
        .iter()
        .map(|&x| ((x - max) / temperature).exp())
        .collect();
    let sum: f64 = exps.iter().sum();
    exps.iter().map(|&e| e / sum).collect()
}

fn rank(logits: &[f64], a: usize, b: usize) -> Ordering {
    logits[b].total_cmp(&logits[a]).then(a.cmp(&b))
}

/// The kept tokens' probabilities, unchanged; 0 elsewhere. Missing: dividing by their sum.
fn masked(probs: &[f64], kept: &[usize]) -> Vec<f64> {
    let mut out = vec![0.0; probs.len()];
    for &i in kept {
        out[i] = probs[i];
    }
    out
}
