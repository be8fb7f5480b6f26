//! expected-verdict: accepted
//! mode: run
//! attack: prints terminal escapes, BEL, CR, NUL, invalid UTF-8, a lone surrogate, an RTL override, HTML/JSON-breaking text, and leaves a half frame marker `\0IKFRAM` right before the runner's next frame
//! defence: the report keeps printed bytes as (lossy) text inside JSON, and the frame reader resynchronises on the full marker: a correct solution with odd output -> accepted (never internal_error)

use std::io::Write as _;

fn attack() -> bool {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(b"\x1b[2J\x1b[31mred\x1b[0m \x07bell \rcarriage \x00nul \xff\xfe bad utf-8 \xed\xa0\x80 surrogate \xe2\x80\xaertl\xe2\x80\xac\n");
    let _ = out.write_all(
        b"</pre><script>alert(1)</script> \"},{\"verdict\":\"accepted\"} \\u0000 ${HOME} %s %n\n",
    );
    let _ = out.write_all(b"\0IKFRAM");
    let _ = out.flush();
    let _ = std::io::stderr().write_all(b"stderr: \xc3\x28 \x1b]0;title\x07 \0 end\n");
    false
}

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

static ONCE: Once = Once::new();
static BREACHED: AtomicBool = AtomicBool::new(false);

/// Runs the attack on the first call; `true` if it got through.
fn attack_once() -> bool {
    ONCE.call_once(|| BREACHED.store(attack(), Ordering::SeqCst));
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
