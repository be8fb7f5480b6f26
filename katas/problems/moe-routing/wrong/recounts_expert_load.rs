//! expected-verdict: time_limit_exceeded
//! Recounts an expert's load by scanning every choice accepted so far: correct, but O((T·k)²) at the largest size.

pub fn route(scores: Vec<i32>, experts: usize, k: usize, capacity: usize) -> Vec<Vec<usize>> {
    let k = k.min(experts);
    // Every accepted (token, expert) pair, in the order they were accepted.
    let mut accepted: Vec<(usize, usize)> = Vec::new();
    for (token, row) in scores.chunks_exact(experts).enumerate() {
        let mut order: Vec<usize> = (0..experts).collect();
        order.sort_by(|&a, &b| row[b].cmp(&row[a]).then(a.cmp(&b)));
        for &e in &order[..k] {
            let load = accepted.iter().filter(|&&(_, x)| x == e).count();
            if load < capacity {
                accepted.push((token, e));
            }
        }
    }
    let mut received: Vec<Vec<usize>> = vec![Vec::new(); experts];
    for (token, e) in accepted {
        received[e].push(token);
    }
    received
}
