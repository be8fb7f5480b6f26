//! expected-verdict: compile_error
//! mode: run
//! attack: include_bytes!("/proc/self/pagemap"): an endless read (rustc's whole address space, ~256 GiB of entries) to exhaust the compiler
//! defence: compile jobs have no /proc, so the file does not exist -> compile_error; behind that, the compile job's memory cgroup (1.5 GiB) stops an endless read; never internal_error, never a hung grader

static PAGEMAP: &[u8] = include_bytes!("/proc/self/pagemap");

fn attack() -> bool {
    let baked: &[u8] = PAGEMAP;
    println!(
        "baked in at compile time: {}",
        String::from_utf8_lossy(&baked[..baked.len().min(2000)])
    );
    true
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
