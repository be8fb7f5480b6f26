//! Password hashing: argon2id with the crate's defaults (OWASP's recommended m = 19 MiB, t = 2,
//! p = 1), a random salt per hash, stored as a PHC string. Both calls take tens of milliseconds
//! of CPU: run them on the blocking pool.

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher as _, PasswordVerifier as _};
use std::sync::OnceLock;

pub const MIN_LEN: usize = 8;
/// Hashing cost grows with the input: refuse essays.
pub const MAX_LEN: usize = 256;

pub fn hash(password: &str) -> anyhow::Result<String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| anyhow::anyhow!("hashing a password: {e}"))
}

/// Whether `password` matches `stored`. With no stored hash (an unknown user, or an account
/// without a password) it still spends the time of one verification, so response times do not
/// tell which user names exist.
pub fn verify(password: &str, stored: Option<&str>) -> bool {
    static DUMMY: OnceLock<String> = OnceLock::new();
    let dummy = DUMMY.get_or_init(|| hash("not anyone's password").unwrap_or_default());
    let (phc, real) = match stored {
        Some(s) => (s, true),
        None => (dummy.as_str(), false),
    };
    let Ok(parsed) = PasswordHash::new(phc) else {
        return false;
    };
    Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok()
        && real
}

#[cfg(test)]
mod tests {
    #[test]
    fn hashes_are_argon2id_salted_and_verify() {
        let a = super::hash("correct horse").unwrap();
        let b = super::hash("correct horse").unwrap();
        assert!(a.starts_with("$argon2id$"), "{a}");
        assert_ne!(a, b, "a fresh salt each time");
        assert!(super::verify("correct horse", Some(&a)));
        assert!(!super::verify("wrong horse", Some(&a)));
        assert!(!super::verify("correct horse", None));
        assert!(!super::verify("x", Some("not a phc string")));
    }
}
