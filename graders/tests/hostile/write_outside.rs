//! expected-verdict: accepted
//! mode: run
//! attack: writes files outside /tmp (/, /etc, /root, /usr, /work, /build, /run, /var/tmp, /dev/shm, /proc), creates directories there, and checks whether the host's /tmp canary is visible (then overwrites the sandbox's own copy)
//! defence: the root is a read-only tmpfs with nothing mounted at those paths and Landlock grants write only under /tmp; /tmp is a private tmpfs, so the host canary is neither visible nor touched -> accepted; any write outside /tmp, or a visible canary -> wrong_answer

fn attack() -> bool {
    let mut breached = false;
    let canary = "/tmp/infrakata-hostile-canary";
    if std::path::Path::new(canary).exists() {
        breached = true;
        println!("the host's {canary} is visible: /tmp is shared");
    }
    // The sandbox's private /tmp: allowed, and must never reach the host's file.
    let _ = std::fs::write(canary, b"overwritten by a hostile submission");
    let files = [
        "/hostile",
        "/etc/hostile",
        "/root/hostile",
        "/usr/hostile",
        "/work/hostile",
        "/build/hostile",
        "/run/hostile",
        "/var/tmp/hostile",
        "/dev/shm/hostile",
        "/proc/hostile",
        "/proc/self/hostile",
        "/tmp/../hostile",
    ];
    for path in files {
        match std::fs::write(path, b"hostile") {
            Ok(()) => {
                breached = true;
                println!("wrote {path}");
            }
            Err(e) => eprintln!("{path}: {e}"),
        }
    }
    for dir in ["/hostile-dir", "/etc/hostile-dir", "/proc/self/hostile-dir"] {
        if std::fs::create_dir(dir).is_ok() {
            breached = true;
            println!("created {dir}");
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
