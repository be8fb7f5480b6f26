//! expected-verdict: accepted
//! mode: run
//! attack: asks for 30 GiB with `Vec::try_reserve_exact`, which reports failure instead of aborting
//! defence: RLIMIT_AS refuses the mapping, try_reserve returns Err and the solution carries on correctly -> accepted; if 30 GiB could be reserved the address-space limit is missing -> wrong_answer

fn attack() -> bool {
    let mut v: Vec<u8> = Vec::new();
    match v.try_reserve_exact(std::hint::black_box(30usize << 30)) {
        Ok(()) => {
            std::hint::black_box(v.as_mut_ptr());
            println!("reserved {} bytes", v.capacity());
            true
        }
        Err(e) => {
            eprintln!("30 GiB refused: {e}");
            false
        }
    }
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
