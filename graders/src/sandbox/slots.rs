//! Host-wide isolation slots. Slot `n` is the uid `uid_base + n`, and that uid also names the
//! job's cgroup, status file and build folder. `RLIMIT_NPROC` counts processes per uid across
//! the whole host and two jobs under one uid could signal or trace each other, so no two jobs
//! on the host may hold the same slot at once — whichever grader processes run them.
//!
//! A slot is held by an exclusive `flock` on its own file in a host-wide folder. The kernel
//! drops the lock when the holder's file closes, so a grader that dies frees its slots without
//! help. The file's contents say whether the last holder finished cleanly (`free`): when it did
//! not, the next holder must first remove what it left (`Sandbox::slot` does).

use std::fs::{self, DirBuilder, File, OpenOptions, TryLockError};
use std::io::Read;
use std::os::unix::fs::{DirBuilderExt, FileExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};
use std::thread::sleep;
use std::time::{Duration, Instant};

use nix::libc;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use super::SandboxError;
use super::chain::Chain;

/// What a slot's file holds once its holder has removed everything its jobs left.
const FREE: &[u8] = b"free\n";
/// How often a waiter looks again for a slot another process released (a release in this
/// process wakes waiters at once).
const POLL: Duration = Duration::from_millis(20);

#[derive(Debug)]
pub(crate) struct SlotPool {
    dir: PathBuf,
    uid_base: u32,
    slots: u32,
    /// Bumped on every release in this process.
    releases: Mutex<u64>,
    released: Condvar,
}

/// A slot held for one job at a time; released when dropped (and by the kernel if the process
/// dies).
#[derive(Debug)]
pub struct Slot<'a> {
    pool: &'a SlotPool,
    /// Holds the lock; `None` only inside `drop`.
    file: Option<File>,
    uid: u32,
    /// Something of a job in this slot may still exist (processes, cgroup, status file): the
    /// previous holder died or failed to clean up, or a job of ours has not finished cleanly.
    /// A dirty slot is released without the `free` mark.
    pub(crate) dirty: bool,
    /// The helpers started for this slot's next job (see `chain`); discarded if unused.
    pub(crate) chain: Option<Chain>,
}

/// A slot the sandbox keeps between jobs with a chain started in it. It borrows nothing, so
/// the sandbox that owns the pool can hold it; dropped as it is, it releases the lock without
/// the `free` mark (its chain's pipe closes, which stops the chain), so the next holder
/// cleans up.
#[derive(Debug)]
pub(crate) struct Parked {
    file: File,
    uid: u32,
    chain: Chain,
}

