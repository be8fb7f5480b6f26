//! expected-verdict: memory_limit_exceeded
//! mode: run
//! attack: fills /tmp with 4 MiB files until a write fails (the solution panics on the first failed write)
//! defence: the run's /tmp is a tmpfs sized at the memory limit whose pages are charged to the job's memory cgroup, so the cgroup OOM-kills the program before tmpfs reports ENOSPC -> memory_limit_exceeded (runtime_error would mean ENOSPC came first; 256 MiB written -> wrong_answer)

// Measured on this kernel: a tmpfs of size = memcg limit, filled by a process inside the
// memcg, gets the writer OOM-killed (oom_kill 1), never ENOSPC: the program's own pages and
// the sandbox helpers' pages fill the cgroup before the tmpfs is full.
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

static STARTED: AtomicBool = AtomicBool::new(false);
static BREACHED: AtomicBool = AtomicBool::new(false);

fn attack_once() -> bool {
    if !STARTED.swap(true, Ordering::SeqCst) {
        let chunk = vec![0xa5u8; 4 << 20];
        for i in 0..64 {
            let path = format!("/tmp/fill-{i}");
            let written = std::fs::File::create(&path).and_then(|mut f| f.write_all(&chunk));
            if let Err(e) = written {
                panic!("{path}: {e} after {} MiB", i * 4);
            }
        }
        println!("wrote 256 MiB into /tmp");
        BREACHED.store(true, Ordering::SeqCst);
    }
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
