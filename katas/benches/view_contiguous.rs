//! `contiguous` on the kata's large cases, beside the physical floor for moving the same bytes:
//! allocating a buffer and `memcpy`-ing 16 MiB into it (and the memcpy alone, and an ordinary
//! copy loop, whose stores read each destination line before writing it as the tiles' do).
//!
//! `cargo bench -p katas --bench view_contiguous`; the interesting figure is the ratio of
//! `reference/transposed_2048x2048` to `baseline/alloc_and_memcpy_16MiB`, and beside it the same
//! copy split over two threads (`contiguous_on`), which the kata does not allow: what a second
//! core would give.

mod common;

use common::{cpu_seconds, median, minimum};
use criterion::{Criterion, criterion_group, criterion_main};
use katas::problems::view_contiguous::{Layout, Tensor, reference, storage};
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

const N: usize = 2048;

fn tensor(shape: &[usize], strides: &[usize], data: &Arc<Vec<f32>>) -> Tensor {
    Tensor {
        layout: Layout {
            shape: shape.to_vec(),
            strides: strides.to_vec(),
            offset: 0,
        },
        storage: Arc::clone(data),
    }
}

fn bench(c: &mut Criterion) {
    let data = Arc::new(storage(N * N));
    let transposed = tensor(&[N, N], &[1, N], &data);
    let permuted = tensor(&[256, 64, 256], &[1, 256 * 256, 256], &data);
    let already = tensor(&[N, N], &[N, 1], &data);
    let mut dst = vec![0.0f32; N * N];

    let mut g = c.benchmark_group("view_contiguous");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g.bench_function("reference/transposed_2048x2048", |b| {
        b.iter(|| reference::contiguous(black_box(&transposed)))
    });
    g.bench_function("reference/transposed_2048x2048_2_threads", |b| {
        b.iter(|| reference::contiguous_on(black_box(&transposed), 2))
    });
    g.bench_function("reference/permuted_64x256x256_to_2_0_1", |b| {
        b.iter(|| reference::contiguous(black_box(&permuted)))
    });
    g.bench_function("reference/already_contiguous_2048x2048", |b| {
        b.iter(|| reference::contiguous(black_box(&already)))
    });
    g.bench_function("baseline/alloc_and_memcpy_16MiB", |b| {
        b.iter(|| black_box(data.as_slice()).to_vec())
    });
    g.bench_function("baseline/memcpy_16MiB_into_existing", |b| {
        b.iter(|| {
            dst.copy_from_slice(black_box(data.as_slice()));
            black_box(&mut dst);
        })
    });
    g.finish();

    // The ratios, measured here in the same run: the five alternate so that all see the same
    // machine load; medians (and minimums, the least disturbed rounds) of 21 rounds. Wall time
    // swings with other processes on a shared machine, so the CPU time the process spent (every
    // thread, user + system) is reported beside it; with two threads the wall time is the
    // figure the second core can lower, the CPU time counts both.
    let mut wall = [const { Vec::new() }; 5];
    let mut cpu = [const { Vec::new() }; 5];
    for _ in 0..ROUNDS {
        for k in 0..5 {
            let (start, cpu_start) = (Instant::now(), (cpu_seconds() * 1e3));
            match k {
                0 => drop(black_box(black_box(data.as_slice()).to_vec())),
                1 => copy_loop(black_box(data.as_slice()), black_box(&mut dst)),
                2 => drop(black_box(reference::contiguous(black_box(&transposed)))),
                3 => drop(black_box(reference::contiguous(black_box(&permuted)))),
                _ => drop(black_box(reference::contiguous_on(
                    black_box(&transposed),
                    2,
                ))),
            }
            cpu[k].push((cpu_seconds() * 1e3) - cpu_start);
            wall[k].push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    for (what, pick) in [
        ("median", median as fn(&[f64]) -> f64),
        ("minimum", minimum),
    ] {
        for (clock, times) in [("wall", &wall), ("CPU", &cpu)] {
            let [copy, plain, transposed, permuted, two] = times.each_ref().map(|t| pick(t));
            println!(
                "{what} of {ROUNDS} alternating runs, {clock} time: alloc+memcpy 16 MiB \
                 {copy:.2} ms; plain copy loop into an existing buffer {plain:.2} ms \
                 ({:.2}x); transposed 2048x2048 {transposed:.2} ms ({:.2}x), on 2 threads \
                 {two:.2} ms ({:.2}x); permuted 64x256x256 {permuted:.2} ms ({:.2}x)",
                plain / copy,
                transposed / copy,
                two / copy,
                permuted / copy
            );
        }
    }
}

const ROUNDS: usize = 21;

/// An ordinary copy loop: 64 bytes at a time through vector registers (`black_box` keeps the
/// compiler from turning the loop back into one `memcpy`). Its stores read each destination
/// line for ownership before writing it, as the transposed copy's stores do; glibc's `memcpy`
/// of 16 MiB (`rep movsb` on this machine) does not.
#[inline(never)]
fn copy_loop(src: &[f32], dst: &mut [f32]) {
    for (d, s) in dst.chunks_exact_mut(16).zip(src.chunks_exact(16)) {
        d.copy_from_slice(black_box(s));
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
