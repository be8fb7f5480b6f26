//! expected-verdict: accepted
//! mode: run
//! attack: reads the grader's own files: the workspace (/work/main/Cargo.toml and other usual checkout paths), the cache dir holding /prog (host path from mountinfo), /root/.cargo, /root/.rustup, ssh keys, /build, /deps, /run/infrakata-sandbox, also via /tmp/.. and /proc/self/{root,cwd}
//! defence: none of these exist in the run sandbox (only /prog, /tmp, /proc; Landlock besides): every read fails -> accepted; anything read is printed and answered wrong -> wrong_answer

/// Shows what was read (into the report, where the harness looks for host secrets).
fn leak(what: &str, bytes: &[u8]) {
    println!(
        "{what}: {}",
        String::from_utf8_lossy(&bytes[..bytes.len().min(2000)])
    );
}

fn try_path(path: &str) -> bool {
    match std::fs::read(path) {
        Ok(bytes) => {
            leak(path, &bytes);
            return true;
        }
        Err(e) => eprintln!("{path}: {e}"),
    }
    if let Ok(entries) = std::fs::read_dir(path) {
        let names: Vec<String> = entries
            .flatten()
            .take(50)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        println!("{path}: {names:?}");
        return true;
    }
    false
}

fn attack() -> bool {
    let mut paths: Vec<String> = [
        "/work/main/Cargo.toml",
        "/work/main/graders/src/run.rs",
        "/work/main/target",
        "/root/.cargo/config.toml",
        "/root/.cargo/credentials.toml",
        "/root/.rustup/settings.toml",
        "/root/.ssh/id_rsa",
        "/root/.ssh/authorized_keys",
        "/root/.bash_history",
        "/build/main.rs",
        "/build/solution.rs",
        "/deps",
        "/run/infrakata-sandbox",
        "/tmp/../work/main/Cargo.toml",
        "/proc/self/root/work/main/Cargo.toml",
        "/proc/self/cwd/../work/main/Cargo.toml",
    ]
    .map(String::from)
    .to_vec();
    // Where checkouts usually are (the runner library no longer says where it was built).
    for root in ["/work/main", "/root/infrakata", "/src", "/app"] {
        paths.push(format!("{root}/Cargo.toml"));
        paths.push(format!("{root}/katas/Cargo.toml"));
    }
    // mountinfo names the host file bound at /prog: the grader's compile cache.
    if let Ok(mounts) = std::fs::read_to_string("/proc/self/mountinfo") {
        for line in mounts.lines() {
            let fields: Vec<&str> = line.split(' ').collect();
            if fields.len() > 4 && fields[4] == "/prog" {
                eprintln!("/prog is host file {}", fields[3]);
                if let Some((dir, _)) = fields[3].rsplit_once('/') {
                    paths.push(dir.to_string());
                }
            }
        }
    }
    let mut breached = false;
    for path in &paths {
        breached |= try_path(path);
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
