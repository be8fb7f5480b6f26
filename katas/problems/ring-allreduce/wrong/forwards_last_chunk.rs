//! expected-verdict: wrong_answer
//! Writes the all-gather as "receive, store, forward" and forwards the last chunk too: right
//! sums, but one message per rank is sent to a neighbour that already has it and never reads it.

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
    let mut c = (r + 1) % n;
    comm.send(data[chunk(c)].to_vec());
    for _ in 0..n - 1 {
        let incoming = comm.recv();
        c = (c + n - 1) % n;
        data[chunk(c)].copy_from_slice(&incoming);
        comm.send(incoming);
    }
}
