//! expected-verdict: compile_error
//! mode: run
//! attack: derives through serde's proc macro (serde is in the katas rlib's dependency folder), i.e. runs someone's proc-macro code inside rustc
//! defence: dependencies of katas are -L dependency only, not nameable by the learner: `serde` is not found -> compile_error

#[derive(serde::Serialize)]
pub struct Smuggled {
    pub secret: u64,
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
