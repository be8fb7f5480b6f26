//! expected-verdict: compile_error
//! mode: run
//! expected-message: `debugger_visualizer` is reserved
//! attack: `#![debugger_visualizer(gdb_script_file = …)]`, accepted by rustc 1.95 under forbid(unsafe_code): with debug info it embeds a gdb script in `.debug_gdb_scripts`, which a debugger on the grading host may auto-load and run
//! defence: the source check refuses `debugger_visualizer` everywhere -> compile_error (compiled without -g, it would be accepted)

#![debugger_visualizer(gdb_script_file = "solution.rs")]

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
