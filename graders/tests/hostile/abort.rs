//! expected-verdict: runtime_error
//! mode: run
//! attack: calls std::process::abort() in the first call
//! defence: SIGABRT without Rust's allocation-failure message: the grader reports the signal -> runtime_error (not memory_limit_exceeded, not internal_error)

fn bail() {
    if std::hint::black_box(true) {
        std::process::abort();
    }
}

pub fn power(base: f64, exponent: i32) -> f64 {
    bail();
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
    bail();
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
