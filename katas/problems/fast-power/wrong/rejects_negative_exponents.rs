//! expected-verdict: runtime_error
//! Treats a negative exponent as a caller error and panics.

pub fn power(base: f64, exponent: i32) -> f64 {
    let n = u32::try_from(exponent).expect("exponent must not be negative");
    let (mut acc, mut b, mut n) = (1.0, base, n);
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
