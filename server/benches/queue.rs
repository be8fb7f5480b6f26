//! Claim throughput of the job queue on each backend, in one run so the ratio is fair: 8
//! claimers compete to drain the same queue (`db::jobs::claim`, the statement every worker's
//! claim runs), on a SQLite file and on a throwaway PostgreSQL cluster (skipped, saying why,
//! without PostgreSQL server binaries).
//!
//! `cargo bench -p server --bench queue` (`INFRAKATA_BENCH_JOBS` sets the queue length, 2000).

#[allow(dead_code)]
#[path = "../tests/api/postgres.rs"]
mod postgres;

use server::db::users::{self, Role};
use server::db::{self, Db, Location, jobs, submissions};
use server::domain::{JobKind, Slug};
use std::time::Instant;

const CLAIMERS: usize = 8;

fn main() {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(run());
}

async fn run() {
    let n: usize = std::env::var("INFRAKATA_BENCH_JOBS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let dir = tempfile::tempdir().unwrap();
    let sqlite = claims_per_second(Location::Sqlite(dir.path().join("bench.db")), n).await;
    println!("queue: sqlite      {sqlite:>8.0} claims/s ({CLAIMERS} claimers, {n} jobs)");
    if postgres::bin_dir().is_none() {
        println!(
            "queue: postgres skipped: no PostgreSQL server binaries (apt-get install postgresql)"
        );
        return;
    }
    let url = postgres::fresh_database().await;
    let pg = claims_per_second(Location::Postgres(url), n).await;
    println!("queue: postgres    {pg:>8.0} claims/s ({CLAIMERS} claimers, {n} jobs)");
    println!("queue: postgres / sqlite = {:.2}", pg / sqlite);
}

async fn claims_per_second(location: Location, n: usize) -> f64 {
    let db = db::open(location).await.unwrap();
    db::katas::sync(&db).await.unwrap();
    fill(&db, n).await;
    let start = Instant::now();
    let claimers: Vec<_> = (0..CLAIMERS)
        .map(|c| {
            let db = db.clone();
            tokio::spawn(async move {
                let mut got = 0usize;
                while let (Some(_), _) = jobs::claim(
                    &db,
                    &format!("bench-{c}"),
                    &[JobKind::Cpu],
                    server::domain::JobPhase::Verdict,
                    600_000,
                )
                .await
                .unwrap()
                {
                    got += 1;
                }
                got
            })
        })
        .collect();
    let mut claimed = 0;
    for c in claimers {
        claimed += c.await.unwrap();
    }
    let elapsed = start.elapsed();
    assert_eq!(claimed, n, "every job claimed exactly once");
    n as f64 / elapsed.as_secs_f64()
}

async fn fill(db: &Db, n: usize) {
    let user = users::create(db, "bench", Role::Learner, None)
        .await
        .unwrap();
    let slug = Slug::parse("fast-power").unwrap();
    for i in 0..n {
        let mode = if i % 4 == 0 {
            katas::Mode::Run
        } else {
            katas::Mode::Submit
        };
        submissions::create(db, user.id, &slug, JobKind::Cpu, mode, &format!("// {i}"))
            .await
            .unwrap();
    }
}
