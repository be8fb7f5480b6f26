//! expected-verdict: accepted
//! mode: submit
//! attack: not an attack: a correct solution that hands every query to one long-lived worker thread over a channel (exactly one extra thread, as max_threads = 1 allows)
//! defence: the pids limit is max_threads + 2, so one worker fits; thread creation (clone with CLONE_THREAD) is on the run allow-list -> accepted; runtime_error here means the limits are too tight for a legitimate solution

// One thread for the whole run rather than one per call: a thread's pid is released a
// moment after `join` returns, so spawning per call could race the pids limit.
use std::sync::mpsc::{self, Sender};
use std::sync::{Mutex, OnceLock};

enum Job {
    Power(f64, i32, Sender<f64>),
    PowMod(u64, u64, u64, Sender<u64>),
}

static WORKER: OnceLock<Mutex<Sender<Job>>> = OnceLock::new();

fn worker() -> &'static Mutex<Sender<Job>> {
    WORKER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("worker".into())
            .spawn(move || {
                for job in rx {
                    match job {
                        Job::Power(b, e, reply) => {
                            let _ = reply.send(power_here(b, e));
                        }
                        Job::PowMod(b, e, m, reply) => {
                            let _ = reply.send(pow_mod_here(b, e, m));
                        }
                    }
                }
            })
            .expect("one worker thread fits in max_threads = 1");
        Mutex::new(tx)
    })
}

pub fn power(base: f64, exponent: i32) -> f64 {
    let (tx, rx) = mpsc::channel();
    worker()
        .lock()
        .unwrap()
        .send(Job::Power(base, exponent, tx))
        .expect("worker alive");
    rx.recv().expect("worker answered")
}

pub fn pow_mod(base: u64, exponent: u64, modulus: u64) -> u64 {
    let (tx, rx) = mpsc::channel();
    worker()
        .lock()
        .unwrap()
        .send(Job::PowMod(base, exponent, modulus, tx))
        .expect("worker alive");
    rx.recv().expect("worker answered")
}

fn power_here(base: f64, exponent: i32) -> f64 {
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

fn pow_mod_here(base: u64, exponent: u64, modulus: u64) -> u64 {
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
