//! One uid per running job: `RLIMIT_NPROC` counts per uid host-wide, and two jobs under one
//! uid could signal or trace each other.

use std::sync::{Condvar, Mutex, MutexGuard};

#[derive(Debug)]
pub(crate) struct UidPool {
    free: Mutex<Vec<u32>>,
    freed: Condvar,
}

/// A uid held for one job; back in the pool on drop.
#[derive(Debug)]
pub(crate) struct Lease<'a> {
    pool: &'a UidPool,
    pub uid: u32,
}

impl UidPool {
    pub fn new(base: u32, slots: u32) -> UidPool {
        UidPool {
            free: Mutex::new((base..base + slots).rev().collect()),
            freed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Vec<u32>> {
        // The vector stays consistent even if a holder panicked.
        self.free.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for a free uid.
    pub fn acquire(&self) -> Lease<'_> {
        let mut free = self.lock();
        loop {
            if let Some(uid) = free.pop() {
                return Lease { pool: self, uid };
            }
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        self.pool.lock().push(self.uid);
        self.pool.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leases_are_distinct_and_return() {
        let pool = UidPool::new(60_000, 2);
        let a = pool.acquire();
        let b = pool.acquire();
        assert_ne!(a.uid, b.uid);
        let uid = a.uid;
        drop(a);
        assert_eq!(pool.acquire().uid, uid);
    }
}
