//! expected-verdict: compile_error
//! mode: run
//! expected-message: `target_feature` is reserved
//! attack: a safe `#[target_feature(enable = "avx512f")]` function, which rustc 1.95 accepts under forbid(unsafe_code): AVX-512 code, which valgrind (the instruction-count run) cannot execute, the day it is reachable without `unsafe`
//! defence: the source check refuses `target_feature` everywhere -> compile_error (compiled, it would be accepted: calling it still needs unsafe)

#[target_feature(enable = "avx512f")]
fn double_all(values: &mut [f64]) {
    for v in values {
        *v *= 2.0;
    }
}

pub fn power(base: f64, exponent: i32) -> f64 {
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
