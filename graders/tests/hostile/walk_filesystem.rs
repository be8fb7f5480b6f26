//! expected-verdict: accepted
//! mode: run
//! attack: lists / (also via /.., /tmp/.., /proc/self/root, /proc/self/cwd/..) and every usual top-level directory (/build, /deps, /rust, /usr, /etc, /root, /home, /work, /run, /sys, /dev ...), and prints /proc/self/mountinfo
//! defence: the run root holds only /prog, /tmp and /proc, and Landlock denies listing anything else: nothing outside those three is readable -> accepted; any other entry or directory listed -> wrong_answer

const ALLOWED: [&str; 3] = ["prog", "tmp", "proc"];

fn names(dir: &str) -> std::io::Result<Vec<String>> {
    let entries = std::fs::read_dir(dir)?;
    Ok(entries
        .flatten()
        .take(100)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect())
}

fn attack() -> bool {
    let mut breached = false;
    // The sandbox's own root, reached several ways: may list only the three allowed entries.
    for root in [
        "/",
        "/..",
        "/tmp/..",
        "/proc/self/root",
        "/proc/self/cwd/..",
    ] {
        match names(root) {
            Ok(found) => {
                let extra: Vec<&String> = found
                    .iter()
                    .filter(|n| !ALLOWED.contains(&n.as_str()))
                    .collect();
                eprintln!("{root}: {found:?}");
                if !extra.is_empty() {
                    breached = true;
                    println!("{root} shows {extra:?}");
                }
            }
            Err(e) => eprintln!("{root}: {e}"),
        }
    }
    let elsewhere = [
        "/build", "/deps", "/rust", "/usr", "/etc", "/root", "/home", "/work", "/var", "/run",
        "/sys", "/dev", "/lib", "/lib64", "/bin", "/sbin", "/boot", "/opt", "/srv", "/mnt",
        "/media", "/nix", "/snap",
    ];
    for dir in elsewhere {
        if let Ok(found) = names(dir) {
            breached = true;
            println!("{dir}: {found:?}");
        }
    }
    if let Ok(mounts) = std::fs::read_to_string("/proc/self/mountinfo") {
        eprintln!("mountinfo:\n{}", &mounts[..mounts.len().min(1500)]);
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
