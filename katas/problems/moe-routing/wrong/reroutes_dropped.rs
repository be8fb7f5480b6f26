//! expected-verdict: wrong_answer
//! Sends a choice that finds its expert full on to the token's next-best expert instead of dropping it.

pub fn route(scores: Vec<i32>, experts: usize, k: usize, capacity: usize) -> Vec<Vec<usize>> {
    let k = k.min(experts);
    let mut received: Vec<Vec<usize>> = vec![Vec::new(); experts];
    for (token, row) in scores.chunks_exact(experts).enumerate() {
        let mut order: Vec<usize> = (0..experts).collect();
        order.sort_by(|&a, &b| row[b].cmp(&row[a]).then(a.cmp(&b)));
        // Walk down the ranking until k experts have accepted the token or none is left.
        let mut placed = 0;
        for &e in &order {
            if placed == k {
                break;
            }
            if received[e].len() < capacity {
                received[e].push(token);
                placed += 1;
            }
        }
    }
    received
}
