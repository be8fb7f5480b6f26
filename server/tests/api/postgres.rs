//! The PostgreSQL backend for the suite: `INFRAKATA_TEST_DB=postgres` runs every test that goes
//! through `spawn_app` on PostgreSQL. One throwaway cluster per test binary (initdb into a temp
//! dir, a free port on 127.0.0.1, `fsync=off`: the data is thrown away), a fresh database per
//! test. A watchdog shell stops the server and removes the cluster when this process exits,
//! however it exits. Without `INFRAKATA_TEST_DB=postgres` nothing here runs; `scripts/test.sh`
//! decides whether PostgreSQL is there (and fails under `INFRAKATA_CI=1` when it is not).

use sqlx::Connection as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// Whether this run uses PostgreSQL.
pub fn selected() -> bool {
    std::env::var("INFRAKATA_TEST_DB").is_ok_and(|v| v == "postgres")
}

/// A running throwaway cluster.
#[derive(Debug)]
pub struct Cluster {
    port: u16,
}

impl Cluster {
    fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }
}

/// The folder holding `initdb`, `postgres`: `$INFRAKATA_PG_BIN`, else the newest Debian one.
pub fn bin_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("INFRAKATA_PG_BIN") {
        return Some(dir.into());
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| Some(e.ok()?.path().join("bin")))
        .filter(|d| d.join("initdb").exists() && d.join("postgres").exists())
        .collect();
    found.sort_by_key(|d| {
        d.parent()
            .and_then(|v| v.file_name()?.to_str()?.parse::<u32>().ok())
    });
    found.pop()
}

fn cluster() -> &'static Cluster {
    static CLUSTER: OnceLock<Cluster> = OnceLock::new();
    CLUSTER.get_or_init(|| start().unwrap_or_else(|e| panic!("starting PostgreSQL: {e}")))
}

/// PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user.
fn as_server_user(program: &Path) -> Command {
    if nix::unistd::geteuid().is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

fn start() -> Result<Cluster, String> {
    let bin =
        bin_dir().ok_or("no PostgreSQL server binaries (Debian: apt-get install postgresql)")?;
    let dir = tempfile::Builder::new()
        .prefix("infrakata-pg-")
        .tempdir()
        .map_err(|e| e.to_string())?
        .keep();
    if nix::unistd::geteuid().is_root() {
        let pg = nix::unistd::User::from_name("postgres")
            .ok()
            .flatten()
            .ok_or("running as root, and there is no `postgres` user to run the server as")?;
        nix::unistd::chown(&dir, Some(pg.uid), Some(pg.gid)).map_err(|e| e.to_string())?;
    }
    let data = dir.join("data");
    let out = as_server_user(&bin.join("initdb"))
        .args([
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--no-sync",
            "-D",
        ])
        .arg(&data)
        .output()
        .map_err(|e| format!("initdb: {e}"))?;
    if !out.status.success() {
        return Err(format!("initdb: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    // The watchdog outlives nothing: when this test process is gone it stops the server (fast
    // shutdown) and removes the cluster.
    let script = format!(
        "{postgres} -D {data} -p {port} -k {dir} -c listen_addresses=127.0.0.1 \
           -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
           -c max_connections=400 > {dir}/log 2>&1 &
         server=$!
         while [ -d /proc/{parent} ] && kill -0 $server 2>/dev/null; do sleep 1; done
         kill -INT $server 2>/dev/null; wait $server; rm -rf {dir}",
        postgres = bin.join("postgres").display(),
        data = data.display(),
        dir = dir.display(),
        parent = std::process::id(),
    );
    as_server_user(Path::new("/bin/sh"))
        .args(["-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("starting postgres: {e}"))?;
    let cluster = Cluster { port };
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if Instant::now() > deadline {
            let log = std::fs::read_to_string(dir.join("log")).unwrap_or_default();
            return Err(format!("the server did not start on port {port}: {log}"));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Ok(cluster)
}

/// A fresh, empty database on the shared cluster; its URL.
pub async fn fresh_database() -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let cluster = tokio::task::spawn_blocking(cluster).await.unwrap();
    let name = format!(
        "t{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    // The server accepts connections a moment before it accepts logins.
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut admin = loop {
        match sqlx::PgConnection::connect(&cluster.url("postgres")).await {
            Ok(c) => break c,
            Err(e) if Instant::now() > deadline => panic!("connecting to PostgreSQL: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    };
    sqlx::raw_sql(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .expect("CREATE DATABASE");
    admin.close().await.ok();
    cluster.url(&name)
}
