//! expected-verdict: wrong_answer
//! Refuses to view any non-contiguous tensor, even when the new shape only splits a dimension.

use katas::problems::view_contiguous::{Layout, Tensor, ViewError};
use std::sync::Arc;

pub fn is_contiguous(layout: &Layout) -> bool {
    if layout.numel() == 0 {
        return true;
    }
    let mut expected = 1;
    for (&size, &stride) in layout.shape.iter().zip(&layout.strides).rev() {
        if size != 1 {
            if stride != expected {
                return false;
            }
            expected *= size;
        }
    }
    true
}

pub fn view(layout: &Layout, shape: &[isize]) -> Result<Layout, ViewError> {
    let new_shape = resolve_shape(layout.numel(), shape)?;
    if !is_contiguous(layout) {
        return Err(ViewError::IncompatibleStrides);
    }
    let strides = row_major(&new_shape);
    Ok(Layout {
        shape: new_shape,
        strides,
        offset: layout.offset,
    })
}

fn row_major(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![0; shape.len()];
    let mut step = 1;
    for k in (0..shape.len()).rev() {
        strides[k] = step;
        step *= shape[k].max(1);
    }
    strides
}

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

pub fn transpose(layout: &Layout, dim0: usize, dim1: usize) -> Layout {
    let mut out = layout.clone();
    out.shape.swap(dim0, dim1);
    out.strides.swap(dim0, dim1);
    out
}

pub fn permute(layout: &Layout, dims: &[usize]) -> Layout {
    Layout {
        shape: dims.iter().map(|&d| layout.shape[d]).collect(),
        strides: dims.iter().map(|&d| layout.strides[d]).collect(),
        offset: layout.offset,
    }
}

/// Reads every element in row-major order with an odometer over the multi-index.
fn gather(tensor: &Tensor, start: usize) -> Tensor {
    let l = &tensor.layout;
    let mut data = Vec::with_capacity(l.numel());
    let mut index = vec![0; l.shape.len()];
    for _ in 0..l.numel() {
        let addr: usize = start
            + index
                .iter()
                .zip(&l.strides)
                .map(|(i, s)| i * s)
                .sum::<usize>();
        data.push(tensor.storage[addr]);
        for k in (0..index.len()).rev() {
            index[k] += 1;
            if index[k] < l.shape[k] {
                break;
            }
            index[k] = 0;
        }
    }
    Tensor {
        layout: Layout {
            shape: l.shape.clone(),
            strides: row_major(&l.shape),
            offset: 0,
        },
        storage: Arc::new(data),
    }
}

pub fn contiguous(tensor: &Tensor) -> Tensor {
    if is_contiguous(&tensor.layout) {
        return tensor.clone();
    }
    gather(tensor, tensor.layout.offset)
}
