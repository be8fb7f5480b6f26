//! expected-verdict: time_limit_exceeded
//! The right split and the right collectives, but Y is filled one column at a time and X·W is
//! recomputed for every column: O(M·K·N²) per rank instead of O(M·K·N), thousands of times the
//! reference's work on the first performance case.

use katas::problems::tp_split::{Matrix, TpComm, gelu};

/// `x · w`, column by column.
fn product(x: &Matrix, w: &Matrix) -> Matrix {
    let mut y = Matrix::zeros(x.rows, w.cols);
    for j in 0..w.cols {
        let full = x.matmul(w);
        for i in 0..x.rows {
            y.data[i * w.cols + j] = full.get(i, j);
        }
    }
    y
}

pub fn column_parallel(comm: &mut TpComm, x: &Matrix, w_shard: &Matrix, b_shard: &[f32]) -> Matrix {
    let mut y = product(x, w_shard);
    y.add_row_vector(b_shard);
    comm.all_gather(&y)
}

pub fn row_parallel(comm: &mut TpComm, x_shard: &Matrix, w_shard: &Matrix, bias: &[f32]) -> Matrix {
    let mut y = product(x_shard, w_shard);
    comm.all_reduce(&mut y);
    y.add_row_vector(bias);
    y
}

pub fn mlp(
    comm: &mut TpComm,
    x: &Matrix,
    w1_shard: &Matrix,
    b1_shard: &[f32],
    w2_shard: &Matrix,
    b2: &[f32],
) -> Matrix {
    let mut h = product(x, w1_shard);
    h.add_row_vector(b1_shard);
    h.apply(gelu);
    row_parallel(comm, &h, w2_shard, b2)
}
