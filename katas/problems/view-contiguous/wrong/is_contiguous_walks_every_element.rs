//! expected-verdict: time_limit_exceeded
//! Decides `is_contiguous` straight from the definition: walks every element in row-major order
//! and checks that each sits one after the previous. Always right, but O(numel) instead of
//! O(ndim), and it runs after every step: the 1200 metadata-only steps on a contiguous
//! 4M-element tensor become 5·10^9 element visits, a minute or so.

use katas::problems::view_contiguous::{Layout, Tensor, ViewError};
use std::sync::Arc;

pub fn is_contiguous(layout: &Layout) -> bool {
    let mut index = vec![0; layout.shape.len()];
    for i in 0..layout.numel() {
        let address: usize = index.iter().zip(&layout.strides).map(|(i, s)| i * s).sum();
        if address != i {
            return false;
        }
        for k in (0..index.len()).rev() {
            index[k] += 1;
            if index[k] < layout.shape[k] {
                break;
            }
            index[k] = 0;
        }
    }
    true
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

pub fn view(layout: &Layout, shape: &[isize]) -> Result<Layout, ViewError> {
    let numel = layout.numel();
    let new_shape = resolve_shape(numel, shape)?;
    if numel == 0 {
        let strides = row_major(&new_shape);
        return Ok(Layout {
            shape: new_shape,
            strides,
            offset: layout.offset,
        });
    }
    // Runs of old dims that step through memory evenly: (elements, innermost stride).
    let mut runs: Vec<(usize, usize)> = Vec::new();
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
    let mut strides = vec![1; new_shape.len()];
    let mut runs = runs.into_iter().rev();
    let mut current = runs.next();
    let mut filled = 1;
    for k in (0..new_shape.len()).rev() {
        let Some((elements, inner)) = current else {
            continue;
        };
        strides[k] = inner * filled;
        if new_shape[k] == 1 {
            continue;
        }
        filled *= new_shape[k];
        if filled == elements {
            current = runs.next();
            filled = 1;
        } else if !elements.is_multiple_of(filled) {
            return Err(ViewError::IncompatibleStrides);
        }
    }
    Ok(Layout {
        shape: new_shape,
        strides,
        offset: layout.offset,
    })
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
