//! The supervisor's loop while a job runs: feeds stdin, streams capped stdout/stderr (stdout
//! through the caller's [`Watch`]), and stops the job the moment a limit it polices is
//! reached (wall, caller deadline, group CPU, output caps). All on the calling thread except
//! the stdin writer (which also passes on a watch's feed), so `Watch` need not be `Send`.

use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::process::{Child, ChildStderr, ChildStdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::poll::{PollFd, PollFlags, poll};

use super::cgroup::{self, Group};
use super::{LimitHit, Limits, SandboxError, Watch};

/// Longest sleep between checks of the CPU limit and the child's exit.
const TICK: Duration = Duration::from_millis(5);

pub(crate) struct Pumped {
    pub exit: std::process::ExitStatus,
    pub wall: Duration,
    pub limit: Option<LimitHit>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Output counted up to a cap, and kept too unless a [`Watch`] consumes it; `overflowed`
/// once anything more arrived.
struct Capped {
    bytes: Vec<u8>,
    seen: usize,
    cap: usize,
    keep: bool,
    overflowed: bool,
}

impl Capped {
    fn new(cap: usize, keep: bool) -> Capped {
        Capped {
            bytes: Vec::new(),
            seen: 0,
            cap,
            keep,
            overflowed: false,
        }
    }

    /// Takes what fits; returns that part of `chunk`.
    fn push<'a>(&mut self, chunk: &'a [u8]) -> &'a [u8] {
        let room = self.cap - self.seen;
        let kept = chunk.len().min(room);
        self.overflowed |= chunk.len() > room;
        self.seen += kept;
        if self.keep {
            self.bytes.extend_from_slice(&chunk[..kept]);
        }
        &chunk[..kept]
    }
}

/// Sets its flag when dropped: the pump's loop has ended, however it ended.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// SIGKILLs the first helper (in case it has not joined the group yet) and the whole group.
pub(crate) fn stop(child: &mut Child, group: &dyn Group) -> Result<(), SandboxError> {
    let _ = child.kill();
    cgroup::kill_all(group)
}

