//! Strided tensors: every operation except `contiguous` only rewrites the layout, and
//! `contiguous` copies only when the layout is not already row-major.

use katas::problems::view_contiguous::{Layout, Tensor, ViewError};
use std::sync::Arc;

/// Row-major strides for `shape`. A size of 0 counts as 1 so the strides stay meaningful
/// (they are never used to address anything in an empty tensor).
fn row_major(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![0; shape.len()];
    let mut step = 1;
    for k in (0..shape.len()).rev() {
        strides[k] = step;
        step *= shape[k].max(1);
    }
    strides
}

/// True when walking the elements in row-major order reads consecutive storage positions.
pub fn is_contiguous(layout: &Layout) -> bool {
    if layout.numel() == 0 {
        // No element is ever read, so no order can be violated.
        return true;
    }
    let mut expected = 1;
    for (&size, &stride) in layout.shape.iter().zip(&layout.strides).rev() {
        // A size-1 dimension is never stepped along: its stride is irrelevant.
        if size != 1 {
            if stride != expected {
                return false;
            }
            expected *= size;
        }
    }
    true
}

/// The same elements, in the same row-major order, seen with a new shape — or why not.
pub fn view(layout: &Layout, shape: &[isize]) -> Result<Layout, ViewError> {
    let numel = layout.numel();
    let new_shape = resolve_shape(numel, shape)?;
    let offset = layout.offset;
    if numel == 0 {
        // Nothing to address: any strides are correct, row-major ones are the tidiest.
        return Ok(Layout {
            strides: row_major(&new_shape),
            shape: new_shape,
            offset,
        });
    }

    // Group the old dimensions into runs that behave like a single dimension: d-1 and d merge
    // when stepping once along d-1 lands exactly where running off the end of d would. Inside a
    // run, the elements are evenly spaced by the run's innermost stride. Size-1 dims never step,
    // so they join any run.
    let mut runs: Vec<(usize, usize)> = Vec::new(); // (elements, innermost stride)
    for (&size, &stride) in layout.shape.iter().zip(&layout.strides) {
        if size == 1 {
            continue;
        }
        match runs.last_mut() {
            Some((elements, inner)) if *inner == stride * size => {
                *elements *= size;
                *inner = stride;
            }
            _ => runs.push((size, stride)),
        }
    }

    // A run boundary is a jump in memory, so the new dimensions must tile each run exactly:
    // no new dimension may straddle two runs. Consume runs innermost-first and hand out strides
    // as multiples of the run's innermost stride.
    let mut strides = vec![0; new_shape.len()];
    let mut runs = runs.into_iter().rev();
    let mut current = runs.next();
    let mut filled = 1; // product of the new sizes placed in the current run so far
    let mut outer = 1; // stride a leading size-1 dim gets once every run is used up
    for k in (0..new_shape.len()).rev() {
        let size = new_shape[k];
        let Some((elements, inner)) = current else {
            // Sizes match, so only size-1 dims can be left once the runs are used up.
            strides[k] = outer;
            continue;
        };
        strides[k] = inner * filled;
        if size == 1 {
            continue;
        }
        filled *= size;
        if filled == elements {
            outer = inner * elements;
            current = runs.next();
            filled = 1;
        } else if !elements.is_multiple_of(filled) {
            // This new dimension would have to span the gap between two runs.
            return Err(ViewError::IncompatibleStrides);
        }
    }
    Ok(Layout {
        shape: new_shape,
        strides,
        offset,
    })
}

/// Replaces a single `-1` with the size that makes the element counts agree, and checks them.
fn resolve_shape(numel: usize, shape: &[isize]) -> Result<Vec<usize>, ViewError> {
    let inferred = shape.iter().filter(|&&s| s == -1).count();
    if inferred > 1 {
        return Err(ViewError::MoreThanOneInferred);
    }
    let known: usize = shape
        .iter()
        .filter(|&&s| s != -1)
        .map(|&s| s as usize)
        .product();
    if inferred == 1 {
        // With a 0 among the given sizes every choice gives 0 elements: ambiguous, so refused.
        if known == 0 || !numel.is_multiple_of(known) {
            return Err(ViewError::CannotInfer);
        }
    } else if known != numel {
        return Err(ViewError::SizeMismatch {
            from: numel,
            to: known,
        });
    }
    Ok(shape
        .iter()
        .map(|&s| if s == -1 { numel / known } else { s as usize })
        .collect())
}

/// Swaps two dimensions: a metadata change, the storage is untouched.
pub fn transpose(layout: &Layout, dim0: usize, dim1: usize) -> Layout {
    let mut out = layout.clone();
    out.shape.swap(dim0, dim1);
    out.strides.swap(dim0, dim1);
    out
}

/// Dimension `k` of the result is dimension `dims[k]` of the input.
pub fn permute(layout: &Layout, dims: &[usize]) -> Layout {
    Layout {
        shape: dims.iter().map(|&d| layout.shape[d]).collect(),
        strides: dims.iter().map(|&d| layout.strides[d]).collect(),
        offset: layout.offset,
    }
}

