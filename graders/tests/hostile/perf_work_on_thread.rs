//! expected-verdict: accepted
//! mode: submit
//! performance: at-least 3
//! attack: does its heavy work on a second thread (max_threads = 1 allows one), so that a counter that follows only the calling thread misses it
//! defence: every thread of the program is counted from its start -> the ratio is far above 1

pub fn power(base: f64, exponent: i32) -> f64 {
    std::thread::spawn(move || {
        std::hint::black_box(burn());
        power_fast(base, exponent)
    })
    .join()
    .expect("worker")
}

pub fn pow_mod(base: u64, exponent: u64, modulus: u64) -> u64 {
    std::thread::spawn(move || {
        std::hint::black_box(burn());
        pow_mod_fast(base, exponent, modulus)
    })
    .join()
    .expect("worker")
}

pub fn power_fast(base: f64, exponent: i32) -> f64 {
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

pub fn pow_mod_fast(base: u64, exponent: u64, modulus: u64) -> u64 {
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

/// Deterministic busywork the count must include: 5 000 rounds of a hash.
fn burn() -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    for i in 0..5_000u64 {
        h = (h ^ i).wrapping_mul(0x100_0000_01b3).rotate_left(7);
    }
    std::hint::black_box(h)
}
