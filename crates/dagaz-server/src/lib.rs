//! `dagaz serve`: play in the browser. An HTTP server (axum on tokio) with
//! a JSON API, server-sent events that push every change of a match to the
//! browsers watching it, and one page (plain HTML, ES module and CSS, all
//! built into the binary) that draws any board.
//!
//! - [`catalogue`]: the games the server offers.
//! - [`matches`]: a match in play: seats, moves, views.
//! - [`store`]: every match and move, saved before memory changes, in
//!   SQLite (one server) or PostgreSQL (several servers sharing it).
//! - [`thinking`]: the computer's searches, bounded and stoppable.
//! - [`cluster`]: what keeps several servers on one store in step: the
//!   store's notices of other servers' changes, and the computer's jobs
//!   no server has taken.
//! - [`views`]: the JSON answers, typed.
//! - [`api`]: the HTTP routes.

pub mod api;
pub mod catalogue;
pub mod cluster;
pub mod matches;
mod page;
pub mod store;
pub mod thinking;
pub mod views;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::watch;

pub use catalogue::Catalogue;
pub use matches::{Match, Mode, Refusal};
use store::{Store, StoreError};
use thinking::{Job, Thinkers};

/// What `dagaz serve` was asked to do.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    pub addr: SocketAddr,
    /// The store: a SQLite file, or a `postgres://` URL.
    pub db: String,
    /// A folder of extra game files to offer besides the built-in games.
    pub games_dir: Option<PathBuf>,
    /// Searches of the computer that may run at once.
    pub think_threads: usize,
    /// The longest the computer may think about one move.
    pub max_think: std::time::Duration,
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}")]
    Games(String),
    #[error("server error: {0}")]
    Io(#[from] std::io::Error),
}

/// A match being played, shared by the requests that touch it.
pub struct Live {
    /// Held from computing a change until it is saved and applied, so
    /// this server's changes of one match happen one at a time.
    state: tokio::sync::Mutex<Match>,
    /// The match's version after every change; event streams follow it.
    pub changes: watch::Sender<u64>,
    /// The computer's search for this match, while there is one.
    job: Mutex<Option<Job>>,
}

impl Live {
    pub fn new(m: Match) -> Live {
        let (changes, _) = watch::channel(m.version);
        Live {
            state: tokio::sync::Mutex::new(m),
            changes,
            job: Mutex::new(None),
        }
    }

    /// The match (the match itself only changes by whole changes,
    /// applied after saving).
    pub async fn lock(&self) -> tokio::sync::MutexGuard<'_, Match> {
        self.state.lock().await
    }

    fn job(&self) -> MutexGuard<'_, Option<Job>> {
        self.job.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Where the computer's move stands, for the match view.
    pub fn think_state(&self) -> Option<&'static str> {
        self.job().as_ref().map(|j| j.state.name())
    }

    /// Stops the computer's search, if one is running or waiting.
    fn stop_thinking(&self) {
        if let Some(job) = self.job().take() {
            job.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Tells the event streams that the match changed.
    fn notify(&self, version: u64) {
        self.changes.send_replace(version);
    }
}

/// Everything the request handlers share.
pub struct AppState {
    pub catalogue: Catalogue,
    live: Mutex<HashMap<String, Arc<Live>>>,
    store: Box<dyn Store>,
    pub thinkers: Thinkers,
    /// This server's name among those sharing the store (it owns the
    /// computer's jobs it claims).
    instance: String,
    /// Turns true when the server stops, to end the event streams.
    shutdown: watch::Sender<bool>,
}

impl AppState {
    pub fn new(catalogue: Catalogue, store: Box<dyn Store>, thinkers: Thinkers) -> AppState {
        AppState {
            catalogue,
            live: Mutex::new(HashMap::new()),
            store,
            thinkers,
            instance: api::random_id(16),
            shutdown: watch::channel(false).0,
        }
    }

    fn store(&self) -> &dyn Store {
        self.store.as_ref()
    }

    fn live_map(&self) -> MutexGuard<'_, HashMap<String, Arc<Live>>> {
        self.live.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Ends the event streams and stops every search.
    pub fn shut_down(&self) {
        self.shutdown.send_replace(true);
        self.thinkers.close();
    }
}

/// Runs the server until Ctrl-C or SIGTERM. Prints the address it listens on.
pub async fn serve(config: ServerConfig) -> Result<(), ServeError> {
    let catalogue = Catalogue::new(config.games_dir.as_deref()).map_err(ServeError::Games)?;
    let store = store::open(&config.db).await?;
    let described = store.describe();
    let notices = store.notices().await?;
    let state = Arc::new(AppState::new(
        catalogue,
        store,
        Thinkers::new(config.think_threads, config.max_think),
    ));
    cluster::start(state.clone(), notices);
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|source| ServeError::Bind {
            addr: config.addr,
            source,
        })?;
    let addr = listener.local_addr()?;
    {
        use std::io::Write as _;
        let mut out = std::io::stdout();
        let _ = writeln!(
            out,
            "dagaz: serving on http://{addr}/ (games saved in {described})"
        );
        let _ = out.flush();
    }
    let stopping = state.clone();
    axum::serve(listener, api::router(state))
        .with_graceful_shutdown(async move {
            stop_signal().await;
            stopping.shut_down();
        })
        .await?;
    Ok(())
}

/// Waits for Ctrl-C (SIGINT) or, on Unix, SIGTERM.
async fn stop_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = interrupt => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => interrupt.await,
        }
    }
    #[cfg(not(unix))]
    interrupt.await;
}