/// A row-major tensor with the same elements: the same storage if it already is one, else a copy.
pub fn contiguous(tensor: &Tensor) -> Tensor {
    contiguous_on(tensor, 1)
}

/// `contiguous`, with a transposed copy split over `threads` threads. The kata allows one thread
/// (`max_threads = 1`); the bench measures what a second core gives (BENCHMARKS.md).
pub fn contiguous_on(tensor: &Tensor, threads: usize) -> Tensor {
    if is_contiguous(&tensor.layout) {
        // Same layout, same buffer: an Arc clone costs a counter increment.
        return tensor.clone();
    }
    let shape = tensor.layout.shape.clone();
    let data = gather(&tensor.storage, &tensor.layout, threads);
    Tensor {
        layout: Layout {
            strides: row_major(&shape),
            shape,
            offset: 0,
        },
        storage: Arc::new(data),
    }
}

/// Side of the micro tiles a transposed copy moves: 16 floats (one 64-byte line) from each of
/// 16 source lines, written out as 16 runs of 16 floats (one destination line each).
const MICRO: usize = 16;
/// Side of the blocks the micro tiles are grouped into: the source lines a block reads stay in
/// L2 until all their floats are used, and the block touches few enough pages for the TLB.
const BLOCK: usize = 64;
/// Floats in the staging buffer a band of the result is assembled in (512 KiB: it stays in L2).
const STAGING: usize = 128 * 1024;

/// Copies the elements of `layout` out of `src` in row-major order. Not called on contiguous
/// layouts, so there is at least one element and one dimension.
///
/// Writes are sequential along the last dimension; reads are sequential along whichever
/// dimension has the smallest stride (`fast`). When those differ (a transpose), a plain loop
/// strides through memory on one side and misses cache on almost every access, so the copy
/// runs over tiles of those two dimensions: each cache line read or written is fully used while
/// it is still in cache.
///
/// The result is appended to a `Vec` that was only reserved, never zero-filled: a zero fill
/// would write every byte of the result once more before the copy does. Tiles write in a
/// scattered order, so they fill a small staging buffer first — a band of consecutive `fast`
/// indices, which is one contiguous piece of the result — appended with one `memcpy` per band
/// (per staged row when the rows are padded, see `staged_row`).
///
/// With more than one thread, each copies a run of bands into its own part of the result. Safe
/// Rust hands out disjoint parts of initialised memory only, so that result is zero-filled
/// first: one more write of every byte, which the single thread does without.
fn gather(src: &[f32], layout: &Layout, threads: usize) -> Vec<f32> {
    let (shape, strides) = (&layout.shape, &layout.strides);
    let last = shape.len() - 1;
    let fast = (0..shape.len())
        .filter(|&d| shape[d] > 1)
        .min_by_key(|&d| (strides[d], d != last))
        .unwrap_or(last);
    let (cols, src_col) = (shape[last], strides[last]);
    if fast == last {
        // Both sides are sequential along a row: append the rows in order.
        let mut out = Vec::with_capacity(layout.numel());
        each_index(&shape[..last], &strides[..last], layout.offset, &mut |s| {
            if src_col == 1 {
                out.extend_from_slice(&src[s..s + cols]);
            } else {
                out.extend((0..cols).map(|c| src[s + c * src_col]));
            }
        });
        return out;
    }

    // The result as a list of bands: under each index of the dimensions before `fast`, runs of
    // up to `band` consecutive `fast` indices, each one contiguous piece of the result.
    let bands = Bands::new(src, layout, fast);
    let (band, band_stride) = (bands.band, strides[fast]);
    let mut list = Vec::new();
    each_index(
        &shape[..fast],
        &strides[..fast],
        layout.offset,
        &mut |base| {
            for f0 in (0..shape[fast]).step_by(band) {
                list.push((base + f0 * band_stride, band.min(shape[fast] - f0)));
            }
        },
    );
    if threads <= 1 {
        let mut out = Vec::with_capacity(layout.numel());
        bands.copy(&list, &mut |piece| out.extend_from_slice(piece));
        return out;
    }
    let mut out = vec![0.0; layout.numel()];
    std::thread::scope(|scope| {
        let mut rest = out.as_mut_slice();
        for part in list.chunks(list.len().div_ceil(threads)) {
            let len = part.iter().map(|&(_, rows)| rows * bands.inner).sum();
            let (mut mine, tail) = std::mem::take(&mut rest).split_at_mut(len);
            rest = tail;
            let bands = &bands;
            scope.spawn(move || {
                bands.copy(part, &mut |piece| {
                    let (head, tail) = std::mem::take(&mut mine).split_at_mut(piece.len());
                    head.copy_from_slice(piece);
                    mine = tail;
                })
            });
        }
    });
    out
}

