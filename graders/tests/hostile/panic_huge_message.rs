//! expected-verdict: runtime_error
//! mode: run
//! attack: panics in the first call with a 10 MiB message
//! defence: the Panicked frame is under the frame size cap and is judged a runtime error (the report should show the message trimmed) -> runtime_error

use std::sync::Once;

static ONCE: Once = Once::new();

fn explode() {
    let mut first = false;
    ONCE.call_once(|| first = true);
    if first && std::hint::black_box(true) {
        panic!("{}", "A".repeat(10 << 20));
    }
}

pub fn power(base: f64, exponent: i32) -> f64 {
    explode();
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
