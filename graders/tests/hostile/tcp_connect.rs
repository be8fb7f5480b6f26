//! expected-verdict: accepted
//! mode: run
//! attack: TCP connects (100 ms timeout each) to 127.0.0.1:22, :8080, :80, [::1]:22, the VM host 10.0.2.2:22 and the cloud metadata service 169.254.169.254:80
//! defence: seccomp has no socket calls (ENOSYS), the net namespace has no interface up and Landlock denies TCP connect: every connect fails -> accepted; any connection -> wrong_answer

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

fn attack() -> bool {
    let mut breached = false;
    let targets = [
        "127.0.0.1:22",
        "127.0.0.1:8080",
        "127.0.0.1:80",
        "[::1]:22",
        "10.0.2.2:22",
        "169.254.169.254:80",
    ];
    for target in targets {
        let addr: SocketAddr = target.parse().expect("literal address");
        match TcpStream::connect_timeout(&addr, Duration::from_millis(100)) {
            Ok(s) => {
                breached = true;
                println!("connected to {addr}: {:?}", s.peer_addr());
            }
            Err(e) => eprintln!("{addr}: {e}"),
        }
    }
    // Listening is harmless in an empty net namespace; shown for the record only.
    match TcpListener::bind("127.0.0.1:0") {
        Ok(l) => eprintln!("bound {:?}", l.local_addr()),
        Err(e) => eprintln!("bind: {e}"),
    }
    breached
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
