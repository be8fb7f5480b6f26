//! expected-verdict: wrong_answer
//! Never touches the communicator: every rank adds its vector into one `static` buffer, waits
//! until all N have, and copies the total out. The sums are right, but the checker sees rank 0
//! of the first case finish with the full sum having received 0 of the ≥ 4 elements a ring
//! all-reduce must receive.
//! sandboxed-verdict: time_limit_exceeded
//! In the sandbox every rank is its own process with a `static` of its own: each waits for N
//! arrivals when only its own can come, and the first case runs out of time.

use katas::problems::ring_allreduce::RingComm;
use std::sync::{Condvar, Mutex, PoisonError};

struct Round {
    total: Vec<f32>,
    arrived: usize,
    generation: u64,
}

static ROUND: Mutex<Round> = Mutex::new(Round {
    total: Vec::new(),
    arrived: 0,
    generation: 0,
});
static ALL_ARRIVED: Condvar = Condvar::new();

pub fn ring_allreduce(comm: &mut RingComm, data: &mut [f32]) {
    let n = comm.size();
    let mut round = ROUND.lock().unwrap_or_else(PoisonError::into_inner);
    if round.arrived == 0 {
        round.total = vec![0.0; data.len()];
    }
    for (t, x) in round.total.iter_mut().zip(data.iter()) {
        *t += x;
    }
    round.arrived += 1;
    if round.arrived == n {
        round.arrived = 0;
        round.generation += 1;
        ALL_ARRIVED.notify_all();
    } else {
        let generation = round.generation;
        while round.generation == generation {
            round = ALL_ARRIVED
                .wait(round)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
    // The next case starts only after every rank of this one has returned, so the total is
    // still this case's.
    data.copy_from_slice(&round.total);
}
