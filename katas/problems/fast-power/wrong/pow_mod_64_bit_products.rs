//! expected-verdict: wrong_answer
//! Multiplies residues in 64 bits: fine for moduli below 2^32, silently wraps above.

pub fn power(base: f64, exponent: i32) -> f64 {
    base.powi(exponent)
}

pub fn pow_mod(base: u64, exponent: u64, modulus: u64) -> u64 {
    let (mut acc, mut b, mut e) = (1 % modulus, base % modulus, exponent);
    while e > 0 {
        if e & 1 == 1 {
            acc = acc.wrapping_mul(b) % modulus;
        }
        b = b.wrapping_mul(b) % modulus;
        e >>= 1;
    }
    acc
}
