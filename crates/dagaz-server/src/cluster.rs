//! Several servers on one store: each keeps the matches it serves in
//! memory, so it follows the store's notices of the changes the others
//! save (reading a changed match again and telling its watchers), and it
//! takes the computer's jobs that no server claimed in time or whose
//! server died (its lease ran out).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;

use crate::api::{find_live, reload, think_if_needed};
use crate::store::Notice;
use crate::{AppState, Live};

/// How often a server looks for the computer's jobs nobody has taken.
const POLL: Duration = Duration::from_secs(1);
/// How long a job waits for the server that queued it before any server
/// may take it.
const UNCLAIMED_WAIT: Duration = Duration::from_secs(2);
/// How often a match is read again after another server's change when
/// the store does not answer.
const REFRESH_TRIES: usize = 5;

/// Starts following `notices` (if the store sends them) and looking for
/// jobs, until the server stops.
pub fn start(state: Arc<AppState>, notices: Option<mpsc::Receiver<Notice>>) {
    if let Some(notices) = notices {
        tokio::spawn(follow(state.clone(), notices));
    }
    tokio::spawn(take_jobs(state));
}

/// Brings every match in memory that another server changed up to date.
async fn follow(state: Arc<AppState>, mut notices: mpsc::Receiver<Notice>) {
    let mut stop = state.shutdown.subscribe();
    loop {
        let notice = tokio::select! {
            n = notices.recv() => n,
            _ = stop.wait_for(|s| *s) => None,
        };
        match notice {
            None => return,
            // Each match is brought up to date on its own task, so that a
            // match whose lock is held a while holds up no other.
            Some(Notice::Changed { id, version }) => {
                let live = state.live_map().get(&id).cloned();
                if let Some(live) = live {
                    tokio::spawn(refresh(state.clone(), live, Some(version)));
                }
            }
            Some(Notice::Resync) => {
                let all: Vec<Arc<Live>> = state.live_map().values().cloned().collect();
                for live in all {
                    tokio::spawn(refresh(state.clone(), live, None));
                }
            }
        }
    }
}

/// Reads the match again unless it is already at `version` (this
/// server's own change, announced back). A store that cannot be read now
/// (all connections busy) is asked again, a few times.
async fn refresh(state: Arc<AppState>, live: Arc<Live>, version: Option<u64>) {
    for attempt in 0..REFRESH_TRIES {
        if attempt > 0 {
            tokio::time::sleep(POLL).await;
        }
        let mut m = live.lock().await;
        if version.is_some_and(|v| v <= m.version) {
            return;
        }
        if reload(&state, &live, &mut m).await.is_ok() {
            think_if_needed(&state, &live, &m);
            return;
        }
    }
}

/// Claims, while threads are free, the jobs nobody took, and thinks.
async fn take_jobs(state: Arc<AppState>) {
    let mut stop = state.shutdown.subscribe();
    let lease = state.thinkers.lease();
    loop {
        tokio::select! {
            _ = tokio::time::sleep(POLL) => {}
            _ = stop.wait_for(|s| *s) => return,
        }
        let free = state
            .thinkers
            .free()
            .saturating_sub(state.thinkers.waiting());
        if free == 0 {
            continue;
        }
        let Ok(jobs) = state
            .store()
            .claim_open_jobs(&state.instance, lease, UNCLAIMED_WAIT, free)
            .await
        else {
            continue;
        };
        for (id, version) in jobs {
            let Ok(live) = find_live(&state, &id).await else {
                continue;
            };
            refresh(state.clone(), live.clone(), Some(version)).await;
            think_if_needed(&state, &live, &*live.lock().await);
        }
    }
}
