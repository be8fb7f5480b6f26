//! `fuse` (the reference) on a random DAG of a million nodes, beside the cheapest pass any fusion
//! pass must make over the same graph: counting every node's consumers. The ratio of the two is
//! the figure: a near-linear fusion pass should cost a small constant number of such walks.
//! The checker's validation of the reference plan is measured on the same graph too.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use katas::problems::graph_fusion::{Graph, judge_plan, random_dag, reference};
use std::hint::black_box;
use std::time::{Duration, Instant};

const NODES: usize = 1_000_000;

/// The physical baseline: one walk over every node's operand list.
fn consumer_counts(graph: &Graph) -> Vec<u32> {
    let mut count = vec![0u32; graph.nodes.len()];
    for node in &graph.nodes {
        for &u in &node.inputs {
            count[u] += 1;
        }
    }
    count
}

fn bench(c: &mut Criterion) {
    let graph = random_dag(&mut fastrand::Rng::with_seed(0x1A7A_2026), NODES);
    let nodes = graph.nodes.len() as u64;
    let plan = reference::fuse(&graph);
    assert!(judge_plan(&graph, &plan).is_ok());

    let mut group = c.benchmark_group("graph_fusion");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::Elements(nodes));
    group.bench_function("baseline: consumer counts, 1M nodes", |b| {
        b.iter(|| consumer_counts(black_box(&graph)))
    });
    group.bench_function("reference fuse, 1M nodes", |b| {
        b.iter(|| reference::fuse(black_box(&graph)))
    });
    group.bench_function("checker judge_plan, 1M nodes", |b| {
        b.iter(|| judge_plan(black_box(&graph), black_box(&plan)).is_ok())
    });
    group.finish();

    // The ratio, measured here in the same run: the two alternate so that both see the same
    // machine load; medians of 21 rounds.
    let (mut fuse_t, mut pass_t) = (Vec::new(), Vec::new());
    for _ in 0..21 {
        let t = Instant::now();
        drop(black_box(reference::fuse(black_box(&graph))));
        fuse_t.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        drop(black_box(consumer_counts(black_box(&graph))));
        pass_t.push(t.elapsed().as_secs_f64() * 1e3);
    }
    fuse_t.sort_by(f64::total_cmp);
    pass_t.sort_by(f64::total_cmp);
    let (fuse_t, pass_t) = (fuse_t[10], pass_t[10]);
    println!(
        "median of 21 alternating runs: fuse {fuse_t:.2} ms, one linear pass (consumer counts) \
         {pass_t:.2} ms; ratio {:.2}x",
        fuse_t / pass_t
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
