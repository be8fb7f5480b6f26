//! expected-verdict: accepted
//! mode: run
//! attack: spawns sh, /bin/sh, /usr/bin/sh, bash, busybox and its own binary to run `id; cat /etc/shadow; env; ls /` and prints whatever comes back
//! defence: nothing but /prog exists in the run sandbox and seccomp refuses fork: every spawn fails, the answers stay correct -> accepted; any spawn that works prints its output and answers wrong -> wrong_answer

use std::process::{Command, Stdio};

fn attack() -> bool {
    let script = "id; cat /etc/shadow; env; ls -la / /root /work 2>&1 | head -50";
    let mut breached = false;
    let attempts: [(&str, &[&str]); 7] = [
        ("sh", &["-c", script]),
        ("/bin/sh", &["-c", script]),
        ("/usr/bin/sh", &["-c", script]),
        ("/bin/bash", &["-c", script]),
        ("/bin/busybox", &["sh", "-c", script]),
        ("/prog", &[]),
        ("/proc/self/exe", &[]),
    ];
    for (program, args) in attempts {
        match Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .output()
        {
            Ok(out) => {
                breached = true;
                println!(
                    "started {program}: {}",
                    String::from_utf8_lossy(&out.stdout)
                );
                println!("{}", String::from_utf8_lossy(&out.stderr));
            }
            Err(e) => eprintln!("{program}: {e}"),
        }
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
