//! expected-verdict: wrong_answer
//! Starts the accumulator at 1 instead of `1 % modulus`, so x^0 mod 1 comes out as 1.

pub fn power(base: f64, exponent: i32) -> f64 {
    base.powi(exponent)
}

pub fn pow_mod(base: u64, exponent: u64, modulus: u64) -> u64 {
    let m = u128::from(modulus);
    let (mut acc, mut b, mut e) = (1u128, u128::from(base) % m, exponent);
    while e > 0 {
        if e & 1 == 1 {
            acc = acc * b % m;
        }
        b = b * b % m;
        e >>= 1;
    }
    acc as u64
}
