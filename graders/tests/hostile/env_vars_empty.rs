//! expected-verdict: accepted
//! mode: run
//! attack: looks for any environment variable at run time (std::env::vars_os, and by name INFRAKATA_HOSTILE_SECRET, HOME, PATH, USER)
//! defence: runs get an empty environment (execve with exactly Job::env, nothing inherited) -> accepted; any variable is printed and answered wrong -> wrong_answer

fn attack() -> bool {
    let vars: Vec<_> = std::env::vars_os().collect();
    let mut breached = !vars.is_empty();
    for (k, v) in &vars {
        println!("{k:?}={v:?}");
    }
    for name in ["INFRAKATA_HOSTILE_SECRET", "HOME", "PATH", "USER"] {
        if let Some(v) = std::env::var_os(name) {
            breached = true;
            println!("{name}={v:?}");
        }
    }
    eprintln!(
        "{} variables; argv {:?}; cwd {:?}",
        vars.len(),
        std::env::args_os().collect::<Vec<_>>(),
        std::env::current_dir()
    );
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
