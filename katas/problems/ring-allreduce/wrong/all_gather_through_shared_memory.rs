//! expected-verdict: wrong_answer
//! Does the reduce-scatter through the communicator, then skips the all-gather: every rank
//! writes its finished chunk into a buffer behind an `Arc` kept in a `OnceLock` and copies the
//! whole vector back out. Half the traffic, and sums that are right, but rank 0 of the first
//! case (N = 2, M = 4) finishes with the full sum having received only 2 of the ≥ 4 elements a
//! ring all-reduce must receive.
//! sandboxed-verdict: time_limit_exceeded
//! In the sandbox every rank is its own process, so each has a board of its own: rank 0 waits
//! for chunks no other rank can write there, and the first case runs out of time.

use katas::problems::ring_allreduce::RingComm;
use std::ops::Range;
use std::sync::{Arc, Condvar, Mutex, OnceLock, PoisonError};

#[derive(Default)]
struct Board {
    vector: Vec<f32>,
    written: usize,
    generation: u64,
}

static BOARD: OnceLock<Arc<(Mutex<Board>, Condvar)>> = OnceLock::new();

pub fn ring_allreduce(comm: &mut RingComm, data: &mut [f32]) {
    let (n, r, m) = (comm.size(), comm.rank(), data.len());
    let chunk = |c: usize| -> Range<usize> { c * m / n..(c + 1) * m / n };
    for s in 0..n - 1 {
        comm.send(data[chunk((r + n - s) % n)].to_vec());
        let incoming = comm.recv();
        for (x, y) in data[chunk((r + 2 * n - s - 1) % n)]
            .iter_mut()
            .zip(&incoming)
        {
            *x += y;
        }
    }

    // Rank r now holds the finished chunk r + 1: post it and read everyone else's.
    let board = Arc::clone(BOARD.get_or_init(Arc::default));
    let (lock, all_written) = &*board;
    let mut b = lock.lock().unwrap_or_else(PoisonError::into_inner);
    if b.written == 0 {
        b.vector = vec![0.0; m];
    }
    let mine = chunk((r + 1) % n);
    b.vector[mine.clone()].copy_from_slice(&data[mine]);
    b.written += 1;
    if b.written == n {
        b.written = 0;
        b.generation += 1;
        all_written.notify_all();
    } else {
        let generation = b.generation;
        while b.generation == generation {
            b = all_written.wait(b).unwrap_or_else(PoisonError::into_inner);
        }
    }
    data.copy_from_slice(&b.vector);
}
