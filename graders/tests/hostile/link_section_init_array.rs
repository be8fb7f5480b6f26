//! expected-verdict: compile_error
//! mode: run
//! expected-message: `link_section` is reserved
//! attack: `#[unsafe(link_section = ".init_array")]` on a static function pointer, to run code before the runner starts
//! defence: the source check refuses `used` and `link_section` before rustc runs; behind it link_section is an unsafe attribute, caught by the forbidden unsafe_code lint -> compile_error

extern "C" fn early() {
    std::process::exit(0);
}

#[used]
#[unsafe(link_section = ".init_array")]
static EARLY: extern "C" fn() = early;

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
