//! Cases and checker for `view-contiguous`: strided layouts over a shared storage, and the five
//! operations `is_contiguous`, `view`, `transpose`, `permute` and `contiguous`.
//!
//! A case is a starting tensor plus a sequence of operations. `solve` applies the learner's
//! functions step by step and records every result; the checker replays the sequence with its
//! own brute-force oracle, which knows nothing of chunks or merge rules: it compares the storage
//! address of every element in row-major order.

use katas::{Case, Check, Group, KataSpec, Message, Refusal};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// Where the elements of a tensor live in its storage: element `[i0, i1, …]` is
/// `storage[offset + i0·strides[0] + i1·strides[1] + …]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Layout {
    pub shape: Vec<usize>,
    pub strides: Vec<usize>,
    pub offset: usize,
}

impl Layout {
    /// Number of elements: the product of the sizes (1 for a 0-d scalar, 0 if any size is 0).
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "shape {:?} strides {:?} offset {}",
            self.shape, self.strides, self.offset
        )
    }
}

/// A layout over a reference-counted storage. Views share the storage; `Arc::clone` is the
/// "no copy" of this kata.
#[derive(Debug, Clone)]
pub struct Tensor {
    pub layout: Layout,
    pub storage: Arc<Vec<f32>>,
}

/// Why `view` refused a shape. Checked in this order: the first that applies is the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ViewError {
    /// The requested shape has more than one `-1`.
    MoreThanOneInferred,
    /// One `-1`, but no single size fits: the other sizes multiply to 0, or their product does
    /// not divide the number of elements.
    CannotInfer,
    /// No `-1`, and the requested sizes multiply to `to` elements instead of `from`.
    SizeMismatch { from: usize, to: usize },
    /// The sizes fit, but no strides over the same storage give the new shape.
    IncompatibleStrides,
}

impl fmt::Display for ViewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MoreThanOneInferred => write!(f, "Err(MoreThanOneInferred)"),
            Self::CannotInfer => write!(f, "Err(CannotInfer)"),
            Self::SizeMismatch { from, to } => {
                write!(f, "Err(SizeMismatch {{ from: {from}, to: {to} }})")
            }
            Self::IncompatibleStrides => write!(f, "Err(IncompatibleStrides)"),
        }
    }
}

/// The learner's five functions.
#[derive(Debug, Clone, Copy)]
pub struct Solution {
    pub is_contiguous: fn(&Layout) -> bool,
    pub view: fn(&Layout, &[isize]) -> Result<Layout, ViewError>,
    pub transpose: fn(&Layout, usize, usize) -> Layout,
    pub permute: fn(&Layout, &[usize]) -> Layout,
    pub contiguous: fn(&Tensor) -> Tensor,
}

/// One operation of a case, applied to the tensor the previous step left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    View(Vec<isize>),
    Transpose(usize, usize),
    Permute(Vec<usize>),
    Contiguous,
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::View(shape) => write!(f, "view({shape:?})"),
            Self::Transpose(a, b) => write!(f, "transpose({a}, {b})"),
            Self::Permute(dims) => write!(f, "permute({dims:?})"),
            Self::Contiguous => write!(f, "contiguous()"),
        }
    }
}

/// A starting tensor over `storage_len` floats (`storage[i] = i as f32`, see [`storage`]) and
/// the operations to apply to it in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Input {
    pub storage_len: usize,
    pub layout: Layout,
    pub ops: Vec<Op>,
}

/// What one step returned, as `solve` recorded it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum StepResult {
    /// `transpose` or `permute`.
    Layout(Layout),
    /// `view`; on an error the tensor is left as it was.
    View(Result<Layout, ViewError>),
    /// `contiguous`. `shared_storage` is measured by `solve` (`Arc::ptr_eq`); `storage` is the
    /// returned buffer when it is a new one.
    Contiguous {
        layout: Layout,
        shared_storage: bool,
        storage: Option<Vec<f32>>,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub result: StepResult,
    /// `is_contiguous` of the tensor after this step.
    pub is_contiguous: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Output {
    /// `is_contiguous` of the starting tensor.
    pub initial_is_contiguous: bool,
    pub steps: Vec<Step>,
}

/// The storage every case starts from: element `i` holds the value `i`, exact in `f32` for the
/// sizes used here (at most 2^24), so a wrong element tells which position it was read from.
pub fn storage(len: usize) -> Vec<f32> {
    (0..len).map(|i| i as f32).collect()
}

// ---------------------------------------------------------------------------------------------
// The oracle: plain definitions, no cleverness.
// ---------------------------------------------------------------------------------------------

fn row_major(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![0; shape.len()];
    let mut step = 1usize;
    for k in (0..shape.len()).rev() {
        strides[k] = step;
        step = step.saturating_mul(shape[k].max(1));
    }
    strides
}

/// Contiguous = walking the elements in row-major order visits consecutive storage positions.
/// A dimension of size 1 is never stepped along, so its stride cannot matter; a tensor without
/// elements visits nothing, so it is contiguous.
fn oracle_is_contiguous(l: &Layout) -> bool {
    if l.numel() == 0 {
        return true;
    }
    let mut want = 1usize;
    for k in (0..l.shape.len()).rev() {
        if l.shape[k] != 1 {
            if l.strides[k] != want {
                return false;
            }
            want = want.saturating_mul(l.shape[k]);
        }
    }
    true
}

/// Why a layout returned by the learner cannot even be walked, if it cannot.
fn malformed(l: &Layout) -> Option<Message> {
    if l.strides.len() != l.shape.len() {
        return Some(Message::new(
            format!(
                "the layout has {} sizes but {} strides",
                l.shape.len(),
                l.strides.len()
            ),
            format!(
                "布局有 {} 个尺寸，却有 {} 个步长",
                l.shape.len(),
                l.strides.len()
            ),
        ));
    }
    let mut numel = 1usize;
    let mut last = l.offset;
    for (&n, &s) in l.shape.iter().zip(&l.strides) {
        numel = match numel.checked_mul(n) {
            Some(v) => v,
            None => {
                return Some(Message::new(
                    "the layout's element count overflows usize",
                    "布局的元素个数超出了 usize 的范围",
                ));
            }
        };
        let reach = (n.max(1) - 1).checked_mul(s);
        last = match reach.and_then(|r| last.checked_add(r)) {
            Some(v) => v,
            None => {
                return Some(Message::new(
                    "the layout's addresses overflow usize",
                    "布局的地址超出了 usize 的范围",
                ));
            }
        };
    }
    None
}

/// Whether `l` is well formed and every one of its elements lies inside `len` floats.
fn fits(l: &Layout, len: usize) -> bool {
    if malformed(l).is_some() {
        return false;
    }
    if l.numel() == 0 {
        return true;
    }
    let last = l
        .shape
        .iter()
        .zip(&l.strides)
        .fold(l.offset, |a, (&n, &s)| a + (n - 1) * s);
    last < len
}

/// Storage positions of a layout's elements in row-major order. The layout must be well formed.
struct Addresses<'a> {
    layout: &'a Layout,
    index: Vec<usize>,
    next: Option<usize>,
}

