//! The HTTP edge under attack, on loopback only: half-open (slowloris) connections far beyond
//! the connection cap while `/api/health` keeps answering, the header-read timeout closing
//! them, and a full house of busy connections refusing newcomers at once.

use crate::helpers::{Options, TestApp, spawn_app};
use std::time::Duration;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

const CAP: usize = 64;
const HEADER_READ: Duration = Duration::from_secs(5);

async fn guarded_app() -> TestApp {
    spawn_app(
        Options {
            workers: 0,
            configure: |c| {
                c.edge.max_connections = CAP;
                c.edge.header_read_timeout = HEADER_READ;
            },
            ..Options::default()
        },
        None,
    )
    .await
}

/// Half of a request head, then silence: the connection stays open until the server gives up.
async fn half_open(addr: std::net::SocketAddr) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.expect("loopback connect");
    s.write_all(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1\r\n")
        .await
        .unwrap();
    s
}

/// `/api/health` on a fresh connection (a pooled one may be an evicted keep-alive).
async fn health(app: &TestApp) -> Result<String, String> {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .timeout(Duration::from_secs(15))
        .build()
        .unwrap();
    let resp = client
        .get(app.url("/api/health"))
        .send()
        .await
        .map_err(|e| format!("{e:#}"))?;
    if resp.status() != 200 {
        return Err(format!("status {}", resp.status()));
    }
    resp.text().await.map_err(|e| format!("{e:#}"))
}

/// Whether the server has closed `s` (EOF or reset), without waiting.
fn closed_by_server(s: &TcpStream) -> bool {
    let mut buf = [0u8; 256];
    match s.try_read(&mut buf) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
    }
}

/// Client sockets this test may hold: the test process holds both ends of every connection.
fn affordable_connections() -> usize {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE).unwrap();
    let wanted = 4096.min(hard);
    if soft < wanted {
        let _ = setrlimit(Resource::RLIMIT_NOFILE, wanted, hard);
    }
    let (soft, _) = getrlimit(Resource::RLIMIT_NOFILE).unwrap();
    (soft.saturating_sub(400) as usize).min(2000)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_open_connections_beyond_the_cap_do_not_stop_the_service() {
    let total = affordable_connections();
    assert!(
        total >= 4 * CAP,
        "the open-file limit leaves only {total} sockets for the test"
    );
    let app = guarded_app().await;
    let started = tokio::time::Instant::now();
    let chunk = total / 8;
    let mut held = Vec::with_capacity(total);
    for round in 0..8 {
        for _ in 0..chunk {
            held.push(half_open(app.app.addr).await);
        }
        let answer = health(&app).await;
        assert_eq!(
            answer.as_deref(),
            Ok("ok"),
            "health after {} half-open connections (round {round})",
            held.len()
        );
    }
    let opened = held.len();
    assert!(opened > 4 * CAP);
    // No more than the cap stay open (evicted ones are closed as the newcomers arrive).
    let settle = tokio::time::Instant::now() + Duration::from_secs(3);
    let mut open_now = held.iter().filter(|s| !closed_by_server(s)).count();
    while open_now > CAP && tokio::time::Instant::now() < settle {
        tokio::time::sleep(Duration::from_millis(50)).await;
        open_now = held.iter().filter(|s| !closed_by_server(s)).count();
    }
    assert!(
        open_now <= CAP,
        "{open_now} of {opened} open; the cap is {CAP}"
    );
    // The newest ones are still waiting for their head (the test opens them far faster than
    // the timeout); everything older made room for them.
    let newest_open = held[opened - CAP / 2..]
        .iter()
        .filter(|s| !closed_by_server(s))
        .count();
    assert!(
        newest_open > 0,
        "none of the newest half-open connections is still open ({:?} after the start)",
        started.elapsed()
    );

    // The header-read timeout closes whatever the cap left open; the service answers meanwhile.
    let deadline = tokio::time::Instant::now() + HEADER_READ + Duration::from_secs(25);
    loop {
        let still_open = held.iter().filter(|s| !closed_by_server(s)).count();
        if still_open == 0 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{still_open} half-open connections outlived the header-read timeout"
        );
        assert_eq!(health(&app).await.as_deref(), Ok("ok"));
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert_eq!(health(&app).await.as_deref(), Ok("ok"));
    assert!(
        started.elapsed() < Duration::from_secs(55),
        "bounded: {:?}",
        started.elapsed()
    );
    app.app.stop();
}

