//! tp-split: the reference Megatron MLP on 4 simulated ranks (threads) beside the same MLP as
//! one unsharded matmul chain, on the kata's performance shapes (X 64×512, A 512×2048,
//! B 2048×512), in the same run. The ratio is the cost of splitting on this machine: the
//! per-rank work is 1/4, but the ranks share the cores, and the split adds thread start-up,
//! cutting and copying each rank's shard, one all-reduce and the rendezvous.

use criterion::{Criterion, criterion_group, criterion_main};
use katas::problems::tp_split::{Input, Matrix, Solution, Spec, gelu, reference};
use katas::{Group, KataSpec};
use std::hint::black_box;
use std::time::{Duration, Instant};

const RANKS: usize = 4;

fn performance_mlp() -> Input {
    Spec::cases(katas::DEFAULT_SEED)
        .into_iter()
        .filter(|c| c.group == Group::Performance)
        .find_map(|c| match c.input {
            Input::Mlp {
                x, a, b1, b, b2, ..
            } => Some(Input::Mlp {
                ranks: RANKS,
                x,
                a,
                b1,
                b,
                b2,
            }),
            _ => None,
        })
        .expect("the kata has a performance mlp case")
}

fn unsharded(x: &Matrix, a: &Matrix, b1: &[f32], b: &Matrix, b2: &[f32]) -> Matrix {
    let mut h = x.matmul(a);
    h.add_row_vector(b1);
    h.apply(gelu);
    let mut y = h.matmul(b);
    y.add_row_vector(b2);
    y
}

fn bench(c: &mut Criterion) {
    let input = performance_mlp();
    let Input::Mlp {
        x, a, b1, b, b2, ..
    } = &input
    else {
        unreachable!("performance_mlp returns an mlp")
    };
    let solution = Solution {
        column_parallel: reference::column_parallel,
        row_parallel: reference::row_parallel,
        mlp: reference::mlp,
    };
    let tp = || katas::ranks::simulate::<Spec>(solution, &input).expect("the reference runs");
    let full = || unsharded(x, a, b1, b, b2);

    let mut group = c.benchmark_group("tp_split mlp 64x512x2048x512");
    group
        .sample_size(15)
        .measurement_time(Duration::from_secs(4));
    group.bench_function("megatron mlp, 4 ranks on threads", |bench| {
        bench.iter(|| black_box(tp()))
    });
    group.bench_function("unsharded matmul chain, 1 thread (baseline)", |bench| {
        bench.iter(|| black_box(full()))
    });
    group.finish();

    // The ratio, from the same two measured back to back (best of 7 each), under the same load.
    let (t_tp, t_full) = (best(tp), best(full));
    println!(
        "ratio (best of 7): tensor-parallel {:.2} ms / unsharded {:.2} ms = {:.2}",
        t_tp * 1e3,
        t_full * 1e3,
        t_tp / t_full
    );
}

/// Shortest of 7 runs, in seconds.
fn best<T>(f: impl Fn() -> T) -> f64 {
    (0..7)
        .map(|_| {
            let t = Instant::now();
            black_box(f());
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

criterion_group!(benches, bench);
criterion_main!(benches);
