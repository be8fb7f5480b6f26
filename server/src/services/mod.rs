//! Domain rules that more than one surface applies: the JSON API (`routes/`) and the pages
//! (`pages/`) both call these and never each other.

pub mod catalogue;
pub mod drills;
pub mod examples;
pub mod interviews;
pub mod package_checks;
pub mod packages;
pub mod publishing;
pub mod publishing_function;
pub mod publishing_io;
pub mod rejudges;
pub mod submissions;
pub mod uploads;
pub mod write_budget;
