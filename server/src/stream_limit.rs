//! How many live event streams (`/api/submissions/{id}/events`) one user may hold: each holds a
//! connection that is never evicted at the connection cap, so without this one account could
//! take them all.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

#[derive(Debug)]
pub struct StreamLimit {
    per_user: usize,
    open: Mutex<HashMap<i64, usize>>,
}

impl StreamLimit {
    pub fn new(per_user: usize) -> Self {
        Self {
            per_user,
            open: Mutex::default(),
        }
    }

    pub fn per_user(&self) -> usize {
        self.per_user
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<i64, usize>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A slot for one more stream of `user_id`, or `None` at the limit.
    pub fn open(self: &Arc<Self>, user_id: i64) -> Option<StreamSlot> {
        let mut open = self.lock();
        let n = open.entry(user_id).or_default();
        if *n >= self.per_user {
            return None;
        }
        *n += 1;
        Some(StreamSlot {
            user_id,
            limit: Arc::clone(self),
        })
    }
}

/// Held by a live stream; dropping it (the stream ended or the client went away) frees the slot.
#[derive(Debug)]
pub struct StreamSlot {
    user_id: i64,
    limit: Arc<StreamLimit>,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self.limit.lock();
        if let Some(n) = open.get_mut(&self.user_id) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.user_id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::StreamLimit;
    use std::sync::Arc;

    #[test]
    fn a_user_holds_at_most_the_limit_and_a_closed_stream_frees_its_slot() {
        let limit = Arc::new(StreamLimit::new(2));
        let a = limit.open(1).unwrap();
        let b = limit.open(1).unwrap();
        assert!(limit.open(1).is_none());
        assert!(limit.open(2).is_some(), "another user is not affected");
        drop(a);
        assert!(limit.open(1).is_some());
        drop(b);
        assert!(limit.lock().is_empty(), "no entry stays behind");
    }
}
