//! expected-verdict: wrong_answer
//! Scales the logits by multiplying by the temperature instead of dividing by it: a temperature below 1 then flattens the distribution and one above 1 sharpens it, the opposite of what it should do; only a temperature of exactly 1 comes out right.

use std::cmp::Ordering;

/// Top-k over logits scaled the wrong way.
pub fn top_k(logits: Vec<f64>, temperature: f64, k: usize) -> Vec<f64> {
    let probs = scaled_softmax(&logits, temperature);
    let mut order: Vec<usize> = (0..logits.len()).collect();
    order.sort_by(|&a, &b| rank(&logits, a, b));
    order.truncate(k);
    renormalized(&probs, &order)
}

/// Top-p over logits scaled the wrong way.
pub fn top_p(logits: Vec<f64>, temperature: f64, p: f64) -> Vec<f64> {
    let probs = scaled_softmax(&logits, temperature);
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
    renormalized(&probs, &order[..kept])
}

fn scaled_softmax(logits: &[f64], temperature: f64) -> Vec<f64> {
    // Stable (the max is subtracted), but x · T where it should be x / T.
    let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = logits
        .iter()
        .map(|&x| ((x - max) * temperature).exp())
        .collect();
    let sum: f64 = exps.iter().sum();
    exps.iter().map(|&e| e / sum).collect()
}

fn rank(logits: &[f64], a: usize, b: usize) -> Ordering {
    logits[b].total_cmp(&logits[a]).then(a.cmp(&b))
}

fn renormalized(probs: &[f64], kept: &[usize]) -> Vec<f64> {
    let sum: f64 = kept.iter().map(|&i| probs[i]).sum();
    let mut out = vec![0.0; probs.len()];
    for &i in kept {
        out[i] = probs[i] / sum;
    }
    out
}
