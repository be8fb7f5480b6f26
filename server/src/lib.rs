//! The `infrakata` service and command line: HTTP API, server-rendered pages, SQLite storage, the durable job queue and
//! its workers, and the local kata commands. `main.rs` is a thin entry point over [`commands::main`].
// The OpenAPI document is one `json!` literal; its depth outgrows the default macro recursion.
#![recursion_limit = "256"]
#![forbid(unsafe_code)]

pub mod app;
pub mod auth;
pub mod cli;
pub mod commands;
pub mod cross_replica;
pub mod db;
pub mod domain;
pub mod edge;
pub mod error;
pub mod grader_slot;
pub mod login_throttle;
pub mod pages;
pub mod password;
pub mod queue;
pub mod routes;
pub mod services;
pub mod state;
pub mod stream_limit;
pub mod table;
pub mod worker;
pub mod worker_wire;
