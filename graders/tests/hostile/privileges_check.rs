//! expected-verdict: accepted
//! mode: run
//! attack: inspects its own credentials in /proc/self/status (uid/gid 0? any capability? no_new_privs? seccomp?) and looks for any other process in /proc
//! defence: the program runs as a pool uid in its own user namespace with no capabilities, NoNewPrivs 1 and a seccomp filter (mode 2), seeing only its own pid -> accepted; any of those missing is printed -> wrong_answer

fn attack() -> bool {
    let status = match std::fs::read_to_string("/proc/self/status") {
        Ok(s) => s,
        Err(e) => {
            eprintln!("/proc/self/status: {e}");
            return false;
        }
    };
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .map(|v| v.trim().to_string())
            .unwrap_or_default()
    };
    let mut problems = Vec::new();
    for id in ["Uid:", "Gid:"] {
        if field(id).split_whitespace().any(|v| v == "0") {
            problems.push(format!("{id} {}", field(id)));
        }
    }
    for cap in ["CapInh:", "CapPrm:", "CapEff:", "CapAmb:"] {
        if !field(cap).trim_start_matches('0').is_empty() {
            problems.push(format!("{cap} {}", field(cap)));
        }
    }
    if field("NoNewPrivs:") != "1" {
        problems.push(format!("NoNewPrivs: {:?}", field("NoNewPrivs:")));
    }
    if field("Seccomp:") != "2" {
        problems.push(format!("Seccomp: {:?}", field("Seccomp:")));
    }
    let me = std::process::id().to_string();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.bytes().all(|b| b.is_ascii_digit()) && name != me {
                problems.push(format!("/proc shows pid {name}"));
            }
        }
    }
    eprintln!(
        "uid {} gid {} caps {} nnp {} seccomp {}",
        field("Uid:"),
        field("Gid:"),
        field("CapEff:"),
        field("NoNewPrivs:"),
        field("Seccomp:")
    );
    if problems.is_empty() {
        return false;
    }
    println!("privileges: {problems:?}");
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
