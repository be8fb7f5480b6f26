//! expected-verdict: runtime_error
//! mode: run
//! attack: starts the classic shell fork bomb `:(){ :|:& };:` through sh, /bin/sh and /usr/bin/sh, keeping the children
//! defence: the run sandbox holds no shell (only /prog) and seccomp refuses fork: every spawn fails, the solution panics on it -> runtime_error; any shell started -> wrong_answer

use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

static STARTED: AtomicBool = AtomicBool::new(false);
static BREACHED: AtomicBool = AtomicBool::new(false);
static CHILDREN: Mutex<Vec<Child>> = Mutex::new(Vec::new());

fn attack_once() -> bool {
    if !STARTED.swap(true, Ordering::SeqCst) {
        let mut errors = Vec::new();
        for sh in ["sh", "/bin/sh", "/usr/bin/sh", "/bin/bash"] {
            let spawned = Command::new(sh)
                .args(["-c", ":(){ :|:& };:"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn();
            match spawned {
                Ok(child) => CHILDREN.lock().unwrap().push(child),
                Err(e) => errors.push(format!("{sh}: {e}")),
            }
        }
        let started = CHILDREN.lock().unwrap().len();
        if started > 0 {
            println!("fork bomb running under {started} shells");
            BREACHED.store(true, Ordering::SeqCst);
        } else {
            panic!("no shell could be started: {errors:?}");
        }
    }
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
