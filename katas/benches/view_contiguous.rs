//! `contiguous` on the kata's large cases, beside the physical floor for moving the same bytes:
//! allocating a buffer and `memcpy`-ing 16 MiB into it (and the memcpy alone).
//!
//! `cargo bench -p katas --bench view_contiguous`; the interesting figure is the ratio of
//! `reference/transposed_2048x2048` to `baseline/alloc_and_memcpy_16MiB`.

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

    // The ratios, measured here in the same run: the three alternate so that all see the same
    // machine load; medians of 21 rounds.
    let mut times = [const { Vec::new() }; 3];
    for _ in 0..21 {
        for (k, t) in times.iter_mut().enumerate() {
            let start = Instant::now();
            match k {
                0 => drop(black_box(black_box(data.as_slice()).to_vec())),
                1 => drop(black_box(reference::contiguous(black_box(&transposed)))),
                _ => drop(black_box(reference::contiguous(black_box(&permuted)))),
            }
            t.push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    let [copy, transposed, permuted] = times.map(|mut t| {
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    });
    println!(
        "median of 21 alternating runs: alloc+memcpy 16 MiB {copy:.2} ms; transposed 2048x2048 \
         {transposed:.2} ms ({:.1}x); permuted 64x256x256 {permuted:.2} ms ({:.1}x)",
        transposed / copy,
        permuted / copy
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
