//! expected-verdict: accepted
//! mode: run
//! attack: sends a DNS query over UDP to 127.0.0.1:53, 127.0.0.53:53, 8.8.8.8:53 and 10.0.2.3:53 and waits 150 ms for any reply
//! defence: no socket syscalls in the run seccomp list and no interface in the net namespace: the socket cannot even be created -> accepted; a datagram leaving for a non-loopback address or any reply -> wrong_answer

use std::net::UdpSocket;
use std::time::Duration;

fn attack() -> bool {
    let sock = match UdpSocket::bind("0.0.0.0:0") {
        Ok(s) => s,
        Err(e) => {
            eprintln!("udp socket: {e}");
            return false;
        }
    };
    let _ = sock.set_read_timeout(Some(Duration::from_millis(150)));
    // A standard query for example.com, type A.
    let query: [u8; 29] = [
        0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 7, b'e', b'x', b'a', b'm', b'p', b'l', b'e', 3,
        b'c', b'o', b'm', 0, 0, 1, 0, 1,
    ];
    let mut breached = false;
    for target in ["127.0.0.1:53", "127.0.0.53:53", "8.8.8.8:53", "10.0.2.3:53"] {
        match sock.send_to(&query, target) {
            Ok(_) if !target.starts_with("127.") => {
                breached = true;
                println!("a datagram left for {target}");
            }
            Ok(_) => eprintln!("sent to {target}"),
            Err(e) => eprintln!("{target}: {e}"),
        }
    }
    let mut reply = [0u8; 512];
    if let Ok((n, from)) = sock.recv_from(&mut reply) {
        breached = true;
        println!("{n}-byte reply from {from}");
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
