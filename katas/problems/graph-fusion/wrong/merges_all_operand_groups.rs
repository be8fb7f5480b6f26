//! expected-verdict: wrong_answer
//! Unions every elementwise op with all of its computed operands, so an add of two matmuls glues both anchors into one kernel.

use katas::problems::graph_fusion::{BatchNorm, Graph, Linear, NO_KERNEL};

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

pub fn fuse(graph: &Graph) -> Vec<usize> {
    let n = graph.nodes.len();
    let mut parent: Vec<usize> = (0..n).collect();
    for (v, node) in graph.nodes.iter().enumerate() {
        if !node.op.is_elementwise() {
            continue;
        }
        for &u in &node.inputs {
            if !graph.nodes[u].op.is_input() {
                let (a, b) = (find(&mut parent, u), find(&mut parent, v));
                parent[a] = b;
            }
        }
    }
    // Each kernel is named by its union-find root.
    (0..n)
        .map(|v| {
            if graph.nodes[v].op.is_input() {
                NO_KERNEL
            } else {
                find(&mut parent, v)
            }
        })
        .collect()
}

pub fn fold_batch_norm(linear: &Linear, bn: &BatchNorm) -> Linear {
    let n = linear.in_features;
    let mut out = linear.clone();
    for o in 0..linear.out_features {
        let s = bn.gamma[o] / (bn.running_var[o] + bn.eps).sqrt();
        for w in &mut out.weight[o * n..(o + 1) * n] {
            *w *= s;
        }
        out.bias[o] = (linear.bias[o] - bn.running_mean[o]) * s + bn.beta[o];
    }
    out
}
