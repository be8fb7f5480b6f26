//! expected-verdict: runtime_error
//! mode: run
//! attack: panics on one input (`power(2.0, -2)`, the third sample) and is correct everywhere else
//! defence: the runner catches the panic and sends a Panicked frame for that case; the trusted side judges it a runtime error -> runtime_error

fn check(base: f64, exponent: i32) {
    if base == 2.0 && exponent == -2 {
        panic!("negative exponents are not supported (on purpose)");
    }
}

pub fn power(base: f64, exponent: i32) -> f64 {
    check(base, exponent);
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
