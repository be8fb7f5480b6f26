//! expected-verdict: compile_error
//! mode: run
//! attack: a 320 MiB static of ones, so the object file and the binary exceed the grader's 256 MiB binary limit (the grader would then fail reading it back)
//! defence: RLIMIT_FSIZE (256 MiB) on the compile job stops the object file being written (rustc killed by SIGXFSZ, measured) -> compile_error, before the trusted side ever reads an oversized binary

static BIG: [u8; 320 << 20] = [1; 320 << 20];

/// Used by both entry points, so the static cannot be dropped as dead code.
fn big() -> bool {
    BIG[std::hint::black_box(12345)] != 1
}

pub fn power(base: f64, exponent: i32) -> f64 {
    if big() {
        return f64::NAN;
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
    if big() {
        return modulus;
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
