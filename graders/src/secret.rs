//! Randomness a submission must not predict: grading seeds, measuring sets, run nonces.
//! `fastrand` is seeded from little entropy and its stream can be recovered from a few
//! outputs, so these come from the OS instead.

/// Fresh bytes from the OS random source.
pub(crate) fn bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    // Without the OS source the host cannot keep any secret; nothing sensible can go on.
    getrandom::fill(&mut bytes).expect("the OS random source works");
    bytes
}

/// A fresh secret seed.
pub(crate) fn u64() -> u64 {
    u64::from_le_bytes(bytes())
}

/// A secret index below `len` (which is not zero).
pub(crate) fn below(len: usize) -> usize {
    (u64() % len as u64) as usize
}

#[cfg(test)]
mod tests {
    #[test]
    fn draws_differ_and_stay_in_range() {
        assert_ne!(super::u64(), super::u64());
        assert!((0..100).all(|_| super::below(3) < 3));
    }
}
