//! The computer's thinking, bounded: at most a fixed number of searches
//! run at once (one thread each, off the async runtime), the others wait
//! in line; every search is capped by time and nodes, whatever the engine
//! spec asked for, and can be stopped at once (a move taken back, a
//! resignation, the server shutting down).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use dagaz::ai::Control;
use tokio::sync::Semaphore;

/// The most a search from the network may think, unless the server is
/// told otherwise (`dagaz serve --max-think`).
pub const MAX_THINK: Duration = Duration::from_secs(10);
/// The most positions an alpha-beta search (or playouts an MCTS search)
/// from the network may visit; MCTS keeps a tree node per playout, so its
/// bound is lower.
pub const MAX_AB_NODES: u64 = 5_000_000;
pub const MAX_MCTS_PLAYOUTS: u64 = 50_000;

/// How long a claimed computer move stays a server's beyond its longest
/// search: time to save the move. A server that dies holding a job loses
/// it after `max_think` and this, and another server takes it over.
pub const LEASE_MARGIN: Duration = Duration::from_secs(5);

/// Where a match's computer move stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThinkState {
    /// Waiting for a free thinking thread.
    Queued,
    Thinking,
}

impl ThinkState {
    pub fn name(self) -> &'static str {
        match self {
            ThinkState::Queued => "queued",
            ThinkState::Thinking => "thinking",
        }
    }
}

/// One search asked for: the match version it is for, its state and its
/// stop switch.
#[derive(Clone, Debug)]
pub struct Job {
    pub version: u64,
    pub state: ThinkState,
    pub stop: Arc<AtomicBool>,
}

/// The pool of thinking threads.
pub struct Thinkers {
    permits: Arc<Semaphore>,
    threads: usize,
    max_think: Duration,
    /// Searches waiting for a thread.
    waiting: AtomicUsize,
    /// Every job not yet finished, to stop them all at shutdown.
    jobs: Mutex<Vec<Arc<AtomicBool>>>,
}

impl Thinkers {
    /// A pool of `threads` thinking threads (at least one), each search
    /// thinking at most `max_think`.
    pub fn new(threads: usize, max_think: Duration) -> Thinkers {
        let threads = threads.max(1);
        Thinkers {
            permits: Arc::new(Semaphore::new(threads)),
            threads,
            max_think,
            waiting: AtomicUsize::new(0),
            jobs: Mutex::new(Vec::new()),
        }
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The longest a search may think.
    pub fn max_think(&self) -> Duration {
        self.max_think
    }

    /// How long a job claimed in the store is this server's.
    pub fn lease(&self) -> Duration {
        self.max_think + LEASE_MARGIN
    }

    /// Threads free to start a search now.
    pub fn free(&self) -> usize {
        self.permits.available_permits()
    }

    /// The bounds of a search, with its stop switch.
    pub fn control(&self, stop: Arc<AtomicBool>, mcts: bool) -> Control {
        Control {
            stop,
            max_time: Some(self.max_think),
            max_nodes: Some(if mcts {
                MAX_MCTS_PLAYOUTS
            } else {
                MAX_AB_NODES
            }),
            // A server's searches run side by side, one thread each.
            threads: 1,
            ..Control::unbounded()
        }
    }

    /// Searches waiting for a thread now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    /// A new job's stop switch, remembered until [`Thinkers::finished`].
    pub fn register(&self) -> Arc<AtomicBool> {
        let stop = Arc::new(AtomicBool::new(false));
        self.lock_jobs().push(stop.clone());
        stop
    }

    /// Forgets a job's stop switch.
    pub fn finished(&self, stop: &Arc<AtomicBool>) {
        self.lock_jobs().retain(|s| !Arc::ptr_eq(s, stop));
    }

    /// Waits for a free thread; `None` once the pool is closed.
    pub async fn acquire(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        self.waiting.fetch_add(1, Ordering::Relaxed);
        let permit = self.permits.clone().acquire_owned().await.ok();
        self.waiting.fetch_sub(1, Ordering::Relaxed);
        permit
    }

    /// Stops every search and lets no new one start.
    pub fn close(&self) {
        self.permits.close();
        for stop in self.lock_jobs().iter() {
            stop.store(true, Ordering::Relaxed);
        }
    }

    fn lock_jobs(&self) -> std::sync::MutexGuard<'_, Vec<Arc<AtomicBool>>> {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }
}
