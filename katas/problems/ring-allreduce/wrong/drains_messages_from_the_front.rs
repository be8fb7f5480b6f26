//! expected-verdict: time_limit_exceeded
//! The ring algorithm with the right traffic, but it consumes each message like a queue,
//! `incoming.remove(0)` per element: every removal shifts the rest of the chunk, so a step costs
//! O((M/N)²) instead of O(M/N). With N = 2 and M = 1 310 720 that is ~4·10^11 element moves
//! per rank.

use katas::problems::ring_allreduce::RingComm;
use std::ops::Range;

pub fn ring_allreduce(comm: &mut RingComm, data: &mut [f32]) {
    let (n, r, m) = (comm.size(), comm.rank(), data.len());
    let chunk = |c: usize| -> Range<usize> { c * m / n..(c + 1) * m / n };
    for s in 0..n - 1 {
        comm.send(data[chunk((r + n - s) % n)].to_vec());
        let mut incoming = comm.recv();
        let mut i = chunk((r + 2 * n - s - 1) % n).start;
        while !incoming.is_empty() {
            data[i] += incoming.remove(0);
            i += 1;
        }
    }
    for s in 0..n - 1 {
        comm.send(data[chunk((r + 1 + n - s) % n)].to_vec());
        let mut incoming = comm.recv();
        let mut i = chunk((r + n - s) % n).start;
        while !incoming.is_empty() {
            data[i] = incoming.remove(0);
            i += 1;
        }
    }
}
