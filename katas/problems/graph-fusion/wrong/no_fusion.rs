//! expected-verdict: wrong_answer
//! Launches one kernel per compute node: always valid, never fused, so it loses on kernel count.

use katas::problems::graph_fusion::{BatchNorm, Graph, Linear, NO_KERNEL};

pub fn fuse(graph: &Graph) -> Vec<usize> {
    // Each compute node is its own kernel, named by its index.
    (0..graph.nodes.len())
        .map(|v| {
            if graph.nodes[v].op.is_input() {
                NO_KERNEL
            } else {
                v
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
