//! expected-verdict: wrong_answer
//! Softmax straight from the formula, exp(x / T) / Σ exp(x / T), without subtracting the largest logit: at a logit of 10000 and a temperature of 0.05 the exponent is 200000, exp is inf and every probability is inf / inf = NaN (and at -10000 every exp underflows to 0, giving 0 / 0).

use std::cmp::Ordering;

/// Top-k over probabilities computed without the max shift.
pub fn top_k(logits: Vec<f64>, temperature: f64, k: usize) -> Vec<f64> {
    let probs = naive_softmax(&logits, temperature);
    let mut order: Vec<usize> = (0..logits.len()).collect();
    order.sort_by(|&a, &b| rank(&logits, a, b));
    order.truncate(k);
    renormalized(&probs, &order)
}

/// Top-p over probabilities computed without the max shift.
pub fn top_p(logits: Vec<f64>, temperature: f64, p: f64) -> Vec<f64> {
    let probs = naive_softmax(&logits, temperature);
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

fn naive_softmax(logits: &[f64], temperature: f64) -> Vec<f64> {
    let exps: Vec<f64> = logits.iter().map(|&x| (x / temperature).exp()).collect();
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
