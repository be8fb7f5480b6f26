//! view-contiguous: implement the five functions. `cargo test -p katas view-contiguous` checks them.

use katas::problems::view_contiguous::{Layout, Tensor, ViewError};

/// True when the elements, walked in row-major order, sit at consecutive storage positions.
/// Strides of size-1 dimensions do not matter; a tensor with no elements is contiguous.
pub fn is_contiguous(layout: &Layout) -> bool {
    todo!("decide whether {layout} is row-major")
}

/// The same elements in the same row-major order with a new shape (one `-1` may be inferred),
/// sharing the storage — or the `ViewError` that explains why that is impossible.
pub fn view(layout: &Layout, shape: &[isize]) -> Result<Layout, ViewError> {
    todo!("view {layout} as {shape:?}")
}

/// Swaps dimensions `dim0` and `dim1` (both valid, possibly equal). Metadata only.
pub fn transpose(layout: &Layout, dim0: usize, dim1: usize) -> Layout {
    todo!("swap dims {dim0} and {dim1} of {layout}")
}

/// Dimension `k` of the result is dimension `dims[k]` of `layout` (`dims` is a permutation).
pub fn permute(layout: &Layout, dims: &[usize]) -> Layout {
    todo!("permute {layout} by {dims:?}")
}

/// A row-major tensor with the same elements: `tensor` itself (same storage, no copy) when it is
/// already contiguous, otherwise a fresh buffer with offset 0.
pub fn contiguous(tensor: &Tensor) -> Tensor {
    todo!("materialise {:?} as a row-major copy", tensor.layout)
}
