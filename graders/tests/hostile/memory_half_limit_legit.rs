//! expected-verdict: accepted
//! mode: submit
//! attack: not an attack: a correct solution that also allocates 32 MiB (half the 64 MiB limit), touches every page and keeps it for the whole run
//! defence: 32 MiB plus the runner and the sandbox helpers stay under the cgroup limit -> accepted; memory_limit_exceeded here means the limit counts far more than the program's own memory

use std::sync::Mutex;

static KEEP: Mutex<Vec<u8>> = Mutex::new(Vec::new());

// Not an attack: `true` would mean the memory did not hold what was written.
fn attack() -> bool {
    let mut v = vec![0u8; 32 << 20];
    for page in v.chunks_mut(4096) {
        page[0] = 1;
    }
    let touched: usize = v.iter().step_by(4096).map(|&b| usize::from(b)).sum();
    *KEEP.lock().unwrap() = v;
    touched != (32 << 20) / 4096
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
