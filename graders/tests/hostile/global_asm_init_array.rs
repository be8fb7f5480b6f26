//! expected-verdict: compile_error
//! mode: run
//! expected-message: `global_asm` is reserved
//! attack: global_asm! (no unsafe block needed) puts a function pointer into .init_array, to run code before main
//! defence: the source check refuses `global_asm` before rustc runs; behind it the unsafe_code lint covers global_asm! ("usage of core::arch::global_asm"), forbidden at the crate root -> compile_error

core::arch::global_asm!(
    ".pushsection .init_array,\"aw\"",
    ".quad hostile_early",
    ".popsection",
    ".text",
    ".globl hostile_early",
    "hostile_early:",
    "ret",
);

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
