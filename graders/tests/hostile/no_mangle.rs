//! expected-verdict: compile_error
//! mode: run
//! expected-message: `no_mangle` is reserved
//! attack: `#[unsafe(no_mangle)]` to define a C symbol (e.g. override `malloc` or `write` used by std)
//! defence: the source check refuses `no_mangle` before rustc runs; behind it no_mangle is an unsafe attribute, caught by the unsafe_code lint which the crate root forbids -> compile_error

#[unsafe(no_mangle)]
pub extern "C" fn getpid() -> i32 {
    1
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
