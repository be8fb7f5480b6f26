//! expected-verdict: accepted
//! mode: run
//! attack: reads stdin again after the runner consumed the request, and reopens it through /proc/self/fd/0
//! defence: the grader writes the request and closes its end: both reads see end-of-file at once (no hang, nothing more to read) -> accepted; more bytes on the original stdin -> wrong_answer

use std::io::Read as _;

fn attack() -> bool {
    let mut breached = false;
    let mut rest = Vec::new();
    match std::io::stdin().lock().read_to_end(&mut rest) {
        Ok(n) if n > 0 => {
            breached = true;
            println!("stdin still held {n} bytes");
        }
        other => eprintln!("stdin again: {other:?}"),
    }
    // A reopened stdin may legitimately show the request again if it is a file; just report.
    match std::fs::File::open("/proc/self/fd/0") {
        Ok(mut f) => {
            let mut again = Vec::new();
            eprintln!("/proc/self/fd/0 reopened: {:?}", f.read_to_end(&mut again));
        }
        Err(e) => eprintln!("/proc/self/fd/0: {e}"),
    }
    breached
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
