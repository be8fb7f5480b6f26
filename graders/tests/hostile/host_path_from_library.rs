//! expected-verdict: compile_error
//! mode: run
//! expected-message: CRATE_DIR
//! attack: prints `katas::CRATE_DIR`, the absolute path of the checkout the runner library was built from, to learn where the grader's files live on the host
//! defence: the runner library submissions link against is built without `packages`, which is the only place `CRATE_DIR` exists (and the library's own paths are remapped to `/katas-source`) -> compile_error naming it

pub fn power(base: f64, exponent: i32) -> f64 {
    println!("{}", katas::CRATE_DIR);
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
    if modulus == 1 {
        return 0;
    }
    let m = u128::from(modulus);
    let (mut b, mut e, mut acc) = (u128::from(base) % m, exponent, 1u128);
    while e > 0 {
        if e & 1 == 1 {
            acc = acc * b % m;
        }
        b = b * b % m;
        e >>= 1;
    }
    acc as u64
}
