//! `dagaz serve`: play in the browser. An HTTP server (axum on tokio) with
//! a JSON API, server-sent events that push every change of a match to the
//! browsers watching it, and one page (plain HTML, ES module and CSS, all
//! built into the binary) that draws any board.
//!
//! - [`catalogue`]: the games the server offers.
//! - [`matches`]: a match in play: seats, moves, views.
//! - [`store`]: every match and move, saved in SQLite as it happens.
//! - [`api`]: the HTTP routes.

mod api;
mod catalogue;
mod matches;
mod page;
pub mod store;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::watch;

pub use catalogue::Catalogue;
pub use matches::{Match, Mode, Refusal};
use store::{Store, StoreError};

/// What `dagaz serve` was asked to do.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    pub addr: SocketAddr,
    pub db: PathBuf,
    /// A folder of extra game files to offer besides the built-in games.
    pub games_dir: Option<PathBuf>,
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
    pub state: Mutex<Match>,
    /// The match's version after every change; event streams follow it.
    pub changes: watch::Sender<u64>,
    /// The version the computer is thinking about, if it is.
    thinking: Mutex<Option<u64>>,
}

impl Live {
    fn new(m: Match) -> Live {
        let (changes, _) = watch::channel(m.version);
        Live {
            state: Mutex::new(m),
            changes,
            thinking: Mutex::new(None),
        }
    }

    /// The match, even if a request panicked while holding it (the match
    /// itself is only changed by complete moves).
    pub fn lock(&self) -> MutexGuard<'_, Match> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
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
    store: Mutex<Store>,
    /// Turns true when the server stops, to end the event streams.
    shutdown: watch::Sender<bool>,
}

impl AppState {
    pub fn new(catalogue: Catalogue, store: Store) -> AppState {
        AppState {
            catalogue,
            live: Mutex::new(HashMap::new()),
            store: Mutex::new(store),
            shutdown: watch::channel(false).0,
        }
    }

    fn store(&self) -> MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn live_map(&self) -> MutexGuard<'_, HashMap<String, Arc<Live>>> {
        self.live.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Runs the server until Ctrl-C. Prints the address it listens on.
pub async fn serve(config: ServerConfig) -> Result<(), ServeError> {
    let catalogue = Catalogue::new(config.games_dir.as_deref()).map_err(ServeError::Games)?;
    let store = Store::open(&config.db)?;
    let state = Arc::new(AppState::new(catalogue, store));
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
            "dagaz: serving on http://{addr}/ (games saved in {})",
            config.db.display()
        );
        let _ = out.flush();
    }
    let shutdown = state.shutdown.clone();
    axum::serve(listener, api::router(state))
        .with_graceful_shutdown(async move {
            let _ = tokio::signal::ctrl_c().await;
            shutdown.send_replace(true);
        })
        .await?;
    Ok(())
}
