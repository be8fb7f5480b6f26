//! expected-verdict: compile_error
//! mode: run
//! attack: declares libc's syscall/fork/kill as `safe fn` in an `unsafe extern "C"` block (edition 2024 syntax), so they could be called without an unsafe block
//! defence: the unsafe_code lint covers `unsafe extern` blocks ("usage of an unsafe extern block"), forbidden at the crate root -> compile_error

unsafe extern "C" {
    pub safe fn fork() -> i32;
    pub safe fn kill(pid: i32, sig: i32) -> i32;
}

pub fn escape() -> i32 {
    kill(1, 9) + fork()
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
