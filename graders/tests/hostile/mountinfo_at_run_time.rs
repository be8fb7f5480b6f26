//! expected-verdict: accepted
//! mode: submit
//! attack: reads its own mount table at run time (/proc/self/mountinfo and the per-thread copy), in the verdict run and in the measuring run, looking for the host path of its program (a build folder in the grader's checkout) or of anything else bound in
//! defence: the program is copied into the sandbox's root rather than bound, and every other bind comes from the host's /usr, so each mount's source is `/` or under `/usr` -> accepted; any other source is printed and answered wrong -> wrong_answer

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

static ONCE: Once = Once::new();
static BREACHED: AtomicBool = AtomicBool::new(false);

/// Mount sources (the fourth field: the path within the mounted filesystem) that say nothing
/// about the host: the roots of fresh filesystems and the distribution's own /usr.
fn harmless(source: &str) -> bool {
    source == "/" || source.starts_with("/usr/")
}

fn attack() -> bool {
    let mut leaks = Vec::new();
    for table in ["/proc/self/mountinfo", "/proc/thread-self/mountinfo"] {
        let Ok(text) = std::fs::read_to_string(table) else {
            continue;
        };
        for line in text.lines() {
            let source = line.split(' ').nth(3).unwrap_or_default();
            if !harmless(source) {
                leaks.push(line.to_string());
            }
        }
    }
    if leaks.is_empty() {
        return false;
    }
    println!("host paths in the mount table: {leaks:?}");
    true
}

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
    let (mut b, mut e, mut acc) = (u128::from(base) % m, exponent, 1u128 % m);
    while e > 0 {
        if e & 1 == 1 {
            acc = acc * b % m;
        }
        b = b * b % m;
        e >>= 1;
    }
    acc as u64
}
