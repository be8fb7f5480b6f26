//! Fusion by "the newest group wins", and batch-norm folding in f64.

use katas::problems::graph_fusion::{BatchNorm, Graph, Linear, NO_KERNEL};

/// Partitions the compute nodes of `graph` into the fewest kernels the rules allow: the kernel
/// id of every node, [`NO_KERNEL`] for inputs.
pub fn fuse(graph: &Graph) -> Vec<usize> {
    // A kernel is named by its head, the node that opened it. Heads open in node order, so the
    // ids order the kernels by when they were opened.
    // Invariant: every edge between two kernels runs from a smaller id to a larger one. The ids
    // are then a launch order, so no cycle between kernels can ever appear.
    // The labels are the answer itself: one pass, one allocation, no lists of members.
    let mut kernel = vec![NO_KERNEL; graph.nodes.len()];
    for (v, node) in graph.nodes.iter().enumerate() {
        if node.op.is_input() {
            continue;
        }
        // Inputs carry NO_KERNEL and drop out here.
        let newest = node
            .inputs
            .iter()
            .map(|&u| kernel[u])
            .filter(|&k| k != NO_KERNEL)
            .max();
        kernel[v] = match newest {
            // Joining the newest operand kernel keeps the invariant: every other operand
            // kernel has a smaller id. An elementwise node that reads anything computed can
            // always join, which is why the plan reaches the lower bound on launches.
            Some(k) if node.op.is_elementwise() => k,
            // Anchors read their operands from memory; elementwise ops on inputs alone have no
            // producer kernel to join. Both open a kernel, named v: larger than any id so far.
            _ => v,
        };
    }
    kernel
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
