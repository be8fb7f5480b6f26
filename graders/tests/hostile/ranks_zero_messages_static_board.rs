//! expected-verdict: wrong_answer
//! mode: submit
//! kata: ring-allreduce
//! attack: the data flow the counters cannot see: every rank sends its neighbour one message of M zeros (so each receives the M elements a ring all-reduce must), and sums the real vectors through a `static` board shared by the ranks; it waits at most 300 ms for the others, then uses what it has
//! defence: every rank is its own sandboxed process holding only its own vector, and the ring lives in the grader: the board holds one rank's vector, the sums are wrong -> wrong_answer (among threads, as under `cargo test -p katas`, it would be accepted)

use katas::problems::ring_allreduce::RingComm;
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

struct Board {
    total: Vec<f32>,
    arrived: usize,
    taken: usize,
}

static BOARD: Mutex<Board> = Mutex::new(Board {
    total: Vec::new(),
    arrived: 0,
    taken: 0,
});
static CHANGED: Condvar = Condvar::new();

pub fn ring_allreduce(comm: &mut RingComm, data: &mut [f32]) {
    let n = comm.size();
    // The counters see exactly the volume they ask for.
    comm.send(vec![0.0; data.len()]);
    let _ = comm.recv();
    let mut board = BOARD.lock().unwrap_or_else(PoisonError::into_inner);
    if board.arrived == 0 {
        board.total = vec![0.0; data.len()];
    }
    for (t, x) in board.total.iter_mut().zip(data.iter()) {
        *t += x;
    }
    board.arrived += 1;
    CHANGED.notify_all();
    let until = Instant::now() + Duration::from_millis(300);
    while board.arrived < n && Instant::now() < until {
        board = CHANGED
            .wait_timeout(board, Duration::from_millis(10))
            .unwrap_or_else(PoisonError::into_inner)
            .0;
    }
    data.copy_from_slice(&board.total[..data.len()]);
    board.taken += 1;
    if board.taken == board.arrived {
        *board = Board {
            total: Vec::new(),
            arrived: 0,
            taken: 0,
        };
    }
}
