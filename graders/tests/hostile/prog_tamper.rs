//! expected-verdict: accepted
//! mode: run
//! attack: tampers with its own binary /prog (the grader's cached executable): open for write/append, chmod 0777, set_len, rename, remove, hard-link into /tmp
//! defence: /prog is a read-only bind mount, Landlock gives it read+execute only and chmod is not on the run allow-list: every attempt fails and /prog's size and mode are unchanged -> accepted; any success -> wrong_answer

use std::fs::{self, OpenOptions, Permissions};
use std::os::unix::fs::PermissionsExt as _;

fn attack() -> bool {
    let before = fs::metadata("/prog").map(|m| (m.len(), m.permissions().mode()));
    let mut breached = false;
    let mut attempt = |what: &str, result: std::io::Result<()>| match result {
        Ok(()) => {
            breached = true;
            println!("{what}: done");
        }
        Err(e) => eprintln!("{what}: {e}"),
    };
    attempt(
        "open for writing",
        OpenOptions::new().write(true).open("/prog").map(drop),
    );
    attempt(
        "open for appending",
        OpenOptions::new().append(true).open("/prog").map(drop),
    );
    attempt(
        "set_len",
        OpenOptions::new()
            .write(true)
            .open("/prog")
            .and_then(|f| f.set_len(0)),
    );
    attempt(
        "chmod 0777",
        fs::set_permissions("/prog", Permissions::from_mode(0o777)),
    );
    attempt("rename", fs::rename("/prog", "/tmp/prog"));
    attempt("remove", fs::remove_file("/prog"));
    attempt(
        "hard link into /tmp",
        fs::hard_link("/prog", "/tmp/prog-link"),
    );
    let after = fs::metadata("/prog").map(|m| (m.len(), m.permissions().mode()));
    if before.is_ok() && before.as_ref().ok() != after.as_ref().ok() {
        breached = true;
        println!("/prog changed: {before:?} -> {after:?}");
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
