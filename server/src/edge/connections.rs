//! The connection cap. Each open connection holds a [`Ticket`]; a connection is *waiting* while
//! no request is in flight on it (new, or keep-alive between requests) and *busy* from a
//! request head until its response body is finished. At the cap a new connection evicts the
//! connection that has been waiting longest: half-open connections cannot crowd out a client
//! that sends its request at once, and a request being answered is never cut off. A connection
//! carrying an event stream is busy for as long as the stream lives, so when none is waiting
//! the oldest stream is closed instead (the page's script reconnects, or polls). Only when every
//! connection is answering an ordinary request is the newcomer refused.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;
use tokio::sync::Notify;

#[derive(Debug)]
pub struct Connections {
    max: usize,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    next_id: u64,
    open: HashMap<u64, Slot>,
    /// Waiting connections, oldest first.
    waiting: BTreeSet<(Instant, u64)>,
    /// Connections answering with an event stream, oldest stream first.
    streams: BTreeSet<(Instant, u64)>,
}

#[derive(Debug)]
struct Slot {
    in_flight: usize,
    waiting_since: Instant,
    streaming_since: Option<Instant>,
    close: Arc<Notify>,
}

impl Connections {
    pub fn new(max: usize) -> Self {
        Self {
            max: max.max(1),
            inner: Mutex::default(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // The bookkeeping stays consistent between statements: a panic elsewhere cannot
        // leave it half-updated.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A ticket for a new connection, evicting at the cap the longest-waiting one, else the
    /// oldest event stream; `None` when every open connection is answering a request.
    pub fn admit(self: &Arc<Self>) -> Option<Ticket> {
        let mut inner = self.lock();
        if inner.open.len() >= self.max {
            let (_, victim) = match inner.waiting.pop_first() {
                Some(waiting) => waiting,
                None => inner.streams.pop_first()?,
            };
            if let Some(slot) = inner.open.remove(&victim) {
                slot.close.notify_one();
            }
        }
        let id = inner.next_id;
        inner.next_id += 1;
        let now = Instant::now();
        let close = Arc::new(Notify::new());
        inner.open.insert(
            id,
            Slot {
                in_flight: 0,
                waiting_since: now,
                streaming_since: None,
                close: Arc::clone(&close),
            },
        );
        inner.waiting.insert((now, id));
        Some(Ticket {
            id,
            close,
            connections: Arc::clone(self),
        })
    }

    #[cfg(test)]
    fn open(&self) -> usize {
        self.lock().open.len()
    }
}

/// One admitted connection; dropping it frees its place.
#[derive(Debug)]
pub struct Ticket {
    id: u64,
    close: Arc<Notify>,
    connections: Arc<Connections>,
}

impl Ticket {
    /// Notified when this connection is evicted.
    pub fn close_signal(&self) -> Arc<Notify> {
        Arc::clone(&self.close)
    }

    /// Marks the connection busy until the returned guard is dropped.
    pub fn request_started(&self) -> Busy {
        let mut inner = self.connections.lock();
        let inner = &mut *inner;
        if let Some(slot) = inner.open.get_mut(&self.id) {
            if slot.in_flight == 0 {
                inner.waiting.remove(&(slot.waiting_since, self.id));
            }
            slot.in_flight += 1;
        }
        Busy {
            id: self.id,
            connections: Arc::clone(&self.connections),
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut inner = self.connections.lock();
        if let Some(slot) = inner.open.remove(&self.id) {
            inner.waiting.remove(&(slot.waiting_since, self.id));
            if let Some(since) = slot.streaming_since {
                inner.streams.remove(&(since, self.id));
            }
        }
    }
}

/// A request in flight on a connection.
#[derive(Debug)]
pub struct Busy {
    id: u64,
    connections: Arc<Connections>,
}

impl Busy {
    /// The response is an event stream: until it ends, this connection may be evicted at the cap
    /// when no connection is waiting.
    pub fn streaming(&self) {
        let mut inner = self.connections.lock();
        let inner = &mut *inner;
        if let Some(slot) = inner.open.get_mut(&self.id)
            && slot.streaming_since.is_none()
        {
            let now = Instant::now();
            slot.streaming_since = Some(now);
            inner.streams.insert((now, self.id));
        }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let mut inner = self.connections.lock();
        let inner = &mut *inner;
        if let Some(slot) = inner.open.get_mut(&self.id) {
            if let Some(since) = slot.streaming_since.take() {
                inner.streams.remove(&(since, self.id));
            }
            slot.in_flight = slot.in_flight.saturating_sub(1);
            if slot.in_flight == 0 {
                slot.waiting_since = Instant::now();
                inner.waiting.insert((slot.waiting_since, self.id));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Connections;
    use std::sync::Arc;

    #[test]
    fn at_the_cap_the_longest_waiting_connection_makes_room() {
        let c = Arc::new(Connections::new(2));
        let first = c.admit().unwrap();
        let second = c.admit().unwrap();
        let first_closed = first.close_signal();
        let _third = c.admit().expect("evicts the oldest waiting connection");
        assert_eq!(c.open(), 2);
        // The eviction left a permit: the connection's task sees it even if not yet waiting.
        assert!(
            tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .build()
                .unwrap()
                .block_on(async {
                    tokio::time::timeout(std::time::Duration::from_secs(5), first_closed.notified())
                        .await
                        .is_ok()
                })
        );
        drop(first);
        assert_eq!(
            c.open(),
            2,
            "dropping an evicted ticket frees nothing twice"
        );
        drop(second);
        assert_eq!(c.open(), 1);
    }

    #[test]
    fn busy_connections_are_never_evicted_and_a_full_house_refuses() {
        let c = Arc::new(Connections::new(2));
        let a = c.admit().unwrap();
        let b = c.admit().unwrap();
        let busy_a = a.request_started();
        let busy_b = b.request_started();
        assert!(
            c.admit().is_none(),
            "every connection is answering a request"
        );
        drop(busy_b);
        let third = c.admit().expect("b waits again, so it makes room");
        let _busy_third = third.request_started();
        assert!(c.admit().is_none(), "a and the third are busy");
        drop(busy_a);
        assert!(c.admit().is_some());
    }

    #[test]
    fn with_none_waiting_the_oldest_event_stream_makes_room() {
        let c = Arc::new(Connections::new(3));
        let (old, new, plain) = (c.admit().unwrap(), c.admit().unwrap(), c.admit().unwrap());
        let old_stream = old.request_started();
        old_stream.streaming();
        let new_stream = new.request_started();
        new_stream.streaming();
        let _answering = plain.request_started();
        let old_closed = old.close_signal();
        let fourth = c.admit().expect("the oldest stream makes room");
        let _fourth_answering = fourth.request_started();
        assert!(
            tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .build()
                .unwrap()
                .block_on(async {
                    tokio::time::timeout(std::time::Duration::from_secs(5), old_closed.notified())
                        .await
                        .is_ok()
                })
        );
        // The stream that ended no longer counts: the next one evicted is the newer stream.
        drop(new_stream);
        let fifth = c.admit().expect("`new` waits again after its stream ended");
        let _fifth_answering = fifth.request_started();
        assert!(
            c.admit().is_none(),
            "every connection is answering a request"
        );
        drop(old_stream);
        drop(old);
        assert_eq!(c.open(), 3);
    }
}
