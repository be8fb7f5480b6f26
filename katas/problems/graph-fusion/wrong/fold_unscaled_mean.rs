//! expected-verdict: wrong_answer
//! Scales weight and bias but subtracts the running mean after the scale instead of before it.

use katas::problems::graph_fusion::{BatchNorm, Graph, Linear};

pub fn fuse(graph: &Graph) -> Vec<usize> {
    // A kernel started later gets a larger id; joining the largest operand id keeps every
    // cross-kernel edge pointing from a smaller id to a larger one.
    let mut id = vec![usize::MAX; graph.nodes.len()];
    let mut kernels = 0;
    for (v, node) in graph.nodes.iter().enumerate() {
        if node.op.is_input() {
            continue;
        }
        let best = node
            .inputs
            .iter()
            .map(|&u| id[u])
            .filter(|&g| g != usize::MAX)
            .max();
        id[v] = match best {
            Some(g) if node.op.is_elementwise() => g,
            _ => {
                kernels += 1;
                kernels - 1
            }
        };
    }
    id
}

pub fn fold_batch_norm(linear: &Linear, bn: &BatchNorm) -> Linear {
    let n = linear.in_features;
    let mut out = linear.clone();
    for o in 0..linear.out_features {
        let s = bn.gamma[o] / (bn.running_var[o] + bn.eps).sqrt();
        for w in &mut out.weight[o * n..(o + 1) * n] {
            *w *= s;
        }
        out.bias[o] = linear.bias[o] * s - bn.running_mean[o] + bn.beta[o];
    }
    out
}
