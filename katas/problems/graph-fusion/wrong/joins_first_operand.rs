//! expected-verdict: wrong_answer
//! Puts each elementwise op in the kernel of its first computed operand, which closes a cycle when the other operand depends on that kernel (a residual add).

use katas::problems::graph_fusion::{BatchNorm, Graph, Linear, NO_KERNEL};

pub fn fuse(graph: &Graph) -> Vec<usize> {
    let mut group_of = vec![None; graph.nodes.len()];
    let mut kernels = 0;
    for (v, node) in graph.nodes.iter().enumerate() {
        if node.op.is_input() {
            continue;
        }
        let first = node.inputs.iter().find_map(|&u| group_of[u]);
        let g = match first {
            Some(g) if node.op.is_elementwise() => g,
            _ => {
                kernels += 1;
                kernels - 1
            }
        };
        group_of[v] = Some(g);
    }
    group_of
        .into_iter()
        .map(|g| g.unwrap_or(NO_KERNEL))
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
