//! Cases and checker for `graph-fusion`: `fuse(&Graph)` partitions a tensor DAG into kernels,
//! `fold_batch_norm(&Linear, &BatchNorm)` folds inference-mode batch norm into a linear layer.

use katas::{Case, Check, Group, KataSpec, Message, Refusal};
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a node computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Op {
    /// A graph input or a weight: already in memory, computed by no kernel, in no group.
    Input,
    /// Anchor. `[m, k] × [k, n] -> [m, n]`.
    MatMul,
    /// Anchor. Sums over `axis`, which disappears from the shape.
    ReduceSum { axis: usize },
    /// Elementwise, two operands.
    Add,
    /// Elementwise, two operands.
    Mul,
    /// Elementwise, one operand.
    Relu,
    /// Elementwise, one operand.
    Gelu,
    /// Elementwise, one operand.
    Exp,
}

impl Op {
    pub fn is_input(self) -> bool {
        self == Op::Input
    }

    /// `MatMul` and `ReduceSum`: the ops that need a kernel of their own shape.
    pub fn is_anchor(self) -> bool {
        matches!(self, Op::MatMul | Op::ReduceSum { .. })
    }

    /// `Add`, `Mul`, `Relu`, `Gelu`, `Exp`.
    pub fn is_elementwise(self) -> bool {
        !self.is_input() && !self.is_anchor()
    }

    /// How many operands the op takes.
    pub fn arity(self) -> usize {
        match self {
            Op::Input => 0,
            Op::ReduceSum { .. } | Op::Relu | Op::Gelu | Op::Exp => 1,
            Op::MatMul | Op::Add | Op::Mul => 2,
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Op::ReduceSum { axis } => write!(f, "ReduceSum(axis={axis})"),
            other => write!(f, "{other:?}"),
        }
    }
}

/// One tensor-valued node. `inputs` are ids of earlier nodes (operands, in order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    pub op: Op,
    pub inputs: Vec<usize>,
    /// Output shape; `[]` is a scalar.
    pub shape: Vec<usize>,
}

impl Node {
    /// Size of the node's value in memory: f32 elements, 4 bytes each.
    pub fn bytes(&self) -> u64 {
        4 * self.shape.iter().map(|&d| d as u64).product::<u64>()
    }
}

/// A DAG of tensor ops in topological order: node `i` only reads nodes `< i`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Graph {
    pub nodes: Vec<Node>,
}

impl Graph {
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends an `Input` node of the given shape; returns its id.
    pub fn input(&mut self, shape: &[usize]) -> usize {
        self.nodes.push(Node {
            op: Op::Input,
            inputs: Vec::new(),
            shape: shape.to_vec(),
        });
        self.nodes.len() - 1
    }

    /// Appends a compute node, inferring its shape; panics on an ill-formed op (see the README's
    /// shape rules). Returns its id.
    pub fn push(&mut self, op: Op, inputs: &[usize]) -> usize {
        let shape = self.infer_shape(op, inputs);
        self.nodes.push(Node {
            op,
            inputs: inputs.to_vec(),
            shape,
        });
        self.nodes.len() - 1
    }

    fn infer_shape(&self, op: Op, inputs: &[usize]) -> Vec<usize> {
        assert!(!op.is_input(), "use Graph::input for inputs");
        assert_eq!(
            inputs.len(),
            op.arity(),
            "{op} takes {} operands",
            op.arity()
        );
        let n = self.nodes.len();
        assert!(
            inputs.iter().all(|&u| u < n),
            "operands must be earlier nodes"
        );
        let shape = |u: usize| self.nodes[u].shape.as_slice();
        match op {
            Op::MatMul => {
                let (a, b) = (shape(inputs[0]), shape(inputs[1]));
                assert!(
                    a.len() == 2 && b.len() == 2 && a[1] == b[0],
                    "MatMul {a:?} × {b:?}"
                );
                vec![a[0], b[1]]
            }
            Op::ReduceSum { axis } => {
                let mut s = shape(inputs[0]).to_vec();
                assert!(axis < s.len(), "ReduceSum axis {axis} of {s:?}");
                s.remove(axis);
                s
            }
            _ => {
                let computed: Vec<usize> = inputs
                    .iter()
                    .copied()
                    .filter(|&u| !self.nodes[u].op.is_input())
                    .collect();
                let out = match computed.first() {
                    Some(&u) => shape(u).to_vec(),
                    None => inputs
                        .iter()
                        .map(|&u| shape(u))
                        .max_by_key(|s| s.len())
                        .expect("one operand at least")
                        .to_vec(),
                };
                for &u in inputs {
                    let s = shape(u);
                    if self.nodes[u].op.is_input() {
                        assert!(out.ends_with(s), "{s:?} does not broadcast to {out:?}");
                    } else {
                        assert_eq!(s, out.as_slice(), "computed operands share the shape");
                    }
                }
                out
            }
        }
    }
}

/// A linear layer `y = W·x + b`; `weight` is `out_features × in_features`, row-major.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Linear {
    pub out_features: usize,
    pub in_features: usize,
    pub weight: Vec<f32>,
    pub bias: Vec<f32>,
}

/// Inference-mode batch norm over `out_features` channels:
/// `y = gamma · (z − running_mean) / sqrt(running_var + eps) + beta`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BatchNorm {
    pub gamma: Vec<f32>,
    pub beta: Vec<f32>,
    pub running_mean: Vec<f32>,
    pub running_var: Vec<f32>,
    pub eps: f32,
}

