//! Log-in throttling: failed attempts are counted per account name (slows guessing one account
//! from many addresses) and per client address (slows one client guessing many accounts).
//! Sign-ups are counted per client address in a bucket of their own: each costs an argon2id
//! hash and a stored account, so a flood of them is refused before either.
//! Each count is a leaky bucket: `burst` failures at once, then one more every `every`. The
//! buckets live in the database ([`crate::db::login_failures`]), so N replicas share one budget.
//!
//! An attempt reserves its place in both buckets before the password is checked, so a flood of
//! concurrent attempts cannot overrun the burst, and a successful log-in gives the place back:
//! only failures count, and someone else's failures stop a correct password only on the same
//! account or from the same address. governor-style limiters can only spend a
//! cell, never give one back, hence this small bucket. Names are counted whether or not the
//! account exists, so a refusal says nothing about which names exist; a refused attempt skips
//! the password check (no argon2 work spent on a flood).

use crate::db::login_failures::{self, Scope};
use crate::db::{Db, now_ms};
use std::net::IpAddr;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

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
    SignUp(Duration),
}

impl Refusal {
    pub fn retry_after(self) -> Duration {
        match self {
            Self::Account(d) | Self::Address(d) | Self::SignUp(d) => d,
        }
    }

    /// Whole seconds, rounded up (`Retry-After`).
    pub fn retry_after_secs(self) -> u64 {
        self.retry_after().as_millis().div_ceil(1000).max(1) as u64
    }

    pub fn message(self, lang: katas::Lang) -> String {
        let secs = self.retry_after_secs();
        match (self, lang) {
            (Self::Account(_), katas::Lang::En) => {
                format!("Too many failed log-ins for this account: try again in {secs} s.")
            }
            (Self::Account(_), katas::Lang::Zh) => {
                format!("这个账号登录失败次数太多：请在 {secs} 秒后再试。")
            }
            (Self::Address(_), katas::Lang::En) => {
                format!("Too many failed log-ins from your network address: try again in {secs} s.")
            }
            (Self::Address(_), katas::Lang::Zh) => {
                format!("你的网络地址登录失败次数太多：请在 {secs} 秒后再试。")
            }
            (Self::SignUp(_), katas::Lang::En) => {
                format!("Too many new accounts from your network address: try again in {secs} s.")
            }
            (Self::SignUp(_), katas::Lang::Zh) => {
                format!("你的网络地址新建的账号太多：请在 {secs} 秒后再试。")
            }
        }
    }
}

/// Drained buckets are deleted at most this often (per replica): the table holds only the
/// buckets of the last few minutes' failures.
const PRUNE_EVERY_MS: i64 = 60_000;

#[derive(Debug)]
pub struct LoginThrottle {
    db: Db,
    account: FailureQuota,
    address: FailureQuota,
    sign_up: FailureQuota,
    pruned_at: AtomicI64,
}

impl LoginThrottle {
    pub fn new(
        db: Db,
        account: FailureQuota,
        address: FailureQuota,
        sign_up: FailureQuota,
    ) -> Self {
        let at_least_one = |q: FailureQuota| FailureQuota {
            burst: q.burst.max(1),
            every: q.every,
        };
        Self {
            db,
            account: at_least_one(account),
            address: at_least_one(address),
            sign_up: at_least_one(sign_up),
            pruned_at: AtomicI64::new(0),
        }
    }

