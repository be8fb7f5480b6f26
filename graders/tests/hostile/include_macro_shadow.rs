//! expected-verdict: compile_error
//! mode: run
//! expected-message: `include` is reserved
//! attack: `include!("/etc/shadow")` as an expression, hoping the syntax error echoes the file's first line into the diagnostics
//! defence: the source check refuses `include!` (it compiles a file the check never read) before rustc runs; behind it there is no /etc in the compile sandbox -> compile_error (the harness checks the report for the shadow line; include_str_shadow.rs still proves the sandbox)

const SHADOW: &str = include!("/etc/shadow");

pub fn secret_len() -> usize {
    SHADOW.len()
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