/// The learner's two functions.
#[derive(Debug, Clone, Copy)]
pub struct Solution {
    pub fuse: fn(&Graph) -> Vec<usize>,
    pub fold_batch_norm: fn(&Linear, &BatchNorm) -> Linear,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Input {
    Fuse(Graph),
    Fold { linear: Linear, bn: BatchNorm },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Output {
    /// The plan: the kernel id of every node, [`NO_KERNEL`] for inputs.
    Fuse(Vec<usize>),
    Fold(Linear),
}

// ---------------------------------------------------------------------------------------------
// Fusion checker
// ---------------------------------------------------------------------------------------------

const NONE: usize = usize::MAX;

/// The plan entry of an `Input` node: inputs are already in memory and run in no kernel.
pub const NO_KERNEL: usize = usize::MAX;

/// Figures of a valid plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanCost {
    /// Kernel launches: the number of groups.
    pub launches: usize,
    /// Bytes of compute-node values written to memory: consumed by another group, or a graph
    /// output (no consumer at all).
    pub bytes: u64,
}

/// The fewest kernels any valid plan can have: every anchor heads its own kernel, and so does
/// every elementwise node that reads only graph inputs. Independent of any solution.
pub fn min_launches(graph: &Graph) -> usize {
    graph
        .nodes
        .iter()
        .filter(|n| {
            n.op.is_anchor()
                || (n.op.is_elementwise() && n.inputs.iter().all(|&u| graph.nodes[u].op.is_input()))
        })
        .count()
}

fn fail(en: String, zh: String, expected: impl ToString, got: impl ToString) -> Check {
    Check::fail(Message::new(en, zh), expected, got)
}

fn named(graph: &Graph, v: usize) -> String {
    format!("node {v} ({})", graph.nodes[v].op)
}

/// [`named`] in 中文.
fn named_zh(graph: &Graph, v: usize) -> String {
    format!("节点 {v}（{}）", graph.nodes[v].op)
}

/// Validates `plan` (the kernel id of every node) against the fusion rules of the README;
/// returns its cost or the first broken rule. Linear in the size of the graph.
pub fn judge_plan(graph: &Graph, plan: &[usize]) -> Result<PlanCost, Check> {
    let nodes = &graph.nodes;
    let n = nodes.len();
    let is_compute = |u: usize| !nodes[u].op.is_input();

    // 1. A partition of the compute nodes: one entry per node, inputs in no kernel, every
    // compute node in a kernel whose id is below n. The ids the learner chose are renumbered
    // densely (`gid`, by first appearance) for the checks below; `label` maps them back for
    // the messages.
    if plan.len() != n {
        return Err(fail(
            format!(
                "the plan has {} entries; it needs one kernel id per node",
                plan.len()
            ),
            format!("plan 有 {} 项；每个节点都需要一个 kernel 编号", plan.len()),
            format!("{n} entries"),
            plan.len(),
        ));
    }
    let mut gid = vec![NONE; n];
    let mut dense = vec![NONE; n];
    let mut label: Vec<usize> = Vec::new();
    for (v, &k) in plan.iter().enumerate() {
        if nodes[v].op.is_input() {
            if k != NO_KERNEL {
                return Err(fail(
                    format!(
                        "node {v} is an Input: inputs are already in memory and run in no kernel"
                    ),
                    format!("节点 {v} 是 Input：输入早已在内存中，不属于任何 kernel"),
                    format!("plan[{v}] = NO_KERNEL"),
                    format!("plan[{v}] = {k}"),
                ));
            }
            continue;
        }
        if k == NO_KERNEL {
            return Err(fail(
                format!(
                    "{} is in no kernel; every compute node runs in exactly one kernel",
                    named(graph, v)
                ),
                format!(
                    "{} 不在任何 kernel 中；每个计算节点都恰好属于一个 kernel",
                    named_zh(graph, v)
                ),
                format!("a kernel id below {n} for node {v}"),
                "NO_KERNEL",
            ));
        }
        if k >= n {
            return Err(fail(
                format!(
                    "{} is given kernel id {k}; ids must be below the node count {n}",
                    named(graph, v)
                ),
                format!(
                    "{} 的 kernel 编号是 {k}；编号必须小于节点个数 {n}",
                    named_zh(graph, v)
                ),
                format!("ids below {n}"),
                k,
            ));
        }
        if dense[k] == NONE {
            dense[k] = label.len();
            label.push(k);
        }
        gid[v] = dense[k];
    }
    let groups = label.len();

    // 2. At most one anchor per group.
    let mut anchor = vec![NONE; groups];
    for v in (0..n).filter(|&v| nodes[v].op.is_anchor()) {
        let g = gid[v];
        if anchor[g] != NONE {
            return Err(fail(
                format!(
                    "kernel {} holds two anchors; a kernel has at most one MatMul or ReduceSum",
                    label[g]
                ),
                format!(
                    "kernel {} 含有两个锚点；一个 kernel 至多有一个 MatMul 或 ReduceSum",
                    label[g]
                ),
                "at most one anchor per group",
                format!("{} and {}", named(graph, anchor[g]), named(graph, v)),
            ));
        }
        anchor[g] = v;
    }

    // 3. One head per group; an anchor can only be a head.
    let mut head = vec![NONE; groups];
    for v in (0..n).filter(|&v| is_compute(v)) {
        let g = gid[v];
        match nodes[v].inputs.iter().copied().find(|&u| gid[u] == g) {
            Some(u) if nodes[v].op.is_anchor() => {
                return Err(fail(
                    format!(
                        "{} reads node {u} inside its own kernel {}; an anchor reads its operands from memory, so it can only be the head of its kernel",
                        named(graph, v),
                        label[g]
                    ),
                    format!(
                        "{} 在它自己的 kernel {} 内读取节点 {u}；锚点从内存读取操作数，只能是所在 kernel 的头节点",
                        named_zh(graph, v),
                        label[g]
                    ),
                    format!("node {u} in another kernel than node {v}"),
                    format!("both in kernel {}", label[g]),
                ));
            }
            Some(_) => {}
            None if head[g] != NONE => {
                return Err(fail(
                    format!(
                        "kernel {} has two heads: neither node reads a value computed in the kernel; a kernel grows from exactly one head",
                        label[g]
                    ),
                    format!(
                        "kernel {} 有两个头节点：两者都不读取本 kernel 内算出的值；一个 kernel 只能从一个头节点长出来",
                        label[g]
                    ),
                    "one head per group",
                    format!("{} and {}", named(graph, head[g]), named(graph, v)),
                ));
            }
            None => head[g] = v,
        }
    }

    // 4. The groups can be launched one after another: the group graph has no cycle.
    let mut edges: Vec<(usize, usize)> = Vec::new();
    let mut written = vec![false; n];
    let mut consumed = vec![false; n];
    for v in (0..n).filter(|&v| is_compute(v)) {
        for &u in &nodes[v].inputs {
            consumed[u] = true;
            if is_compute(u) && gid[u] != gid[v] {
                edges.push((u, v));
                written[u] = true;
            }
        }
    }
    let mut start = vec![0usize; groups + 1];
    let mut indegree = vec![0usize; groups];
    for &(u, v) in &edges {
        start[gid[u] + 1] += 1;
        indegree[gid[v]] += 1;
    }
    for g in 0..groups {
        start[g + 1] += start[g];
    }
    let mut fill = start.clone();
    let mut succ = vec![0usize; edges.len()];
    for &(u, v) in &edges {
        succ[fill[gid[u]]] = gid[v];
        fill[gid[u]] += 1;
    }
    let mut ready: Vec<usize> = (0..groups).filter(|&g| indegree[g] == 0).collect();
    let mut launched = 0;
    while let Some(g) = ready.pop() {
        launched += 1;
        for &h in &succ[start[g]..start[g + 1]] {
            indegree[h] -= 1;
            if indegree[h] == 0 {
                ready.push(h);
            }
        }
    }
    if launched < groups {
        return Err(fail(
            "the kernels cannot be launched in any order: their dependencies form a cycle (`u→v` is an edge from node u to node v that crosses groups)".to_string(),
            "这些 kernel 无论按什么顺序都无法启动：它们的依赖成环（`u→v` 是一条跨组的、从节点 u 到节点 v 的边）".to_string(),
            "no cycle between groups",
            describe_cycle(&gid, &label, &edges, &indegree),
        ));
    }

    // 5. Cost.
    let bytes = (0..n)
        .filter(|&v| is_compute(v) && (written[v] || !consumed[v]))
        .map(|v| nodes[v].bytes())
        .sum();
    Ok(PlanCost {
        launches: groups,
        bytes,
    })
}

/// Walks back from a group Kahn's algorithm could not launch until a group repeats.
fn describe_cycle(
    gid: &[usize],
    label: &[usize],
    edges: &[(usize, usize)],
    indegree: &[usize],
) -> String {
    let stuck = |g: usize| indegree[g] > 0;
    let mut pred: Vec<Option<(usize, usize)>> = vec![None; indegree.len()];
    for &(u, v) in edges {
        if stuck(gid[u]) && stuck(gid[v]) && pred[gid[v]].is_none() {
            pred[gid[v]] = Some((u, v));
        }
    }
    let Some(mut g) = (0..indegree.len()).find(|&g| stuck(g)) else {
        return "a cycle".to_string();
    };
    let mut seen = vec![false; indegree.len()];
    while !seen[g] {
        seen[g] = true;
        g = gid[pred[g].expect("a stuck group has a stuck predecessor").0];
    }
    // `g` is on the cycle: collect it backwards, then print it forwards.
    let mut hops = Vec::new();
    let first = g;
    loop {
        let (u, v) = pred[g].expect("on the cycle");
        hops.push((gid[u], u, v));
        g = gid[u];
        if g == first {
            break;
        }
    }
    hops.reverse();
    let mut text = format!("kernel {}", label[hops[0].0]);
    for (i, &(_, u, v)) in hops.iter().enumerate() {
        let next = hops.get(i + 1).map_or(hops[0].0, |h| h.0);
        text.push_str(&format!(" --{u}→{v}--> kernel {}", label[next]));
    }
    text
}

// ---------------------------------------------------------------------------------------------
// Batch-norm folding checker
// ---------------------------------------------------------------------------------------------

/// Relative tolerance of a folded output, against the scale of the terms that make it up.
pub const FOLD_TOLERANCE: f64 = 1e-5;

/// Probe vectors the checker feeds both layers: the zero vector, then random ones in [-1, 1].
fn probes(linear: &Linear) -> Vec<Vec<f64>> {
    let mut rng = fastrand::Rng::with_seed(
        0xB47C_F01D ^ ((linear.out_features as u64) << 20) ^ linear.in_features as u64,
    );
    let mut out = vec![vec![0.0; linear.in_features]];
    for _ in 0..8 {
        out.push(
            (0..linear.in_features)
                .map(|_| rng.f64() * 2.0 - 1.0)
                .collect(),
        );
    }
    out
}

fn check_fold(linear: &Linear, bn: &BatchNorm, got: &Linear) -> Check {
    let (out, inp) = (linear.out_features, linear.in_features);
    if got.out_features != out || got.in_features != inp {
        return Check::fail(
            Message::new(
                "the folded layer has another size than the original",
                "折叠后的层与原层的尺寸不同",
            ),
            format!("{out}×{inp}"),
            format!("{}×{}", got.out_features, got.in_features),
        );
    }
    if got.weight.len() != out * inp || got.bias.len() != out {
        return Check::fail(
            Message::new(
                "weight must hold out×in values and bias out values",
                "weight 必须有 out×in 个值，bias 必须有 out 个值",
            ),
            format!("{} weights, {out} biases", out * inp),
            format!("{} weights, {} biases", got.weight.len(), got.bias.len()),
        );
    }
    let eps = f64::from(bn.eps);
    let mut worst = 0.0f64;
    for (p, x) in probes(linear).iter().enumerate() {
        for o in 0..out {
            let row = &linear.weight[o * inp..(o + 1) * inp];
            let folded = &got.weight[o * inp..(o + 1) * inp];
            let z: f64 = row
                .iter()
                .zip(x)
                .map(|(&w, &xi)| f64::from(w) * xi)
                .sum::<f64>()
                + f64::from(linear.bias[o]);
            let s = f64::from(bn.gamma[o]) / (f64::from(bn.running_var[o]) + eps).sqrt();
            let want = s * (z - f64::from(bn.running_mean[o])) + f64::from(bn.beta[o]);
            let have: f64 = folded
                .iter()
                .zip(x)
                .map(|(&w, &xi)| f64::from(w) * xi)
                .sum::<f64>()
                + f64::from(got.bias[o]);
            let terms: f64 = row
                .iter()
                .zip(x)
                .map(|(&w, &xi)| (f64::from(w) * xi).abs())
                .sum();
            let scale = s.abs()
                * (terms + f64::from(linear.bias[o]).abs() + f64::from(bn.running_mean[o]).abs())
                + f64::from(bn.beta[o]).abs();
            let tolerance = FOLD_TOLERANCE * scale + 1e-9;
            let error = (have - want).abs();
            if error.is_nan() || error > tolerance {
                let which = if p == 0 {
                    ("the zero input".to_string(), "零向量输入".to_string())
                } else {
                    (format!("random input #{p}"), format!("第 {p} 个随机输入"))
                };
                return Check::fail(
                    Message::new(
                        format!(
                            "output channel {o} on {} differs from linear-then-batch-norm by {} (tolerance {})",
                            which.0,
                            katas::rounded(error, 3),
                            katas::rounded(tolerance, 3)
                        ),
                        format!(
                            "在{}上，输出通道 {o} 与先 linear 再 batch-norm 的结果相差 {}（容差 {}）",
                            which.1,
                            katas::rounded(error, 3),
                            katas::rounded(tolerance, 3)
                        ),
                    ),
                    katas::rounded(want, 8),
                    katas::rounded(have, 8),
                );
            }
            worst = worst.max(error / tolerance);
        }
    }
    let percent = format!("{:.1}", worst * 100.0);
    Check::pass_with(vec![Message::new(
        format!("largest error: {percent}% of the tolerance"),
        format!("最大误差：容差的 {percent}%"),
    )])
}

// ---------------------------------------------------------------------------------------------
// Case generation
// ---------------------------------------------------------------------------------------------

/// Picks an element of `pool`, mostly a recent one, now and then one far back.
fn pick(rng: &mut fastrand::Rng, pool: &[usize]) -> usize {
    let len = pool.len();
    if rng.u32(0..20) == 0 {
        return pool[rng.usize(0..len)];
    }
    // Log-uniform distance from the end.
    let back = ((rng.f64() * (len as f64).ln()).exp() as usize).clamp(1, len);
    pool[len - back]
}

/// A random DAG of about `target` nodes: `d × d` activations, their `[d]` row or column sums
/// and scalar sums, matmuls against weights and against other activations, elementwise ops
/// with broadcast bias and scale inputs. Operands are mostly recent, sometimes far back, so
/// diamonds of every span appear.
pub fn random_dag(rng: &mut fastrand::Rng, target: usize) -> Graph {
    let d = [8, 16, 32][rng.usize(0..3)];
    let mut g = Graph::new();
    // Compute nodes by rank: [scalars, vectors, matrices].
    let mut pools: [Vec<usize>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let shape_of = |rank: usize| -> Vec<usize> { vec![d; rank] };
    while g.nodes.len() < target {
        let r = rng.f64();
        let id = if pools[2].is_empty() || r < 0.04 {
            let x = g.input(&[d, d]);
            let op = [Op::Relu, Op::Exp, Op::Gelu][rng.usize(0..3)];
            g.push(op, &[x])
        } else if r < 0.16 {
            let a = pick(rng, &pools[2]);
            let b = if rng.u32(0..4) == 0 {
                pick(rng, &pools[2])
            } else {
                g.input(&[d, d])
            };
            g.push(Op::MatMul, &[a, b])
        } else if r < 0.21 {
            if pools[1].is_empty() || rng.u32(0..3) > 0 {
                let a = pick(rng, &pools[2]);
                g.push(
                    Op::ReduceSum {
                        axis: rng.usize(0..2),
                    },
                    &[a],
                )
            } else {
                let a = pick(rng, &pools[1]);
                g.push(Op::ReduceSum { axis: 0 }, &[a])
            }
        } else {
            let rank = match rng.u32(0..10) {
                0 if !pools[0].is_empty() => 0,
                1 | 2 if !pools[1].is_empty() => 1,
                _ => 2,
            };
            let a = pick(rng, &pools[rank]);
            if r < 0.55 {
                let op = [Op::Relu, Op::Exp, Op::Gelu][rng.usize(0..3)];
                g.push(op, &[a])
            } else {
                let b = match rng.u32(0..10) {
                    0..=6 => pick(rng, &pools[rank]),
                    7 => g.input(&shape_of(rank)),
                    8 => g.input(&shape_of(rank.min(1))),
                    _ => g.input(&[]),
                };
                let op = if rng.bool() { Op::Add } else { Op::Mul };
                if rng.bool() {
                    g.push(op, &[a, b])
                } else {
                    g.push(op, &[b, a])
                }
            }
        };
        pools[g.nodes[id].shape.len()].push(id);
    }
    g
}

/// A stack of transformer-like blocks: attention-ish matmuls with an exp and a row-sum side
/// output, then an MLP, each wrapped in a residual add on a long-lived stream.
pub fn residual_stack(rng: &mut fastrand::Rng, blocks: usize) -> Graph {
    let d = 16;
    let mut g = Graph::new();
    let x0 = g.input(&[d, d]);
    let pos = g.input(&[d]);
    let mut x = g.push(Op::Add, &[x0, pos]);
    for _ in 0..blocks {
        let scale = g.input(&[d]);
        let h = g.push(Op::Mul, &[x, scale]);
        let (wq, wk, wv) = (g.input(&[d, d]), g.input(&[d, d]), g.input(&[d, d]));
        let q = g.push(Op::MatMul, &[h, wq]);
        let k = g.push(Op::MatMul, &[h, wk]);
        let v = g.push(Op::MatMul, &[h, wv]);
        let s = g.push(Op::MatMul, &[q, k]);
        let p = g.push(Op::Exp, &[s]);
        if rng.bool() {
            let z = g.push(Op::ReduceSum { axis: 1 }, &[p]);
            let t = g.input(&[]);
            g.push(Op::Mul, &[z, t]);
        }
        let o = g.push(Op::MatMul, &[p, v]);
        x = g.push(Op::Add, &[x, o]);
        let (w1, b1, w2) = (g.input(&[d, d]), g.input(&[d]), g.input(&[d, d]));
        let u = g.push(Op::MatMul, &[x, w1]);
        let ub = g.push(Op::Add, &[u, b1]);
        let mut a = g.push(Op::Gelu, &[ub]);
        if rng.u32(0..3) == 0 {
            // A gate read from the stream: the mul's newest operand group is the MLP's.
            let gate = g.push(Op::Relu, &[x]);
            a = g.push(Op::Mul, &[gate, a]);
        }
        let dn = g.push(Op::MatMul, &[a, w2]);
        x = if rng.bool() {
            g.push(Op::Add, &[x, dn])
        } else {
            g.push(Op::Add, &[dn, x])
        };
    }
    g
}

fn random_fold(rng: &mut fastrand::Rng, out: usize, inp: usize, eps: f32) -> Input {
    let mut uniform = |lo: f32, hi: f32, count: usize| -> Vec<f32> {
        (0..count).map(|_| lo + (hi - lo) * rng.f32()).collect()
    };
    let weight = uniform(-1.0, 1.0, out * inp);
    let bias = uniform(-1.0, 1.0, out);
    let gamma = uniform(-2.0, 2.0, out);
    let beta = uniform(-1.0, 1.0, out);
    let running_mean = uniform(-1.0, 1.0, out);
    let mut running_var = uniform(0.0, 4.0, out);
    for (i, v) in running_var.iter_mut().enumerate() {
        match i % 7 {
            0 => *v *= 1e-3,
            3 => *v = 0.0,
            _ => {}
        }
    }
    Input::Fold {
        linear: Linear {
            out_features: out,
            in_features: inp,
            weight,
            bias,
        },
        bn: BatchNorm {
            gamma,
            beta,
            running_mean,
            running_var,
            eps,
        },
    }
}

/// The README's worked examples.
pub mod samples {
    use super::{BatchNorm, Graph, Linear, Op};

    /// `x·W + b`, then GELU: one kernel.
    pub fn mlp_block() -> Graph {
        let mut g = Graph::new();
        let x = g.input(&[4, 8]);
        let w = g.input(&[8, 16]);
        let b = g.input(&[16]);
        let m = g.push(Op::MatMul, &[x, w]);
        let a = g.push(Op::Add, &[m, b]);
        g.push(Op::Gelu, &[a]);
        g
    }

    /// `gelu(x·W1) * (x·W2)`, then `·W3`: two matmuls meet in one mul.
    pub fn gated_mlp() -> Graph {
        let mut g = Graph::new();
        let x = g.input(&[4, 8]);
        let w1 = g.input(&[8, 16]);
        let w2 = g.input(&[8, 16]);
        let w3 = g.input(&[16, 8]);
        let a = g.push(Op::MatMul, &[x, w1]);
        let b = g.push(Op::MatMul, &[x, w2]);
        let ga = g.push(Op::Gelu, &[a]);
        let h = g.push(Op::Mul, &[ga, b]);
        g.push(Op::MatMul, &[h, w3]);
        g
    }

    /// `y = h + (gelu(h·W1))·W2` with `h = x + pos`: the residual add reads the stream twice.
    pub fn residual_block() -> Graph {
        let mut g = Graph::new();
        let x = g.input(&[4, 16]);
        let pos = g.input(&[16]);
        let w1 = g.input(&[16, 16]);
        let w2 = g.input(&[16, 16]);
        let h = g.push(Op::Add, &[x, pos]);
        let m1 = g.push(Op::MatMul, &[h, w1]);
        let a = g.push(Op::Gelu, &[m1]);
        let m2 = g.push(Op::MatMul, &[a, w2]);
        g.push(Op::Add, &[h, m2]);
        g
    }

    /// A 2×3 layer and its batch norm.
    pub fn tiny_fold() -> (Linear, BatchNorm) {
        (
            Linear {
                out_features: 2,
                in_features: 3,
                weight: vec![1.0, 2.0, -1.0, 0.5, -1.0, 3.0],
                bias: vec![0.5, -1.0],
            },
            BatchNorm {
                gamma: vec![3.0, 0.5],
                beta: vec![0.1, -0.2],
                running_mean: vec![1.0, 0.0],
                running_var: vec![3.99, 0.24],
                eps: 0.01,
            },
        )
    }
}

/// The edge cases' graphs, each with its name in English and in 中文.
fn edge_graphs() -> Vec<(&'static str, &'static str, Graph)> {
    let mut cases = Vec::new();
    cases.push(("empty graph", "空图", Graph::new()));
    let mut g = Graph::new();
    g.input(&[4]);
    g.input(&[4, 4]);
    g.input(&[]);
    cases.push((
        "inputs only, nothing to compute",
        "只有输入，没有要计算的节点",
        g,
    ));

    let mut g = Graph::new();
    let x = g.input(&[8]);
    g.push(Op::Relu, &[x]);
    cases.push(("a single relu", "单个 relu", g));

    let mut g = Graph::new();
    let x = g.input(&[4, 4]);
    let w = g.input(&[4, 4]);
    let a = g.push(Op::Relu, &[x]);
    let m = g.push(Op::MatMul, &[a, w]);
    g.push(Op::Add, &[a, m]);
    cases.push((
        "diamond: relu feeds a matmul and the add after it",
        "菱形：relu 同时输入 matmul 和其后的 add",
        g,
    ));

    let mut g = Graph::new();
    let x = g.input(&[4, 4]);
    let w = g.input(&[4, 4]);
    let a = g.push(Op::Relu, &[x]);
    let m = g.push(Op::MatMul, &[a, w]);
    let c = g.push(Op::Exp, &[a]);
    g.push(Op::Add, &[m, c]);
    cases.push((
        "diamond: the newest operand sits in the wrong group",
        "菱形：最新的操作数位于错误的分组",
        g,
    ));

    let mut g = Graph::new();
    let x = g.input(&[4, 8]);
    let w1 = g.input(&[8, 8]);
    let w2 = g.input(&[8, 8]);
    let m1 = g.push(Op::MatMul, &[x, w1]);
    let m2 = g.push(Op::MatMul, &[x, w2]);
    g.push(Op::Add, &[m1, m2]);
    cases.push((
        "two matmuls meet in one add",
        "两个 matmul 汇入同一个 add",
        g,
    ));

    let mut g = Graph::new();
    let x = g.input(&[8, 8]);
    let w = g.input(&[8, 8]);
    let m = g.push(Op::MatMul, &[x, w]);
    let mut acc = None;
    for i in 0..64 {
        let op = [Op::Relu, Op::Exp, Op::Gelu][i % 3];
        let c = g.push(op, &[m]);
        if i % 4 == 0 {
            acc = Some(match acc {
                None => c,
                Some(a) => g.push(Op::Add, &[a, c]),
            });
        }
    }
    cases.push((
        "one matmul with 64 consumers",
        "一个 matmul 有 64 个使用者",
        g,
    ));

    let mut g = Graph::new();
    let x = g.input(&[16, 32]);
    let r = g.push(Op::ReduceSum { axis: 1 }, &[x]);
    let inv = g.input(&[]);
    let mean = g.push(Op::Mul, &[r, inv]);
    let e = g.push(Op::Exp, &[mean]);
    let total = g.push(Op::ReduceSum { axis: 0 }, &[e]);
    g.push(Op::Relu, &[total]);
    cases.push((
        "reductions with elementwise epilogues",
        "带逐元素尾部运算的归约",
        g,
    ));

    let mut g = Graph::new();
    let x = g.input(&[4, 4]);
    let w = g.input(&[4, 4]);
    let a = g.push(Op::Gelu, &[x]);
    g.push(Op::MatMul, &[a, w]);
    cases.push((
        "elementwise op before a matmul (no prologue fusion)",
        "matmul 之前的逐元素运算（不做前置融合）",
        g,
    ));

    let mut g = Graph::new();
    let mut h = g.input(&[8, 8]);
    for _ in 0..4 {
        let w = g.input(&[8, 8]);
        h = g.push(Op::MatMul, &[h, w]);
    }
    cases.push(("chain of four matmuls", "四个 matmul 串成的链", g));

    let mut g = Graph::new();
    for _ in 0..3 {
        let x = g.input(&[4, 4]);
        let w = g.input(&[4, 4]);
        let m = g.push(Op::MatMul, &[x, w]);
        let e = g.push(Op::Exp, &[m]);
        g.push(Op::Relu, &[e]);
    }
    let x = g.input(&[3]);
    g.push(Op::Gelu, &[x]);
    cases.push(("four disconnected components", "四个互不相连的部分", g));

    let mut g = Graph::new();
    let x = g.input(&[4, 4]);
    let w = g.input(&[4, 4]);
    let m = g.push(Op::MatMul, &[x, w]);
    let sq = g.push(Op::Mul, &[m, m]);
    g.push(Op::Add, &[sq, sq]);
    cases.push((
        "operands that read the same value twice",
        "同一个值被读取两次的操作数",
        g,
    ));

    let mut g = Graph::new();
    let x = g.input(&[4]);
    let y = g.input(&[4]);
    let a = g.push(Op::Relu, &[x]);
    let b = g.push(Op::Exp, &[y]);
    g.push(Op::Add, &[a, b]);
    cases.push((
        "two elementwise sources meet (two heads)",
        "两个逐元素源头汇合（两个起点）",
        g,
    ));

    let mut g = Graph::new();
    let x = g.input(&[4, 4]);
    let mut h = g.push(Op::Exp, &[x]);
    let c = g.input(&[4]);
    for i in 0..10_000 {
        h = match i % 3 {
            0 => g.push(Op::Relu, &[h]),
            1 => g.push(Op::Add, &[h, c]),
            _ => g.push(Op::Gelu, &[h]),
        };
    }
    cases.push((
        "chain of 10 000 elementwise ops",
        "10 000 个逐元素运算串成的链",
        g,
    ));

    let mut g = Graph::new();
    let x = g.input(&[4, 4]);
    let w = g.input(&[4, 4]);
    let s = g.push(Op::Relu, &[x]);
    let mut stream = s;
    for _ in 0..30 {
        let m = g.push(Op::MatMul, &[stream, w]);
        stream = g.push(Op::Add, &[s, m]);
    }
    cases.push((
        "thirty matmuls all re-reading one early value",
        "三十个 matmul 都重复读取同一个早期的值",
        g,
    ));
    cases
}

#[derive(Debug)]
pub struct Spec;

impl KataSpec for Spec {
    type Solution = Solution;
    type Input = Input;
    type Output = Output;
    // A plan's inputs are shown as the statement writes them, not as 18446744073709551615.
    const SHOWN_NAMES: &'static [(u64, &'static str)] = &[(NO_KERNEL as u64, "NO_KERNEL")];

