//! expected-verdict: compile_error
//! expected-message: mountinfo
//! mode: run
//! attack: bakes the compiler's mount table into the binary (include_str! of /proc/self/mountinfo, and of the per-thread copy, which no per-pid mount could hide): it names the host path of every bind, the toolchain's and the build folder's
//! defence: compile jobs have no /proc at all (rustc is given its sysroot, the loader LD_LIBRARY_PATH, and rust-lld is bound as ld.lld instead of through rustc's /proc/self/exe wrapper) -> compile_error naming the file; if it compiled, the table is printed and the answers wrong

static MOUNTS: &str = include_str!("/proc/self/mountinfo");
static THREAD_MOUNTS: &str = include_str!("/proc/thread-self/mountinfo");

fn leaked() -> bool {
    println!("{MOUNTS}{THREAD_MOUNTS}");
    !(MOUNTS.is_empty() && THREAD_MOUNTS.is_empty())
}

pub fn power(base: f64, exponent: i32) -> f64 {
    if leaked() {
        return f64::NAN; // the attack got through: answer wrong on purpose
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
    if leaked() {
        return modulus; // never a valid residue
    }
    let m = u128::from(modulus);
    let (mut b, mut e, mut acc) = (u128::from(base) % m, exponent, 1u128 % m);
    while e > 0 {
        if e & 1 == 1 {
            acc = acc * b % m;
        }
        b = b * b % m;
        e >>= 1;
    }
    acc as u64
}