/// How the bands of one layout are copied: what is the same for every band.
struct Bands<'a> {
    src: &'a [f32],
    /// Shape and strides of the dimensions between `fast` and the last.
    middle: (&'a [usize], &'a [usize]),
    /// Source stride of `fast` (the rows of a band), and shape and stride of the last dimension.
    rows_stride: usize,
    cols: (usize, usize),
    /// Elements of the result per `fast` index: the length of one staged row.
    inner: usize,
    /// Distance between staged rows: `inner`, plus one cache line when rows `inner` apart would
    /// all fall in the same L1 set (see `staged_row`).
    stride: usize,
    /// Most `fast` indices per band: as many staged rows as fit `STAGING`, at least a micro tile.
    band: usize,
}

impl<'a> Bands<'a> {
    fn new(src: &'a [f32], layout: &'a Layout, fast: usize) -> Self {
        let (shape, strides) = (&layout.shape, &layout.strides);
        let last = shape.len() - 1;
        let inner: usize = shape[fast + 1..].iter().product();
        Self {
            src,
            middle: (&shape[fast + 1..last], &strides[fast + 1..last]),
            rows_stride: strides[fast],
            cols: (shape[last], strides[last]),
            inner,
            stride: staged_row(inner),
            band: (STAGING / inner).max(MICRO).min(shape[fast]),
        }
    }

    /// Copies the bands `(storage position of the first element, rows)` one after the other,
    /// handing `emit` the result's elements in order, one staged row (or band) at a time.
    fn copy(&self, bands: &[(usize, usize)], emit: &mut dyn FnMut(&[f32])) {
        let mut staging = vec![0.0; self.band * self.stride];
        for &(base, rows) in bands {
            let staging = &mut staging[..rows * self.stride];
            // Each index of the middle dimensions is one rows×cols block, `cols` further
            // along the staged rows than the previous one.
            let mut o = 0;
            let (middle, middle_strides) = self.middle;
            each_index(middle, middle_strides, base, &mut |s| {
                let rows = (rows, self.rows_stride, self.stride);
                copy_block(self.src, staging, s, o, rows, self.cols);
                o += self.cols.0;
            });
            if self.stride == self.inner {
                emit(staging);
            } else {
                for row in staging.chunks_exact(self.stride) {
                    emit(&row[..self.inner]);
                }
            }
        }
    }
}

/// The distance between staged rows of `inner` floats. An L1 set is picked by address bits 6–11,
/// so rows a multiple of 4 KiB apart all land in one set (12 ways here) and the 16 rows a micro
/// tile writes would evict one another; one cache line of padding spreads them over 16 sets.
fn staged_row(inner: usize) -> usize {
    if inner.is_multiple_of(1024) {
        inner + 16
    } else {
        inner
    }
}

/// Calls `visit` with the storage position of every index of `shape` (an odometer), in
/// row-major order, starting from `base`.
fn each_index(shape: &[usize], strides: &[usize], base: usize, visit: &mut dyn FnMut(usize)) {
    match shape.split_first() {
        None => visit(base),
        Some((&size, rest)) => {
            for i in 0..size {
                each_index(rest, &strides[1..], base + i * strides[0], visit);
            }
        }
    }
}

/// `out[out_base + r·out_row + c] = src[src_base + r·src_row + c·src_col]` over a rows×cols block.
fn copy_block(
    src: &[f32],
    out: &mut [f32],
    src_base: usize,
    out_base: usize,
    (rows, src_row, out_row): (usize, usize, usize),
    (cols, src_col): (usize, usize),
) {
    for r0 in (0..rows).step_by(BLOCK) {
        for c0 in (0..cols).step_by(BLOCK) {
            let (r_end, c_end) = ((r0 + BLOCK).min(rows), (c0 + BLOCK).min(cols));
            // Source lines outermost: each group of 16 is finished before the next.
            for c1 in (c0..c_end).step_by(MICRO) {
                for r1 in (r0..r_end).step_by(MICRO) {
                    let s = src_base + r1 * src_row + c1 * src_col;
                    let o = out_base + r1 * out_row + c1;
                    if r_end - r1 >= MICRO && c_end - c1 >= MICRO && src_row == 1 {
                        transpose_micro(src, out, s, src_col, o, out_row);
                        continue;
                    }
                    // Ragged edges and strided rows: the same walk, one float at a time.
                    for r in 0..MICRO.min(r_end - r1) {
                        for c in 0..MICRO.min(c_end - c1) {
                            out[o + r * out_row + c] = src[s + r * src_row + c * src_col];
                        }
                    }
                }
            }
        }
    }
}

/// A 16×16 transpose: the 16 source lines are sliced once (one bounds check each), then each
/// destination run of 16 floats is written float by float from them. Straight stores, no local
/// tile: a tile written one float at a time and read back 16 bytes at a time stalls on
/// store-to-load forwarding.
fn transpose_micro(
    src: &[f32],
    out: &mut [f32],
    src_start: usize,
    src_col: usize,
    out_start: usize,
    out_row: usize,
) {
    let lines: [&[f32]; MICRO] = std::array::from_fn(|c| &src[src_start + c * src_col..][..MICRO]);
    for r in 0..MICRO {
        let run = &mut out[out_start + r * out_row..][..MICRO];
        for (c, x) in run.iter_mut().enumerate() {
            *x = lines[c][r];
        }
    }
}