    /// Custom input: a well-formed graph (operands are earlier nodes, arities, the shape rules
    /// of the statement, each node's `shape` the one its op gives) of at most 2 000 nodes, ranks
    /// up to 4 and sizes up to 4 096; or a fold of at most 256 × 4 096 (65 536 weights) with
    /// matching lengths, finite values of magnitude at most 10^6, `running_var ≥ 0`, `eps > 0`.
    fn admit(input: &Input) -> Result<(), Refusal> {
        match input {
            Input::Fuse(graph) => admit_graph(graph),
            Input::Fold { linear, bn } => admit_fold(linear, bn),
        }
    }

    fn cases(seed: u64) -> Vec<Case<Input>> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let (linear, bn) = samples::tiny_fold();
        let mut cases = vec![
            Case::new(
                "MLP block: matmul → add bias → gelu",
                Group::Sample,
                Input::Fuse(samples::mlp_block()),
            )
            .zh("MLP 块：matmul → 加偏置 → gelu"),
            Case::new(
                "gated MLP: two matmuls meet in a mul",
                Group::Sample,
                Input::Fuse(samples::gated_mlp()),
            )
            .zh("门控 MLP：两个 matmul 汇入一个 mul"),
            Case::new(
                "residual block",
                Group::Sample,
                Input::Fuse(samples::residual_block()),
            )
            .zh("残差块"),
            Case::new(
                "fold: a 2×3 layer",
                Group::Sample,
                Input::Fold { linear, bn },
            )
            .zh("fold：2×3 的层"),
        ];
        for (name, name_zh, graph) in edge_graphs() {
            cases.push(Case::new(name, Group::Edge, Input::Fuse(graph)).zh(name_zh));
        }
        let mut fold = |(name, name_zh): (&str, &str), group: Group, input: Input| {
            cases.push(
                Case::new(format!("fold: {name}"), group, input).zh(format!("fold：{name_zh}")),
            )
        };
        let mut zero_var = random_fold(&mut rng, 4, 5, 1e-5);
        if let Input::Fold { bn, .. } = &mut zero_var {
            bn.running_var = vec![0.0; 4];
        }
        fold(
            (
                "zero variance, eps keeps it finite",
                "方差为 0，eps 保证结果有限",
            ),
            Group::Edge,
            zero_var,
        );
        let mut gammas = random_fold(&mut rng, 6, 3, 1e-3);
        if let Input::Fold { bn, .. } = &mut gammas {
            bn.gamma = vec![-1.5, 0.0, 2.0, -0.0, -0.25, 1.0];
        }
        fold(
            ("negative and zero gamma", "gamma 为负数和 0"),
            Group::Edge,
            gammas,
        );
        fold(
            ("a 1×1 layer", "1×1 的层"),
            Group::Edge,
            random_fold(&mut rng, 1, 1, 1e-5),
        );
        fold(
            ("eps = 1", "eps = 1"),
            Group::Edge,
            random_fold(&mut rng, 5, 4, 1.0),
        );
        fold(
            ("no output channels", "没有输出通道"),
            Group::Edge,
            random_fold(&mut rng, 0, 7, 1e-5),
        );
        fold(
            ("a wide 8×4096 layer", "很宽的 8×4096 层"),
            Group::Edge,
            random_fold(&mut rng, 8, 4096, 1e-5),
        );
        for (i, (out, inp)) in [(16, 16), (64, 32), (7, 300), (256, 256)]
            .into_iter()
            .enumerate()
        {
            let eps = [1e-5, 1e-3, 1e-2, 0.1][i];
            fold(
                (
                    &format!("random {out}×{inp} layer, eps {eps}"),
                    &format!("随机的 {out}×{inp} 层，eps {eps}"),
                ),
                Group::Random,
                random_fold(&mut rng, out, inp, eps),
            );
        }