fn addresses(layout: &Layout) -> Addresses<'_> {
    Addresses {
        layout,
        index: vec![0; layout.shape.len()],
        next: (layout.numel() > 0).then_some(layout.offset),
    }
}

impl Iterator for Addresses<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let current = self.next?;
        let (shape, strides) = (&self.layout.shape, &self.layout.strides);
        let mut addr = current;
        self.next = None;
        for k in (0..shape.len()).rev() {
            self.index[k] += 1;
            addr = addr.wrapping_add(strides[k]);
            if self.index[k] < shape[k] {
                self.next = Some(addr);
                break;
            }
            addr = addr.wrapping_sub(strides[k].wrapping_mul(shape[k]));
            self.index[k] = 0;
        }
        Some(current)
    }
}

/// The multi-index of the `i`-th element in row-major order.
fn unravel(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut index = vec![0; shape.len()];
    for k in (0..shape.len()).rev() {
        if shape[k] > 0 {
            index[k] = i % shape[k];
            i /= shape[k];
        }
    }
    index
}

fn address_of(l: &Layout, index: &[usize]) -> usize {
    index
        .iter()
        .zip(&l.strides)
        .fold(l.offset, |a, (&i, &s)| a.wrapping_add(i.wrapping_mul(s)))
}

/// The documented `view` semantics, decided by brute force: resolve the sizes, then look for
/// strides that put every element, in row-major order, at the same storage position as before.
/// A dimension of size `n > 1` must step by the distance between element 0 and the element one
/// step along it; if those candidate strides reproduce every address, the view exists, and if
/// they do not, no strides can.
fn oracle_view(l: &Layout, request: &[isize]) -> Result<Layout, ViewError> {
    let numel = l.numel();
    let inferred = request.iter().filter(|&&s| s == -1).count();
    if inferred > 1 {
        return Err(ViewError::MoreThanOneInferred);
    }
    let known: usize = request
        .iter()
        .filter(|&&s| s != -1)
        .map(|&s| s as usize)
        .product();
    let shape: Vec<usize> = if inferred == 1 {
        if known == 0 || !numel.is_multiple_of(known) {
            return Err(ViewError::CannotInfer);
        }
        request
            .iter()
            .map(|&s| if s == -1 { numel / known } else { s as usize })
            .collect()
    } else {
        if known != numel {
            return Err(ViewError::SizeMismatch {
                from: numel,
                to: known,
            });
        }
        request.iter().map(|&s| s as usize).collect()
    };
    let mut strides = vec![0; shape.len()];
    if numel > 0 {
        let mut step = 1usize;
        for k in (0..shape.len()).rev() {
            if shape[k] > 1 {
                let there = address_of(l, &unravel(step, &l.shape));
                strides[k] = there.wrapping_sub(l.offset);
            }
            step *= shape[k];
        }
    }
    let candidate = Layout {
        shape,
        strides,
        offset: l.offset,
    };
    if addresses(&candidate).eq(addresses(l)) {
        Ok(candidate)
    } else {
        Err(ViewError::IncompatibleStrides)
    }
}

fn oracle_permute(l: &Layout, dims: &[usize]) -> Layout {
    Layout {
        shape: dims.iter().map(|&d| l.shape[d]).collect(),
        strides: dims.iter().map(|&d| l.strides[d]).collect(),
        offset: l.offset,
    }
}

fn oracle_transpose(l: &Layout, a: usize, b: usize) -> Layout {
    let mut dims: Vec<usize> = (0..l.shape.len()).collect();
    dims.swap(a, b);
    oracle_permute(l, &dims)
}

// ---------------------------------------------------------------------------------------------
// Case generation.
// ---------------------------------------------------------------------------------------------

