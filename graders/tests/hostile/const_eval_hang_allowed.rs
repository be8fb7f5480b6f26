//! expected-verdict: compile_error
//! mode: run
//! attack: the same endless constant with `#![allow(long_running_const_eval)]` on the module, so rustc's own guard is off
//! defence: the compile job's CPU (20 s) / wall (30 s) limits stop rustc; the grader reports the compiler was stopped -> compile_error (never a hung grader, never internal_error)

#![allow(long_running_const_eval)]

const SPIN: u64 = {
    let mut i = 0u64;
    while i < u64::MAX {
        i += 1;
    }
    i
};

pub fn spin() -> u64 {
    SPIN
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
