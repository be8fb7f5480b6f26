//! expected-verdict: memory_limit_exceeded
//! mode: run
//! attack: allocates 1 GiB in 1 MiB chunks, writing to every page and keeping all of it
//! defence: the job's memory cgroup (64 MiB, no swap) OOM-kills the program long before 1 GiB; the sandbox reports the OOM kill -> memory_limit_exceeded; reaching 1 GiB -> wrong_answer

fn attack() -> bool {
    let mut chunks: Vec<Vec<u8>> = Vec::new();
    for i in 0..1024usize {
        let mut chunk = vec![0u8; 1 << 20];
        for page in chunk.chunks_mut(4096) {
            page[0] = i as u8 | 1;
        }
        chunks.push(std::hint::black_box(chunk));
    }
    println!("touched {} MiB", chunks.len());
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
