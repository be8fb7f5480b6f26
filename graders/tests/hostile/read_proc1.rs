//! expected-verdict: accepted
//! mode: run
//! attack: reads pid 1's and the parent's environ, cmdline, status, mountinfo and root (/proc/1/root/etc/shadow), and every other pid listed in /proc
//! defence: /proc is the job's own, mounted hidepid=invisible,subset=pid: init (root, another user namespace) is invisible, and its environment is empty anyway -> accepted; anything read from another process is printed and answered wrong -> wrong_answer

/// Shows what was read (into the report, where the harness looks for host secrets).
fn leak(what: &str, bytes: &[u8]) {
    println!(
        "{what}: {}",
        String::from_utf8_lossy(&bytes[..bytes.len().min(2000)])
    );
}

fn attack() -> bool {
    let mut breached = false;
    let me = std::process::id();
    let parent = std::os::unix::process::parent_id();
    let mut pids = vec![1, parent];
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.flatten() {
            if let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() {
                if pid != me && !pids.contains(&pid) {
                    pids.push(pid);
                }
            }
        }
    }
    for pid in pids {
        for file in [
            "environ",
            "cmdline",
            "status",
            "mountinfo",
            "root/etc/shadow",
            "cwd/..",
        ] {
            let path = format!("/proc/{pid}/{file}");
            match std::fs::read(&path) {
                Ok(bytes) => {
                    breached = true;
                    leak(&path, &bytes);
                }
                Err(e) => eprintln!("{path}: {e}"),
            }
        }
        if let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) {
            breached = true;
            println!("listed /proc/{pid}/fd: {} entries", fds.count());
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