fn contiguous_input(shape: &[usize], ops: Vec<Op>) -> Input {
    Input {
        storage_len: shape.iter().product(),
        layout: Layout {
            shape: shape.to_vec(),
            strides: row_major(shape),
            offset: 0,
        },
        ops,
    }
}

fn strided_input(
    storage_len: usize,
    shape: &[usize],
    strides: &[usize],
    offset: usize,
    ops: Vec<Op>,
) -> Input {
    Input {
        storage_len,
        layout: Layout {
            shape: shape.to_vec(),
            strides: strides.to_vec(),
            offset,
        },
        ops,
    }
}

fn prime_factors(mut n: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut p = 2;
    while p * p <= n {
        while n.is_multiple_of(p) {
            out.push(p);
            n /= p;
        }
        p += 1;
    }
    if n > 1 {
        out.push(n);
    }
    out
}

/// A random shape with `numel` elements and at most `max_dims` dimensions.
fn random_factoring(rng: &mut fastrand::Rng, numel: usize, max_dims: usize) -> Vec<usize> {
    if numel == 0 {
        let mut shape: Vec<usize> = (0..rng.usize(1..=3)).map(|_| rng.usize(1..=4)).collect();
        let at = rng.usize(0..shape.len());
        shape[at] = 0;
        return shape;
    }
    let dims = rng.usize(1..=max_dims.max(1));
    let mut shape = vec![1; dims];
    for p in prime_factors(numel) {
        shape[rng.usize(0..dims)] *= p;
    }
    shape
}

/// A `view` request for `shape`: mostly legal sizes (splits, merges, flattening, refactoring,
/// unit dims), sometimes with a `-1`, sometimes deliberately malformed.
fn random_view(rng: &mut fastrand::Rng, shape: &[usize], max_dims: usize) -> Vec<isize> {
    let numel: usize = shape.iter().product();
    let mut new: Vec<usize> = shape.to_vec();
    match rng.u32(0..6) {
        0 => {
            let splittable: Vec<usize> = (0..shape.len())
                .filter(|&k| prime_factors(shape[k]).len() > 1)
                .collect();
            if !splittable.is_empty() {
                let k = splittable[rng.usize(0..splittable.len())];
                let factors = prime_factors(shape[k]);
                let a: usize = factors[..rng.usize(1..factors.len())].iter().product();
                new.splice(k..=k, [a, shape[k] / a]);
            }
        }
        1 if shape.len() >= 2 => {
            let k = rng.usize(0..shape.len() - 1);
            new.splice(k..k + 2, [shape[k] * shape[k + 1]]);
        }
        2 => new = vec![numel],
        3 => new = random_factoring(rng, numel, max_dims),
        4 => {
            let ones: Vec<usize> = (0..shape.len()).filter(|&k| shape[k] == 1).collect();
            if !ones.is_empty() && rng.bool() {
                new.remove(ones[rng.usize(0..ones.len())]);
            } else {
                new.insert(rng.usize(0..=new.len()), 1);
            }
        }
        _ => {}
    }
    if new.len() > max_dims {
        new = vec![numel];
    }
    let mut request: Vec<isize> = new.iter().map(|&n| n as isize).collect();
    let len = request.len();
    match rng.u32(0..12) {
        0 if len > 0 => request[rng.usize(0..len)] += 1,
        1 if len >= 2 => {
            let a = rng.usize(0..len);
            let b = (a + rng.usize(1..len)) % len;
            request[a] = -1;
            request[b] = -1;
        }
        2..=5 if len > 0 => request[rng.usize(0..len)] = -1,
        _ => {}
    }
    request
}

/// A random starting tensor: a contiguous base, sliced (start and step per dimension), with an
/// occasional broadcast (stride 0) dimension, possibly permuted.
fn random_start(rng: &mut fastrand::Rng) -> (usize, Layout) {
    let base: Vec<usize> = (0..rng.usize(0..=4))
        .map(|_| {
            if rng.u32(0..30) == 0 {
                0
            } else {
                rng.usize(1..=6)
            }
        })
        .collect();
    let storage_len = base.iter().product();
    let mut layout = Layout {
        strides: row_major(&base),
        shape: base,
        offset: 0,
    };
    for k in 0..layout.shape.len() {
        let n = layout.shape[k];
        if n > 1 && rng.u32(0..3) == 0 {
            let start = rng.usize(0..n);
            let step = rng.usize(1..=3);
            let avail = (n - start).div_ceil(step);
            layout.offset += start * layout.strides[k];
            layout.shape[k] = rng.usize(1..=avail);
            layout.strides[k] *= step;
        }
    }
    if rng.u32(0..6) == 0 {
        let at = rng.usize(0..=layout.shape.len());
        layout.shape.insert(at, rng.usize(2..=4));
        layout.strides.insert(at, 0);
    }
    if rng.u32(0..5) < 2 {
        let mut dims: Vec<usize> = (0..layout.shape.len()).collect();
        rng.shuffle(&mut dims);
        layout = oracle_permute(&layout, &dims);
    }
    (storage_len, layout)
}

