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
    if is_contiguous(&tensor.layout) {
        // Same layout, same buffer: an Arc clone costs a counter increment.
        return tensor.clone();
    }
    let shape = tensor.layout.shape.clone();
    let data = gather(&tensor.storage, &tensor.layout);
    Tensor {
        layout: Layout {
            strides: row_major(&shape),
            shape,
            offset: 0,
        },
        storage: Arc::new(data),
    }
}

/// Shape of the micro tiles the transposed copy moves through a small local array: 16 source
/// lines, 8 floats (32 bytes) read from each, and 8 destination runs of 16 floats, each a full
/// 64-byte cache line, so no destination line is written in halves at two different times.
const MICRO_ROWS: usize = 8;
const MICRO_COLS: usize = 16;
/// Side of the blocks the micro tiles are grouped into: a 128×128 block of f32 reads 128 source
/// lines and writes 128 destination lines (2 × 64 KiB), which stay in L2 until every float in
/// them has been used, and touches few enough pages for the TLB.
const BLOCK: usize = 128;

/// Copies the elements of `layout` out of `src` in row-major order. Not called on contiguous
/// layouts, so there is at least one element and one dimension.
///
/// Writes are sequential along the last dimension; reads are sequential along whichever
/// dimension has the smallest stride. When those differ (a transpose), a plain loop strides
/// through memory on one side and misses cache on almost every access, so the copy runs over
/// square tiles of those two dimensions: each cache line read or written is fully used while it
/// is still in cache.
fn gather(src: &[f32], layout: &Layout) -> Vec<f32> {
    let (shape, strides) = (&layout.shape, &layout.strides);
    let out_strides = row_major(shape);
    let mut out = vec![0.0; layout.numel()];
    let last = shape.len() - 1;
    let fast = (0..shape.len())
        .filter(|&d| shape[d] > 1)
        .min_by_key(|&d| (strides[d], d != last))
        .unwrap_or(last);
    let cols = (shape[last], strides[last]);
    let rows = if fast == last {
        (1, 0, 0)
    } else {
        (shape[fast], strides[fast], out_strides[fast])
    };

    // Every other dimension is walked with an odometer; each position is one 2-D block copy.
    let others: Vec<usize> = (0..shape.len())
        .filter(|&d| d != fast && d != last)
        .collect();
    let mut index = vec![0; others.len()];
    let (mut src_base, mut out_base) = (layout.offset, 0);
    loop {
        copy_block(src, &mut out, src_base, out_base, rows, cols);
        let mut k = others.len();
        loop {
            if k == 0 {
                return out;
            }
            k -= 1;
            let d = others[k];
            index[k] += 1;
            if index[k] < shape[d] {
                src_base += strides[d];
                out_base += out_strides[d];
                break;
            }
            src_base -= strides[d] * (shape[d] - 1);
            out_base -= out_strides[d] * (shape[d] - 1);
            index[k] = 0;
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
    if src_col == 1 {
        // Both sides are sequential along a row: a memcpy per row.
        for r in 0..rows {
            let (s, o) = (src_base + r * src_row, out_base + r * out_row);
            out[o..o + cols].copy_from_slice(&src[s..s + cols]);
        }
        return;
    }
    for r0 in (0..rows).step_by(BLOCK) {
        for c0 in (0..cols).step_by(BLOCK) {
            let (r_end, c_end) = ((r0 + BLOCK).min(rows), (c0 + BLOCK).min(cols));
            // Source lines outermost: each group of 16 is finished before the next.
            for c1 in (c0..c_end).step_by(MICRO_COLS) {
                for r1 in (r0..r_end).step_by(MICRO_ROWS) {
                    let s = src_base + r1 * src_row + c1 * src_col;
                    let o = out_base + r1 * out_row + c1;
                    if r_end - r1 >= MICRO_ROWS && c_end - c1 >= MICRO_COLS && src_row == 1 {
                        transpose_micro(src, out, s, src_col, o, out_row);
                        continue;
                    }
                    // Ragged edges and strided rows: the same walk, one float at a time.
                    for r in 0..MICRO_ROWS.min(r_end - r1) {
                        for c in 0..MICRO_COLS.min(c_end - c1) {
                            out[o + r * out_row + c] = src[s + r * src_row + c * src_col];
                        }
                    }
                }
            }
        }
    }
}

/// An 8×16 transpose through a local array: each source line is read as one 8-float slice and
/// each destination run written as one, so the compiler can use vector loads and stores and
/// check bounds once per line instead of once per float.
fn transpose_micro(
    src: &[f32],
    out: &mut [f32],
    src_start: usize,
    src_col: usize,
    out_start: usize,
    out_row: usize,
) {
    let mut tile = [[0.0f32; MICRO_COLS]; MICRO_ROWS];
    for c in 0..MICRO_COLS {
        let line = &src[src_start + c * src_col..][..MICRO_ROWS];
        for (r, &x) in line.iter().enumerate() {
            tile[r][c] = x;
        }
    }
    for (r, row) in tile.iter().enumerate() {
        out[out_start + r * out_row..][..MICRO_COLS].copy_from_slice(row);
    }
}
