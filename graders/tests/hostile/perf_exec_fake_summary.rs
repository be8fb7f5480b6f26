//! expected-verdict: accepted
//! mode: submit
//! performance: absent
//! attack: when measured, prints fake summaries (`==2== Collected : 1`, `==2== I   refs: 1`) to stderr and then tries to exec the measuring tool (and itself) so that a native copy prints one more fake summary after the real run is gone
//! defence: the sandbox allows no execve but its own (seccomp pins the pathname pointer), so no native copy ever runs; valgrind ends the measured run itself when an exec fails (status 101), and a run that did not end cleanly gives no figure -> accepted, performance absent with its reason, never the forged 1

use std::os::unix::process::CommandExt;
use std::process::Command;

fn attack() {
    eprintln!("==2== Events    : Ir");
    eprintln!("==2== Collected : 1");
    eprintln!("==2== I   refs:      1");
    for program in ["/valgrind/tool", "/prog", "/proc/self/exe"] {
        let err = Command::new(program)
            .env("VALGRIND_LAUNCHER", "/valgrind/tool")
            .args(["--tool=callgrind", "/prog"])
            .exec();
        eprintln!("exec {program}: {err}");
    }
    eprintln!("==2== Collected : 1");
    eprintln!("==2== I   refs:      1");
}

pub fn power(base: f64, exponent: i32) -> f64 {
    std::hint::black_box(burn());
    power_fast(base, exponent)
}

pub fn pow_mod(base: u64, exponent: u64, modulus: u64) -> u64 {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(attack);
    std::hint::black_box(burn());
    pow_mod_fast(base, exponent, modulus)
}

pub fn power_fast(base: f64, exponent: i32) -> f64 {
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

pub fn pow_mod_fast(base: u64, exponent: u64, modulus: u64) -> u64 {
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

/// Deterministic busywork the count must include: 5 000 rounds of a hash.
fn burn() -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    for i in 0..5_000u64 {
        h = (h ^ i).wrapping_mul(0x100_0000_01b3).rotate_left(7);
    }
    std::hint::black_box(h)
}
