//! expected-verdict: wrong_answer
//! mode: submit
//! attack: hard-codes the five visible sample answers and returns 0 for everything else
//! defence: submit runs the hidden edge/random/performance cases too, judged by the trusted checker -> wrong_answer (on `power(0.0, 0)`)

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
