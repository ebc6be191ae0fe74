//! With a failing store (a full disk), every change is refused and the
//! match stays as it was; once the store works again, play goes on.

use std::sync::atomic::Ordering;

use axum::http::Method;
use serde_json::{Value, json};

use crate::{app, send};

fn texts(state: &Value) -> Vec<&str> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn nothing_changes_when_the_store_fails() {
    let (app, failing) = app();
    let (status, _, created) = send(
        &app,
        Method::POST,
        "/api/matches",
        Some(json!({"game": "chess", "mode": "local"})),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    let at = |what: &str| format!("/api/matches/{id}/{what}");
    let view = format!("/api/matches/{id}?token={token}");
    for m in ["e2e4", "e7e5"] {
        let (status, _, r) = send(
            &app,
            Method::POST,
            &at("moves"),
            Some(json!({"move": m, "token": token})),
        )
        .await;
        assert_eq!(status, 200, "{r}");
    }

    failing.store(true, Ordering::Relaxed);
    let (status, _, r) = send(
        &app,
        Method::POST,
        &at("moves"),
        Some(json!({"move": "g1f3", "token": token})),
    )
    .await;
    assert_eq!(status, 500, "{r}");
    assert!(r["error"].as_str().unwrap().contains("disk is full"), "{r}");
    let (status, _, r) = send(
        &app,
        Method::POST,
        &at("undo"),
        Some(json!({"token": token})),
    )
    .await;
    assert_eq!(status, 500, "{r}");
    let (status, _, r) = send(
        &app,
        Method::POST,
        &at("resign"),
        Some(json!({"token": token})),
    )
    .await;
    assert_eq!(status, 500, "{r}");
    let (_, _, state) = send(&app, Method::GET, &view, None).await;
    assert_eq!(texts(&state), ["e2e4", "e7e5"], "no move lost, none added");
    assert!(state["result"].is_null(), "no resignation shown: {state}");
    assert_eq!(state["side"], 0);

    // The store works again: the same moves are accepted at once (no
    // UNIQUE-constraint error from a ply the memory skipped).
    failing.store(false, Ordering::Relaxed);
    let (status, _, r) = send(
        &app,
        Method::POST,
        &at("undo"),
        Some(json!({"token": token})),
    )
    .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(texts(&r), ["e2e4"]);
    for m in ["e7e5", "g1f3"] {
        let (status, _, r) = send(
            &app,
            Method::POST,
            &at("moves"),
            Some(json!({"move": m, "token": token})),
        )
        .await;
        assert_eq!(status, 200, "{r}");
    }
    let (status, _, r) = send(
        &app,
        Method::POST,
        &at("resign"),
        Some(json!({"token": token})),
    )
    .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["result"]["text"], "1-0", "{r}");
    assert_eq!(texts(&r), ["e2e4", "e7e5", "g1f3"]);
}

#[tokio::test]
async fn a_match_is_not_offered_when_it_could_not_be_saved() {
    let (app, failing) = app();
    failing.store(true, Ordering::Relaxed);
    let (status, _, r) = send(
        &app,
        Method::POST,
        "/api/matches",
        Some(json!({"game": "chess", "mode": "local"})),
    )
    .await;
    assert_eq!(status, 500, "{r}");
    failing.store(false, Ordering::Relaxed);
    let (_, _, list) = send(&app, Method::GET, "/api/matches", None).await;
    assert_eq!(list, json!([]));
}
