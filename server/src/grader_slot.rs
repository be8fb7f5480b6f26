//! The replica's grader, which the service does not wait for: a first start builds the kata
//! library in the compile sandbox (half a minute), and meanwhile pages are served and
//! submissions queue. The built-in workers start, and uploads are checked, once it is known.

use graders::Grade;
use std::sync::Arc;
use tokio::sync::watch;

#[derive(Debug, Clone)]
enum Readiness {
    Preparing,
    /// `None`: this replica has no grader (no sandbox here, or it failed to prepare).
    Known(Option<Arc<dyn Grade>>),
}

/// A grader that is ready, absent, or still being prepared; cheap to clone.
#[derive(Debug, Clone)]
pub struct GraderSlot(watch::Receiver<Readiness>);

impl GraderSlot {
    /// A grader known at once (`None`: none on this replica).
    pub fn ready(grader: Option<Arc<dyn Grade>>) -> Self {
        Self(watch::channel(Readiness::Known(grader)).1)
    }

    /// A grader that `prepare` makes on a thread of its own — not the runtime's blocking pool,
    /// whose shutdown would wait for it: a service stopped mid-build stops at once. A
    /// `prepare` that panics (or a thread that cannot start) leaves the replica without one.
    pub fn preparing(prepare: impl FnOnce() -> Option<Arc<dyn Grade>> + Send + 'static) -> Self {
        let (tx, rx) = watch::channel(Readiness::Preparing);
        let started = std::thread::Builder::new()
            .name("grader-prepare".into())
            .spawn(move || {
                let grader = prepare();
                // Nobody listening is nobody to tell.
                let _ = tx.send(Readiness::Known(grader));
            });
        if let Err(e) = started {
            tracing::warn!("could not start preparing the grader: {e}");
        }
        Self(rx)
    }

    /// The grader, once it is known whether there is one.
    pub async fn get(&self) -> Option<Arc<dyn Grade>> {
        let mut rx = self.0.clone();
        let known = rx.wait_for(|r| matches!(r, Readiness::Known(_))).await;
        if let Ok(Readiness::Known(grader)) = known.as_deref() {
            return grader.clone();
        }
        tracing::warn!("preparing the grader failed: this replica runs without one");
        None
    }
}

impl From<Option<Arc<dyn Grade>>> for GraderSlot {
    fn from(grader: Option<Arc<dyn Grade>>) -> Self {
        Self::ready(grader)
    }
}