impl SlotPool {
    /// `dir` is created (mode 0700) if missing; it must be a root-owned folder no one else can
    /// write, since deleting a slot file would let two jobs share its uid.
    pub fn new(dir: &Path, uid_base: u32, slots: u32) -> Result<SlotPool, SandboxError> {
        if slots == 0 || uid_base.checked_add(slots).is_none() {
            return Err(SandboxError::InvalidJob(format!(
                "SandboxConfig::slots ({slots}) must be positive and uid_base + slots must fit in a uid"
            )));
        }
        DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| SandboxError::io(format!("create {}", dir.display()), e))?;
        let meta = fs::symlink_metadata(dir)
            .map_err(|e| SandboxError::io(format!("{}", dir.display()), e))?;
        if !meta.is_dir() || meta.uid() != nix::unistd::geteuid().as_raw() {
            return Err(SandboxError::Unsupported(format!(
                "the slot folder {} must be a directory owned by us, not a link",
                dir.display()
            )));
        }
        if meta.mode() & 0o022 != 0 {
            fs::set_permissions(dir, fs::Permissions::from_mode(0o700))
                .map_err(|e| SandboxError::io(format!("chmod {}", dir.display()), e))?;
        }
        Ok(SlotPool {
            dir: dir.to_path_buf(),
            uid_base,
            slots,
            releases: Mutex::new(0),
            released: Condvar::new(),
        })
    }

    /// Waits until a slot is free on the whole host and takes it. Never fails for lack of a
    /// slot: the caller's own parallelism bounds how many of its threads wait here.
    pub fn acquire(&self) -> Result<Slot<'_>, SandboxError> {
        loop {
            let seen = *self.lock_releases();
            if let Some(slot) = self.try_acquire()? {
                return Ok(slot);
            }
            let releases = self.lock_releases();
            if *releases == seen {
                let _ = self
                    .released
                    .wait_timeout(releases, POLL)
                    .unwrap_or_else(|e| e.into_inner());
            }
        }
    }

    /// The lowest free slot, if any.
    pub fn try_acquire(&self) -> Result<Option<Slot<'_>>, SandboxError> {
        for uid in self.uid_base..self.uid_base + self.slots {
            let path = self.dir.join(uid.to_string());
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&path)
                .map_err(|e| SandboxError::io(format!("open {}", path.display()), e))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => continue,
                Err(TryLockError::Error(e)) => {
                    return Err(SandboxError::io(format!("lock {}", path.display()), e));
                }
            }
            let mut said = Vec::new();
            (&file)
                .take(FREE.len() as u64 + 1)
                .read_to_end(&mut said)
                .map_err(|e| SandboxError::io(format!("read {}", path.display()), e))?;
            let held = format!("held by pid {}\n", std::process::id());
            file.set_len(0)
                .and_then(|()| file.write_all_at(held.as_bytes(), 0))
                .map_err(|e| SandboxError::io(format!("write {}", path.display()), e))?;
            return Ok(Some(Slot {
                pool: self,
                file: Some(file),
                uid,
                dirty: said != FREE,
                chain: None,
            }));
        }
        Ok(None)
    }

    /// The parked slot, held again for a job, with its chain.
    pub fn resume(&self, parked: Parked) -> Slot<'_> {
        Slot {
            pool: self,
            file: Some(parked.file),
            uid: parked.uid,
            // Its chain's processes and group exist.
            dirty: true,
            chain: Some(parked.chain),
        }
    }

    fn lock_releases(&self) -> std::sync::MutexGuard<'_, u64> {
        // A counter stays consistent even if a holder panicked.
        self.releases.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Slot<'_> {
    /// The job's uid (and gid).
    pub fn uid(&self) -> u32 {
        self.uid
    }

    /// The name of everything host-side that belongs to this slot's job: its cgroup, status
    /// file and build folder.
    pub fn name(&self) -> String {
        format!("uid-{}", self.uid)
    }

    pub(crate) fn belongs_to(&self, pool: &SlotPool) -> bool {
        std::ptr::eq(self.pool, pool)
    }

    /// Keeps this slot, and `chain` started in it, past the borrow of its pool. `None` (and
    /// the chain discarded) if the slot is not held.
    pub(crate) fn park(mut self, chain: Chain) -> Option<Parked> {
        let file = self.file.take()?;
        Some(Parked {
            file,
            uid: self.uid,
            chain,
        })
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        if let Some(chain) = self.chain.take() {
            // The chain was all that made the slot dirty; if it cannot be undone, the next
            // holder cleans up.
            self.dirty = chain.discard().is_err();
        }
        if let Some(file) = self.file.take() {
            if !self.dirty {
                // Failing to mark it only costs the next holder a clean-up.
                let _ = file.set_len(0).and_then(|()| file.write_all_at(FREE, 0));
            }
            // Closing the file releases the lock.
            drop(file);
        }
        *self.pool.lock_releases() += 1;
        self.pool.released.notify_all();
    }
}

