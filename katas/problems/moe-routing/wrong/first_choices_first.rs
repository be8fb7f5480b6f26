//! expected-verdict: wrong_answer
//! Places every token's first choice before any token's second choice, so a later token's top expert can push out an earlier token's second one.

pub fn route(scores: Vec<i32>, experts: usize, k: usize, capacity: usize) -> Vec<Vec<usize>> {
    let k = k.min(experts);
    // Each token's choices in rank order: best first.
    let ranked: Vec<Vec<usize>> = scores
        .chunks_exact(experts)
        .map(|row| {
            let mut order: Vec<usize> = (0..experts).collect();
            order.sort_by(|&a, &b| row[b].cmp(&row[a]).then(a.cmp(&b)));
            order.truncate(k);
            order
        })
        .collect();
    let mut received: Vec<Vec<usize>> = vec![Vec::new(); experts];
    for rank in 0..k {
        for (token, choices) in ranked.iter().enumerate() {
            let e = choices[rank];
            if received[e].len() < capacity {
                received[e].push(token);
            }
        }
    }
    for list in &mut received {
        list.sort_unstable();
    }
    received
}
