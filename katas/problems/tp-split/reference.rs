//! Megatron-LM tensor parallelism: the first linear layer split by output columns, the second
//! by input rows, so the only communication of an MLP's forward pass is one all-reduce.

use katas::problems::tp_split::{Matrix, TpComm, gelu};

/// `Y = X·W + b` with `W` and `b` split by columns: rank r owns output columns `N_r`.
pub fn column_parallel(comm: &mut TpComm, x: &Matrix, w_shard: &Matrix, b_shard: &[f32]) -> Matrix {
    // Every rank sees the whole of X, so its block of Y (and its slice of the bias) is complete
    // on its own; the gather only stitches the column blocks together in rank order.
    let mut y = x.matmul(w_shard);
    y.add_row_vector(b_shard);
    comm.all_gather(&y)
}

/// `Y = X·W + b` with `W` split by rows and `X` by the matching columns.
pub fn row_parallel(comm: &mut TpComm, x_shard: &Matrix, w_shard: &Matrix, bias: &[f32]) -> Matrix {
    // Each rank's product covers only its slice of the inner dimension: a partial sum of the
    // whole Y. Summing them is exactly an all-reduce.
    let mut y = x_shard.matmul(w_shard);
    comm.all_reduce(&mut y);
    // Every rank holds the full bias; adding it after the sum counts it once (before the sum,
    // it would be counted once per rank).
    y.add_row_vector(bias);
    y
}

/// `Y = GeLU(X·A + b1)·B + b2`, `A` split by columns and `B` by rows.
pub fn mlp(
    comm: &mut TpComm,
    x: &Matrix,
    w1_shard: &Matrix,
    b1_shard: &[f32],
    w2_shard: &Matrix,
    b2: &[f32],
) -> Matrix {
    // First layer, column-parallel but without the gather: this rank's hidden columns are
    // complete, and GeLU acts on each entry alone, so it can run on the shard directly.
    let mut h = x.matmul(w1_shard);
    h.add_row_vector(b1_shard);
    h.apply(gelu);
    // The hidden columns this rank owns are exactly the rows of B it owns: the second layer is
    // row-parallel with its input already split the right way.
    row_parallel(comm, &h, w2_shard, b2)
}
