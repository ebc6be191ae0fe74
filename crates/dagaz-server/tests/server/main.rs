//! The HTTP API in process, through the router (no sockets): what the
//! server answers when its store fails, and that every refusal is JSON.

mod refusals;
mod store_failures;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request};
use dagaz_server::store::{SqliteStore, Store, StoreError, StoredMatch, StoredResult};
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

impl Store for FlakyStore {
    fn create(&mut self, m: &StoredMatch) -> Result<(), StoreError> {
        self.check()?;
        self.inner.create(m)
    }
    fn add_move(
        &mut self,
        id: &str,
        ply: usize,
        text: &str,
        result: Option<&StoredResult>,
    ) -> Result<(), StoreError> {
        self.check()?;
        self.inner.add_move(id, ply, text, result)
    }
    fn take_back(
        &mut self,
        id: &str,
        ply: usize,
        result: Option<&StoredResult>,
    ) -> Result<(), StoreError> {
        self.check()?;
        self.inner.take_back(id, ply, result)
    }
    fn set_result(&mut self, id: &str, result: Option<&StoredResult>) -> Result<(), StoreError> {
        self.check()?;
        self.inner.set_result(id, result)
    }
    fn get(&self, id: &str) -> Result<Option<StoredMatch>, StoreError> {
        self.inner.get(id)
    }
    fn moves(&self, id: &str) -> Result<Vec<String>, StoreError> {
        self.inner.moves(id)
    }
    fn list(&self) -> Result<Vec<StoredMatch>, StoreError> {
        self.inner.list()
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
