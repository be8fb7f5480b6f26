//! expected-verdict: accepted
//! mode: submit
//! performance: at-least 3
//! attack: hides extra work inside its own `katas::runner::unmeasured` and `measured_solve` (the names the instruction counter toggles on, or used to match by pattern), hoping the counter switches off there
//! defence: the counter has no toggle at all (the whole process is counted on every thread; only the reference program's empty-harness count is subtracted) -> the hidden work is counted and the ratio is far above 1

mod katas {
    pub mod runner {
        #[inline(never)]
        pub fn unmeasured(work: &mut dyn FnMut()) {
            work();
        }
        #[inline(never)]
        pub fn measured_solve(work: &mut dyn FnMut()) {
            work();
        }
    }
}

pub fn power(base: f64, exponent: i32) -> f64 {
    let mut x = 0;
    katas::runner::unmeasured(&mut || x = burn());
    katas::runner::measured_solve(&mut || x ^= burn());
    std::hint::black_box(x);
    power_fast(base, exponent)
}

pub fn pow_mod(base: u64, exponent: u64, modulus: u64) -> u64 {
    let mut x = 0;
    katas::runner::unmeasured(&mut || x = burn());
    std::hint::black_box(x);
    pow_mod_fast(base, exponent, modulus)
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
