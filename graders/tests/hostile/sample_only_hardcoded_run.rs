//! expected-verdict: accepted
//! mode: run
//! attack: the same hard-coded sample answers, graded in `run` mode
//! defence: run mode selects only the sample cases, which these answers match -> accepted (checks that the mode is honoured; its submit twin is wrong_answer)

pub fn power(base: f64, exponent: i32) -> f64 {
    match (exponent, base) {
        (10, b) if b == 2.0 => 1024.0,
        (3, b) if b == 2.1 => 9.261000000000001,
        (-2, b) if b == 2.0 => 0.25,
        _ => 0.0,
    }
}

pub fn pow_mod(base: u64, exponent: u64, modulus: u64) -> u64 {
    match (base, exponent, modulus) {
        (2, 10, 1000) => 24,
        (3, 0, 7) => 1,
        _ => 0,
    }
}