        for target in [200, 500, 1_000, 2_000, 5_000, 5_000] {
            let graph = random_dag(&mut rng, target);
            let n = graph.nodes.len();
            cases.push(
                Case::new(
                    format!("random DAG, {n} nodes"),
                    Group::Random,
                    Input::Fuse(graph),
                )
                .zh(format!("随机 DAG，{n} 个节点")),
            );
        }
        for blocks in [20, 150] {
            let graph = residual_stack(&mut rng, blocks);
            let n = graph.nodes.len();
            cases.push(
                Case::new(
                    format!("{blocks} residual blocks, {n} nodes"),
                    Group::Random,
                    Input::Fuse(graph),
                )
                .zh(format!("{blocks} 个残差块，{n} 个节点")),
            );
        }

        // The first performance case is where an O(n²) plan builder runs out of time (about 20 s
        // of work for a quadratic whole-graph check per join); keep it first.
        let mut performance = |graph: Graph, (name, name_zh): (&str, &str)| {
            let n = graph.nodes.len();
            cases.push(
                Case::new(
                    format!("{name}, {n} nodes"),
                    Group::Performance,
                    Input::Fuse(graph),
                )
                .zh(format!("{name_zh}，{n} 个节点")),
            );
        };
        performance(random_dag(&mut rng, 75_000), ("random DAG", "随机 DAG"));
        performance(
            residual_stack(&mut rng, 5_000),
            ("5000 residual blocks", "5000 个残差块"),
        );
        performance(random_dag(&mut rng, 200_000), ("random DAG", "随机 DAG"));
        cases
    }

    fn solve(solution: Solution, input: &Input) -> Output {
        match input {
            Input::Fuse(graph) => Output::Fuse((solution.fuse)(graph)),
            Input::Fold { linear, bn } => Output::Fold((solution.fold_batch_norm)(linear, bn)),
        }
    }

    fn check(input: &Input, expected: &Output, got: &Output) -> Check {
        match (input, got) {
            (Input::Fuse(graph), Output::Fuse(plan)) => {
                let cost = match judge_plan(graph, plan) {
                    Ok(cost) => cost,
                    Err(check) => return check,
                };
                let minimum = min_launches(graph);
                if cost.launches > minimum {
                    let (example, example_zh) = unfused_example(graph, plan);
                    return Check::fail(
                        Message::new(
                            format!(
                                "the plan is valid but launches more kernels than needed{example}"
                            ),
                            format!("plan 合法，但启动的 kernel 比需要的多{example_zh}"),
                        ),
                        kernels(minimum),
                        kernels(cost.launches),
                    );
                }
                let launches = cost.launches;
                let mut notes = vec![Message::new(
                    format!("kernels: {launches} (the minimum)"),
                    format!("kernel 数：{launches}（最少）"),
                )];
                let written = cost.bytes;
                let mut bytes = Message::new(
                    format!("bytes written: {written}"),
                    format!("写出的字节数：{written}"),
                );
                if let Output::Fuse(reference) = expected
                    && let Ok(r) = judge_plan(graph, reference)
                {
                    bytes = bytes.then(
                        &format!(" (reference plan: {})", r.bytes),
                        &format!("（参考方案：{}）", r.bytes),
                    );
                }
                notes.push(bytes);
                Check::pass_with(notes)
            }
            (Input::Fold { linear, bn }, Output::Fold(got)) => check_fold(linear, bn, got),
            _ => Check::fail(
                Message::new("result of the wrong kind", "结果的种类不对"),
                "the kind of the input",
                "the other kind",
            ),
        }
    }

    fn describe(input: &Input) -> Message {
        match input {
            Input::Fuse(graph) => {
                let nodes = &graph.nodes;
                let count = |f: fn(Op) -> bool| nodes.iter().filter(|n| f(n.op)).count();
                let (n, inputs, anchors, elementwise) = (
                    nodes.len(),
                    count(Op::is_input),
                    count(Op::is_anchor),
                    count(Op::is_elementwise),
                );
                let mut listed = String::new();
                for (i, node) in nodes.iter().enumerate().take(12) {
                    let operands: Vec<String> = node.inputs.iter().map(usize::to_string).collect();
                    let operands = if node.op.is_input() {
                        String::new()
                    } else {
                        format!("({})", operands.join(","))
                    };
                    listed.push_str(&format!(" {i} {}{operands} {:?};", node.op, node.shape));
                }
                Message::new(
                    format!(
                        "{n} nodes ({inputs} input, {anchors} anchor, {elementwise} elementwise):{listed}"
                    ),
                    format!(
                        "{n} 个节点（{inputs} 个输入，{anchors} 个锚点，{elementwise} 个逐元素）：{listed}"
                    ),
                )
            }
            Input::Fold { linear, bn } => {
                let (out, inp, eps) = (linear.out_features, linear.in_features, bn.eps);
                let var = &bn.running_var[..bn.running_var.len().min(4)];
                Message::new(
                    format!("{out}×{inp} layer, eps {eps:e}, running_var {var:?}"),
                    format!("{out}×{inp} 的层，eps {eps:e}，running_var {var:?}"),
                )
            }
        }
    }
}

