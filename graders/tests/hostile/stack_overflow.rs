//! expected-verdict: runtime_error
//! mode: run
//! attack: recurses without end, 1 KiB of stack per frame, in the first call
//! defence: the guard page stops it: std's handler reports the overflow and aborts (SIGABRT) or the kernel sends SIGSEGV -> runtime_error

#[inline(never)]
fn dive(depth: u64) -> u64 {
    let mut frame = [0u8; 1024];
    frame[(depth % 1024) as usize] = depth as u8;
    let frame = std::hint::black_box(frame);
    if std::hint::black_box(depth) == u64::MAX {
        return u64::from(frame[0]);
    }
    dive(depth + 1).wrapping_add(u64::from(frame[(depth % 7) as usize]))
}

pub fn power(base: f64, exponent: i32) -> f64 {
    if dive(0) == 42 {
        return f64::NAN;
    }
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
