//! The service against a real app: HTTP on port 0, a fresh SQLite file per test (or, with
//! `INFRAKATA_TEST_DB=postgres`, a fresh database on a throwaway PostgreSQL cluster) and the
//! real workers (zero2prod's `spawn_app`): grading tests give them the real grader in the real
//! sandbox (`helpers::grader`), the service's other tests the scripted one (`fake_grader.rs`).

mod availability;
mod browser;
mod cdp;
mod chromium;
mod chromium_drills;
mod custom_input;
mod drill_pages_zh;
mod drill_refusals;
mod drill_review;
mod drill_sessions;
mod drills;
mod edge;
mod extractors;
mod fake_grader;
mod faults;
mod function_packages;
mod gpu;
mod grader_start;
mod helpers;
mod host_slots;
mod interviews;
mod io_katas;
mod kata_stats;
mod limits;
mod measure_jobs;
mod openapi;
mod package_claims;
mod pages;
mod postgres;
mod publishing;
mod replicas;
mod schema;
mod submissions;
mod survival;
mod versions;
mod withdraw;
mod workbench;
mod workbench_browser;
mod workbench_fresh;
mod write_budgets;