    /// Reserves one attempt to log in as `name` from `ip`: the attempt counts as a failure
    /// unless [`Attempt::succeeded`] gives the reservation back. `Err` is the database failing.
    pub async fn attempt(
        &self,
        name: &str,
        ip: IpAddr,
    ) -> Result<Result<Attempt<'_>, Refusal>, sqlx::Error> {
        let now = now_ms();
        self.prune(now).await?;
        let name = account_key(name);
        let ip = address_key(ip).to_string();
        if let Err(wait) = self
            .reserve(Scope::Account, self.account, &name, now)
            .await?
        {
            return Ok(Err(Refusal::Account(wait)));
        }
        if let Err(wait) = self.reserve(Scope::Address, self.address, &ip, now).await? {
            self.refund(Scope::Account, &name).await?;
            return Ok(Err(Refusal::Address(wait)));
        }
        Ok(Ok(Attempt {
            throttle: self,
            name,
            ip,
        }))
    }

    /// Spends one sign-up from `ip` (never given back: every account made counts); the
    /// refusal when the address has made its share. Checked before the password is hashed.
    pub async fn sign_up(&self, ip: IpAddr) -> Result<Result<(), Refusal>, sqlx::Error> {
        let now = now_ms();
        self.prune(now).await?;
        // The address scope's table, under a key of its own: failed log-ins and sign-ups from
        // one address never spend each other's budget.
        let key = format!("sign-up {}", address_key(ip));
        Ok(self
            .reserve(Scope::Address, self.sign_up, &key, now)
            .await?
            .map_err(Refusal::SignUp))
    }

    fn quota(&self, scope: Scope) -> FailureQuota {
        match scope {
            Scope::Account => self.account,
            Scope::Address => self.address,
        }
    }

    async fn reserve(
        &self,
        scope: Scope,
        quota: FailureQuota,
        subject: &str,
        now: i64,
    ) -> Result<Result<(), Duration>, sqlx::Error> {
        let every = millis(quota.every);
        let slack = every * i64::from(quota.burst - 1);
        let reserved = login_failures::reserve(&self.db, scope, subject, now, every, slack).await?;
        Ok(reserved.map_err(|wait| Duration::from_millis(wait.unsigned_abs())))
    }

    async fn refund(&self, scope: Scope, subject: &str) -> Result<(), sqlx::Error> {
        let every = millis(self.quota(scope).every);
        login_failures::refund(&self.db, scope, subject, every).await
    }

    async fn prune(&self, now: i64) -> Result<(), sqlx::Error> {
        let last = self.pruned_at.load(Ordering::Relaxed);
        if now - last < PRUNE_EVERY_MS
            || self
                .pruned_at
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return Ok(());
        }
        login_failures::prune(&self.db, now).await.map(drop)
    }
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX / 4)
}

/// A reserved attempt: a failure unless [`Attempt::succeeded`] is called.
#[derive(Debug)]
pub struct Attempt<'a> {
    throttle: &'a LoginThrottle,
    name: String,
    ip: String,
}

impl Attempt<'_> {
    pub async fn succeeded(self) -> Result<(), sqlx::Error> {
        self.throttle.refund(Scope::Account, &self.name).await?;
        self.throttle.refund(Scope::Address, &self.ip).await
    }
}

/// Names longer than any valid one are cut: the table's keys stay small.
fn account_key(name: &str) -> String {
    name.chars().take(64).collect()
}

