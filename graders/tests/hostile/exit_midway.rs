//! expected-verdict: runtime_error
//! mode: run
//! attack: answers the first two calls correctly, then calls std::process::exit(0) in the third
//! defence: the run ends with status 0 before every case has a frame; the grader marks the first unanswered case as an early exit -> runtime_error

use std::sync::atomic::{AtomicUsize, Ordering};

static CALLS: AtomicUsize = AtomicUsize::new(0);

fn maybe_leave() {
    if CALLS.fetch_add(1, Ordering::SeqCst) == 2 {
        std::process::exit(0);
    }
}

pub fn power(base: f64, exponent: i32) -> f64 {
    maybe_leave();
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
    maybe_leave();
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
