//! Ring all-reduce as reduce-scatter followed by all-gather, NCCL style.
//!
//! The vector is cut into N chunks. In each of the 2(N−1) steps every rank sends one chunk to
//! its right neighbour and receives one from its left, so every link carries M/N elements per
//! step and no rank ever sends more than 2(N−1)·ceil(M/N) elements in total.

use katas::problems::ring_allreduce::RingComm;
use std::ops::Range;

/// Sums `data` element-wise across all ranks of `comm`, in place.
pub fn ring_allreduce(comm: &mut RingComm, data: &mut [f32]) {
    let n = comm.size();
    let r = comm.rank();
    let m = data.len();
    // Chunk c covers [c·M/N, (c+1)·M/N): lengths differ by at most one, and when M < N some
    // chunks are empty. Every rank computes the same boundaries, so a received chunk always
    // fits the slot it is meant for.
    let chunk = |c: usize| -> Range<usize> { c * m / n..(c + 1) * m / n };

    // Reduce-scatter. At step s rank r forwards the partial sum of chunk r−s (its own chunk at
    // s = 0, afterwards the one it just accumulated) and adds its values into chunk r−s−1.
    // After N−1 steps chunk r+1 has passed through every rank: it is the full sum.
    for s in 0..n - 1 {
        let send = (r + n - s) % n;
        let recv = (r + 2 * n - s - 1) % n;
        comm.send(&data[chunk(send)]);
        let incoming = comm.recv();
        for (x, y) in data[chunk(recv)].iter_mut().zip(&incoming) {
            *x += y;
        }
    }

    // All-gather. Same rotation shifted by one: start by sending the finished chunk r+1, then
    // pass on whatever finished chunk just arrived, overwriting instead of adding.
    for s in 0..n - 1 {
        let send = (r + 1 + n - s) % n;
        let recv = (r + n - s) % n;
        comm.send(&data[chunk(send)]);
        let incoming = comm.recv();
        data[chunk(recv)].copy_from_slice(&incoming);
    }
    // Sends never block, so "send, then receive" at every step cannot deadlock: each rank's
    // message for step s is already in flight before anyone waits for it.
}
