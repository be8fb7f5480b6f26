//! expected-verdict: memory_limit_exceeded
//! mode: run
//! attack: asks for 30 GiB in one go: `vec![0u8; 30 << 30]`
//! defence: RLIMIT_AS/RLIMIT_DATA (memory_mb*4 + 1 GiB) make the allocation fail; Rust prints `memory allocation of ... failed` and aborts, which the grader reports as memory_limit_exceeded; an allocation that succeeds answers wrong -> wrong_answer

fn attack() -> bool {
    let v = std::hint::black_box(vec![0u8; std::hint::black_box(30usize << 30)]);
    let last = std::hint::black_box(v.len() - 1);
    println!("allocated {} bytes", v.len());
    v[last] == 0
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
