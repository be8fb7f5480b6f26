//! expected-verdict: runtime_error
//! Every rank waits for its left neighbour before sending anything, so the whole ring deadlocks
//! on the first step.

use katas::problems::ring_allreduce::RingComm;
use std::ops::Range;

pub fn ring_allreduce(comm: &mut RingComm, data: &mut [f32]) {
    let (n, r, m) = (comm.size(), comm.rank(), data.len());
    let chunk = |c: usize| -> Range<usize> { c * m / n..(c + 1) * m / n };
    for s in 0..n - 1 {
        let incoming = comm.recv();
        let recv = (r + 2 * n - s - 1) % n;
        for (x, y) in data[chunk(recv)].iter_mut().zip(&incoming) {
            *x += y;
        }
        comm.send(data[chunk((r + n - s) % n)].to_vec());
    }
    for s in 0..n - 1 {
        let incoming = comm.recv();
        data[chunk((r + n - s) % n)].copy_from_slice(&incoming);
        comm.send(data[chunk((r + 1 + n - s) % n)].to_vec());
    }
}
