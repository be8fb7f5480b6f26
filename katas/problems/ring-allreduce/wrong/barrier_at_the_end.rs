//! expected-verdict: wrong_answer
//! Right sums, but ends with an empty "I'm done" token passed around as a barrier: one message
//! per rank more than the 2(N−1) the algorithm needs.

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
    for s in 0..n - 1 {
        comm.send(data[chunk((r + 1 + n - s) % n)].to_vec());
        let incoming = comm.recv();
        data[chunk((r + n - s) % n)].copy_from_slice(&incoming);
    }
    // "Make sure my neighbour has finished too."
    comm.send(Vec::new());
    let token = comm.recv();
    assert!(token.is_empty());
}
