//! expected-verdict: runtime_error
//! mode: run
//! attack: writes one 32 MiB file into /tmp, 1 MiB at a time
//! defence: RLIMIT_FSIZE (16 MiB for runs) stops the file at 16 MiB (EFBIG, or SIGXFSZ kills the program); the solution panics on the write error -> runtime_error; 32 MiB written -> wrong_answer

use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

static STARTED: AtomicBool = AtomicBool::new(false);
static BREACHED: AtomicBool = AtomicBool::new(false);

fn attack_once() -> bool {
    if !STARTED.swap(true, Ordering::SeqCst) {
        let mut file = std::fs::File::create("/tmp/big").expect("create /tmp/big");
        let chunk = vec![0x5au8; 1 << 20];
        for mib in 0..32 {
            if let Err(e) = file.write_all(&chunk) {
                panic!("writing /tmp/big failed after {mib} MiB: {e}");
            }
        }
        println!("wrote a 32 MiB file");
        BREACHED.store(true, Ordering::SeqCst);
    }
    BREACHED.load(Ordering::SeqCst)
}

pub fn power(base: f64, exponent: i32) -> f64 {
    if attack_once() {
        return f64::NAN; // the attack got through: answer wrong on purpose
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
    if attack_once() {
        return modulus; // never a valid residue
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
