//! expected-verdict: wrong_answer
//! Stops after reduce-scatter: each rank holds the full sum of one chunk only, partial sums
//! everywhere else.

use katas::problems::ring_allreduce::RingComm;
use std::ops::Range;

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
}
