//! expected-verdict: runtime_error
//! mode: run
//! attack: re-executes its own binary (/proc/self/exe, then /prog) in a loop; each child gets a valid request and sleeps forever inside `power`, never reaped
//! defence: run seccomp allows `clone` only with CLONE_THREAD (the pids cgroup caps the tree at max_threads + 2 besides), so spawning fails and the solution panics on the error -> runtime_error; more than 2 live copies -> wrong_answer

// A child gets a hand-made postcard `RunRequest` (seed 0, cases [0], zero nonce), so the
// runner inside it calls `power`, sees HOSTILE_FORK_CHILD and sleeps forever: if spawning
// worked these would be orphans that the sandbox has to kill after the job.
use std::io::Write as _;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

static STARTED: AtomicBool = AtomicBool::new(false);
static BREACHED: AtomicBool = AtomicBool::new(false);
static CHILDREN: Mutex<Vec<Child>> = Mutex::new(Vec::new());

fn spawn_copy() -> std::io::Result<Child> {
    let mut last = None;
    for exe in ["/proc/self/exe", "/prog"] {
        match Command::new(exe)
            .env("HOSTILE_FORK_CHILD", "1")
            .stdin(Stdio::piped())
            .spawn()
        {
            Ok(mut child) => {
                let mut request = vec![0u8, 1, 0];
                request.extend_from_slice(&[0u8; 16]);
                if let Some(mut stdin) = child.stdin.take() {
                    let _ = stdin.write_all(&request);
                }
                return Ok(child);
            }
            Err(e) => last = Some(e),
        }
    }
    Err(last.expect("tried at least one path"))
}

fn attack_once() -> bool {
    if std::env::var_os("HOSTILE_FORK_CHILD").is_some() {
        // A copy: try to multiply, then linger.
        let _ = spawn_copy();
        loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
    }
    if !STARTED.swap(true, Ordering::SeqCst) {
        let (mut spawned, mut error) = (0usize, None);
        for _ in 0..64 {
            match spawn_copy() {
                Ok(child) => {
                    CHILDREN.lock().unwrap().push(child);
                    spawned += 1;
                }
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
        }
        if spawned > 2 {
            println!("fork bomb: {spawned} copies running");
            BREACHED.store(true, Ordering::SeqCst);
        } else {
            panic!("fork bomb stopped after {spawned} copies: {error:?}");
        }
    }
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
