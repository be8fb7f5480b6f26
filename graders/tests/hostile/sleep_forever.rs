//! expected-verdict: time_limit_exceeded
//! mode: run
//! attack: sleeps forever in the first call (no CPU used, so a CPU-time limit alone would never fire)
//! defence: the grader's wall-clock per-case deadline stops it -> time_limit_exceeded

fn nap() {
    while std::hint::black_box(true) {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
}

pub fn power(base: f64, exponent: i32) -> f64 {
    nap(); // never returns
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
    nap();
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
