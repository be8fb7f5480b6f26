//! expected-verdict: accepted
//! mode: run
//! attack: binds a unix socket in /tmp and connects to docker/containerd/systemd/dbus/nscd sockets, /dev/log, the sandbox's state dir and abstract-namespace sockets (X11, systemd notify)
//! defence: seccomp refuses socket() (ENOSYS); none of those paths exist in the run sandbox; abstract sockets are per net namespace: every attempt fails -> accepted; any connection or datagram delivered -> wrong_answer

use std::os::linux::net::SocketAddrExt as _;
use std::os::unix::net::{SocketAddr, UnixDatagram, UnixListener, UnixStream};

fn attack() -> bool {
    let mut breached = false;
    match UnixListener::bind("/tmp/hostile.sock") {
        Ok(_) => eprintln!("bound /tmp/hostile.sock (harmless on its own)"),
        Err(e) => eprintln!("bind /tmp/hostile.sock: {e}"),
    }
    let paths = [
        "/run/docker.sock",
        "/var/run/docker.sock",
        "/run/containerd/containerd.sock",
        "/run/systemd/private",
        "/run/systemd/journal/stdout",
        "/run/dbus/system_bus_socket",
        "/var/run/nscd/socket",
        "/run/infrakata-sandbox",
        "/tmp/.X11-unix/X0",
        "/dev/log",
    ];
    for path in paths {
        match UnixStream::connect(path) {
            Ok(_) => {
                breached = true;
                println!("connected to {path}");
            }
            Err(e) => eprintln!("{path}: {e}"),
        }
    }
    for name in [
        "/tmp/.X11-unix/X0",
        "/org/freedesktop/systemd1/notify",
        "/containerd-shim",
    ] {
        let Ok(addr) = SocketAddr::from_abstract_name(name.as_bytes()) else {
            continue;
        };
        match UnixStream::connect_addr(&addr) {
            Ok(_) => {
                breached = true;
                println!("connected to abstract @{name}");
            }
            Err(e) => eprintln!("@{name}: {e}"),
        }
    }
    match UnixDatagram::unbound() {
        Ok(d) => {
            if d.send_to(b"<14>hostile submission", "/dev/log").is_ok() {
                breached = true;
                println!("logged to /dev/log");
            }
        }
        Err(e) => eprintln!("unix datagram: {e}"),
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
