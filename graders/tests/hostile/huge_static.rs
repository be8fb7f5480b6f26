//! expected-verdict: compile_error
//! mode: run
//! attack: a 16 GiB zero-initialised static: `static BIG: [u8; 1 << 34] = [0; 1 << 34];`
//! defence: const-evaluating it needs 16 GiB: the compile job's memory cgroup (1.5 GiB) stops rustc (OOM kill or rustc's own allocation error) -> compile_error

static BIG: [u8; 1 << 34] = [0; 1 << 34];

/// Used by both entry points, so the static cannot be dropped as dead code.
fn big() -> bool {
    BIG[std::hint::black_box(12345)] != 0
}

pub fn power(base: f64, exponent: i32) -> f64 {
    if big() {
        return f64::NAN;
    }
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
    if big() {
        return modulus;
    }
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