fn kernels(count: usize) -> String {
    if count == 1 {
        "1 kernel".to_string()
    } else {
        format!("{count} kernels")
    }
}

/// ", e.g. node 7 (Relu) heads group 3 but reads node 5, computed by another kernel".
/// An elementwise op heading its own kernel though it could join a producer's, in English and
/// 中文; empty when there is none to name.
fn unfused_example(graph: &Graph, plan: &[usize]) -> (String, String) {
    let gid = plan;
    for (v, node) in graph.nodes.iter().enumerate() {
        if !node.op.is_elementwise() {
            continue;
        }
        let inner = node.inputs.iter().any(|&u| gid[u] == gid[v]);
        if let Some(&u) = node.inputs.iter().find(|&&u| !graph.nodes[u].op.is_input())
            && !inner
        {
            return (
                format!(
                    ": e.g. {} heads kernel {} although it reads node {u}, which a kernel computes; an elementwise op that reads a computed value can always join some producer's kernel",
                    named(graph, v),
                    gid[v]
                ),
                format!(
                    "：例如 {} 是 kernel {} 的头节点，可它读取的节点 {u} 是由某个 kernel 算出的；读取计算结果的逐元素算子总能并入某个生产者的 kernel",
                    named_zh(graph, v),
                    gid[v]
                ),
            );
        }
    }
    (String::new(), String::new())
}

