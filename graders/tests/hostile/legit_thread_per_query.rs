//! expected-verdict: accepted
//! mode: submit
//! attack: not an attack: a correct solution that starts one scoped thread per query (one at a time, as max_threads = 1 allows) — it once failed now and then under load with "failed to spawn thread: WouldBlock", because a joined thread stays counted for a moment
//! defence: the sandbox's thread limit is max_threads + 2 + a headroom of 8, so a thread that has returned but is not yet released never refuses the next one -> accepted every time

pub fn power(base: f64, exponent: i32) -> f64 {
    std::thread::scope(|s| s.spawn(|| power_here(base, exponent)).join().expect("joined"))
}

pub fn pow_mod(base: u64, exponent: u64, modulus: u64) -> u64 {
    std::thread::scope(|s| {
        s.spawn(|| pow_mod_here(base, exponent, modulus))
            .join()
            .expect("joined")
    })
}

fn power_here(base: f64, exponent: i32) -> f64 {
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

fn pow_mod_here(base: u64, exponent: u64, modulus: u64) -> u64 {
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
