//! expected-verdict: wrong_answer
//! Breaks a tie between equal scores toward the higher expert index instead of the lower one.

pub fn route(scores: Vec<i32>, experts: usize, k: usize, capacity: usize) -> Vec<Vec<usize>> {
    let k = k.min(experts);
    let mut received: Vec<Vec<usize>> = vec![Vec::new(); experts];
    for (token, row) in scores.chunks_exact(experts).enumerate() {
        let mut order: Vec<usize> = (0..experts).collect();
        // Sorting by score alone, highest first, then reversing the index order among equals.
        order.sort_by(|&a, &b| row[b].cmp(&row[a]).then(b.cmp(&a)));
        for &e in &order[..k] {
            if received[e].len() < capacity {
                received[e].push(token);
            }
        }
    }
    received
}
