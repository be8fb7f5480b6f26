//! The service against a real app: HTTP on port 0, a fresh SQLite file per test, the real
//! grader in the real sandbox (zero2prod's `spawn_app`).

mod browser;
mod cdp;
mod chromium;
mod edge;
mod faults;
mod gpu;
mod helpers;
mod host_slots;
mod limits;
mod openapi;
mod pages;
mod submissions;
mod survival;
mod withdraw;
mod workbench;
mod workbench_browser;
