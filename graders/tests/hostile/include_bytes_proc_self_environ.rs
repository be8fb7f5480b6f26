//! expected-verdict: compile_error
//! expected-message: /proc/self/environ
//! mode: run
//! attack: bakes rustc's own environment into the binary (include_bytes!("/proc/self/environ") is readable to rustc) and prints every variable other than PATH
//! defence: compile jobs have no /proc (its mountinfo would name host paths), so there is nothing to read -> compile_error naming the file; were /proc back, rustc's environment (PATH, and LD_LIBRARY_PATH=/rust/lib for the loader) is all it would find, and anything beyond PATH is printed and answered wrong

static ENVIRON: &[u8] = include_bytes!("/proc/self/environ");

fn attack() -> bool {
    let vars: Vec<&[u8]> = ENVIRON
        .split(|&b| b == 0)
        .filter(|v| !v.is_empty())
        .collect();
    let extra: Vec<String> = vars
        .iter()
        .filter(|v| !v.starts_with(b"PATH="))
        .map(|v| String::from_utf8_lossy(v).into_owned())
        .collect();
    eprintln!("rustc ran with {} variables", vars.len());
    if extra.is_empty() {
        return false;
    }
    println!("rustc's environment: {extra:?}");
    true
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
