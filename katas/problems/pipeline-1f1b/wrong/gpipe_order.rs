//! expected-verdict: wrong_answer
//! Runs every forward before any backward on every stage (the GPipe order), not one forward and one backward at a time.

use katas::problems::pipeline_1f1b::Op;

pub fn one_f_one_b(stage_times: Vec<(u32, u32)>, micro_batches: u32) -> Vec<Vec<Op>> {
    let p = stage_times.len();
    let m = micro_batches as usize;

    // 1. The order: it depends on p, m and s only, never on the times.
    let mut schedule: Vec<Vec<Op>> = (0..p)
        .map(|_| {
            let warm_up = m; // every forward first, then every backward
            let op = |forward: bool, i: usize| Op {
                forward,
                micro_batch: i as u32,
                start: 0,
            };
            let mut ops = Vec::with_capacity(2 * m);
            ops.extend((0..warm_up).map(|i| op(true, i)));
            for k in 0..m - warm_up {
                ops.push(op(true, warm_up + k));
                ops.push(op(false, k));
            }
            ops.extend((m - warm_up..m).map(|i| op(false, i)));
            ops
        })
        .collect();

    // 2. The times. `fwd_end[s * m + i]` is when stage s finished the forward of micro-batch i
    // (NOT_YET until then); `bwd_end` the same for backwards.
    const NOT_YET: u64 = u64::MAX;
    let mut fwd_end = vec![NOT_YET; p * m];
    let mut bwd_end = vec![NOT_YET; p * m];
    let mut next = vec![0usize; p]; // the index of each stage's next op to time
    let mut free_at = vec![0u64; p]; // when each stage finishes its latest timed op
    let mut todo: Vec<usize> = (0..p).collect();
    while let Some(s) = todo.pop() {
        let (f, b) = (u64::from(stage_times[s].0), u64::from(stage_times[s].1));
        while let Some(op) = schedule[s].get(next[s]) {
            let (forward, i) = (op.forward, op.micro_batch as usize);
            // When the op's input arrives. On the last stage a backward needs only its own
            // forward, which its order already put earlier.
            let ready = match (forward, s) {
                (true, 0) => 0,
                (true, _) => fwd_end[(s - 1) * m + i],
                (false, _) if s + 1 == p => 0,
                (false, _) => bwd_end[(s + 1) * m + i],
            };
            if ready == NOT_YET {
                break; // a neighbour will put this stage back on the worklist
            }
            let start = free_at[s].max(ready);
            schedule[s][next[s]].start = start;
            next[s] += 1;
            if forward {
                free_at[s] = start + f;
                fwd_end[s * m + i] = free_at[s];
                if s + 1 < p {
                    todo.push(s + 1); // its forward of i may be waiting for this one
                }
            } else {
                free_at[s] = start + b;
                bwd_end[s * m + i] = free_at[s];
                if s > 0 {
                    todo.push(s - 1); // its backward of i may be waiting for this one
                }
            }
        }
    }
    schedule
}
