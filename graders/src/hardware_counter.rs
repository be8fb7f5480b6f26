//! Whether this host has a hardware instruction counter (`perf_event_open` on retired
//! instructions). Every figure is counted with valgrind, the reference counter that runs the
//! same everywhere; a hardware counter is what would bring a figure near the cost of a build, so
//! a host says at start-up whether it has one, and why not.

use perf_event::Builder;
use perf_event::events::Hardware;

/// For start-up logs: present, or absent with the kernel's answer (a VM without a virtual PMU
/// answers "No such file or directory"; `perf_event_paranoid` answers "Permission denied").
pub fn describe() -> String {
    match Builder::new().kind(Hardware::INSTRUCTIONS).build() {
        Ok(_) => "hardware instruction counter present (figures still count with valgrind)".into(),
        Err(e) => format!("no hardware instruction counter (perf_event_open: {e})"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn says_whether_the_counter_is_there() {
        let text = super::describe();
        assert!(text.contains("hardware instruction counter"), "{text}");
    }
}
