//! Panics of learners' code as the learner reads them: the runner's and the in-process
//! executor's panic hook notes the line of the learner's file a panic came from, and the payload
//! becomes text that says it. Used on both sides of the sandbox, so it imports nothing of ours.

use std::any::Any;

/// Threads that run solution code carry this name prefix; their panics are reported as
/// runtime errors rather than printed.
pub const SOLUTION_THREAD_PREFIX: &str = "kata-solution";

thread_local! {
    /// Where the last panic on this thread happened, when it was in the learner's code.
    static PANIC_AT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// For the panic hook of a process or thread that runs learners' code: remembers the line of
/// theirs a panic came from (`track_caller` makes an index or an `unwrap` point at it), for
/// [`learner_panic_message`]. Library and harness locations are not the learner's line.
pub fn note_panic_location(info: &std::panic::PanicHookInfo<'_>) {
    let at = info
        .location()
        .filter(|l| is_learner_file(l.file()))
        .map(|l| {
            let name = l.file().rsplit('/').next().unwrap_or(l.file());
            format!("{name}:{}:{}", l.line(), l.column())
        });
    PANIC_AT.with(|p| *p.borrow_mut() = at);
}

fn is_learner_file(path: &str) -> bool {
    let ours = [
        "/rustc/",
        "/katas-source",
        "/cargo/",
        "/.cargo/",
        "/.rustup/",
    ];
    !ours.iter().any(|p| path.starts_with(p) || path.contains(p))
        && !path.contains("katas/src/")
        && !path.ends_with("/kata.rs")
}

/// [`panic_message`] with the learner's line it came from, when the hook noted one on this
/// thread ([`note_panic_location`]).
pub fn learner_panic_message(payload: &(dyn Any + Send)) -> String {
    let at = PANIC_AT.with(|p| p.borrow_mut().take());
    let text = panic_message(payload);
    match (at, text.strip_prefix(PANICKED)) {
        (Some(at), Some(said)) => format!("{PANICKED}[{at}] {said}"),
        _ => text,
    }
}

/// How [`panic_message`] begins; the runner sends it so across the sandbox boundary.
pub const PANICKED: &str = "panicked: ";

/// The text of a panic payload (`panic!` with a literal or a formatted message).
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        format!("{PANICKED}{s}")
    } else if let Some(s) = payload.downcast_ref::<String>() {
        format!("{PANICKED}{s}")
    } else {
        "panicked with a non-text payload".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::is_learner_file;

    #[test]
    fn library_and_harness_lines_are_not_the_learners() {
        assert!(is_learner_file("solution.rs"));
        assert!(is_learner_file("katas/workspace/fast-power.rs"));
        assert!(!is_learner_file("/rustc/abc/library/core/src/option.rs"));
        assert!(!is_learner_file("/katas-source/src/runner.rs"));
        assert!(!is_learner_file("katas/problems/fast-power/kata.rs"));
        assert!(!is_learner_file(
            "/root/.cargo/registry/src/serde-1/src/de.rs"
        ));
    }
}
