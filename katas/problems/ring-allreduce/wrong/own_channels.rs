//! expected-verdict: wrong_answer
//! Runs a correct reduce-scatter + all-gather, but over a ring of its own `std::sync::mpsc`
//! channels kept in a `static`, so the communicator carries nothing: rank 0 of the first case
//! finishes with the full sum having received 0 of the ≥ 4 elements a ring all-reduce must
//! receive.
//! sandboxed-verdict: time_limit_exceeded
//! In the sandbox every rank is its own process with channels of its own: a rank waits on an
//! inbox that only its own process could fill, and the first case runs out of time.

use katas::problems::ring_allreduce::{MAX_RANKS, RingComm};
use std::ops::Range;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{LazyLock, Mutex, PoisonError};

/// Both ends of one rank's inbox.
type Inbox = (Sender<Vec<f32>>, Mutex<Receiver<Vec<f32>>>);

/// `INBOX[r]`: the channel rank r reads. Every case drains what it sends, so the channels can
/// be reused from case to case.
static INBOX: LazyLock<Vec<Inbox>> = LazyLock::new(|| {
    (0..MAX_RANKS)
        .map(|_| {
            let (tx, rx) = channel();
            (tx, Mutex::new(rx))
        })
        .collect()
});

fn send(to: usize, data: &[f32]) {
    INBOX[to]
        .0
        .send(data.to_vec())
        .expect("the receiver lives in a static");
}

fn recv(me: usize) -> Vec<f32> {
    let rx = INBOX[me].1.lock().unwrap_or_else(PoisonError::into_inner);
    rx.recv().expect("the sender lives in a static")
}

pub fn ring_allreduce(comm: &mut RingComm, data: &mut [f32]) {
    let (n, r, m) = (comm.size(), comm.rank(), data.len());
    let right = (r + 1) % n;
    let chunk = |c: usize| -> Range<usize> { c * m / n..(c + 1) * m / n };
    for s in 0..n - 1 {
        send(right, &data[chunk((r + n - s) % n)]);
        let incoming = recv(r);
        for (x, y) in data[chunk((r + 2 * n - s - 1) % n)]
            .iter_mut()
            .zip(&incoming)
        {
            *x += y;
        }
    }
    for s in 0..n - 1 {
        send(right, &data[chunk((r + 1 + n - s) % n)]);
        let incoming = recv(r);
        data[chunk((r + n - s) % n)].copy_from_slice(&incoming);
    }
}
