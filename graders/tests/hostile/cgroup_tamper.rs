//! expected-verdict: accepted
//! mode: run
//! attack: reads /proc/self/cgroup and tries to lift its own limits: writes -1/max into memory.limit_in_bytes, memory.memsw.limit_in_bytes, memory.max and pids.max, and 0 into cgroup.procs (moving itself out), for v1 and v2 paths
//! defence: /sys is not mounted in the run sandbox (and Landlock, the read-only root and the unprivileged uid each forbid the writes): every write fails -> accepted; any write that lands -> wrong_answer

fn attack() -> bool {
    let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    eprintln!("/proc/self/cgroup: {}", own.trim());
    let mut targets: Vec<String> = [
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
        "/sys/fs/cgroup/memory/memory.memsw.limit_in_bytes",
        "/sys/fs/cgroup/pids/pids.max",
        "/sys/fs/cgroup/memory.max",
        "/sys/fs/cgroup/pids.max",
        "/sys/fs/cgroup/cgroup.procs",
    ]
    .map(String::from)
    .to_vec();
    for line in own.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (
            parts.next(),
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
        );
        if controllers.is_empty() {
            for file in ["memory.max", "pids.max", "cgroup.procs"] {
                targets.push(format!("/sys/fs/cgroup{path}/{file}"));
            }
        }
        for c in controllers
            .split(',')
            .filter(|c| ["memory", "pids"].contains(c))
        {
            for file in [
                "memory.limit_in_bytes",
                "memory.memsw.limit_in_bytes",
                "pids.max",
                "cgroup.procs",
            ] {
                targets.push(format!("/sys/fs/cgroup/{c}{path}/{file}"));
            }
        }
    }
    let mut breached = false;
    for target in targets.iter().take(40) {
        let value = if target.ends_with("cgroup.procs") {
            "0"
        } else if target.ends_with("_in_bytes") {
            "-1"
        } else {
            "max"
        };
        match std::fs::write(target, value) {
            Ok(()) => {
                breached = true;
                println!("wrote {value} to {target}");
            }
            Err(e) => eprintln!("{target}: {e}"),
        }
    }
    breached
}

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

static ONCE: Once = Once::new();
static BREACHED: AtomicBool = AtomicBool::new(false);

/// Runs the attack on the first call; `true` if it got through.
fn attack_once() -> bool {
    ONCE.call_once(|| BREACHED.store(attack(), Ordering::SeqCst));
    BREACHED.load(Ordering::SeqCst)
}

pub fn power(base: f64, exponent: i32) -> f64 {
    if attack_once() {
        return f64::NAN; // the attack got through: answer wrong on purpose
    }
    let mut n = exponent.unsigned_abs();
    let mut b = if exponent < 0 { 1.0 / base } else { base };
    let mut acc = 1.0;
    while n > 0 {
        if n & 1 == 1 {
            acc *= b;
        }
        b *= b;
        n >>= 1;
    }
    acc
}

pub fn pow_mod(base: u64, exponent: u64, modulus: u64) -> u64 {
    if attack_once() {
        return modulus; // never a valid residue
    }
    let m = u128::from(modulus);
    let (mut acc, mut b, mut e) = (1 % m, u128::from(base) % m, exponent);
    while e > 0 {
        if e & 1 == 1 {
            acc = acc * b % m;
        }
        b = b * b % m;
        e >>= 1;
    }
    acc as u64
}
