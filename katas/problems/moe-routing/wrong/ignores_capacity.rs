//! expected-verdict: wrong_answer
//! Picks each token's top-k experts correctly but never checks capacity: no choice is ever dropped.

pub fn route(scores: Vec<i32>, experts: usize, k: usize, capacity: usize) -> Vec<Vec<usize>> {
    let _ = capacity;
    let k = k.min(experts);
    let mut received = vec![Vec::new(); experts];
    for (token, row) in scores.chunks_exact(experts).enumerate() {
        let mut order: Vec<usize> = (0..experts).collect();
        order.sort_by(|&a, &b| row[b].cmp(&row[a]).then(a.cmp(&b)));
        for &e in &order[..k] {
            received[e].push(token);
        }
    }
    received
}
