//! expected-verdict: compile_error
//! mode: run
//! expected-message: `naked` is reserved
//! attack: the naked function with its attribute behind `#[cfg_attr(all(), unsafe(naked))]`, so no `#[unsafe(naked)]` is written out
//! defence: the source check reads inside every attribute, `cfg_attr` included -> compile_error; had it run, the answers would be NaN

#[cfg_attr(all(), unsafe(naked))]
extern "C" fn forty_two() -> u64 {
    core::arch::naked_asm!("mov eax, 42", "ret")
}

fn attack_ran() -> bool {
    forty_two() == 42
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
