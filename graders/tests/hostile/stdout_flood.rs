//! expected-verdict: output_limit_exceeded
//! mode: run
//! attack: prints 1 GiB to stdout in 1 MiB writes during the first case
//! defence: the grader counts printed bytes outside result frames as they stream and stops the run past output_kb (64 KiB) -> output_limit_exceeded; if the whole GiB went through, the answers are wrong -> wrong_answer

use std::io::Write as _;

fn attack() -> bool {
    let chunk = vec![b'A'; 1 << 20];
    let mut out = std::io::stdout().lock();
    let mut written = 0;
    while written < 1024 && out.write_all(&chunk).is_ok() {
        written += 1;
    }
    let _ = out.flush();
    written == 1024
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
