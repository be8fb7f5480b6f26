//! expected-verdict: runtime_error
//! Records each value's last consumer (to free buffers early) with an unwrap, which panics on a graph output: it has no consumer.

use katas::problems::graph_fusion::{BatchNorm, Graph, Linear};

pub fn fuse(graph: &Graph) -> Vec<usize> {
    let n = graph.nodes.len();
    let mut consumers: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (v, node) in graph.nodes.iter().enumerate() {
        for &u in &node.inputs {
            consumers[u].push(v);
        }
    }
    let mut group_of = vec![usize::MAX; n];
    let mut last_use = vec![0; n];
    let mut kernels = 0;
    for (v, node) in graph.nodes.iter().enumerate() {
        if node.op.is_input() {
            continue;
        }
        last_use[v] = *consumers[v].iter().max().unwrap();
        let newest = node
            .inputs
            .iter()
            .map(|&u| group_of[u])
            .filter(|&g| g != usize::MAX)
            .max();
        let g = match newest {
            Some(g) if node.op.is_elementwise() => g,
            _ => {
                kernels += 1;
                kernels - 1
            }
        };
        group_of[v] = g;
    }
    debug_assert!(last_use.len() == n);
    group_of
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
