//! top-k-top-p: implement `top_k` and `top_p`. `cargo test -p katas top-k-top-p` checks them.

/// Probabilities after temperature and top-k: softmax(logits / temperature) restricted to the k
/// highest logits (ties: the lower index is kept first), renormalized to sum to 1; 0 elsewhere.
/// Subtract the largest logit before taking exp.
pub fn top_k(logits: Vec<f64>, temperature: f64, k: usize) -> Vec<f64> {
    todo!(
        "keep the {k} most likely of {} tokens at temperature {temperature}",
        logits.len()
    )
}

/// Probabilities after temperature and top-p (nucleus): tokens sorted by probability, highest
/// first (ties: lower index first); keep the shortest prefix whose probability mass reaches p (at
/// least one token), renormalized; 0 elsewhere.
pub fn top_p(logits: Vec<f64>, temperature: f64, p: f64) -> Vec<f64> {
    todo!(
        "keep the nucleus of mass {p} of {} tokens at temperature {temperature}",
        logits.len()
    )
}
