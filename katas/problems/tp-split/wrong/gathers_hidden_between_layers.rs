//! expected-verdict: wrong_answer
//! Builds the MLP from column_parallel then row_parallel, all-gathering the hidden activation only to slice it again: right numbers, one collective too many.

use katas::problems::tp_split::{Matrix, TpComm, gelu, shard_range};

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
    let mut h = column_parallel(comm, x, w1_shard, b1_shard);
    h.apply(gelu);
    let mine = shard_range(h.cols, comm.world_size(), comm.rank());
    row_parallel(comm, &h.columns(mine), w2_shard, b2)
}
