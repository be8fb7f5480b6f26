//! expected-verdict: accepted
//! mode: run
//! attack: tries to kill pid 1 / the parent / everyone with safe std: `kill`, `/bin/kill -9 -1`, `pkill`, re-exec of itself, and oom_score_adj writes through /proc that would make init the OOM victim
//! defence: no binaries and no fork in the run sandbox; /proc is Landlock read-only and shows only the job's own pids (hidepid), so every attempt fails -> accepted; any that works -> wrong_answer

use std::process::{Command, Stdio};

fn attack() -> bool {
    let mut breached = false;
    let parent = std::os::unix::process::parent_id();
    let attempts: [(&str, &[&str]); 5] = [
        ("kill", &["-9", "1"]),
        ("/bin/kill", &["-9", "-1"]),
        ("/usr/bin/kill", &["-KILL", "1"]),
        ("/usr/bin/pkill", &["-9", "-u", "0"]),
        ("/proc/self/exe", &[]),
    ];
    for (program, args) in attempts {
        let status = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        match status {
            Ok(s) => {
                breached = true;
                println!("ran {program} {args:?}: {s}");
            }
            Err(e) => eprintln!("{program}: {e}"),
        }
    }
    // Make init the OOM killer's favourite, or shield ourselves from it.
    let writes = [
        (format!("/proc/{parent}/oom_score_adj"), "1000"),
        ("/proc/1/oom_score_adj".to_string(), "1000"),
        ("/proc/self/oom_score_adj".to_string(), "-1000"),
    ];
    for (path, value) in &writes {
        match std::fs::write(path, value) {
            Ok(()) => {
                breached = true;
                println!("wrote {value} to {path}");
            }
            Err(e) => eprintln!("{path}: {e}"),
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
