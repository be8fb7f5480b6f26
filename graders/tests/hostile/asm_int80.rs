//! expected-verdict: compile_error
//! mode: run
//! expected-message: `asm` is reserved
//! attack: an i386 system call through `int 0x80` in asm! (the 32-bit table, a classic seccomp filter bypass)
//! defence: the source check refuses `asm` before rustc runs; behind it asm! needs unsafe, forbidden at the crate root -> compile_error (and seccomp would also check the i386 arch)

pub fn raw_getuid32() -> u32 {
    let ret: u32;
    unsafe {
        core::arch::asm!("int 0x80", inlateout("eax") 24u32 => ret);
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
