//! expected-verdict: wrong_answer
//! Returns each rank's partial product plus the bias without summing across ranks: only right on one rank.

use katas::problems::tp_split::{Matrix, TpComm, gelu};

pub fn column_parallel(comm: &mut TpComm, x: &Matrix, w_shard: &Matrix, b_shard: &[f32]) -> Matrix {
    let mut y = x.matmul(w_shard);
    y.add_row_vector(b_shard);
    comm.all_gather(&y)
}

pub fn row_parallel(comm: &mut TpComm, x_shard: &Matrix, w_shard: &Matrix, bias: &[f32]) -> Matrix {
    let _ = comm;
    let mut y = x_shard.matmul(w_shard);
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
    let mut h = x.matmul(w1_shard);
    h.add_row_vector(b1_shard);
    h.apply(gelu);
    row_parallel(comm, &h, w2_shard, b2)
}
