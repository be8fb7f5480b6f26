//! expected-verdict: wrong_answer
//! Lets each expert keep the `capacity` tokens that scored it highest, not the first ones in token order.

pub fn route(scores: Vec<i32>, experts: usize, k: usize, capacity: usize) -> Vec<Vec<usize>> {
    let k = k.min(experts);
    // Every token's choices, gathered per expert with the score that made them.
    let mut wanted: Vec<Vec<(i32, usize)>> = vec![Vec::new(); experts];
    for (token, row) in scores.chunks_exact(experts).enumerate() {
        let mut order: Vec<usize> = (0..experts).collect();
        order.sort_by(|&a, &b| row[b].cmp(&row[a]).then(a.cmp(&b)));
        for &e in &order[..k] {
            wanted[e].push((row[e], token));
        }
    }
    wanted
        .into_iter()
        .map(|mut list| {
            // Highest score first, earlier token first among equals; keep the best `capacity`.
            list.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            let mut kept: Vec<usize> = list.into_iter().take(capacity).map(|(_, t)| t).collect();
            kept.sort_unstable();
            kept
        })
        .collect()
}