/// Custom input: the statement's shape rules, checked without panicking.
fn admit_graph(graph: &Graph) -> Result<(), Refusal> {
    katas::spec::within(
        ("the number of nodes", "节点个数"),
        graph.nodes.len(),
        1,
        2_000,
    )?;
    let refuse = |i: usize, en: String, zh: String| {
        Err(Refusal::new(
            format!("node {i}: {en}"),
            format!("节点 {i}：{zh}"),
        ))
    };
    for (i, node) in graph.nodes.iter().enumerate() {
        if node.shape.len() > 4 || node.shape.iter().any(|&d| d > 4096) {
            return refuse(
                i,
                format!(
                    "shape {:?}: at most 4 dimensions of size at most 4096",
                    node.shape
                ),
                format!("形状 {:?}：最多 4 维，每维不超过 4096", node.shape),
            );
        }
        if node.op.is_input() {
            if !node.inputs.is_empty() {
                return refuse(
                    i,
                    "an Input has no operands".into(),
                    "Input 没有操作数".into(),
                );
            }
            continue;
        }
        if node.inputs.len() != node.op.arity() || node.inputs.iter().any(|&u| u >= i) {
            return refuse(
                i,
                format!(
                    "{} takes {} operands, all earlier nodes",
                    node.op,
                    node.op.arity()
                ),
                format!(
                    "{} 需要 {} 个操作数，且都是更早的节点",
                    node.op,
                    node.op.arity()
                ),
            );
        }
        let shape = |u: usize| graph.nodes[u].shape.as_slice();
        let want: Option<Vec<usize>> = match node.op {
            Op::MatMul => {
                let (a, b) = (shape(node.inputs[0]), shape(node.inputs[1]));
                (a.len() == 2 && b.len() == 2 && a[1] == b[0]).then(|| vec![a[0], b[1]])
            }
            Op::ReduceSum { axis } => {
                let s = shape(node.inputs[0]);
                (axis < s.len()).then(|| {
                    let mut s = s.to_vec();
                    s.remove(axis);
                    s
                })
            }
            _ => {
                let computed = node.inputs.iter().find(|&&u| !graph.nodes[u].op.is_input());
                let out = match computed {
                    Some(&u) => shape(u).to_vec(),
                    None => node
                        .inputs
                        .iter()
                        .map(|&u| shape(u))
                        .max_by_key(|s| s.len())
                        .unwrap_or_default()
                        .to_vec(),
                };
                node.inputs
                    .iter()
                    .all(|&u| {
                        let s = shape(u);
                        if graph.nodes[u].op.is_input() {
                            out.ends_with(s)
                        } else {
                            s == out.as_slice()
                        }
                    })
                    .then_some(out)
            }
        };
        match want {
            Some(w) if w == node.shape => {}
            Some(w) => {
                return refuse(
                    i,
                    format!("{} gives shape {w:?}, not {:?}", node.op, node.shape),
                    format!("{} 的形状应为 {w:?}，而不是 {:?}", node.op, node.shape),
                );
            }
            None => {
                return refuse(
                    i,
                    format!("the operands' shapes do not fit {}", node.op),
                    format!("操作数的形状不符合 {} 的规则", node.op),
                );
            }
        }
    }
    Ok(())
}

