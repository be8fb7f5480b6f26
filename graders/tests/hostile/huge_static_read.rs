//! expected-verdict: compile_error
//! mode: submit
//! attack: a 200 MiB precomputed table baked into the binary and read at run time: file-backed pages the grader brought into the page cache are not charged to the job's memory, so it would use far more than its memory limit
//! expected-message: the compiled program is
//! defence: compiled programs over 32 MiB are refused with a clear message (and the run's memory limit counts the program's own size as used)

static TABLE: [u8; 200 << 20] = {
    let mut t = [0u8; 200 << 20];
    t[0] = 1;
    t[(200 << 20) - 1] = 2;
    t
};

pub fn power(base: f64, exponent: i32) -> f64 {
    let mut sum = 0u64;
    for chunk in TABLE.chunks(4096) {
        sum += u64::from(chunk[0]);
    }
    std::hint::black_box(sum);
    base.powi(exponent)
}

pub fn pow_mod(base: u64, exponent: u64, modulus: u64) -> u64 {
    let _ = (base, exponent);
    1 % modulus
}
