//! expected-verdict: wrong_answer
//! Unions every elementwise op with all of its computed operands, so an add of two matmuls glues both anchors into one kernel.

use katas::problems::graph_fusion::{BatchNorm, Graph, Linear};

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

pub fn fuse(graph: &Graph) -> Vec<Vec<usize>> {
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
    let mut slot = vec![usize::MAX; n];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for v in 0..n {
        if graph.nodes[v].op.is_input() {
            continue;
        }
        let root = find(&mut parent, v);
        if slot[root] == usize::MAX {
            slot[root] = groups.len();
            groups.push(Vec::new());
        }
        groups[slot[root]].push(v);
    }
    groups
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
