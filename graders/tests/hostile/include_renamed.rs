//! expected-verdict: compile_error
//! mode: run
//! expected-message: `include` is reserved
//! attack: `include!` renamed in a `use` (`use std::include as pull;`), to compile a file the source check never read (a naked function in another file ran when tried by hand)
//! defence: the source check refuses `include` as a macro name and in `use` items -> compile_error; behind it the compile sandbox has no /etc

use std::include as pull;

pub fn secret_len() -> usize {
    let text: &str = pull!("/etc/hostname");
    text.len()
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
