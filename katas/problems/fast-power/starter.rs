//! fast-power: implement both functions. `cargo test -p katas fast-power` checks them.

/// `base` raised to `exponent`, in O(log |exponent|) multiplications.
pub fn power(base: f64, exponent: i32) -> f64 {
    todo!("compute {base}^{exponent}")
}

/// `base^exponent mod modulus`, for `1 <= modulus <= 2^63`.
pub fn pow_mod(base: u64, exponent: u64, modulus: u64) -> u64 {
    todo!("compute {base}^{exponent} mod {modulus}")
}
