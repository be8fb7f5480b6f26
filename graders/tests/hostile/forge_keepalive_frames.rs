//! expected-verdict: time_limit_exceeded
//! mode: submit
//! attack: steals the per-run nonce from its own memory (/proc/self/mem: the raw request, or the Ready frame left in stdout's buffer), then solves the huge-exponent cases linearly (seconds each) while emitting forged Ready frames every 200 ms to keep pushing the grader's per-case deadline back
//! defence: forged frames can only speak for the forger: the deadline may slide, but each answer's time is measured from the previous answer frame and judged against case_time_ms (and the CPU limit caps the run) -> time_limit_exceeded; without the nonce the deadline kills it -> time_limit_exceeded too

use std::fs::File;
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

static NONCE: OnceLock<Option<[u8; 16]>> = OnceLock::new();
static SLOW_ANSWER_SENT: AtomicBool = AtomicBool::new(false);

const MAGIC: [u8; 8] = *b"\0IKFRAME";
/// What follows the nonce in a Ready frame: case u32::MAX, kind 0, length 0.
const READY_TAIL: [u8; 9] = [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0];

fn varint(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

/// The nonce, found in this process's own writable memory.
fn steal_nonce() -> Option<[u8; 16]> {
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    let mut mem = File::open("/proc/self/mem").ok()?;
    // The postcard request: varint(seed), varint(n), the case indices 0..n, then the nonce.
    // `katas::DEFAULT_SEED`, which a learner's library does not export.
    let seed = varint(0x1A7A_2026);
    for line in maps.lines() {
        let mut fields = line.split_whitespace();
        let (Some(range), Some(perms)) = (fields.next(), fields.next()) else {
            continue;
        };
        let Some((lo, hi)) = range.split_once('-') else {
            continue;
        };
        let (Ok(lo), Ok(hi)) = (u64::from_str_radix(lo, 16), u64::from_str_radix(hi, 16)) else {
            continue;
        };
        if !perms.starts_with("rw") || hi - lo > 256 << 20 {
            continue;
        }
        let mut buf = vec![0u8; (hi - lo) as usize];
        if mem.seek(SeekFrom::Start(lo)).is_err() || mem.read_exact(&mut buf).is_err() {
            continue;
        }
        for i in 0..buf.len() {
            let rest = &buf[i..];
            if rest.len() >= 33 && rest[..8] == MAGIC && rest[24..33] == READY_TAIL {
                return rest[8..24].try_into().ok();
            }
            if rest.starts_with(&seed) && rest.len() > seed.len() + 1 {
                let n = usize::from(rest[seed.len()]);
                let cases = &rest[seed.len() + 1..];
                if (1..128).contains(&n)
                    && cases.len() >= n + 16
                    && cases[..n]
                        .iter()
                        .enumerate()
                        .all(|(k, &c)| usize::from(c) == k)
                {
                    return cases[n..n + 16].try_into().ok();
                }
            }
        }
    }
    None
}

fn keepalive() {
    if let Some(Some(nonce)) = NONCE.get() {
        let mut frame = MAGIC.to_vec();
        frame.extend_from_slice(nonce);
        frame.extend_from_slice(&READY_TAIL);
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(&frame).and_then(|()| out.flush());
    }
}

pub fn power(base: f64, exponent: i32) -> f64 {
    if SLOW_ANSWER_SENT.load(Ordering::SeqCst) {
        // The slow answer is judged already; end the run instead of burning the CPU limit.
        std::process::exit(0);
    }
    NONCE.get_or_init(|| {
        let nonce = steal_nonce();
        eprintln!("nonce stolen: {}", nonce.is_some());
        nonce
    });
    let n = exponent.unsigned_abs();
    let started = Instant::now();
    let mut last = started;
    let mut acc = 1.0;
    let mut i = 0u32;
    while i < n {
        let block = (n - i).min(1 << 20);
        for _ in 0..block {
            acc *= base;
        }
        i += block;
        if last.elapsed() > Duration::from_millis(200) {
            keepalive();
            last = Instant::now();
        }
    }
    if started.elapsed() > Duration::from_millis(1000) {
        SLOW_ANSWER_SENT.store(true, Ordering::SeqCst);
    }
    if exponent < 0 { 1.0 / acc } else { acc }
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
