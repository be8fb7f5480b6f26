//! expected-verdict: accepted
//! mode: submit
//! attack: correct answers, but every run (the measured one included) first builds a 50 000-level directory tree wherever it can write, the kind of tree whose recursive removal overflowed the grader's stack and took the whole server down when measurement ran on a host-disk build folder
//! defence: runs and measurements write only to a tmpfs inside their own sandbox (gone with its mount namespace), and the trusted side removes folders flat (`remove_tree`) -> accepted, the grader alive, nothing left behind

use std::path::PathBuf;

fn deep_tree() {
    for top in ["/tmp", "/build", "."] {
        let mut dir = PathBuf::from(top);
        if std::fs::create_dir_all(dir.join("t")).is_err() {
            continue;
        }
        let _ = std::env::set_current_dir(dir.join("t"));
        for _ in 0..50_000 {
            if std::fs::create_dir("d").is_err() || std::env::set_current_dir("d").is_err() {
                break;
            }
        }
        dir.push("t");
    }
}

fn once() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(deep_tree);
}

pub fn power(base: f64, exponent: i32) -> f64 {
    once();
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
    once();
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
