//! `infrakata serve` as the real binary under a tiny open-file limit: half-open connections
//! exhaust its descriptors (accept fails with EMFILE), yet the accept loop survives and the
//! service answers again once the header-read timeout has closed them. Loopback only.

use std::io::{BufRead as _, BufReader, Write as _};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Kills the server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn health(addr: &str) -> Option<String> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(15))).ok()?;
    s.write_all(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .ok()?;
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut s, &mut answer).ok()?;
    Some(answer)
}

#[test]
fn the_accept_loop_survives_running_out_of_file_descriptors() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("infrakata.db");
    // More connections allowed than descriptors exist: accept itself must fail.
    let child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -n 64 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_infrakata"))
        .args(["serve", "--addr", "127.0.0.1:0", "--workers", "0"])
        .args(["--max-connections", "1000", "--header-read-timeout", "2"])
        .arg("--db")
        .arg(&db)
        .env("RUST_LOG", "error")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let mut server = Server(child);
    let mut stderr = server.0.stderr.take().unwrap();
    // Kept open to the end: the server prints more, and a closed pipe would end it.
    let mut stdout = BufReader::new(server.0.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    let addr = first
        .trim()
        .rsplit("http://")
        .next()
        .expect("InfraKata is serving on http://…")
        .to_string();
    assert!(
        health(&addr).is_some_and(|a| a.ends_with("ok")),
        "answers at first"
    );

    let half_open: Vec<TcpStream> = (0..120)
        .map(|_| {
            let mut s = TcpStream::connect(&addr).unwrap();
            s.write_all(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n")
                .unwrap();
            s
        })
        .collect();

    let started = Instant::now();
    let answer = loop {
        if let Some(a) = health(&addr).filter(|a| a.ends_with("ok")) {
            break a;
        }
        assert!(
            started.elapsed() < Duration::from_secs(45),
            "no answer after the half-open connections timed out"
        );
        assert!(server.0.try_wait().unwrap().is_none(), "the server exited");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    drop(half_open);
    drop(server);
    drop(stdout);
    // The server is gone, so its stderr ends: it did run out of descriptors on the way.
    let mut log = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut log).unwrap();
    assert!(log.contains("accepting a connection failed"), "{log}");
}
