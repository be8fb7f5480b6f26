//! Binary exponentiation: square the base, halve the exponent, multiply in the set bits.

/// `base` raised to `exponent`, in O(log |exponent|) multiplications.
pub fn power(base: f64, exponent: i32) -> f64 {
    // unsigned_abs: negating i32::MIN would overflow; its magnitude fits in u32.
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

/// `base^exponent mod modulus` for `modulus >= 1`, in O(log exponent) multiplications.
pub fn pow_mod(base: u64, exponent: u64, modulus: u64) -> u64 {
    let m = u128::from(modulus);
    // Products of two residues below 2^63 need up to 126 bits.
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
