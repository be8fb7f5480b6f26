//! expected-verdict: time_limit_exceeded
//! Finds the kept tokens one at a time, each by a linear search for the largest logit not yet taken: right, but O(n · k) for top-k and O(n · m) for a nucleus of m tokens, which on 100 000 logits with k or m in the tens of thousands is billions of comparisons.

/// Top-k by k rounds of "find the largest remaining logit".
pub fn top_k(logits: Vec<f64>, temperature: f64, k: usize) -> Vec<f64> {
    let weights = shifted_exp(&logits, temperature);
    let mut taken = vec![false; logits.len()];
    let mut kept = Vec::new();
    while kept.len() < k.min(logits.len()) {
        let i = next_largest(&logits, &taken);
        taken[i] = true;
        kept.push(i);
    }
    renormalized(&weights, &kept)
}

/// Top-p by repeatedly taking the largest remaining logit until the mass reaches p.
pub fn top_p(logits: Vec<f64>, temperature: f64, p: f64) -> Vec<f64> {
    let weights = shifted_exp(&logits, temperature);
    let total: f64 = weights.iter().sum();
    let mut taken = vec![false; logits.len()];
    let mut kept = Vec::new();
    let mut mass = 0.0;
    while kept.len() < logits.len() {
        let i = next_largest(&logits, &taken);
        taken[i] = true;
        kept.push(i);
        mass += weights[i] / total;
        if mass >= p {
            break;
        }
    }
    renormalized(&weights, &kept)
}

/// The index of the largest logit not yet taken; of equal ones, the lowest index. O(n).
fn next_largest(logits: &[f64], taken: &[bool]) -> usize {
    let mut best = usize::MAX;
    for (i, &x) in logits.iter().enumerate() {
        if !taken[i] && (best == usize::MAX || x > logits[best]) {
            best = i;
        }
    }
    best
}

fn shifted_exp(logits: &[f64], temperature: f64) -> Vec<f64> {
    let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    logits
        .iter()
        .map(|&x| ((x - max) / temperature).exp())
        .collect()
}

fn renormalized(weights: &[f64], kept: &[usize]) -> Vec<f64> {
    let sum: f64 = kept.iter().map(|&i| weights[i]).sum();
    let mut out = vec![0.0; weights.len()];
    for &i in kept {
        out[i] = weights[i] / sum;
    }
    out
}
