//! expected-verdict: accepted
//! mode: run
//! attack: opens /proc/1/mem and the parent's mem (reading init), then opens its own /proc/self/mem for writing and overwrites a static through it (the std-documented way for safe code to write anywhere)
//! defence: init is invisible (hidepid) and another uid in another user namespace; /proc is Landlock read-only so /proc/self/mem cannot be opened for writing: the static keeps its value -> accepted; any open of another's mem or a changed static -> wrong_answer

use std::fs::{File, OpenOptions};
use std::io::{Seek as _, SeekFrom, Write as _};
use std::sync::atomic::AtomicU64;

static TARGET: AtomicU64 = AtomicU64::new(0x1111_1111_1111_1111);

fn attack() -> bool {
    let mut breached = false;
    let parent = std::os::unix::process::parent_id();
    for path in ["/proc/1/mem".to_string(), format!("/proc/{parent}/mem")] {
        match File::open(&path) {
            Ok(_) => {
                breached = true;
                println!("opened {path}");
            }
            Err(e) => eprintln!("{path}: {e}"),
        }
    }
    let addr = std::hint::black_box(&TARGET as *const AtomicU64 as u64);
    match OpenOptions::new()
        .read(true)
        .write(true)
        .open("/proc/self/mem")
    {
        Ok(mut mem) => {
            let wrote = mem
                .seek(SeekFrom::Start(addr))
                .and_then(|_| mem.write_all(&0x2222_2222_2222_2222u64.to_ne_bytes()));
            eprintln!("/proc/self/mem opened for writing; write: {wrote:?}");
        }
        Err(e) => eprintln!("/proc/self/mem for writing: {e}"),
    }
    if TARGET.load(Ordering::SeqCst) != 0x1111_1111_1111_1111 {
        breached = true;
        println!("a static was overwritten through /proc/self/mem");
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
