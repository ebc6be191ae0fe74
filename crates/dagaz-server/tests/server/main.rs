//! The HTTP API in process, through the router (no sockets): what the
//! server answers when its store fails, and that every refusal is JSON.

mod refusals;
mod store_failures;
mod stores;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request};
use dagaz_server::store::{Save, SaveError, SqliteStore, Store, StoreError, StoredMatch};
use dagaz_server::thinking::Thinkers;
use dagaz_server::{AppState, Catalogue, api};
use serde_json::Value;
use tower::ServiceExt;

/// A store in memory whose writes fail while `failing` is set, as a full
/// disk would make them.
pub struct FlakyStore {
    inner: SqliteStore,
    pub failing: Arc<AtomicBool>,
}

impl FlakyStore {
    fn check(&self) -> Result<(), StoreError> {
        if self.failing.load(Ordering::Relaxed) {
            return Err(StoreError {
                doing: "writing",
                message: "database or disk is full".into(),
            });
        }
        Ok(())
    }
}

#[async_trait::async_trait]
impl Store for FlakyStore {
    async fn create(
        &self,
        m: &StoredMatch,
        moves: &[String],
        computer_next: bool,
    ) -> Result<(), StoreError> {
        self.check()?;
        self.inner.create(m, moves, computer_next).await
    }
    async fn save(&self, save: &Save<'_>) -> Result<(), SaveError> {
        self.check()?;
        self.inner.save(save).await
    }
    async fn get(&self, id: &str) -> Result<Option<StoredMatch>, StoreError> {
        self.inner.get(id).await
    }
    async fn moves(&self, id: &str) -> Result<Vec<String>, StoreError> {
        self.inner.moves(id).await
    }
    async fn list(&self) -> Result<Vec<StoredMatch>, StoreError> {
        self.inner.list().await
    }
    async fn claim_job(
        &self,
        id: &str,
        version: u64,
        owner: &str,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        self.check()?;
        self.inner.claim_job(id, version, owner, lease).await
    }
    async fn claim_open_jobs(
        &self,
        owner: &str,
        lease: Duration,
        waited: Duration,
        limit: usize,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        self.check()?;
        self.inner
            .claim_open_jobs(owner, lease, waited, limit)
            .await
    }
    fn describe(&self) -> String {
        "a store that fails on demand".into()
    }
}

/// A server's router over a [`FlakyStore`], and the switch that makes the
/// store fail.
pub fn app() -> (Router, Arc<AtomicBool>) {
    let failing = Arc::new(AtomicBool::new(false));
    let store = FlakyStore {
        inner: SqliteStore::in_memory().unwrap(),
        failing: failing.clone(),
    };
    let state = AppState::new(
        Catalogue::new(None).unwrap(),
        Box::new(store),
        Thinkers::new(1, Duration::from_secs(2)),
    );
    (api::router(Arc::new(state)), failing)
}

/// Sends a request; the status, the content type and the body as JSON
/// (`Null` if it is not JSON).
pub async fn send(
    app: &Router,
    method: Method,
    uri: &str,
    body: Option<Value>,
) -> (u16, String, Value) {
    let mut request = Request::builder().method(method).uri(uri);
    let body = match body {
        Some(v) => {
            request = request.header("content-type", "application/json");
            Body::from(v.to_string())
        }
        None => Body::empty(),
    };
    let response = app
        .clone()
        .oneshot(request.body(body).unwrap())
        .await
        .unwrap();
    let status = response.status().as_u16();
    let kind = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap_or("").to_string())
        .unwrap_or_default();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    (
        status,
        kind,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A game that shuffles its setup (Chess960) starts each new match from a
/// first rank of its own, Black's mirroring White's.
#[tokio::test]
async fn a_chess960_match_starts_from_a_drawn_first_rank() {
    let (app, _) = app();
    let mut firsts = std::collections::HashSet::new();
    for _ in 0..8 {
        let (status, _, created) = send(
            &app,
            Method::POST,
            "/api/matches",
            Some(serde_json::json!({"game": "chess:chess960", "mode": "local"})),
        )
        .await;
        assert_eq!(status, 201, "{created}");
        let uri = format!("/api/matches/{}", created["id"].as_str().unwrap());
        let (_, _, view) = send(&app, Method::GET, &uri, None).await;
        let position = view["position"].as_str().unwrap().to_string();
        let first = position.split([' ', '/']).nth(7).unwrap().to_string();
        assert_eq!(
            position.split('/').next().unwrap(),
            first.to_lowercase(),
            "{position}"
        );
        firsts.insert(first);
    }
    // Eight draws of 960 are almost never all the usual order.
    assert!(firsts.len() > 1, "{firsts:?}");
}
