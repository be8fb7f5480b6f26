//! expected-verdict: wrong_answer
//! Applies GeLU to X·A and only then adds b1, computing GeLU(X·A) + b1 instead of GeLU(X·A + b1).

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
    h.apply(gelu);
    h.add_row_vector(b1_shard);
    row_parallel(comm, &h, w2_shard, b2)
}
