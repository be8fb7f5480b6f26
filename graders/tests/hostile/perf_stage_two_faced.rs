//! expected-verdict: accepted
//! mode: submit
//! attack: correct answers, but when it finds itself in the instruction-count run (valgrind, compile profile: /usr, a shell and fork available) it leaves orphans holding stderr (sleeps, a CPU burner) and one that prints a fake `==1== Collected : 1` after valgrind's real summary
//! defence: the verdict is fixed before measuring -> accepted; the sandbox must kill the whole job (cgroup) when the program ends, so no process is left and the forged line never lands (report.performance.instructions must not be 1)

use std::path::Path;
use std::process::{Command, Stdio};

fn measuring() -> bool {
    Path::new("/usr/bin/valgrind.bin").exists() || Path::new("/build/submission").exists()
}

fn attack() -> bool {
    if !measuring() {
        return false; // the graded run: behave
    }
    let script = "sleep 300 & sleep 300 & \
                  timeout 120 sh -c 'while :; do :; done' & \
                  (sleep 3; echo '==1== Collected : 1' >&2; echo '==1== I   refs:      1' >&2) & \
                  exit 0";
    let shell = Command::new("/bin/sh")
        .args(["-c", script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status();
    eprintln!("orphans: {shell:?}");
    for _ in 0..4 {
        // Children never waited for: reparented to the sandbox's init when we exit.
        let _ = Command::new("/bin/sleep")
            .arg("300")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn();
    }
    false // the answers stay correct either way
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