/// Custom input: a fold whose lengths match and whose values the checker can compare.
fn admit_fold(linear: &Linear, bn: &BatchNorm) -> Result<(), Refusal> {
    let (out, inp) = (linear.out_features, linear.in_features);
    katas::spec::at_most(("out_features", "out_features"), out, 256)?;
    katas::spec::at_most(("in_features", "in_features"), inp, 4096)?;
    katas::spec::at_most(("the number of weights", "权重个数"), out * inp, 1 << 16)?;
    let lengths = [
        ("weight", linear.weight.len(), out * inp),
        ("bias", linear.bias.len(), out),
        ("gamma", bn.gamma.len(), out),
        ("beta", bn.beta.len(), out),
        ("running_mean", bn.running_mean.len(), out),
        ("running_var", bn.running_var.len(), out),
    ];
    for (name, got, want) in lengths {
        if got != want {
            return Err(Refusal::new(
                format!("{name} has {got} values; the layer's sizes need {want}"),
                format!("{name} 有 {got} 个值；按层的尺寸应为 {want} 个"),
            ));
        }
    }
    let all = [
        ("weight", &linear.weight),
        ("bias", &linear.bias),
        ("gamma", &bn.gamma),
        ("beta", &bn.beta),
        ("running_mean", &bn.running_mean),
        ("running_var", &bn.running_var),
    ];
    for (name, v) in all {
        if let Some(x) = v.iter().find(|x| !x.is_finite() || x.abs() > 1e6) {
            return Err(Refusal::new(
                format!("{name} holds {x}: values must be finite, at most 10^6 in magnitude"),
                format!("{name} 含有 {x}：取值须为有限数，绝对值不超过 10^6"),
            ));
        }
    }
    if let Some(v) = bn.running_var.iter().find(|v| **v < 0.0) {
        return Err(Refusal::new(
            format!("running_var holds {v}; a variance is at least 0"),
            format!("running_var 含有 {v}；方差不能小于 0"),
        ));
    }
    if !(bn.eps > 0.0 && bn.eps <= 1.0) {
        return Err(Refusal::new(
            format!("eps is {}; it must be in (0, 1]", bn.eps),
            format!("eps 为 {}；必须在 (0, 1] 内", bn.eps),
        ));
    }
    Ok(())
}
