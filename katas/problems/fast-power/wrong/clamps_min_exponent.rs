//! expected-verdict: wrong_answer
//! Dodges the overflow of `-i32::MIN` by clamping it to `i32::MAX`, which is off by one power:
//! (-1)^(-2^31) comes out as -1.

pub fn power(base: f64, exponent: i32) -> f64 {
    let n = exponent.checked_neg().unwrap_or(i32::MAX);
    if exponent < 0 {
        positive_power(1.0 / base, n as u32)
    } else {
        positive_power(base, exponent as u32)
    }
}

fn positive_power(mut b: f64, mut n: u32) -> f64 {
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
