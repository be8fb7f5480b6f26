//! expected-verdict: wrong_answer
//! Runs both matmuls on the shard, all-reduces, and only then applies GeLU: the nonlinearity lands on the wrong layer.

use katas::problems::tp_split::{Matrix, TpComm, gelu};

pub fn column_parallel(comm: &mut TpComm, x: &Matrix, w_shard: &Matrix, b_shard: &[f32]) -> Matrix {
    let mut y = x.matmul(w_shard);
    y.add_row_vector(b_shard);
    comm.all_gather(&y)
}

pub fn row_parallel(comm: &mut TpComm, x_shard: &Matrix, w_shard: &Matrix, bias: &[f32]) -> Matrix {
    let mut y = x_shard.matmul(w_shard);
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
    let mut h = x.matmul(w1_shard);
    h.add_row_vector(b1_shard);
    let mut y = h.matmul(w2_shard);
    comm.all_reduce(&mut y);
    y.apply(gelu);
    y.add_row_vector(b2);
    y
}
