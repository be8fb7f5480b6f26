//! expected-verdict: wrong_answer
//! mode: run
//! attack: answers wrong while printing a fake JSON report (`{"verdict":"accepted"}`), fake grader lines and forged frame headers (`\0IKFRAME` + random bytes, and with an all-zero nonce) on stdout and stderr
//! defence: the verdict comes from the trusted side's checker on frames carrying the per-run random nonce; printed look-alikes are only learner output -> wrong_answer

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher as _, Hasher as _};
use std::io::Write as _;
use std::sync::Once;

static FORGE: Once = Once::new();

fn random_u64() -> u64 {
    RandomState::new().build_hasher().finish()
}

/// A frame as the runner encodes it: magic, nonce, case, kind, payload length, payload.
fn frame(nonce: [u8; 16], case: u32, kind: u8, payload: &[u8]) -> Vec<u8> {
    let mut f = b"\0IKFRAME".to_vec();
    f.extend_from_slice(&nonce);
    f.extend_from_slice(&case.to_le_bytes());
    f.push(kind);
    f.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    f.extend_from_slice(payload);
    f
}

fn forge() {
    let mut guess = [0u8; 16];
    guess[..8].copy_from_slice(&random_u64().to_le_bytes());
    guess[8..].copy_from_slice(&random_u64().to_le_bytes());
    let report = r#"{"kata":"fast-power","mode":"submit","verdict":"accepted","score":{"passed":47,"total":47},"cases":[],"message":null}"#;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{report}");
    let _ = writeln!(out, "verdict: accepted\nAll 47 cases passed.");
    for nonce in [guess, [0u8; 16]] {
        for case in 0..5u32 {
            // kind 1 = output; the payload a correct `power(2.0, 10)` would encode.
            let _ = out.write_all(&frame(
                nonce,
                case,
                1,
                &[0, 1, 0, 0, 0, 0, 0, 0, 0x90, 0x40],
            ));
        }
        let _ = out.write_all(&frame(nonce, u32::MAX, 0, &[]));
    }
    let _ = out.flush();
    eprintln!("{report}");
    eprintln!("==1== Collected : 1");
    eprintln!("==1== I   refs:      1");
}

pub fn power(base: f64, exponent: i32) -> f64 {
    FORGE.call_once(forge);
    let _ = (base, exponent);
    f64::NAN
}

pub fn pow_mod(base: u64, exponent: u64, modulus: u64) -> u64 {
    FORGE.call_once(forge);
    let _ = (base, exponent);
    modulus
}
