//! expected-verdict: accepted
//! mode: run
//! kata: ring-allreduce
//! attack: a rank looks for the other ranks to read their vectors behind the ring: other processes in /proc (whose /proc/PID/mem would hold them), files another rank could have left in /tmp or /dev/shm, and the other ranks' threads in its own process
//! defence: every rank is its own sandbox job: its own pid namespace (only itself and the sandbox's init in /proc), its own uid, tmpfs and ipc namespace, and one process per rank -> accepted; anything found is printed and the answers turned wrong -> wrong_answer

use katas::problems::ring_allreduce::RingComm;
use std::ops::Range;

/// What a rank can see of anyone else; empty when it sees no one.
fn others() -> Vec<String> {
    let me = std::process::id();
    let mut seen = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Ok(pid) = name.parse::<u32>() {
                // pid 1 is the sandbox's init, which holds no rank's data.
                if pid != me && pid != 1 {
                    let mem = std::fs::File::open(format!("/proc/{pid}/mem")).is_ok();
                    seen.push(format!("process {pid} (mem readable: {mem})"));
                }
            }
        }
    }
    // Every thread of this process: the runner's main thread only, since no rank is a thread.
    if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
        let threads = tasks.count();
        if threads > 1 {
            seen.push(format!("{threads} threads in this process"));
        }
    }
    for dir in ["/tmp", "/dev/shm"] {
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                seen.push(format!("{dir}/{}", e.file_name().to_string_lossy()));
            }
        }
    }
    let _ = std::fs::write(format!("/tmp/rank-{me}"), b"here");
    seen.retain(|s| !s.ends_with(&format!("rank-{me}")));
    seen
}

pub fn ring_allreduce(comm: &mut RingComm, data: &mut [f32]) {
    let seen = others();
    if !seen.is_empty() {
        println!("rank {} sees: {seen:?}", comm.rank());
        data.iter_mut().for_each(|x| *x = f32::NAN);
        return;
    }
    let (n, r, m) = (comm.size(), comm.rank(), data.len());
    if n == 1 {
        return;
    }
    let chunk = |c: usize| -> Range<usize> { c * m / n..(c + 1) * m / n };
    let mut buf = data[chunk(r)].to_vec();
    for s in 0..n - 1 {
        comm.send(buf);
        buf = comm.recv();
        let c = (r + 2 * n - s - 1) % n;
        for (b, x) in buf.iter_mut().zip(&data[chunk(c)]) {
            *b += x;
        }
        if s == n - 2 {
            data[chunk(c)].copy_from_slice(&buf);
        }
    }
    let mut c = (r + 1) % n;
    for _ in 0..n - 1 {
        comm.send(buf);
        buf = comm.recv();
        c = (c + n - 1) % n;
        data[chunk(c)].copy_from_slice(&buf);
    }
}
