//! expected-verdict: runtime_error
//! Assumes k never exceeds the number of experts and selects the k-th best by index, which panics when k > experts.

pub fn route(scores: Vec<i32>, experts: usize, k: usize, capacity: usize) -> Vec<Vec<usize>> {
    let mut received: Vec<Vec<usize>> = vec![Vec::new(); experts];
    let mut order: Vec<usize> = (0..experts).collect();
    for (token, row) in scores.chunks_exact(experts).enumerate() {
        // Puts the k-th best at index k - 1 and the better ones before it.
        order.select_nth_unstable_by(k - 1, |&a, &b| row[b].cmp(&row[a]).then(a.cmp(&b)));
        for &e in &order[..k] {
            if received[e].len() < capacity {
                received[e].push(token);
            }
        }
    }
    received
}
