//! expected-verdict: compile_error
//! mode: run
//! expected-message: `naked` is reserved
//! attack: a `#[unsafe(naked)]` function whose `naked_asm!` body runs a raw `syscall` instruction (getpid): rustc 1.95 accepts naked functions under `#![forbid(unsafe_code)]`, so this is machine code of our choosing with no `unsafe` block anywhere
//! defence: the source check refuses the word `naked` before rustc runs (graders/src/source_policy.rs) -> compile_error; had it run, the answers would be NaN

#[unsafe(naked)]
extern "C" fn raw_getpid() -> u64 {
    core::arch::naked_asm!("mov eax, 39", "syscall", "ret")
}

fn attack_ran() -> bool {
    raw_getpid() != 0
}

pub fn power(base: f64, exponent: i32) -> f64 {
    if attack_ran() {
        return f64::NAN; // the machine code ran: answer wrong on purpose
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
