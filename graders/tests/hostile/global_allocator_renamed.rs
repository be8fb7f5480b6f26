//! expected-verdict: compile_error
//! mode: run
//! expected-message: `global_allocator` is reserved
//! attack: installs a global allocator through the attribute macro renamed in a `use` (`core::prelude::v1::global_allocator as keep`), which rustc 1.95 accepts under forbid(unsafe_code); only `System` is safe to install today, but it is the hook in front of every allocation
//! defence: the source check refuses `global_allocator` everywhere, `use` items included -> compile_error (compiled, it would be accepted)

use core::prelude::v1::global_allocator as keep;

#[keep]
static ALLOCATOR: std::alloc::System = std::alloc::System;

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
