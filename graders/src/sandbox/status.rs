//! The status file: how the helper stages tell the supervisor what happened, exactly.
//!
//! Every stage appends whole lines (one `write` each, `O_APPEND`) to a root-only host file
//! that no sandbox can reach: the program's stage opens it close-on-exec, so the descriptor
//! is gone once the program runs; the init keeps its copy, but it runs as root in a process
//! the program can neither see nor trace. So a line here is never the program's doing, and
//! "our setup failed" is told apart from "the program exited 125":
//!
//! - `setup <stage>: <message>` — a helper failed before the program started;
//! - `exec` — all layers are in place; the next instruction is `execve` of the program;
//! - `exit <code>` / `signal <number>` — the program's wait status, from the init.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

use super::outcome::ExitStatus;

pub(crate) struct StatusWriter(File);

impl StatusWriter {
    pub fn open(path: &Path) -> Result<StatusWriter, String> {
        OpenOptions::new()
            .append(true)
            .open(path)
            .map(StatusWriter)
            .map_err(|e| format!("open status file {}: {e}", path.display()))
    }

    pub fn line(&mut self, line: &str) {
        // One write per line: appends of whole lines never interleave.
        let _ = self
            .0
            .write_all(format!("{}\n", line.replace('\n', " ")).as_bytes());
    }

    pub fn setup_failed(&mut self, stage: &str, message: &str) {
        self.line(&format!("setup {stage}: {message}"));
    }

    pub fn exited(&mut self, status: ExitStatus) {
        match status {
            ExitStatus::Exited(code) => self.line(&format!("exit {code}")),
            ExitStatus::Signaled(sig) => self.line(&format!("signal {sig}")),
        }
    }
}

/// What the status file said.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct StatusReport {
    /// `(stage, message)` of the first setup failure.
    pub setup_error: Option<(String, String)>,
    pub exec_started: bool,
    pub program: Option<ExitStatus>,
}

impl StatusReport {
    pub fn parse(text: &str) -> StatusReport {
        let mut report = StatusReport::default();
        for line in text.lines() {
            let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
            match word {
                "setup" if report.setup_error.is_none() => {
                    let (stage, msg) = rest.split_once(": ").unwrap_or((rest, ""));
                    report.setup_error = Some((stage.to_string(), msg.to_string()));
                }
                "exec" => report.exec_started = true,
                "exit" => report.program = rest.parse().ok().map(ExitStatus::Exited),
                "signal" => report.program = rest.parse().ok().map(ExitStatus::Signaled),
                _ => {}
            }
        }
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_line_kind() {
        let r = StatusReport::parse("exec\nexit 125\n");
        assert!(r.exec_started && r.setup_error.is_none());
        assert_eq!(r.program, Some(ExitStatus::Exited(125)));
        let r = StatusReport::parse("setup inner: bind /prog: ENOENT\n");
        assert_eq!(
            r.setup_error,
            Some(("inner".into(), "bind /prog: ENOENT".into()))
        );
        assert!(!r.exec_started);
        assert_eq!(
            StatusReport::parse("exec\nsignal 9\n").program,
            Some(ExitStatus::Signaled(9))
        );
    }
}
