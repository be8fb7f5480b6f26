//! expected-verdict: time_limit_exceeded
//! Tries each operand's kernel and rebuilds the whole kernel graph to look for a cycle after every tentative join: correct, but O(n) per node.

use katas::problems::graph_fusion::{BatchNorm, Graph, Linear};

const NONE: usize = usize::MAX;

pub fn fuse(graph: &Graph) -> Vec<usize> {
    // Every edge between two compute nodes, in node order: edges into nodes `0..=v` are a prefix.
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for (v, node) in graph.nodes.iter().enumerate() {
        for &u in &node.inputs {
            if !graph.nodes[u].op.is_input() {
                edges.push((u, v));
            }
        }
    }
    let mut group_of = vec![NONE; graph.nodes.len()];
    let mut kernels = 0;
    let mut scratch = Scratch::default();
    let mut prefix = 0;
    for (v, node) in graph.nodes.iter().enumerate() {
        if node.op.is_input() {
            continue;
        }
        while prefix < edges.len() && edges[prefix].1 <= v {
            prefix += 1;
        }
        let mut placed = false;
        if node.op.is_elementwise() {
            let mut tried = Vec::new();
            for &u in &node.inputs {
                let g = group_of[u];
                if g == NONE || tried.contains(&g) {
                    continue;
                }
                tried.push(g);
                group_of[v] = g;
                if scratch.acyclic(&edges[..prefix], &group_of, kernels) {
                    placed = true;
                    break;
                }
            }
        }
        if !placed {
            group_of[v] = kernels;
            kernels += 1;
        }
    }
    group_of
}

/// Buffers reused by every check, so that only the scan itself costs time.
#[derive(Default)]
struct Scratch {
    start: Vec<usize>,
    next: Vec<usize>,
    indegree: Vec<usize>,
    ready: Vec<usize>,
}

impl Scratch {
    /// Kahn's algorithm on the kernel graph that `edges` induce.
    fn acyclic(&mut self, edges: &[(usize, usize)], group_of: &[usize], kernels: usize) -> bool {
        self.start.clear();
        self.start.resize(kernels + 1, 0);
        self.indegree.clear();
        self.indegree.resize(kernels, 0);
        for &(u, v) in edges {
            let (a, b) = (group_of[u], group_of[v]);
            if a != b {
                self.start[a + 1] += 1;
                self.indegree[b] += 1;
            }
        }
        for g in 0..kernels {
            self.start[g + 1] += self.start[g];
        }
        self.next.clear();
        self.next.resize(self.start[kernels], 0);
        let mut fill = self.start.clone();
        for &(u, v) in edges {
            let (a, b) = (group_of[u], group_of[v]);
            if a != b {
                self.next[fill[a]] = b;
                fill[a] += 1;
            }
        }
        self.ready.clear();
        self.ready
            .extend((0..kernels).filter(|&g| self.indegree[g] == 0));
        let mut seen = 0;
        while let Some(g) = self.ready.pop() {
            seen += 1;
            for i in self.start[g]..self.start[g + 1] {
                let h = self.next[i];
                self.indegree[h] -= 1;
                if self.indegree[h] == 0 {
                    self.ready.push(h);
                }
            }
        }
        seen == kernels
    }
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
