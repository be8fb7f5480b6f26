//! expected-verdict: time_limit_exceeded
//! mode: run
//! attack: spins forever in the first call (a busy loop the optimiser cannot remove)
//! defence: no answer frame within case_time_ms after the previous frame: the grader's per-case deadline stops the run (the cgroup CPU limit is the backstop) -> time_limit_exceeded

fn spin() {
    let mut x = 0u64;
    while std::hint::black_box(true) {
        x = std::hint::black_box(x.wrapping_add(1));
    }
}

pub fn power(base: f64, exponent: i32) -> f64 {
    spin(); // never returns; if it did, the answer would be right (accepted, not TLE)
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
    spin();
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
