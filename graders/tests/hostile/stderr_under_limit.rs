//! expected-verdict: accepted
//! mode: submit
//! attack: not an attack: a correct solution that writes 40 KiB of diagnostics (including invalid UTF-8) to stderr on its first call
//! defence: 40 KiB of stderr plus nothing on stdout stays under output_kb (64 KiB, stdout and stderr together) -> accepted; output_limit_exceeded here means the budget is miscounted

use std::io::Write as _;

// Not an attack: `true` would mean stderr refused a write well under the limit.
fn attack() -> bool {
    let mut err = std::io::stderr().lock();
    let mut ok = true;
    for i in 0..40 {
        let mut line = format!("debug line {i:03} ").into_bytes();
        line.extend_from_slice(b"\xff\xfe not utf-8 ");
        line.resize(1023, b'.');
        line.push(b'\n');
        ok &= err.write_all(&line).is_ok();
    }
    !ok
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
