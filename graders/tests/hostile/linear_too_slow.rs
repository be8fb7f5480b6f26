//! expected-verdict: time_limit_exceeded
//! mode: submit
//! attack: not an attack: right answers from a linear loop (one multiplication per unit of exponent), ~2^31 per query on the i32::MIN edge case
//! defence: the per-case deadline (1000 ms) stops it on the first huge exponent -> time_limit_exceeded

pub fn power(base: f64, exponent: i32) -> f64 {
    let mut acc = 1.0;
    for _ in 0..exponent.unsigned_abs() {
        acc *= base;
    }
    if exponent < 0 { 1.0 / acc } else { acc }
}

pub fn pow_mod(base: u64, exponent: u64, modulus: u64) -> u64 {
    let m = u128::from(modulus);
    let mut acc = 1 % m;
    let mut e = exponent;
    while e > 0 {
        acc = acc * (u128::from(base) % m) % m;
        e -= 1;
    }
    acc as u64
}
