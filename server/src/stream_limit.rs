//! How many live event streams (`/api/submissions/{id}/events`) may be open: per user, per client
//! address and in all. A stream holds its connection for as long as the submission runs, so
//! without these a few free accounts, or one address behind many, could hold every connection
//! (issue 22 §6: 9 accounts × 8 streams took all 64). The total is half the connection cap, so
//! pages, `/api/health` and the workers always find room; at the cap the edge evicts the oldest
//! stream before it refuses anyone (`edge::connections`), and the page's script reconnects.

use crate::domain::UserId;
use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The limits one replica enforces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamQuota {
    pub per_user: usize,
    pub per_address: usize,
    pub total: usize,
}

/// Which limit refused a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamRefusal {
    User(usize),
    Address(usize),
    Total(usize),
}

#[derive(Debug)]
pub struct StreamLimit {
    quota: StreamQuota,
    open: Mutex<Open>,
}

#[derive(Debug, Default)]
struct Open {
    by_user: HashMap<UserId, usize>,
    by_address: HashMap<IpAddr, usize>,
    total: usize,
}

impl StreamLimit {
    pub fn new(quota: StreamQuota) -> Self {
        Self {
            quota,
            open: Mutex::default(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Open> {
        // Counts are updated together under the lock: a panic elsewhere cannot leave them apart.
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A slot for one more stream of `user_id` from `peer`, or which limit it would pass.
    pub fn open(
        self: &Arc<Self>,
        user_id: UserId,
        peer: IpAddr,
    ) -> Result<StreamSlot, StreamRefusal> {
        let address = crate::login_throttle::address_key(peer);
        let mut open = self.lock();
        let q = self.quota;
        if open.by_user.get(&user_id).copied().unwrap_or(0) >= q.per_user {
            return Err(StreamRefusal::User(q.per_user));
        }
        if open.by_address.get(&address).copied().unwrap_or(0) >= q.per_address {
            return Err(StreamRefusal::Address(q.per_address));
        }
        if open.total >= q.total {
            return Err(StreamRefusal::Total(q.total));
        }
        *open.by_user.entry(user_id).or_default() += 1;
        *open.by_address.entry(address).or_default() += 1;
        open.total += 1;
        Ok(StreamSlot {
            user_id,
            address,
            limit: Arc::clone(self),
        })
    }
}

/// Held by a live stream; dropping it (the stream ended or the client went away) frees the slot.
#[derive(Debug)]
pub struct StreamSlot {
    user_id: UserId,
    address: IpAddr,
    limit: Arc<StreamLimit>,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self.limit.lock();
        release(&mut open.by_user, &self.user_id);
        release(&mut open.by_address, &self.address);
        open.total = open.total.saturating_sub(1);
    }
}

fn release<K: Eq + Hash>(counts: &mut HashMap<K, usize>, key: &K) {
    if let Some(n) = counts.get_mut(key) {
        *n -= 1;
        if *n == 0 {
            counts.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{StreamLimit, StreamQuota, StreamRefusal, UserId};
    use std::net::IpAddr;
    use std::sync::Arc;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn limit(per_user: usize, per_address: usize, total: usize) -> Arc<StreamLimit> {
        Arc::new(StreamLimit::new(StreamQuota {
            per_user,
            per_address,
            total,
        }))
    }

    #[test]
    fn a_user_holds_at_most_the_limit_and_a_closed_stream_frees_its_slot() {
        let limit = limit(2, 10, 10);
        let a = limit.open(UserId(1), ip("10.0.0.1")).unwrap();
        let b = limit.open(UserId(1), ip("10.0.0.2")).unwrap();
        assert_eq!(
            limit.open(UserId(1), ip("10.0.0.3")).unwrap_err(),
            StreamRefusal::User(2)
        );
        assert!(
            limit.open(UserId(2), ip("10.0.0.1")).is_ok(),
            "another user is not affected"
        );
        drop(a);
        assert!(limit.open(UserId(1), ip("10.0.0.1")).is_ok());
        drop(b);
        let open = limit.lock();
        assert!(
            open.by_user.is_empty() && open.by_address.is_empty() && open.total == 0,
            "no count stays behind: {open:?}"
        );
    }

    #[test]
    fn many_accounts_from_one_address_share_its_limit() {
        let limit = limit(8, 3, 100);
        let held: Vec<_> = (0..3)
            .map(|user| limit.open(UserId(user), ip("2001:db8::1")).unwrap())
            .collect();
        assert_eq!(
            limit.open(UserId(7), ip("2001:db8::ffff")).unwrap_err(),
            StreamRefusal::Address(3),
            "the same /64 is the same client"
        );
        assert!(limit.open(UserId(7), ip("2001:db9::1")).is_ok());
        drop(held);
        assert!(limit.open(UserId(7), ip("2001:db8::1")).is_ok());
    }

    #[test]
    fn the_total_bounds_every_address_together() {
        let limit = limit(8, 8, 2);
        let _a = limit.open(UserId(1), ip("10.0.0.1")).unwrap();
        let _b = limit.open(UserId(2), ip("10.0.0.2")).unwrap();
        assert_eq!(
            limit.open(UserId(3), ip("10.0.0.3")).unwrap_err(),
            StreamRefusal::Total(2)
        );
    }
}
