//! expected-verdict: time_limit_exceeded
//! Right order and right times, but found by advancing a clock one time unit at a time and asking every stage at every tick: O(T · p) for a step time T near 10⁸.

use katas::problems::pipeline_1f1b::Op;

pub fn one_f_one_b(stage_times: Vec<(u32, u32)>, micro_batches: u32) -> Vec<Vec<Op>> {
    let p = stage_times.len();
    let m = micro_batches as usize;
    let mut schedule: Vec<Vec<Op>> = (0..p)
        .map(|s| {
            let warm_up = (p - s - 1).min(m);
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

    const NOT_YET: u64 = u64::MAX;
    let mut fwd_end = vec![NOT_YET; p * m];
    let mut bwd_end = vec![NOT_YET; p * m];
    let mut next = vec![0usize; p];
    let mut free_at = vec![0u64; p];
    let mut left = 2 * p * m;
    let mut now = 0u64;
    // Every tick, every stage that is idle starts its next op if the op's input is there.
    while left > 0 {
        for s in 0..p {
            if free_at[s] > now || next[s] == schedule[s].len() {
                continue;
            }
            let op = &mut schedule[s][next[s]];
            let i = op.micro_batch as usize;
            let ready = match (op.forward, s) {
                (true, 0) => 0,
                (true, _) => fwd_end[(s - 1) * m + i],
                (false, _) if s + 1 == p => 0,
                (false, _) => bwd_end[(s + 1) * m + i],
            };
            if ready > now {
                continue;
            }
            op.start = now;
            next[s] += 1;
            left -= 1;
            if op.forward {
                free_at[s] = now + u64::from(stage_times[s].0);
                fwd_end[s * m + i] = free_at[s];
            } else {
                free_at[s] = now + u64::from(stage_times[s].1);
                bwd_end[s * m + i] = free_at[s];
            }
        }
        now += 1;
    }
    schedule
}
