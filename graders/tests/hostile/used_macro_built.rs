//! expected-verdict: compile_error
//! mode: run
//! expected-message: `used` is reserved
//! attack: a `macro_rules!` puts `#[$attr]` on a static and the call site passes the bare word `used` (half of the `.init_array` trick), so `#[used]` is never written out
//! defence: in a file that defines a macro, the source check reads every macro input as if it were an attribute -> compile_error (compiled, it would be accepted)

macro_rules! kept_static {
    ($attr:meta) => {
        #[$attr]
        static KEPT: [u8; 4] = *b"kept";
    };
}

kept_static!(used);

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
