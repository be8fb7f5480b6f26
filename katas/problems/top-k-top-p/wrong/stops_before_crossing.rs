//! expected-verdict: wrong_answer
//! Top-p keeps only the tokens whose cumulative probability stays below p (and the top token when even it passes p), dropping the token that takes the mass across p: the nucleus then holds less than p. Top-k is right.

use std::cmp::Ordering;

/// Top-k, correct.
pub fn top_k(logits: Vec<f64>, temperature: f64, k: usize) -> Vec<f64> {
    let weights = shifted_exp(&logits, temperature);
    let mut order: Vec<usize> = (0..logits.len()).collect();
    order.sort_by(|&a, &b| rank(&logits, a, b));
    order.truncate(k);
    renormalized(&weights, &order)
}

/// Top-p that stops one token short: it checks the mass before adding the token.
pub fn top_p(logits: Vec<f64>, temperature: f64, p: f64) -> Vec<f64> {
    let weights = shifted_exp(&logits, temperature);
    let total: f64 = weights.iter().sum();
    let mut order: Vec<usize> = (0..logits.len()).collect();
    order.sort_by(|&a, &b| rank(&logits, a, b));
    let mut mass = 0.0;
    let mut kept = 0;
    for &i in &order {
        let next = mass + weights[i] / total;
        if next >= p && kept > 0 {
            break;
        }
        mass = next;
        kept += 1;
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
