//! tp-split: implement the three functions. `cargo test -p katas tp-split` checks them.

use katas::problems::tp_split::{Matrix, TpComm};

/// `Y = X·W + b` with `W` (K×N_out) and `b` split by columns across the ranks.
/// Returns the full `Y` (batch × N_out) on every rank.
pub fn column_parallel(comm: &mut TpComm, x: &Matrix, w_shard: &Matrix, b_shard: &[f32]) -> Matrix {
    todo!(
        "rank {} of {}: X is {}, this rank's W columns are {}, its bias slice has {} values",
        comm.rank(),
        comm.world_size(),
        x.shape(),
        w_shard.shape(),
        b_shard.len()
    )
}

/// `Y = X·W + b` with `W` split by rows and `X` by the matching columns; `bias` is the full bias.
/// Returns the full `Y` on every rank.
pub fn row_parallel(comm: &mut TpComm, x_shard: &Matrix, w_shard: &Matrix, bias: &[f32]) -> Matrix {
    todo!(
        "rank {} of {}: X columns {}, W rows {}, full bias of {} values",
        comm.rank(),
        comm.world_size(),
        x_shard.shape(),
        w_shard.shape(),
        bias.len()
    )
}

/// `Y = GeLU(X·A + b1)·B + b2` with `A`/`b1` split by columns and `B` by rows; `b2` is full.
/// Exactly one all_reduce and no all_gather. Returns the full `Y` on every rank.
pub fn mlp(
    comm: &mut TpComm,
    x: &Matrix,
    w1_shard: &Matrix,
    b1_shard: &[f32],
    w2_shard: &Matrix,
    b2: &[f32],
) -> Matrix {
    todo!(
        "rank {} of {}: X {}, A columns {}, b1 slice of {}, B rows {}, b2 of {}",
        comm.rank(),
        comm.world_size(),
        x.shape(),
        w1_shard.shape(),
        b1_shard.len(),
        w2_shard.shape(),
        b2.len()
    )
}
