//! Ring all-reduce as reduce-scatter followed by all-gather, NCCL style, with one buffer per
//! rank that travels round the ring instead of a fresh message per step.
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
    if n == 1 {
        // Alone on the ring: `data` already is the sum, and there is no one to talk to.
        return;
    }
    // Chunk c covers [c·M/N, (c+1)·M/N): lengths differ by at most one, and when M < N some
    // chunks are empty. Every rank computes the same boundaries, so a received chunk always
    // fits the slot it is meant for.
    let chunk = |c: usize| -> Range<usize> { c * m / n..(c + 1) * m / n };

    // Reduce-scatter. At step s rank r forwards the partial sum of chunk r−s and receives the
    // partial sum of chunk r−s−1, to which it adds its own values. That sum is exactly what it
    // forwards at step s+1, so the received buffer is added into and sent on as it is: the
    // only copy out of `data` is the first message, rank r's own chunk.
    let mut buf = data[chunk(r)].to_vec();
    for s in 0..n - 2 {
        comm.send(buf);
        buf = comm.recv();
        let mine = &data[chunk((r + 2 * n - s - 1) % n)];
        for (b, x) in buf.iter_mut().zip(mine) {
            *b += x;
        }
    }
    // The last step completes chunk r+1: one pass adds it and stores the finished sum in
    // `data`, where a separate add and copy would walk the chunk twice.
    comm.send(buf);
    buf = comm.recv();
    let mut c = (r + 1) % n;
    for (b, x) in buf.iter_mut().zip(&mut data[chunk(c)]) {
        *b += *x;
        *x = *b;
    }

    // All-gather: pass the finished chunk in hand on, take the next finished chunk (one index
    // lower) from the left and store it. N−1 messages, N−1 copies.
    for _ in 0..n - 1 {
        comm.send(buf);
        buf = comm.recv();
        c = (c + n - 1) % n;
        data[chunk(c)].copy_from_slice(&buf);
    }
    // Sends never block, so "send, then receive" at every step cannot deadlock: each rank's
    // message for step s is already in flight before anyone waits for it.
}
