//! expected-verdict: accepted
//! mode: run
//! attack: opens /prog (or /proc/self/exe) up to 100 000 times and keeps every descriptor, then answers correctly
//! defence: RLIMIT_NOFILE (64 for runs) stops it with EMFILE after ~61 opens; the runner needs no new descriptor to write frames -> accepted; more than 64 open descriptors -> wrong_answer

use std::fs::File;
use std::sync::Mutex;

static KEEP: Mutex<Vec<File>> = Mutex::new(Vec::new());

fn attack() -> bool {
    let mut files = Vec::new();
    let mut error = None;
    for _ in 0..100_000 {
        match File::open("/prog").or_else(|_| File::open("/proc/self/exe")) {
            Ok(f) => files.push(f),
            Err(e) => {
                error = Some(e);
                break;
            }
        }
    }
    let opened = files.len();
    eprintln!("opened {opened} descriptors, then: {error:?}");
    KEEP.lock().unwrap().extend(files);
    opened > 64
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
