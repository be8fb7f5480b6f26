//! expected-verdict: runtime_error
//! mode: run
//! attack: spawns threads in a loop (64 KiB stacks, each parked forever) until spawning fails
//! defence: the pids cgroup (max_threads + 2 + 8 headroom for threads still being released = 11 tasks for the sandbox) stops the spawning by the eleventh extra thread with EAGAIN; the solution panics on it -> runtime_error; more than 10 live extra threads -> wrong_answer

use std::sync::atomic::{AtomicBool, Ordering};

static STARTED: AtomicBool = AtomicBool::new(false);
static BREACHED: AtomicBool = AtomicBool::new(false);

fn attack_once() -> bool {
    if !STARTED.swap(true, Ordering::SeqCst) {
        let (mut spawned, mut error) = (0usize, None);
        for _ in 0..10_000 {
            let thread = std::thread::Builder::new().stack_size(64 << 10).spawn(|| {
                loop {
                    std::thread::park();
                }
            });
            match thread {
                Ok(handle) => {
                    std::mem::forget(handle);
                    spawned += 1;
                }
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
        }
        // The pids limit is max_threads + 2 + 8 = 11 (see graders/src/run.rs): at most 10
        // threads beside the main one.
        if spawned > 10 {
            println!("thread bomb: {spawned} threads alive");
            BREACHED.store(true, Ordering::SeqCst);
        } else {
            panic!("thread bomb stopped after {spawned} threads: {error:?}");
        }
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