/// `count` random operations starting from `start`, tracking the shape with the oracle so every
/// `transpose`/`permute` names valid dimensions.
fn random_ops(rng: &mut fastrand::Rng, start: &Layout, count: usize, max_dims: usize) -> Vec<Op> {
    let mut state = start.clone();
    let mut ops = Vec::with_capacity(count);
    while ops.len() < count {
        let ndim = state.shape.len();
        let op = match rng.u32(0..100) {
            0..45 => Op::View(random_view(rng, &state.shape, max_dims)),
            45..65 if ndim > 0 => Op::Transpose(rng.usize(0..ndim), rng.usize(0..ndim)),
            45..80 => {
                let mut dims: Vec<usize> = (0..ndim).collect();
                rng.shuffle(&mut dims);
                Op::Permute(dims)
            }
            _ => Op::Contiguous,
        };
        state = match &op {
            Op::View(request) => oracle_view(&state, request).unwrap_or(state),
            Op::Transpose(a, b) => oracle_transpose(&state, *a, *b),
            Op::Permute(dims) => oracle_permute(&state, dims),
            Op::Contiguous if oracle_is_contiguous(&state) => state,
            Op::Contiguous => Layout {
                strides: row_major(&state.shape),
                shape: state.shape,
                offset: 0,
            },
        };
        ops.push(op);
    }
    ops
}

// ---------------------------------------------------------------------------------------------
// The checker's replay.
// ---------------------------------------------------------------------------------------------

/// The storage the checker's tensor currently points into.
enum Storage<'a> {
    /// The starting storage: `storage[i] = i`.
    Original(usize),
    /// A copy made by an earlier `contiguous` step.
    Copy(&'a [f32]),
}

impl Storage<'_> {
    fn get(&self, i: usize) -> Option<f32> {
        match self {
            Self::Original(len) => (i < *len).then_some(i as f32),
            Self::Copy(data) => data.get(i).copied(),
        }
    }
}

#[derive(Default)]
struct Tally {
    views_ok: usize,
    views_err: usize,
    copies: usize,
    shared: usize,
    copied_elements: usize,
}

fn fail_at(
    step: usize,
    op: &Op,
    state: &Layout,
    problem: Message,
    expected: impl ToString,
    got: impl ToString,
) -> Check {
    Check::fail(
        problem.after(
            &format!("step {step} `{op}` on {state}: "),
            &format!("第 {step} 步 `{op}`（作用于 {state}）："),
        ),
        expected,
        got,
    )
}

