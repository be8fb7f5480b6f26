//! expected-verdict: wrong_answer
//! Passes every rank's whole vector N−1 hops around the ring: right sums, but (N−1)·M elements
//! per rank instead of 2(N−1)/N·M.

use katas::problems::ring_allreduce::RingComm;

pub fn ring_allreduce(comm: &mut RingComm, data: &mut [f32]) {
    let n = comm.size();
    let mut travelling = data.to_vec();
    for _ in 0..n - 1 {
        comm.send(travelling);
        travelling = comm.recv();
        for (x, y) in data.iter_mut().zip(&travelling) {
            *x += y;
        }
    }
}
