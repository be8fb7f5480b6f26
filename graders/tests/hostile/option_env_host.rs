//! expected-verdict: accepted
//! mode: run
//! attack: bakes host variables into the binary with option_env!: HOME, USER, PWD, CARGO_HOME, RUSTUP_HOME, RUSTFLAGS, SSH_AUTH_SOCK, cloud/CI tokens, INFRAKATA_CI, RUSTC_BOOTSTRAP, and PATH
//! defence: rustc's environment is exactly PATH=/usr/bin:/bin: every other variable is None and PATH names no host-only directory -> accepted; anything else is printed and answered wrong -> wrong_answer

const SEEN: [(&str, Option<&str>); 16] = [
    ("HOME", option_env!("HOME")),
    ("USER", option_env!("USER")),
    ("LOGNAME", option_env!("LOGNAME")),
    ("PWD", option_env!("PWD")),
    ("CARGO_HOME", option_env!("CARGO_HOME")),
    ("RUSTUP_HOME", option_env!("RUSTUP_HOME")),
    ("RUSTUP_TOOLCHAIN", option_env!("RUSTUP_TOOLCHAIN")),
    ("CARGO_MANIFEST_DIR", option_env!("CARGO_MANIFEST_DIR")),
    ("RUSTFLAGS", option_env!("RUSTFLAGS")),
    ("LD_PRELOAD", option_env!("LD_PRELOAD")),
    ("SSH_AUTH_SOCK", option_env!("SSH_AUTH_SOCK")),
    (
        "AWS_SECRET_ACCESS_KEY",
        option_env!("AWS_SECRET_ACCESS_KEY"),
    ),
    ("GITHUB_TOKEN", option_env!("GITHUB_TOKEN")),
    ("INFRAKATA_CI", option_env!("INFRAKATA_CI")),
    ("INFRAKATA_WORKSPACE", option_env!("INFRAKATA_WORKSPACE")),
    ("RUSTC_BOOTSTRAP", option_env!("RUSTC_BOOTSTRAP")),
];
/// The grader gives rustc PATH=/usr/bin:/bin; a PATH naming these came from the host.
const PATH: Option<&str> = option_env!("PATH");
const HOST_ONLY: [&str; 5] = [".cargo", "rustup", "/root", "/home", "/work"];

fn attack() -> bool {
    let mut breached = false;
    for (name, value) in SEEN {
        if let Some(value) = value {
            breached = true;
            println!("{name}={value}");
        }
    }
    if let Some(path) = PATH {
        eprintln!("rustc's PATH: {path}");
        if HOST_ONLY.iter().any(|h| path.contains(h)) {
            breached = true;
            println!("PATH={path}");
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
