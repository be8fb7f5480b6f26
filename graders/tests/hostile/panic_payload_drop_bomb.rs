//! expected-verdict: runtime_error
//! mode: run
//! attack: panics with a payload whose Drop panics again, so the second panic fires inside the runner after catch_unwind, when it drops the payload
//! defence: the escaped panic ends the process (exit 101, or std aborts: "drop of the panic payload panicked") before the case's frame is written -> runtime_error

use std::sync::atomic::{AtomicBool, Ordering};

static THROWN: AtomicBool = AtomicBool::new(false);

struct Bomb;

impl Drop for Bomb {
    fn drop(&mut self) {
        panic!("the panic payload exploded while being dropped");
    }
}

fn throw() {
    if !THROWN.swap(true, Ordering::SeqCst) {
        std::panic::panic_any(Bomb);
    }
}

pub fn power(base: f64, exponent: i32) -> f64 {
    throw();
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
