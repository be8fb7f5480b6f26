//! expected-verdict: wrong_answer
//! Keeps the collective count right with an `all_reduce` of an empty matrix, but hands the
//! partial products to the other ranks through a `static` and sums them there, in rank order so
//! every rank gets the same bits. Right numbers, yet on the first row_parallel case rank 0
//! returns a 2×2 Y (4 elements) whose all_reduce carried 0 elements.
//! sandboxed-verdict: time_limit_exceeded
//! In the sandbox every rank is its own process with a board of its own: a rank waits for
//! partial products no other rank can put there, and the first such case runs out of time.

use katas::problems::tp_split::{Matrix, TpComm, gelu};
use std::sync::{Condvar, Mutex, PoisonError};

struct Board {
    parts: Vec<Option<Matrix>>,
    arrived: usize,
    generation: u64,
}

static BOARD: Mutex<Board> = Mutex::new(Board {
    parts: Vec::new(),
    arrived: 0,
    generation: 0,
});
static ALL_POSTED: Condvar = Condvar::new();

/// Every rank's `part`, summed in rank order.
fn sum_behind_the_back(comm: &mut TpComm, part: Matrix) -> Matrix {
    let (n, r) = (comm.world_size(), comm.rank());
    // The count the checker asks for, with nothing in it.
    comm.all_reduce(&mut Matrix::zeros(0, 0));
    let mut board = BOARD.lock().unwrap_or_else(PoisonError::into_inner);
    if board.arrived == 0 {
        board.parts = vec![None; n];
    }
    board.parts[r] = Some(part);
    board.arrived += 1;
    if board.arrived == n {
        board.arrived = 0;
        board.generation += 1;
        ALL_POSTED.notify_all();
    } else {
        let generation = board.generation;
        while board.generation == generation {
            board = ALL_POSTED
                .wait(board)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
    let mut parts = board.parts.iter().flatten();
    let mut sum = parts.next().expect("rank 0 posted").clone();
    for p in parts {
        for (a, b) in sum.data.iter_mut().zip(&p.data) {
            *a += b;
        }
    }
    sum
}

pub fn column_parallel(comm: &mut TpComm, x: &Matrix, w_shard: &Matrix, b_shard: &[f32]) -> Matrix {
    let mut y = x.matmul(w_shard);
    y.add_row_vector(b_shard);
    comm.all_gather(&y)
}

pub fn row_parallel(comm: &mut TpComm, x_shard: &Matrix, w_shard: &Matrix, bias: &[f32]) -> Matrix {
    let mut y = sum_behind_the_back(comm, x_shard.matmul(w_shard));
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
