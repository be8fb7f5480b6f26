//! expected-verdict: output_limit_exceeded
//! mode: run
//! attack: writes 64 MiB to stderr in 1 MiB writes during the first case
//! defence: stderr is capped at output_kb (64 KiB): the sandbox stops the job (LimitHit::Stderr) and the grader reports output_limit_exceeded; if all 64 MiB went through, the answers are wrong -> wrong_answer

use std::io::Write as _;

fn attack() -> bool {
    let chunk = vec![b'E'; 1 << 20];
    let mut err = std::io::stderr().lock();
    let mut written = 0;
    while written < 64 && err.write_all(&chunk).is_ok() {
        written += 1;
    }
    written == 64
}

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

static ONCE: Once = Once::new();
static BREACHED: AtomicBool = AtomicBool::new(false);

/// Runs the attack on the first call; `true` if it got through.
fn attack_once() -> bool {
    ONCE.call_once(|| BREACHED.store(attack(), Ordering::SeqCst));
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
