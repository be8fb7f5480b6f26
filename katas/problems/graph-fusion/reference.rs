//! Fusion by "the newest group wins", and batch-norm folding in f64.

use katas::problems::graph_fusion::{BatchNorm, Graph, Linear};

/// Partitions the compute nodes of `graph` into the fewest kernels the rules allow.
pub fn fuse(graph: &Graph) -> Vec<Vec<usize>> {
    const NONE: usize = usize::MAX;
    // Group ids are handed out in node order, so they order the groups by their heads.
    // Invariant: every edge between two groups runs from a smaller id to a larger one. The ids
    // are then a launch order, so no cycle between groups can ever appear.
    let mut gid = vec![NONE; graph.nodes.len()];
    let mut size: Vec<usize> = Vec::new();
    for (v, node) in graph.nodes.iter().enumerate() {
        if node.op.is_input() {
            continue;
        }
        // Inputs carry NONE and drop out here.
        let newest = node
            .inputs
            .iter()
            .map(|&u| gid[u])
            .filter(|&g| g != NONE)
            .max();
        let g = match newest {
            // Joining the largest operand group keeps the invariant: every other operand group
            // has a smaller id. An elementwise node that reads anything computed can always
            // join, which is why the plan reaches the lower bound on launches.
            Some(g) if node.op.is_elementwise() => g,
            // Anchors read their operands from memory; elementwise ops on inputs alone have no
            // producer kernel to join. Both start a kernel, with the largest id so far.
            _ => {
                size.push(0);
                size.len() - 1
            }
        };
        gid[v] = g;
        size[g] += 1;
    }
    // Bucket the labels. Sizing each group up front saves a cascade of reallocations, which
    // would otherwise cost more than the labelling itself.
    let mut groups: Vec<Vec<usize>> = size.iter().map(|&s| Vec::with_capacity(s)).collect();
    for (v, &g) in gid.iter().enumerate() {
        if g != NONE {
            groups[g].push(v);
        }
    }
    groups
}

/// The linear layer that computes `bn(linear(x))` in one matrix-vector product.
pub fn fold_batch_norm(linear: &Linear, bn: &BatchNorm) -> Linear {
    let (out, inp) = (linear.out_features, linear.in_features);
    let mut weight = Vec::with_capacity(out * inp);
    let mut bias = Vec::with_capacity(out);
    for o in 0..out {
        // Per output channel, bn is the affine map z ↦ s·z + (β − s·μ) with s = γ/√(σ² + ε).
        // Working in f64 leaves one rounding per parameter: the final cast.
        let s = f64::from(bn.gamma[o]) / (f64::from(bn.running_var[o]) + f64::from(bn.eps)).sqrt();
        let row = &linear.weight[o * inp..(o + 1) * inp];
        weight.extend(row.iter().map(|&w| (f64::from(w) * s) as f32));
        let shifted = (f64::from(linear.bias[o]) - f64::from(bn.running_mean[o])) * s;
        bias.push((shifted + f64::from(bn.beta[o])) as f32);
    }
    Linear {
        out_features: out,
        in_features: inp,
        weight,
        bias,
    }
}
