//! expected-verdict: compile_error
//! mode: run
//! attack: macro-expands into 100 000 compile_error! invocations, each with a 400-byte message: ~100 MB of JSON diagnostics on rustc's stderr
//! defence: the compile job's stderr cap (2 MiB) stops rustc; the grader reports a compile error with what it kept (never internal_error, never an unbounded report)

macro_rules! e1 { () => { compile_error!("flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood flood"); }; }
macro_rules! e10 {
    () => {
        e1!();
        e1!();
        e1!();
        e1!();
        e1!();
        e1!();
        e1!();
        e1!();
        e1!();
        e1!();
    };
}
macro_rules! e100 {
    () => {
        e10!();
        e10!();
        e10!();
        e10!();
        e10!();
        e10!();
        e10!();
        e10!();
        e10!();
        e10!();
    };
}
macro_rules! e1k {
    () => {
        e100!();
        e100!();
        e100!();
        e100!();
        e100!();
        e100!();
        e100!();
        e100!();
        e100!();
        e100!();
    };
}
macro_rules! e10k {
    () => {
        e1k!();
        e1k!();
        e1k!();
        e1k!();
        e1k!();
        e1k!();
        e1k!();
        e1k!();
        e1k!();
        e1k!();
    };
}
e10k!();
e10k!();
e10k!();
e10k!();
e10k!();
e10k!();
e10k!();
e10k!();
e10k!();
e10k!();

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