/// SIGKILLs every process running under `uid` (real, effective, saved or filesystem) until
/// none is left. Zombies are skipped: they run nothing and vanish when reaped.
pub(crate) fn kill_uid(uid: u32) -> Result<(), SandboxError> {
    let give_up = Instant::now() + Duration::from_secs(5);
    loop {
        let pids = processes_of(uid);
        if pids.is_empty() {
            return Ok(());
        }
        if Instant::now() > give_up {
            return Err(SandboxError::io(
                format!("killing the processes of uid {uid}"),
                std::io::Error::other(format!("still running after 5 s: {pids:?}")),
            ));
        }
        for pid in pids {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
        sleep(Duration::from_millis(1));
    }
}

/// Live (not zombie) processes with `uid` among their uids.
fn processes_of(uid: u32) -> Vec<i32> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let Ok(status) = fs::read_to_string(format!("/proc/{pid}/status")) else {
                return false;
            };
            let field = |name: &str| {
                status
                    .lines()
                    .find_map(|l| l.strip_prefix(name))
                    .unwrap_or("")
                    .to_string()
            };
            let zombie = matches!(field("State:").trim_start().chars().next(), Some('Z' | 'X'));
            !zombie
                && field("Uid:")
                    .split_whitespace()
                    .any(|u| u.parse() == Ok(uid))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    use std::sync::mpsc;

    const HOLDER_ENV: &str = "INFRAKATA_TEST_SLOT_HOLDER";

    #[test]
    fn two_pools_over_one_folder_never_share_a_slot() {
        let dir = tempfile::tempdir().expect("tempdir");
        let a = SlotPool::new(dir.path(), 70_000, 3).expect("pool a");
        let b = SlotPool::new(dir.path(), 70_000, 3).expect("pool b");
        let s1 = a.acquire().expect("a");
        let s2 = b.acquire().expect("b");
        let s3 = a.acquire().expect("a again");
        let mut uids = vec![s1.uid(), s2.uid(), s3.uid()];
        uids.sort_unstable();
        assert_eq!(uids, [70_000, 70_001, 70_002]);
        assert!(
            b.try_acquire().expect("try").is_none(),
            "all three are held"
        );

        // A waiter in the other pool gets the slot as soon as it is released.
        let (tx, rx) = mpsc::channel();
        std::thread::scope(|scope| {
            scope.spawn(|| tx.send(b.acquire().expect("waits").uid()).expect("send"));
            assert!(
                rx.recv_timeout(Duration::from_millis(100)).is_err(),
                "no slot was free"
            );
            let freed = s2.uid();
            drop(s2);
            let got = rx
                .recv_timeout(Duration::from_secs(30))
                .expect("the waiter got the released slot");
            assert_eq!(got, freed);
        });
    }

    #[test]
    fn a_clean_release_is_marked_and_a_dirty_one_is_not() {
        let dir = tempfile::tempdir().expect("tempdir");
        let pool = SlotPool::new(dir.path(), 70_000, 1).expect("pool");
        let slot = pool.acquire().expect("first");
        assert!(slot.dirty, "a slot never marked free may hold leftovers");
        let mut slot = slot;
        slot.dirty = false;
        drop(slot);
        let mut slot = pool.acquire().expect("second");
        assert!(!slot.dirty, "released cleanly");
        slot.dirty = true;
        drop(slot);
        assert!(pool.acquire().expect("third").dirty, "released dirty");
    }

    /// Not a test on its own: the process the next test starts and kills while it holds a
    /// slot.
    #[test]
    fn holder_process() {
        let Some(dir) = std::env::var_os(HOLDER_ENV) else {
            return;
        };
        let pool = SlotPool::new(Path::new(&dir), 70_000, 1).expect("pool");
        let mut slot = pool.acquire().expect("slot");
        slot.dirty = false;
        println!("holding {}", slot.uid());
        loop {
            sleep(Duration::from_secs(60));
        }
    }

    #[test]
    fn a_killed_holder_frees_its_slot_dirty() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut holder = Command::new(std::env::current_exe().expect("test binary"))
            .args([
                "sandbox::slots::tests::holder_process",
                "--exact",
                "--nocapture",
            ])
            .env(HOLDER_ENV, dir.path())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the holder");
        let mut lines = BufReader::new(holder.stdout.take().expect("stdout")).lines();
        let held = lines
            .find_map(|l| l.ok()?.strip_prefix("holding ").map(String::from))
            .expect("the holder took the slot");
        assert_eq!(held, "70000");

        let pool = SlotPool::new(dir.path(), 70_000, 1).expect("pool");
        assert!(
            pool.try_acquire().expect("try").is_none(),
            "held by the child"
        );
        holder.kill().expect("kill");
        holder.wait().expect("reap");
        let slot = pool
            .try_acquire()
            .expect("try")
            .expect("freed by its death");
        assert_eq!(slot.uid(), 70_000);
        assert!(
            slot.dirty,
            "a holder that died leaves the slot to be cleaned"
        );
    }

    #[test]
    fn kill_uid_ends_every_process_of_the_uid() {
        if !nix::unistd::geteuid().is_root() {
            assert!(
                std::env::var_os("INFRAKATA_CI").is_none(),
                "running a process under another uid needs root under INFRAKATA_CI=1"
            );
            println!("skipping: running a process under another uid needs root");
            return;
        }
        use std::os::unix::process::{CommandExt, ExitStatusExt};
        let uid = 299_999;
        let mut child = Command::new("/bin/sleep")
            .arg("600")
            .uid(uid)
            .gid(uid)
            .spawn()
            .expect("sleep as another uid");
        assert_eq!(processes_of(uid), [child.id() as i32]);
        kill_uid(uid).expect("killed");
        let status = child.wait().expect("reaped");
        assert_eq!(status.signal(), Some(libc::SIGKILL));
        assert!(processes_of(uid).is_empty());
    }
}
