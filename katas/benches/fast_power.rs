//! `power` (the reference) against `f64::powi` on the same 2 000 large-exponent queries, and
//! `pow_mod` on its performance case. Ratios, not absolute times, are the figures that matter.

use criterion::{Criterion, criterion_group, criterion_main};
use katas::KataSpec as _;
use katas::problems::fast_power::{Input, Spec, reference};
use std::hint::black_box;

type PowerQueries = Vec<(f64, i32)>;
type PowModQueries = Vec<(u64, u64, u64)>;

fn performance_inputs() -> (PowerQueries, PowModQueries) {
    let (mut power, mut pow_mod) = (Vec::new(), Vec::new());
    for case in Spec::cases(katas::DEFAULT_SEED) {
        if case.group != katas::Group::Performance {
            continue;
        }
        match case.input {
            Input::Power(qs) if power.is_empty() => power = qs,
            Input::PowMod(qs) if pow_mod.is_empty() => pow_mod = qs,
            _ => {}
        }
    }
    (power, pow_mod)
}

fn bench(c: &mut Criterion) {
    let (power, pow_mod) = performance_inputs();
    let mut g = c.benchmark_group("fast-power: 2000 queries, |n| near 2^31");
    g.bench_function("reference power", |b| {
        b.iter(|| {
            power
                .iter()
                .map(|&(x, n)| reference::power(black_box(x), black_box(n)))
                .sum::<f64>()
        })
    });
    g.bench_function("baseline f64::powi", |b| {
        b.iter(|| {
            power
                .iter()
                .map(|&(x, n)| black_box(x).powi(black_box(n)))
                .sum::<f64>()
        })
    });
    g.finish();
    let mut g = c.benchmark_group("fast-power: 2000 pow_mod queries, exponents near 2^64");
    g.bench_function("reference pow_mod", |b| {
        b.iter(|| {
            pow_mod
                .iter()
                .map(|&(x, e, m)| reference::pow_mod(black_box(x), black_box(e), black_box(m)))
                .fold(0u64, u64::wrapping_add)
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
