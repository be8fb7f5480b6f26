//! expected-verdict: wrong_answer
//! Sorts the scores ascending and takes the first k: each token goes to its k lowest-scoring experts.

pub fn route(scores: Vec<i32>, experts: usize, k: usize, capacity: usize) -> Vec<Vec<usize>> {
    let k = k.min(experts);
    let mut received: Vec<Vec<usize>> = vec![Vec::new(); experts];
    for (token, row) in scores.chunks_exact(experts).enumerate() {
        let mut order: Vec<usize> = (0..experts).collect();
        order.sort_by_key(|&e| (row[e], e));
        for &e in &order[..k] {
            if received[e].len() < capacity {
                received[e].push(token);
            }
        }
    }
    received
}