/// One IPv6 client usually owns a whole /64: count it as one address.
pub(crate) fn address_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::{FailureQuota, LoginThrottle, Refusal};
    use std::net::IpAddr;
    use std::time::Duration;

    /// A real SQLite file per test; the directory lives as long as the throttle is used.
    async fn throttle() -> (LoginThrottle, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let db = crate::db::open(dir.path().join("t.db")).await.unwrap();
        let quota = |burst| FailureQuota {
            burst,
            every: Duration::from_secs(60),
        };
        (LoginThrottle::new(db, quota(3), quota(5), quota(2)), dir)
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    async fn fail(t: &LoginThrottle, name: &str, from: IpAddr) {
        t.attempt(name, from).await.unwrap().unwrap();
    }

    async fn refused(t: &LoginThrottle, name: &str, from: IpAddr) -> Refusal {
        t.attempt(name, from).await.unwrap().unwrap_err()
    }

    #[tokio::test]
    async fn failures_are_counted_per_account_and_per_address_and_successes_are_free() {
        let (t, _dir) = throttle().await;
        let home = ip("192.0.2.1");
        for _ in 0..3 {
            fail(&t, "ada", home).await;
        }
        let refusal = refused(&t, "ada", ip("198.51.100.7")).await;
        assert!(matches!(refusal, Refusal::Account(_)), "{refusal:?}");
        assert!(refusal.retry_after() <= Duration::from_secs(60));
        assert!(refusal.message(katas::Lang::En).contains("this account"));
        assert!(refusal.message(katas::Lang::Zh).contains("这个账号"));

        // Successes never use up the address's allowance.
        for _ in 0..10 {
            let attempt = t.attempt("bob", home).await.unwrap().unwrap();
            attempt.succeeded().await.unwrap();
        }
        fail(&t, "cy", home).await;
        fail(&t, "dee", home).await;
        let refusal = refused(&t, "bob", home).await;
        assert!(matches!(refusal, Refusal::Address(_)), "{refusal:?}");
        assert!(
            t.attempt("bob", ip("192.0.2.2")).await.unwrap().is_ok(),
            "another address"
        );
    }

    #[tokio::test]
    async fn sign_ups_have_a_budget_per_address_of_their_own() {
        let (t, _dir) = throttle().await;
        let home = ip("2001:db8::1");
        for _ in 0..2 {
            t.sign_up(home).await.unwrap().unwrap();
        }
        // The same /64 is the same client.
        let refusal = t.sign_up(ip("2001:db8::ffff")).await.unwrap().unwrap_err();
        assert!(matches!(refusal, Refusal::SignUp(_)), "{refusal:?}");
        assert!(refusal.message(katas::Lang::En).contains("new accounts"));
        assert!(
            t.sign_up(ip("2001:db8:1::1")).await.unwrap().is_ok(),
            "another /64"
        );
        // Log-ins from the address are not throttled by its sign-ups.
        assert!(t.attempt("ada", home).await.unwrap().is_ok());
    }

    #[tokio::test]
    async fn an_account_refusal_does_not_spend_the_address() {
        let (t, _dir) = throttle().await;
        let home = ip("192.0.2.1");
        for _ in 0..3 {
            fail(&t, "ada", home).await;
        }
        for _ in 0..5 {
            assert!(matches!(
                refused(&t, "ada", home).await,
                Refusal::Account(_)
            ));
        }
        fail(&t, "bob", home).await;
        assert!(
            t.attempt("bob", home).await.unwrap().is_ok(),
            "4 and 5 of the address's 5"
        );
    }

    #[tokio::test]
    async fn an_address_refusal_gives_the_account_its_place_back() {
        let (t, _dir) = throttle().await;
        let home = ip("192.0.2.1");
        for i in 0..5 {
            fail(&t, &format!("u{i}"), home).await;
        }
        for _ in 0..5 {
            assert!(matches!(
                refused(&t, "ada", home).await,
                Refusal::Address(_)
            ));
        }
        let elsewhere = ip("192.0.2.2");
        for _ in 0..3 {
            fail(&t, "ada", elsewhere).await;
        }
        assert!(matches!(
            refused(&t, "ada", elsewhere).await,
            Refusal::Account(_)
        ));
    }

    #[tokio::test]
    async fn one_ipv6_client_is_its_slash_64() {
        let (t, _dir) = throttle().await;
        for i in 1..=5 {
            fail(&t, &format!("u{i}"), ip(&format!("2001:db8::{i}"))).await;
        }
        assert!(matches!(
            refused(&t, "u6", ip("2001:db8::ffff")).await,
            Refusal::Address(_)
        ));
        assert!(
            t.attempt("u6", ip("2001:db8:0:1::1"))
                .await
                .unwrap()
                .is_ok()
        );
        assert_eq!(super::address_key(ip("::ffff:192.0.2.9")), ip("192.0.2.9"));
    }

    #[tokio::test]
    async fn drained_buckets_are_pruned() {
        let (t, _dir) = throttle().await;
        fail(&t, "ada", ip("192.0.2.1")).await;
        let db = &t.db;
        let rows = || async {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM login_failures")
                .fetch_one(db)
                .await
                .unwrap()
        };
        assert_eq!(rows().await, 2, "one bucket per account and per address");
        let now = crate::db::now_ms();
        assert_eq!(crate::db::login_failures::prune(db, now).await.unwrap(), 0);
        assert_eq!(
            crate::db::login_failures::prune(db, now + 60_001)
                .await
                .unwrap(),
            2
        );
        assert_eq!(rows().await, 0);
    }
}