fn check_steps(input: &Input, got: &Output) -> Result<Tally, Check> {
    let mut state = input.layout.clone();
    let mut data = Storage::Original(input.storage_len);
    let mut tally = Tally::default();
    let want = oracle_is_contiguous(&state);
    if got.initial_is_contiguous != want {
        return Err(Check::fail(
            Message::new(
                format!("is_contiguous of the starting tensor ({state}) is wrong"),
                format!("起始张量（{state}）的 is_contiguous 不对"),
            ),
            want,
            got.initial_is_contiguous,
        ));
    }
    for (i, (op, step)) in input.ops.iter().zip(&got.steps).enumerate() {
        let n = i + 1;
        let fail = |problem: Message, expected: &dyn fmt::Display, got: &dyn fmt::Display| {
            Err(fail_at(n, op, &state, problem, expected, got))
        };
        let next = match (op, &step.result) {
            (Op::Transpose(..) | Op::Permute(_), StepResult::Layout(g)) => {
                let want = match op {
                    Op::Transpose(a, b) => oracle_transpose(&state, *a, *b),
                    Op::Permute(dims) => oracle_permute(&state, dims),
                    _ => unreachable!("matched above"),
                };
                if *g != want {
                    return fail(
                        Message::new(
                            "wrong layout (only sizes and strides move; the offset stays)",
                            "布局不对（只有尺寸和步长会变，偏移不变）",
                        ),
                        &want,
                        g,
                    );
                }
                want
            }
            (Op::View(request), StepResult::View(g)) => match (oracle_view(&state, request), g) {
                (Err(e), Err(g)) if e == *g => {
                    tally.views_err += 1;
                    state.clone()
                }
                (Err(e), Err(g)) => {
                    return fail(Message::new("wrong error", "错误种类不对"), &e, g);
                }
                (Err(e), Ok(g)) => {
                    let problem = match e {
                        ViewError::IncompatibleStrides => Message::new(
                            "no strides over the same storage give this shape; view must fail",
                            "在同一块存储上找不到能得到这个形状的步长；view 必须失败",
                        ),
                        _ => Message::new(
                            "the requested shape is invalid; view must fail",
                            "请求的形状无效；view 必须失败",
                        ),
                    };
                    return fail(problem, &e, &format!("Ok({g})"));
                }
                (Ok(w), Err(g)) => {
                    return fail(
                        Message::new(
                            "this view is possible without a copy",
                            "这个 view 不需要复制就能做到",
                        ),
                        &format!("Ok with shape {:?}", w.shape),
                        g,
                    );
                }
                (Ok(w), Ok(g)) => {
                    if let Some(why) = malformed(g) {
                        return fail(why, &format!("shape {:?}", w.shape), g);
                    }
                    if g.shape != w.shape {
                        return fail(
                            Message::new("wrong shape", "形状不对"),
                            &format!("{:?}", w.shape),
                            &format!("{:?}", g.shape),
                        );
                    }
                    let mismatch = addresses(&state)
                        .zip(addresses(g))
                        .enumerate()
                        .find(|(_, (a, b))| a != b);
                    if let Some((k, (a, b))) = mismatch {
                        let index = unravel(k, &g.shape);
                        return fail(
                            Message::new(
                                format!(
                                    "the view's element {index:?} (number {k} in row-major order) \
                                     is not the same storage element; got layout {g}"
                                ),
                                format!(
                                    "view 的元素 {index:?}（按行主序是第 {k} 个）对应的不是同一个\
                                     存储元素；得到的布局是 {g}"
                                ),
                            ),
                            &format!("storage[{a}]"),
                            &format!("storage[{b}]"),
                        );
                    }
                    tally.views_ok += 1;
                    g.clone()
                }
            },
            (
                Op::Contiguous,
                StepResult::Contiguous {
                    layout: g,
                    shared_storage,
                    storage,
                },
            ) => {
                let already = oracle_is_contiguous(&state);
                match (already, *shared_storage) {
                    (true, false) => {
                        return fail(
                            Message::new(
                                "copied although already contiguous (return the same storage: Arc::clone)",
                                "张量已经连续却还是复制了（应返回同一块存储：Arc::clone）",
                            ),
                            &"shared storage",
                            &"a new buffer",
                        );
                    }
                    (false, true) => {
                        return fail(
                            Message::new(
                                "the tensor is not contiguous, so contiguous() must copy into a new buffer",
                                "张量不连续，所以 contiguous() 必须复制到新的缓冲区",
                            ),
                            &"a new buffer",
                            &"the same storage",
                        );
                    }
                    (true, true) => {
                        if *g != state {
                            return fail(
                                Message::new(
                                    "an already-contiguous tensor must come back unchanged",
                                    "已经连续的张量必须原样返回",
                                ),
                                &state,
                                g,
                            );
                        }
                        tally.shared += 1;
                        state.clone()
                    }
                    (false, false) => {
                        let Some(copy) = storage else {
                            return fail(
                                Message::new("no copy was recorded", "没有记录到复制"),
                                &"a new buffer",
                                &"none",
                            );
                        };
                        if let Some(why) = malformed(g) {
                            return fail(why, &"a row-major layout", g);
                        }
                        let numel = state.numel();
                        if g.shape != state.shape || g.offset != 0 || !oracle_is_contiguous(g) {
                            let want = Layout {
                                shape: state.shape.clone(),
                                strides: row_major(&state.shape),
                                offset: 0,
                            };
                            return fail(
                                Message::new(
                                    "the copy's layout must be row-major with offset 0",
                                    "副本的布局必须是行主序、偏移为 0",
                                ),
                                &want,
                                g,
                            );
                        }
                        if copy.len() != numel {
                            return fail(
                                Message::new(
                                    "the copy's storage must hold exactly the tensor's elements",
                                    "副本的存储必须恰好容纳张量的全部元素",
                                ),
                                &format!("{numel} floats"),
                                &format!("{} floats", copy.len()),
                            );
                        }
                        for (k, addr) in addresses(&state).enumerate() {
                            let want = data.get(addr);
                            if want != Some(copy[k]) {
                                let index = unravel(k, &state.shape);
                                let shown =
                                    want.map_or("out of storage".to_string(), |v| format!("{v:?}"));
                                return fail(
                                    Message::new(
                                        format!(
                                            "element {index:?} of the copy is wrong (it lives at \
                                             storage[{addr}] of the input)"
                                        ),
                                        format!(
                                            "副本的元素 {index:?} 不对（它在输入的 storage[{addr}]）"
                                        ),
                                    ),
                                    &shown,
                                    &format!("{:?}", copy[k]),
                                );
                            }
                        }
                        tally.copies += 1;
                        tally.copied_elements += numel;
                        data = Storage::Copy(copy);
                        g.clone()
                    }
                }
            }
            _ => {
                return fail(
                    Message::new("result of the wrong kind", "结果的种类不对"),
                    &"the operation's result",
                    &"another kind",
                );
            }
        };
        state = next;
        let want = oracle_is_contiguous(&state);
        if step.is_contiguous != want {
            return Err(Check::fail(
                Message::new(
                    format!("after step {n} `{op}`: is_contiguous({state}) is wrong"),
                    format!("第 {n} 步 `{op}` 之后：is_contiguous({state}) 不对"),
                ),
                want,
                step.is_contiguous,
            ));
        }
    }
    if got.steps.len() != input.ops.len() {
        return Err(Check::fail(
            Message::new(
                "the run stopped early: an operation did not fit the tensor the previous steps left",
                "运行提前停止了：某个操作与前面各步留下的张量不相容",
            ),
            format!("{} steps", input.ops.len()),
            format!("{} steps", got.steps.len()),
        ));
    }
    Ok(tally)
}

