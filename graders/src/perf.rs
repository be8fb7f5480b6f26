//! The performance score: instructions executed inside the solution on the performance cases,
//! counted by callgrind, relative to the reference compiled and counted the same way.
//!
//! Instruction counts do not drift with machine load the way wall or CPU time does (measured
//! identical run to run here), and toggling collection on `katas::runner::measured_solve` and
//! `katas::ranks::measured_rank` leaves case generation and output encoding out.

use crate::GradeError;
use crate::sandbox::{self, BUILD_INSIDE, BuildDir, Job, Profile, Sandbox};
use katas::catalogue::CaseInfo;
use katas::runner::RunRequest;
use std::path::{Path, PathBuf};
use std::time::Duration;

const VALGRIND: &str = "/usr/bin/valgrind.bin";
/// The measured binary is bound read-only here (a build folder is writable and mounted noexec).
const PROGRAM: &str = "/measure/submission";

/// Counts the instructions `binary` spends solving `cases`. `None` if the count could not be
/// read (for example valgrind missing): the report then carries no performance figure.
pub fn count(
    sandbox: &Sandbox,
    scratch: &Path,
    binary: &Path,
    cases: &[CaseInfo],
    seed: u64,
) -> Result<Option<u64>, GradeError> {
    if cases.is_empty() || !Path::new(VALGRIND).exists() {
        return Ok(None);
    }
    let scratch = BuildDir::new_in(scratch)?;
    let request = RunRequest {
        seed,
        cases: cases.iter().map(|c| c.index as u32).collect(),
        nonce: [0; 16],
    };
    let job = Job {
        profile: Profile::Compile {
            build_dir: scratch.path().to_path_buf(),
            read_only: vec![(binary.to_path_buf(), PathBuf::from(PROGRAM))],
        },
        argv: [
            VALGRIND,
            "--tool=callgrind",
            "--vgdb=no",
            "--callgrind-out-file=/tmp/callgrind.out",
            "--toggle-collect=*measured_solve*",
            "--toggle-collect=*measured_rank*",
            PROGRAM,
        ]
        .map(String::from)
        .to_vec(),
        env: Vec::new(),
        cwd: PathBuf::from(BUILD_INSIDE),
        stdin: postcard::to_stdvec(&request).map_err(|e| GradeError::Internal(e.to_string()))?,
        limits: sandbox::Limits {
            wall: Duration::from_secs(240),
            cpu: Duration::from_secs(180),
            memory_bytes: 3 << 30,
            address_space_bytes: None,
            pids: 64,
            stdout_bytes: 256 << 20,
            stderr_bytes: 1 << 20,
            file_bytes: 16 << 20,
            open_files: 256,
        },
    };
    let outcome = sandbox.run(&job, &mut sandbox::NoWatch)?;
    if outcome.limit.is_some() || !outcome.status.success() {
        return Ok(None);
    }
    Ok(collected(&String::from_utf8_lossy(&outcome.stderr)))
}

/// callgrind's closing `==PID== Collected : N`. The solution shares stderr and could print a
/// look-alike, but valgrind writes its summary after every solution thread has ended, so the
/// last such line is the real one.
fn collected(stderr: &str) -> Option<u64> {
    stderr
        .lines()
        .rev()
        .find_map(|l| l.split_once("Collected :").map(|(_, n)| n.trim()))
        .and_then(|n| n.replace(',', "").parse().ok())
}

#[cfg(test)]
mod tests {
    #[test]
    fn takes_the_count_only_when_unambiguous() {
        let stderr =
            "==1== Collected : 5\nfake\n==1== Events    : Ir\n==1== Collected : 1,234\n==1==\n";
        assert_eq!(super::collected(stderr), Some(1234));
        assert_eq!(super::collected("nothing"), None);
    }
}
