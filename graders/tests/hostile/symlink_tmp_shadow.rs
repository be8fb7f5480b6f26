//! expected-verdict: accepted
//! mode: run
//! attack: plants symlinks in /tmp pointing at /etc/shadow, /proc/1/root/etc/shadow and /, then reads through them and lists the host root through the / link
//! defence: Landlock's /tmp rule grants no MakeSym, so the links cannot be made; and nothing they point at exists in the sandbox anyway -> accepted; anything read through a link -> wrong_answer

/// Shows what was read (into the report, where the harness looks for host secrets).
fn leak(what: &str, bytes: &[u8]) {
    println!(
        "{what}: {}",
        String::from_utf8_lossy(&bytes[..bytes.len().min(2000)])
    );
}

fn attack() -> bool {
    let mut breached = false;
    let links = [
        ("/etc/shadow", "/tmp/shadow"),
        ("/proc/1/root/etc/shadow", "/tmp/shadow-init"),
        ("/proc/self/root/../../../etc/shadow", "/tmp/shadow-up"),
        ("/", "/tmp/root"),
    ];
    for (target, link) in links {
        match std::os::unix::fs::symlink(target, link) {
            Ok(()) => eprintln!("planted {link} -> {target}"),
            Err(e) => eprintln!("symlink {link}: {e}"),
        }
        if let Ok(bytes) = std::fs::read(link) {
            breached = true;
            leak(link, &bytes);
        }
    }
    if let Ok(entries) = std::fs::read_dir("/tmp/root/") {
        let names: Vec<String> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        if names
            .iter()
            .any(|n| !["prog", "tmp", "proc"].contains(&n.as_str()))
        {
            breached = true;
            println!("/ through a link: {names:?}");
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