pub(crate) fn pump(
    child: &mut Child,
    stdin: &[u8],
    feed: Option<Receiver<Vec<u8>>>,
    limits: &Limits,
    group: &dyn Group,
    cpu_before: Duration,
    watch: &mut dyn Watch,
) -> Result<Pumped, SandboxError> {
    let started = Instant::now();
    let wall_end = started + limits.wall;
    // A watch that reads stdout holds what it needs itself: keeping a second copy here would
    // double what a submission can make the trusted side hold.
    let mut out = Capped::new(limits.stdout_bytes, watch.keeps_stdout());
    let mut err = Capped::new(limits.stderr_bytes, true);
    let mut limit = None;
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let stdin_pipe = child.stdin.take();
    let over = AtomicBool::new(false);
    let over = &over;
    thread::scope(|s| {
        if let Some(mut pipe) = stdin_pipe {
            // Ends when all is written or, if the program does not read it all, with EPIPE
            // once every process holding the read end is gone; a feed also ends when its
            // senders are gone or the job is over.
            s.spawn(move || {
                if pipe.write_all(stdin).is_err() {
                    return;
                }
                let Some(feed) = feed else { return };
                while !over.load(Ordering::Relaxed) {
                    match feed.recv_timeout(TICK) {
                        Ok(bytes) => {
                            if pipe.write_all(&bytes).is_err() {
                                return;
                            }
                        }
                        Err(RecvTimeoutError::Timeout) => {}
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                }
            });
        }
        // However the loop below ends, the feeding thread must see it, or the scope waits.
        let _over = SetOnDrop(over);
        // The group's CPU is read once a tick, however often output arrives: a chatty job
        // (a rank, a judge) would otherwise have it read after every chunk of its stdout.
        let mut cpu_checked = started;
        loop {
            let now = Instant::now();
            // Asked once an iteration: a rank's watch answers under the router's lock.
            let deadline = if limit.is_none() {
                watch.deadline()
            } else {
                None
            };
            let cpu_due = now >= cpu_checked + TICK;
            if cpu_due {
                cpu_checked = now;
            }
            if limit.is_none() {
                limit = if out.overflowed {
                    Some(LimitHit::Stdout)
                } else if err.overflowed {
                    Some(LimitHit::Stderr)
                } else if deadline.is_some_and(|d| now >= d) {
                    Some(LimitHit::Deadline)
                } else if now >= wall_end {
                    Some(LimitHit::Wall)
                } else if cpu_due && group.cpu().saturating_sub(cpu_before) >= limits.cpu {
                    Some(LimitHit::Cpu)
                } else {
                    None
                };
                if limit.is_some() {
                    stop(child, group)?;
                }
            }
            // The helpers hold stdout and stderr until they exit, so both at EOF means the
            // job is over but for the reaping.
            if stdout.is_none() && stderr.is_none() {
                match child.try_wait() {
                    Ok(Some(exit)) => {
                        return Ok(Pumped {
                            exit,
                            wall: started.elapsed(),
                            limit,
                            stdout: std::mem::take(&mut out.bytes),
                            stderr: std::mem::take(&mut err.bytes),
                        });
                    }
                    Ok(None) => thread::sleep(Duration::from_millis(1)),
                    Err(e) => return Err(SandboxError::io("wait for the sandbox", e)),
                }
                continue;
            }
            let mut next = now + TICK;
            if limit.is_none() {
                next = next.min(wall_end);
                if let Some(d) = deadline {
                    next = next.min(d);
                }
            }
            let ms = next
                .saturating_duration_since(now)
                .as_millis()
                .clamp(1, 1000) as u16;
            let (out_ready, err_ready) = wait_readable(stdout.as_ref(), stderr.as_ref(), ms)?;
            if out_ready {
                drain(&mut stdout, &mut out, |kept| watch.on_stdout(kept));
            }
            if err_ready {
                drain(&mut stderr, &mut err, |_| {});
            }
        }
    })
}

fn wait_readable(
    stdout: Option<&ChildStdout>,
    stderr: Option<&ChildStderr>,
    ms: u16,
) -> Result<(bool, bool), SandboxError> {
    let mut fds = Vec::with_capacity(2);
    if let Some(p) = stdout {
        fds.push(PollFd::new(p.as_fd(), PollFlags::POLLIN));
    }
    if let Some(p) = stderr {
        fds.push(PollFd::new(p.as_fd(), PollFlags::POLLIN));
    }
    match poll(&mut fds, ms) {
        Ok(_) | Err(Errno::EINTR) => {}
        Err(e) => return Err(SandboxError::io("poll the sandbox's output", e.into())),
    }
    // Readable, hung up or in error: a read will not block and tells which.
    let ready: Vec<bool> = fds.iter().map(|f| f.any().unwrap_or(true)).collect();
    let out_ready = stdout.is_some() && ready[0];
    let err_ready = stderr.is_some() && ready[usize::from(stdout.is_some())];
    Ok((out_ready, err_ready))
}

/// One read from `pipe` into `into`; closes the pipe at EOF. Hands the bytes taken to `seen`.
fn drain<R: Read>(pipe: &mut Option<R>, into: &mut Capped, seen: impl FnOnce(&[u8])) {
    let mut buf = [0u8; 16 << 10];
    let n = match pipe.as_mut().map(|p| p.read(&mut buf)) {
        Some(Ok(n)) if n > 0 => n,
        Some(Err(e)) if e.kind() == std::io::ErrorKind::Interrupted => return,
        _ => {
            *pipe = None;
            return;
        }
    };
    if into.overflowed {
        return; // already stopping the job: discard until EOF
    }
    seen(into.push(&buf[..n]));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};
    use std::sync::atomic::AtomicUsize;

    /// A group that only counts how often its CPU is read.
    #[derive(Debug, Default)]
    struct CountedCpu(AtomicUsize);

    impl Group for CountedCpu {
        fn procs_files(&self) -> Vec<std::path::PathBuf> {
            Vec::new()
        }
        fn dirs(&self) -> Vec<std::path::PathBuf> {
            Vec::new()
        }
        fn cpu(&self) -> Duration {
            self.0.fetch_add(1, Ordering::Relaxed);
            Duration::ZERO
        }
        fn stats(&self) -> cgroup::GroupStats {
            cgroup::GroupStats::default()
        }
        fn set_limits(&self, _: cgroup::GroupLimits) -> Result<(), SandboxError> {
            Ok(())
        }
    }

    #[derive(Default)]
    struct CountedChunks(usize);

    impl Watch for CountedChunks {
        fn on_stdout(&mut self, _: &[u8]) {
            self.0 += 1;
        }
        fn deadline(&self) -> Option<Instant> {
            None
        }
    }

    /// A job that writes in many small pieces (a rank's frames, a judge's replies) has its
    /// group's CPU read once a tick, not after every chunk the pump takes.
    #[test]
    fn a_chatty_job_has_its_cpu_read_once_a_tick() {
        let mut child = Command::new("sh")
            .args(["-c", "head -c 8000000 /dev/zero | dd bs=4096 status=none"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("sh runs");
        let limits = Limits {
            wall: Duration::from_secs(60),
            cpu: Duration::from_secs(60),
            stdout_bytes: 16 << 20,
            ..Limits::run_default()
        };
        let group = CountedCpu::default();
        let mut chunks = CountedChunks::default();
        let pumped = pump(
            &mut child,
            b"",
            None,
            &limits,
            &group,
            Duration::ZERO,
            &mut chunks,
        )
        .expect("pumps");
        assert!(pumped.exit.success() && pumped.limit.is_none());
        let reads = group.0.load(Ordering::Relaxed);
        let ticks = (pumped.wall.as_micros() / TICK.as_micros()) as usize + 1;
        assert!(chunks.0 > 100, "{} chunks", chunks.0);
        assert!(reads <= ticks, "{reads} reads of the CPU in {ticks} ticks");
    }

    #[test]
    fn capped_keeps_the_prefix_and_flags_overflow() {
        let mut c = Capped::new(5, true);
        assert_eq!(c.push(b"abc"), b"abc");
        assert!(!c.overflowed);
        assert_eq!(c.push(b"defg"), b"de");
        assert!(c.overflowed);
        assert_eq!(c.bytes, b"abcde");
        let mut counted = Capped::new(5, false);
        assert_eq!(counted.push(b"abcdefg"), b"abcde");
        assert!(counted.overflowed && counted.bytes.is_empty());
    }
}
