//! Ring all-reduce (the reference, N = 8 rank threads, M = 2^20 floats per rank) beside the
//! physical floor of what it does: copying the same bytes the ring moves, 2(N−1)/N·M floats per
//! rank, N ranks, with plain `copy_from_slice` on one thread.
//!
//! `cargo bench -p katas --bench ring_allreduce`

mod common;

use common::{cpu_seconds, median, minimum};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use katas::problems::ring_allreduce::{reference, simulate};
use std::hint::black_box;
use std::ops::Range;
use std::time::{Duration, Instant};

const N: usize = 8;
const M: usize = 1 << 20;

fn inputs() -> Vec<Vec<f32>> {
    let mut rng = fastrand::Rng::with_seed(7);
    (0..N)
        .map(|_| (0..M).map(|_| rng.i32(-1000..=1000) as f32).collect())
        .collect()
}

fn chunk(c: usize) -> Range<usize> {
    c * M / N..(c + 1) * M / N
}

/// Every rank copies 2(N−1) chunks of M/N floats: the bytes the ring sends, without the ring.
fn copy_same_bytes(src: &[Vec<f32>], dst: &mut [Vec<f32>]) {
    for (r, (s, d)) in src.iter().zip(dst.iter_mut()).enumerate() {
        for step in 0..2 * (N - 1) {
            let c = chunk((r + step) % N);
            d[c.clone()].copy_from_slice(&s[c]);
        }
    }
}

fn ring(vectors: Vec<Vec<f32>>) {
    let out = simulate(vectors, reference::ring_allreduce).expect("the reference completes");
    black_box(out);
}

fn bench(c: &mut Criterion) {
    let vectors = inputs();
    let moved_bytes = (2 * (N - 1) * M * 4) as u64;
    let mut dst = vec![vec![0.0f32; M]; N];

    let mut g = c.benchmark_group("ring_allreduce N=8 M=2^20");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Bytes(moved_bytes));
    g.bench_function("reference ring, 8 rank threads", |b| {
        b.iter_batched(|| vectors.clone(), ring, BatchSize::LargeInput)
    });
    g.bench_function("baseline: copy the same bytes", |b| {
        b.iter(|| {
            copy_same_bytes(black_box(&vectors), &mut dst);
            black_box(&dst);
        })
    });
    g.finish();

    // The ratio, measured here in the same run: the two alternate so that both see the same
    // machine load; medians (and minimums, the least disturbed rounds) of 31 rounds, input
    // cloning excluded. Wall time favours the ring's
    // 8 threads over the copy's one when other processes compete for the cores, so the CPU time
    // the whole process spent (every thread, user + system) is reported beside it.
    let (mut ring_t, mut copy_t, mut ring_cpu, mut copy_cpu) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let v = vectors.clone();
        let (t, c) = (Instant::now(), cpu_seconds());
        ring(v);
        ring_cpu.push(cpu_seconds() - c);
        ring_t.push(t.elapsed().as_secs_f64());
        let (t, c) = (Instant::now(), cpu_seconds());
        copy_same_bytes(black_box(&vectors), &mut dst);
        black_box(&dst);
        copy_cpu.push(cpu_seconds() - c);
        copy_t.push(t.elapsed().as_secs_f64());
    }
    for (what, pick) in [
        ("median", median as fn(&[f64]) -> f64),
        ("minimum", minimum),
    ] {
        let [ring_t, copy_t, ring_cpu, copy_cpu] =
            [&ring_t, &copy_t, &ring_cpu, &copy_cpu].map(|v| pick(v));
        println!(
            "{what} of {ROUNDS} alternating runs: ring all-reduce {:.2} ms, copying the same \
             {:.1} MB {:.2} ms; ratio {:.2}x wall, {:.2}x CPU time ({:.2} ms vs {:.2} ms)",
            ring_t * 1e3,
            moved_bytes as f64 / 1e6,
            copy_t * 1e3,
            ring_t / copy_t,
            ring_cpu / copy_cpu,
            ring_cpu * 1e3,
            copy_cpu * 1e3
        );
    }
}

const ROUNDS: usize = 31;

criterion_group!(benches, bench);
criterion_main!(benches);
