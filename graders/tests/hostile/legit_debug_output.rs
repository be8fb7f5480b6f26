//! expected-verdict: accepted
//! mode: submit
//! attack: not an attack: a correct solution that println!s its first 100 results of each function and eprintln!s a few notes, interleaved with the runner's frames
//! defence: about 12 KiB of learner output stays under output_kb (64 KiB); frames are found by their nonce among the prints -> accepted, with the prints in the report's output

use std::sync::atomic::{AtomicUsize, Ordering};

static POWER_CALLS: AtomicUsize = AtomicUsize::new(0);
static POW_MOD_CALLS: AtomicUsize = AtomicUsize::new(0);

pub fn power(base: f64, exponent: i32) -> f64 {
    let got = power_here(base, exponent);
    let n = POWER_CALLS.fetch_add(1, Ordering::Relaxed);
    if n < 100 {
        println!("power({base}, {exponent}) = {got}");
    }
    if n < 10 {
        eprintln!("note: power call {n}");
    }
    got
}

pub fn pow_mod(base: u64, exponent: u64, modulus: u64) -> u64 {
    let got = pow_mod_here(base, exponent, modulus);
    let n = POW_MOD_CALLS.fetch_add(1, Ordering::Relaxed);
    if n < 100 {
        println!("pow_mod({base}, {exponent}, {modulus}) = {got}");
    }
    if n < 10 {
        eprintln!("note: pow_mod call {n}");
    }
    got
}

fn power_here(base: f64, exponent: i32) -> f64 {
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

fn pow_mod_here(base: u64, exponent: u64, modulus: u64) -> u64 {
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
