//! expected-verdict: wrong_answer
//! Cuts the vector into chunks of M/N elements (rounded down), so the last M mod N elements are
//! never reduced.

use katas::problems::ring_allreduce::RingComm;
use std::ops::Range;

pub fn ring_allreduce(comm: &mut RingComm, data: &mut [f32]) {
    let (n, r) = (comm.size(), comm.rank());
    let size = data.len() / n;
    let chunk = |c: usize| -> Range<usize> { c * size..(c + 1) * size };
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
}