fn list<T: fmt::Display>(items: &[T], most: usize) -> String {
    let shown: Vec<String> = items.iter().take(most).map(ToString::to_string).collect();
    let more = items.len().saturating_sub(most);
    if more > 0 {
        format!("{}, … ({more} more)", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

#[derive(Debug)]
pub struct Spec;

impl KataSpec for Spec {
    type Solution = Solution;
    type Input = Input;
    type Output = Output;

    /// Custom input: a storage of at most 65 536 floats and a starting tensor of at most
    /// 65 536 elements (custom runs stay small), at most 8 dimensions with one stride per size,
    /// every element inside the storage, at most 64 operations, view requests of only `-1` and
    /// non-negative sizes whose product fits, transposes and permutes that name dimensions
    /// below 8, permutes that are permutations.
    fn admit(input: &Input) -> Result<(), Refusal> {
        let l = &input.layout;
        katas::spec::at_most(("storage_len", "storage_len"), input.storage_len, 1 << 16)?;
        katas::spec::at_most(("the number of dimensions", "维数"), l.shape.len(), 8)?;
        katas::spec::at_most(
            ("the number of operations", "操作个数"),
            input.ops.len(),
            64,
        )?;
        if let Some(why) = malformed(l) {
            return Err(why);
        }
        katas::spec::at_most(
            ("the starting tensor's elements", "起始张量的元素个数"),
            l.numel(),
            1 << 16,
        )?;
        if !fits(l, input.storage_len) {
            return Err(Refusal::new(
                format!(
                    "the starting tensor ({l}) reaches outside its {} floats",
                    input.storage_len
                ),
                format!(
                    "起始张量（{l}）越出了它的 {} 个浮点数存储",
                    input.storage_len
                ),
            ));
        }
        for (i, op) in input.ops.iter().enumerate() {
            let bad = match op {
                Op::View(sizes) => {
                    sizes.len() > 8
                        || sizes.iter().any(|&s| s < -1)
                        || sizes
                            .iter()
                            .filter(|&&s| s >= 0)
                            .try_fold(1usize, |a, &s| a.checked_mul(s as usize))
                            .is_none()
                }
                Op::Transpose(a, b) => *a >= 8 || *b >= 8,
                Op::Permute(dims) => {
                    let mut seen = [false; 8];
                    dims.len() > 8
                        || dims
                            .iter()
                            .any(|&d| d >= dims.len() || std::mem::replace(&mut seen[d], true))
                }
                Op::Contiguous => false,
            };
            if bad {
                // Numbered from 1, as a learner counts the operations they wrote.
                let n = i + 1;
                return Err(Refusal::new(
                    format!("operation {n} ({op}) is outside the statement's constraints"),
                    format!("第 {n} 个操作（{op}）超出了题目的约束"),
                ));
            }
        }
        Ok(())
    }

    fn cases(seed: u64) -> Vec<Case<Input>> {
        use Op::{Contiguous, Permute, Transpose, View};
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut cases = vec![
            Case::new(
                "2×3 transpose, then contiguous",
                Group::Sample,
                contiguous_input(&[2, 3], vec![Transpose(0, 1), Contiguous]),
            )
            .zh("2×3 转置，然后 contiguous"),
            Case::new(
                "view a contiguous 2×3×4 as (6, -1)",
                Group::Sample,
                contiguous_input(&[2, 3, 4], vec![View(vec![6, -1])]),
            )
            .zh("把连续的 2×3×4 view 成 (6, -1)"),
            Case::new(
                "view fails after transpose; contiguous, then view works",
                Group::Sample,
                contiguous_input(
                    &[2, 3],
                    vec![Transpose(0, 1), View(vec![6]), Contiguous, View(vec![6])],
                ),
            )
            .zh("转置后 view 失败；先 contiguous，view 就成功"),
        ];
        let mut edge = |(name, name_zh): (&str, &str), input: Input| {
            cases.push(Case::new(name, Group::Edge, input).zh(name_zh))
        };
        edge(
            (
                "zero-size dimension: shape [3, 0, 2]",
                "大小为 0 的维度：形状 [3, 0, 2]",
            ),
            contiguous_input(
                &[3, 0, 2],
                vec![
                    Transpose(0, 2),
                    Contiguous,
                    View(vec![0, 5]),
                    View(vec![2, 0, 7]),
                    Permute(vec![2, 0, 1]),
                ],
            ),
        );
        edge(
            (
                "zero-size dimension with odd strides is still contiguous",
                "含大小为 0 的维度时，步长再奇怪也算连续",
            ),
            strided_input(
                12,
                &[4, 0, 3],
                &[1, 7, 5],
                2,
                vec![Contiguous, View(vec![0]), Contiguous],
            ),
        );
        edge(
            (
                "-1 next to a 0-size dimension cannot be inferred",
                "与大小为 0 的维度同在时，-1 无法推断",
            ),
            contiguous_input(
                &[4, 0],
                vec![
                    View(vec![-1, 0]),
                    View(vec![0, -1]),
                    View(vec![0, 3]),
                    View(vec![-1]),
                ],
            ),
        );
        edge(
            ("0-d scalar (shape [])", "0 维标量（形状 []）"),
            strided_input(
                5,
                &[],
                &[],
                3,
                vec![
                    Permute(vec![]),
                    View(vec![1, 1]),
                    View(vec![]),
                    View(vec![-1]),
                    View(vec![1, -1, 1]),
                    Contiguous,
                ],
            ),
        );
        edge(
            (
                "size-1 dimensions with odd strides",
                "步长奇怪的大小为 1 的维度",
            ),
            strided_input(
                6,
                &[2, 1, 3],
                &[3, 77, 1],
                0,
                vec![
                    Contiguous,
                    Permute(vec![1, 0, 2]),
                    Contiguous,
                    View(vec![6]),
                    View(vec![3, 1, 2]),
                ],
            ),
        );
        edge(
            (
                "size-1 column with a stride of 0",
                "步长为 0 的大小为 1 的列",
            ),
            strided_input(
                8,
                &[4, 1],
                &[2, 0],
                1,
                vec![Contiguous, View(vec![2, 2]), Contiguous],
            ),
        );
        edge(
            ("more than one -1", "不止一个 -1"),
            contiguous_input(
                &[2, 3, 4],
                vec![
                    View(vec![-1, -1]),
                    View(vec![-1, 2, -1]),
                    View(vec![2, -1, -1, 0]),
                ],
            ),
        );
        edge(
            ("element count mismatch", "元素个数不一致"),
            contiguous_input(
                &[2, 3],
                vec![
                    View(vec![7]),
                    View(vec![2, 3, 2]),
                    View(vec![4, -1]),
                    View(vec![0, 6]),
                    View(vec![]),
                ],
            ),
        );
        edge(
            (
                "split a dimension of a transposed tensor (viewable, not contiguous)",
                "拆分转置后张量的一个维度（可以 view，但不连续）",
            ),
            contiguous_input(
                &[4, 6],
                vec![
                    Transpose(0, 1),
                    View(vec![2, 3, 4]),
                    View(vec![6, 2, 2]),
                    View(vec![24]),
                    View(vec![3, 8]),
                ],
            ),
        );
        edge(
            (
                "merge two dims that stay adjacent in memory after permute",
                "合并 permute 后在内存中仍相邻的两个维度",
            ),
            contiguous_input(
                &[2, 3, 4],
                vec![
                    Permute(vec![2, 0, 1]),
                    View(vec![4, 6]),
                    View(vec![8, 3]),
                    View(vec![4, 2, 3]),
                    Contiguous,
                ],
            ),
        );
        edge(
            (
                "unit dimensions added and removed by view on a transposed tensor",
                "在转置后的张量上用 view 增删大小为 1 的维度",
            ),
            contiguous_input(
                &[2, 3],
                vec![
                    Transpose(0, 1),
                    View(vec![3, 1, 2]),
                    View(vec![1, 3, 2, 1]),
                    View(vec![3, 2]),
                    View(vec![-1, 2]),
                ],
            ),
        );
        edge(
            ("permute identity", "恒等 permute"),
            contiguous_input(
                &[2, 3, 4],
                vec![
                    Permute(vec![0, 1, 2]),
                    Contiguous,
                    Transpose(1, 1),
                    Contiguous,
                ],
            ),
        );
        edge(
            ("transpose twice is the identity", "转置两次等于不变"),
            contiguous_input(&[3, 5], vec![Transpose(0, 1), Transpose(1, 0), Contiguous]),
        );
        edge(
            (
                "row slice: offset ≠ 0 but still contiguous",
                "行切片：offset ≠ 0 但仍连续",
            ),
            strided_input(
                20,
                &[2, 5],
                &[5, 1],
                5,
                vec![Contiguous, View(vec![10]), View(vec![5, 2]), Contiguous],
            ),
        );
        edge(
            (
                "column slice: offset ≠ 0 and not contiguous",
                "列切片：offset ≠ 0 且不连续",
            ),
            strided_input(
                20,
                &[4, 3],
                &[5, 1],
                1,
                vec![
                    View(vec![12]),
                    View(vec![2, 2, 3]),
                    Contiguous,
                    View(vec![12]),
                ],
            ),
        );
        edge(
            (
                "every other element (step-2 slice) with an offset",
                "带 offset 的隔一取一（步长为 2 的切片）",
            ),
            strided_input(
                11,
                &[5],
                &[2],
                1,
                vec![View(vec![5, 1]), View(vec![1, 5]), Contiguous],
            ),
        );
        edge(
            ("broadcast (stride 0) dimension", "广播（步长为 0）的维度"),
            strided_input(
                4,
                &[3, 4],
                &[0, 1],
                0,
                vec![
                    View(vec![3, 2, 2]),
                    View(vec![12]),
                    Transpose(0, 2),
                    Contiguous,
                ],
            ),
        );
        edge(
            (
                "fully broadcast scalar views freely",
                "完全广播的标量可以随意 view",
            ),
            strided_input(
                1,
                &[2, 3],
                &[0, 0],
                0,
                vec![View(vec![6]), View(vec![3, 2]), Contiguous],
            ),
        );
        edge(
            (
                "sliced 3-d tensor permuted, then copied",
                "切片后的 3 维张量先 permute 再复制",
            ),
            strided_input(
                120,
                &[2, 2, 3],
                &[60, 20, 2],
                13,
                vec![
                    Permute(vec![2, 0, 1]),
                    View(vec![3, 4]),
                    View(vec![3, 2, 2]),
                    Contiguous,
                    View(vec![12]),
                ],
            ),
        );

        for i in 0..40 {
            let (storage_len, layout) = random_start(&mut rng);
            let count = rng.usize(4..=16);
            let ops = random_ops(&mut rng, &layout, count, 6);
            cases.push(
                Case::new(
                    format!("random #{i}"),
                    Group::Random,
                    Input {
                        storage_len,
                        layout,
                        ops,
                    },
                )
                .zh(format!("随机 #{i}")),
            );
        }

        cases.push(
            Case::new(
                "1024×1024 transposed, split by view, then contiguous (1M-element copy)",
                Group::Performance,
                contiguous_input(
                    &[1024, 1024],
                    vec![Transpose(0, 1), View(vec![1024, 32, 32]), Contiguous],
                ),
            )
            .zh("1024×1024 转置后用 view 拆分，再 contiguous（复制 1M 个元素）"),
        );
        cases.push(
            Case::new(
                "1024×1024 already contiguous: contiguous() must not copy",
                Group::Performance,
                contiguous_input(&[1024, 1024], vec![Contiguous, View(vec![-1]), Contiguous]),
            )
            .zh("1024×1024 本已连续：contiguous() 不可复制"),
        );
        cases.push(
            Case::new(
                "64×128×128 permuted to (2, 0, 1), then contiguous",
                Group::Performance,
                contiguous_input(&[64, 128, 128], vec![Permute(vec![2, 0, 1]), Contiguous]),
            )
            .zh("64×128×128 permute 为 (2, 0, 1)，再 contiguous"),
        );
        let deep = contiguous_input(&[2, 3, 2, 5, 2, 3, 2], Vec::new());
        let ops = random_ops(&mut rng, &deep.layout, 3000, 8);
        cases.push(
            Case::new(
                "3000 random operations on a 7-d tensor",
                Group::Performance,
                Input { ops, ..deep },
            )
            .zh("对 7 维张量做 3000 次随机操作"),
        );
        // Moving a size-1 dimension around never breaks contiguity, so every step leaves a
        // contiguous 4M-element tensor: metadata operations and `is_contiguous` must cost
        // O(ndim) here, and an `is_contiguous` that walks the elements makes 1200 walks of 4M.
        let unit_moves = [
            Transpose(0, 1),
            Transpose(1, 2),
            Transpose(1, 2),
            Transpose(0, 1),
        ];
        cases.push(Case::new(
            "1×2048×2048 tensor: 1200 transposes that move its size-1 dimension (all contiguous)",
            Group::Performance,
            contiguous_input(
                &[1, 2048, 2048],
                unit_moves.iter().cycle().take(1200).cloned().collect(),
            ),
        )
        .zh("1×2048×2048 张量：1200 次移动其大小为 1 的维度的转置（都连续）"));
        cases
    }

    fn solve(solution: Solution, input: &Input) -> Output {
        let mut tensor = Tensor {
            layout: input.layout.clone(),
            storage: Arc::new(storage(input.storage_len)),
        };
        let initial_is_contiguous = (solution.is_contiguous)(&tensor.layout);
        let mut steps = Vec::with_capacity(input.ops.len());
        for op in &input.ops {
            // After a wrong step the learner's tensor may point outside its storage or no longer
            // have the dimensions this operation names; stop there rather than index out of
            // range. The checker reports the step that went wrong.
            let ndim = tensor.layout.shape.len();
            let applies = fits(&tensor.layout, tensor.storage.len())
                && match op {
                    Op::Transpose(a, b) => *a < ndim && *b < ndim,
                    Op::Permute(dims) => dims.len() == ndim,
                    Op::View(_) | Op::Contiguous => true,
                };
            if !applies {
                break;
            }
            let result = match op {
                Op::View(shape) => {
                    let got = (solution.view)(&tensor.layout, shape);
                    if let Ok(layout) = &got {
                        tensor.layout = layout.clone();
                    }
                    StepResult::View(got)
                }
                Op::Transpose(a, b) => {
                    tensor.layout = (solution.transpose)(&tensor.layout, *a, *b);
                    StepResult::Layout(tensor.layout.clone())
                }
                Op::Permute(dims) => {
                    tensor.layout = (solution.permute)(&tensor.layout, dims);
                    StepResult::Layout(tensor.layout.clone())
                }
                Op::Contiguous => {
                    let out = (solution.contiguous)(&tensor);
                    // Pointer identity does not survive serialization: measure it here.
                    let shared_storage = Arc::ptr_eq(&out.storage, &tensor.storage);
                    let storage = (!shared_storage).then(|| out.storage.as_ref().clone());
                    tensor = out;
                    StepResult::Contiguous {
                        layout: tensor.layout.clone(),
                        shared_storage,
                        storage,
                    }
                }
            };
            let is_contiguous = (solution.is_contiguous)(&tensor.layout);
            steps.push(Step {
                result,
                is_contiguous,
            });
        }
        Output {
            initial_is_contiguous,
            steps,
        }
    }

    fn check(input: &Input, _expected: &Output, got: &Output) -> Check {
        match check_steps(input, got) {
            Err(failure) => failure,
            Ok(t) => {
                let (steps, views, refused) =
                    (input.ops.len(), t.views_ok + t.views_err, t.views_err);
                let (copies, shared) = (t.copies, t.shared);
                let mut notes = vec![Message::new(
                    format!(
                        "{steps} steps: {views} views ({refused} refused), {copies} copies, \
                         {shared} contiguous() without a copy"
                    ),
                    format!(
                        "{steps} 步：{views} 次 view（{refused} 次被拒绝），{copies} 次复制，\
                         {shared} 次 contiguous() 没有复制"
                    ),
                )];
                if t.copied_elements > 0 {
                    let count = t.copied_elements;
                    let mib = format!("{:.1}", (count * 4) as f64 / (1 << 20) as f64);
                    notes.push(Message::new(
                        format!("copied {count} elements ({mib} MiB)"),
                        format!("复制了 {count} 个元素（{mib} MiB）"),
                    ));
                }
                Check::pass_with(notes)
            }
        }
    }

    fn describe(input: &Input) -> Message {
        let (len, start) = (input.storage_len, &input.layout);
        let (count, ops) = (input.ops.len(), list(&input.ops, 8));
        Message::new(
            format!("storage of {len} floats (storage[i] = i), start {start}; {count} ops: {ops}"),
            format!(
                "含 {len} 个浮点数的存储（storage[i] = i），起始为 {start}；{count} 个操作：{ops}"
            ),
        )
    }
}
