//! The view-contiguous reference's copy split over threads (`contiguous_on`, measured by the
//! bench; the kata itself runs one thread) gives the same elements as a plain odometer walk,
//! for every thread count and for layouts whose staged rows are padded and whose are not.

use katas::problems::view_contiguous::{Layout, Tensor, reference, storage};
use std::sync::Arc;

/// The elements of `layout` in row-major order, one index at a time.
fn walk(src: &[f32], layout: &Layout) -> Vec<f32> {
    let mut out = Vec::with_capacity(layout.numel());
    let mut index = vec![0; layout.shape.len()];
    for _ in 0..layout.numel() {
        let at: usize = index.iter().zip(&layout.strides).map(|(i, s)| i * s).sum();
        out.push(src[layout.offset + at]);
        for d in (0..index.len()).rev() {
            index[d] += 1;
            if index[d] < layout.shape[d] {
                break;
            }
            index[d] = 0;
        }
    }
    out
}

#[test]
fn every_thread_count_copies_the_same_elements() {
    let data = Arc::new(storage(1 << 18));
    let layouts = [
        // A transpose with ragged edges (no side a multiple of the tiles).
        (vec![300, 37], vec![1, 300], 5),
        // Staged rows of 1024 floats: padded.
        (vec![40, 1024], vec![1, 40], 0),
        // A permutation (2, 0, 1) of 8×32×64, and one with a strided last dimension.
        (vec![64, 8, 32], vec![1, 2048, 64], 0),
        (vec![16, 8, 20], vec![2, 1000, 50], 3),
    ];
    for (shape, strides, offset) in layouts {
        let tensor = Tensor {
            layout: Layout {
                shape,
                strides,
                offset,
            },
            storage: Arc::clone(&data),
        };
        let expected = walk(&data, &tensor.layout);
        for threads in 1..=3 {
            let copy = reference::contiguous_on(&tensor, threads);
            assert_eq!(
                *copy.storage, expected,
                "{} on {threads} threads",
                tensor.layout
            );
            assert_eq!(copy.layout.shape, tensor.layout.shape);
        }
    }
}
