//! expected-verdict: accepted
//! mode: run
//! attack: lists /proc/self/fd looking for descriptors beyond stdin/stdout/stderr leaked from the grader or the sandbox stages (status file, cgroup files, sockets) and prints where they point
//! defence: the sandbox refuses to start a program with any inherited descriptor that is not close-on-exec, so only 0, 1, 2 are open, beside the harness's own copy of stdout for its frames -> accepted; any other descriptor -> wrong_answer

fn attack() -> bool {
    let mut leaked = Vec::new();
    let stdout = std::fs::read_link("/proc/self/fd/1").ok();
    match std::fs::read_dir("/proc/self/fd") {
        Ok(entries) => {
            for entry in entries.flatten() {
                let Ok(fd) = entry.file_name().to_string_lossy().parse::<u32>() else {
                    continue;
                };
                let target = std::fs::read_link(entry.path())
                    .map(|p| p.display().to_string())
                    .unwrap_or_default();
                if fd <= 2 {
                    eprintln!("fd {fd} -> {target}");
                    continue;
                }
                // The listing's own descriptor points back at this directory.
                if target.starts_with("/proc/") && target.ends_with("/fd") {
                    continue;
                }
                // The harness writes its frames through its own copy of stdout.
                if stdout.as_ref().is_some_and(|o| o.display().to_string() == target) {
                    continue;
                }
                leaked.push(format!("{fd} -> {target}"));
            }
        }
        Err(e) => eprintln!("/proc/self/fd: {e}"),
    }
    if leaked.is_empty() {
        return false;
    }
    println!("inherited descriptors: {leaked:?}");
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
