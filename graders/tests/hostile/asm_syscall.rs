//! expected-verdict: compile_error
//! mode: run
//! expected-message: `asm` is reserved
//! attack: a raw `syscall` instruction through core::arch::asm! (SYS_getuid)
//! defence: the source check refuses `asm` before rustc runs; behind it asm! needs an unsafe block, and the generated crate root is #![forbid(unsafe_code)] -> compile_error

pub fn raw_getuid() -> u64 {
    let ret: u64;
    unsafe {
        core::arch::asm!("syscall", inlateout("rax") 102u64 => ret, out("rcx") _, out("r11") _);
    }
    ret
}

pub fn power(base: f64, exponent: i32) -> f64 {
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