/// A worker's long poll for a GPU job (none is queued): an ordinary request that stays busy
/// until the poll ends.
fn long_poll(app: &TestApp) -> tokio::task::JoinHandle<()> {
    let url = app.url("/api/worker/claim");
    tokio::spawn(async move {
        let _ = reqwest::Client::new()
            .post(url)
            .bearer_auth(crate::helpers::WORKER_TOKEN)
            .json(&serde_json::json!({
                "worker_id": "edge", "name": "edge",
                "capabilities": { "cores": 1, "kinds": ["gpu"] }
            }))
            .send()
            .await;
    })
}

async fn refused_at_once(app: &TestApp) -> String {
    let mut s = TcpStream::connect(app.app.addr).await.unwrap();
    let mut answer = String::new();
    tokio::time::timeout(Duration::from_secs(20), s.read_to_string(&mut answer))
        .await
        .expect("refused without waiting for a timeout")
        .ok();
    answer
}

#[tokio::test]
async fn when_every_connection_is_busy_a_newcomer_is_refused_at_once() {
    let app = spawn_app(
        Options {
            workers: 0,
            configure: |c| {
                c.edge.max_connections = 3;
                c.long_poll = Duration::from_secs(10);
            },
            ..Options::default()
        },
        None,
    )
    .await;
    let token = app.user("ada").await;
    let id = app
        .submit_id(&token, "fast-power", "// nothing yet", "run")
        .await;
    // An event stream and two long polls: every connection busy.
    let stream_client = reqwest::Client::new();
    let mut stream = stream_client
        .get(app.url(&format!("/api/submissions/{id}/events")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 200);
    let mut polls = vec![long_poll(&app), long_poll(&app)];
    tokio::time::sleep(Duration::from_millis(500)).await;

    // The stream gives way: the newcomer is answered, the stream ends (the page reconnects).
    assert_eq!(health(&app).await.as_deref(), Ok("ok"));
    let ended = tokio::time::timeout(Duration::from_secs(20), async {
        while let Ok(Some(_)) = stream.chunk().await {}
    })
    .await;
    assert!(ended.is_ok(), "the evicted stream was closed");

    // Three ordinary requests in flight: a newcomer is refused at once.
    polls.push(long_poll(&app));
    tokio::time::sleep(Duration::from_millis(500)).await;
    let answer = refused_at_once(&app).await;
    assert!(
        answer.starts_with("HTTP/1.1 503") && answer.contains("too many connections"),
        "{answer:?}"
    );
    // Long polls end (10 s): their places come free.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(40);
    loop {
        if health(&app).await.as_deref() == Ok("ok") {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "no place came free");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for poll in polls {
        poll.abort();
    }
    app.app.stop();
}

#[tokio::test]
async fn a_stalled_request_body_is_cut_off_by_the_idle_timeout() {
    let app = spawn_app(
        Options {
            workers: 0,
            configure: |c| {
                c.edge.idle_timeout = Duration::from_secs(3);
                c.edge.request_timeout = Duration::from_secs(300);
            },
            ..Options::default()
        },
        None,
    )
    .await;
    let mut s = TcpStream::connect(app.app.addr).await.unwrap();
    s.write_all(
        b"POST /signup HTTP/1.1\r\nHost: localhost\r\n\
          content-type: application/x-www-form-urlencoded\r\ncontent-length: 100\r\n\r\nname=",
    )
    .await
    .unwrap();
    let started = tokio::time::Instant::now();
    let mut rest = Vec::new();
    let ended = tokio::time::timeout(Duration::from_secs(60), s.read_to_end(&mut rest)).await;
    assert!(ended.is_ok(), "still open after a minute without a byte");
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(health(&app).await.as_deref(), Ok("ok"));
    app.app.stop();
}
