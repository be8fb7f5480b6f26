//! Log-in throttling: failed attempts are counted per account name (slows guessing one account
//! from many addresses) and per client address (slows one client guessing many accounts).
//! Each count is a leaky bucket: `burst` failures at once, then one more every `every`.
//!
//! An attempt reserves its place in both buckets before the password is checked, so a flood of
//! concurrent attempts cannot overrun the burst, and a successful log-in gives the place back:
//! only failures count, and someone else's failures stop a correct password only on the same
//! account or from the same address. governor-style limiters can only spend a
//! cell, never give one back, hence this small bucket. Names are counted whether or not the
//! account exists, so a refusal says nothing about which names exist; a refused attempt skips
//! the password check (no argon2 work spent on a flood).

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// `burst` failures at once, then one more every `every`.
#[derive(Debug, Clone, Copy)]
pub struct FailureQuota {
    pub burst: u32,
    pub every: Duration,
}

/// Why an attempt was refused, and how long until one would be let through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Account(Duration),
    Address(Duration),
}

impl Refusal {
    pub fn retry_after(self) -> Duration {
        match self {
            Self::Account(d) | Self::Address(d) => d,
        }
    }

    /// Whole seconds, rounded up (`Retry-After`).
    pub fn retry_after_secs(self) -> u64 {
        self.retry_after().as_millis().div_ceil(1000).max(1) as u64
    }

    pub fn message(self) -> String {
        let secs = self.retry_after_secs();
        match self {
            Self::Account(_) => {
                format!("Too many failed log-ins for this account: try again in {secs} s.")
            }
            Self::Address(_) => {
                format!("Too many failed log-ins from your network address: try again in {secs} s.")
            }
        }
    }
}

#[derive(Debug)]
pub struct LoginThrottle {
    account: Failures<String>,
    address: Failures<IpAddr>,
}

impl LoginThrottle {
    pub fn new(account: FailureQuota, address: FailureQuota) -> Self {
        Self {
            account: Failures::new(account),
            address: Failures::new(address),
        }
    }

    /// Reserves one attempt to log in as `name` from `ip`. Dropping the [`Attempt`] counts it as
    /// a failure; [`Attempt::succeeded`] gives the reservation back.
    pub fn attempt(&self, name: &str, ip: IpAddr) -> Result<Attempt<'_>, Refusal> {
        let now = Instant::now();
        let name = account_key(name);
        let ip = address_key(ip);
        self.account.reserve(&name, now).map_err(Refusal::Account)?;
        if let Err(wait) = self.address.reserve(&ip, now) {
            self.account.refund(&name, now);
            return Err(Refusal::Address(wait));
        }
        Ok(Attempt {
            throttle: self,
            name,
            ip,
        })
    }
}

/// A reserved attempt; a failure unless [`Attempt::succeeded`] is called.
#[derive(Debug)]
pub struct Attempt<'a> {
    throttle: &'a LoginThrottle,
    name: String,
    ip: IpAddr,
}

impl Attempt<'_> {
    pub fn succeeded(self) {
        let now = Instant::now();
        self.throttle.account.refund(&self.name, now);
        self.throttle.address.refund(&self.ip, now);
    }
}

/// Names longer than any valid one are cut: the table's keys stay small.
fn account_key(name: &str) -> String {
    name.chars().take(64).collect()
}

/// One IPv6 client usually owns a whole /64: count it as one address.
fn address_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

/// Entries are dropped once their bucket is empty; the sweep runs when the table grows past this.
const SWEEP_AT: usize = 4096;

/// Per key, the instant its bucket will be empty (GCRA's "theoretical arrival time").
#[derive(Debug)]
struct Failures<K> {
    quota: FailureQuota,
    empty_at: Mutex<HashMap<K, Instant>>,
}

impl<K: Hash + Eq + Clone> Failures<K> {
    fn new(quota: FailureQuota) -> Self {
        Self {
            quota: FailureQuota {
                burst: quota.burst.max(1),
                every: quota.every,
            },
            empty_at: Mutex::default(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<K, Instant>> {
        self.empty_at.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn reserve(&self, key: &K, now: Instant) -> Result<(), Duration> {
        let mut table = self.lock();
        let empty_at = table.get(key).copied().filter(|t| *t > now).unwrap_or(now);
        let slack = self.quota.every * (self.quota.burst - 1);
        if empty_at > now + slack {
            return Err(empty_at - (now + slack));
        }
        if table.len() >= SWEEP_AT {
            table.retain(|_, t| *t > now);
        }
        table.insert(key.clone(), empty_at + self.quota.every);
        Ok(())
    }

    fn refund(&self, key: &K, now: Instant) {
        let mut table = self.lock();
        let Some(t) = table.get_mut(key) else {
            return;
        };
        match t.checked_sub(self.quota.every) {
            Some(earlier) if earlier > now => *t = earlier,
            _ => {
                table.remove(key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{FailureQuota, LoginThrottle, Refusal};
    use std::net::IpAddr;
    use std::time::Duration;

    fn throttle() -> LoginThrottle {
        let quota = |burst| FailureQuota {
            burst,
            every: Duration::from_secs(60),
        };
        LoginThrottle::new(quota(3), quota(5))
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn failures_are_counted_per_account_and_per_address_and_successes_are_free() {
        let t = throttle();
        let home = ip("192.0.2.1");
        for _ in 0..3 {
            drop(t.attempt("ada", home).unwrap());
        }
        let refused = t.attempt("ada", ip("198.51.100.7")).unwrap_err();
        assert!(matches!(refused, Refusal::Account(_)), "{refused:?}");
        assert!(refused.retry_after() <= Duration::from_secs(60));
        assert!(refused.message().contains("this account"));

        // Successes never use up the address's allowance.
        for _ in 0..10 {
            t.attempt("bob", home).unwrap().succeeded();
        }
        drop(t.attempt("cy", home).unwrap());
        drop(t.attempt("dee", home).unwrap());
        let refused = t.attempt("bob", home).unwrap_err();
        assert!(matches!(refused, Refusal::Address(_)), "{refused:?}");
        assert!(t.attempt("bob", ip("192.0.2.2")).is_ok(), "another address");
    }

    #[test]
    fn an_account_refusal_does_not_spend_the_address() {
        let t = throttle();
        let home = ip("192.0.2.1");
        for _ in 0..3 {
            drop(t.attempt("ada", home).unwrap());
        }
        for _ in 0..5 {
            assert!(matches!(t.attempt("ada", home), Err(Refusal::Account(_))));
        }
        drop(t.attempt("bob", home).unwrap());
        assert!(t.attempt("bob", home).is_ok(), "4 and 5 of the address's 5");
    }

    #[test]
    fn one_ipv6_client_is_its_slash_64() {
        let t = throttle();
        for i in 1..=5 {
            drop(
                t.attempt(&format!("u{i}"), ip(&format!("2001:db8::{i}")))
                    .unwrap(),
            );
        }
        assert!(matches!(
            t.attempt("u6", ip("2001:db8::ffff")),
            Err(Refusal::Address(_))
        ));
        assert!(t.attempt("u6", ip("2001:db8:0:1::1")).is_ok());
        assert_eq!(super::address_key(ip("::ffff:192.0.2.9")), ip("192.0.2.9"));
    }
}
