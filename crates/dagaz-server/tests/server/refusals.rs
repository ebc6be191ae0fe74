//! Every refusal the server sends is JSON with an `error` field: also the
//! ones axum would send on its own.

use axum::http::Method;
use serde_json::json;

use crate::{app, send};

async fn assert_json_refusal(
    method: Method,
    uri: &str,
    body: Option<serde_json::Value>,
    status: u16,
) {
    let (app, _) = app();
    let (got, kind, r) = send(&app, method.clone(), uri, body).await;
    assert_eq!(got, status, "{method} {uri}: {r}");
    assert!(
        kind.starts_with("application/json"),
        "{method} {uri}: content type {kind}"
    );
    assert!(
        r["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{method} {uri}: {r}"
    );
}

#[tokio::test]
async fn a_method_a_route_does_not_take() {
    assert_json_refusal(Method::DELETE, "/api/games", None, 405).await;
    assert_json_refusal(Method::PUT, "/api/matches", None, 405).await;
    assert_json_refusal(Method::GET, "/api/matches/abc/moves", None, 405).await;
}

#[tokio::test]
async fn a_path_that_is_not_utf8() {
    assert_json_refusal(Method::GET, "/api/matches/%FF%FE", None, 400).await;
    assert_json_refusal(Method::GET, "/api/games/%C3%28", None, 400).await;
    assert_json_refusal(Method::GET, "/%FF", None, 404).await;
}

#[tokio::test]
async fn repeated_or_unknown_query_keys() {
    assert_json_refusal(Method::GET, "/api/matches/abc?token=a&token=b", None, 400).await;
    assert_json_refusal(Method::GET, "/api/matches/abc?tokn=a", None, 400).await;
}

#[tokio::test]
async fn bodies_that_are_not_what_the_route_reads() {
    assert_json_refusal(Method::POST, "/api/matches", None, 415).await;
    assert_json_refusal(Method::POST, "/api/matches", Some(json!({"game": 3})), 422).await;
    assert_json_refusal(
        Method::POST,
        "/api/matches",
        Some(json!({"game": "chess", "ai": "ab:d40"})),
        400,
    )
    .await;
    let big = "x".repeat(70_000);
    assert_json_refusal(
        Method::POST,
        "/api/matches",
        Some(json!({ "game": big })),
        413,
    )
    .await;
}

#[tokio::test]
async fn unknown_routes_and_matches() {
    assert_json_refusal(Method::GET, "/api/nothing", None, 404).await;
    assert_json_refusal(Method::GET, "/api/matches/nosuchmatch", None, 404).await;
    assert_json_refusal(Method::GET, "/api/games/nosuchgame", None, 404).await;
}

#[tokio::test]
async fn positions_no_game_allows() {
    let (app, _) = app();
    for (position, reason) in [
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "Black has 0 King"),
        (
            "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
            "Black is in check, but it is White's move",
        ),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkqKQkq - 0 1", "given twice"),
    ] {
        let (status, _, r) = send(
            &app,
            Method::POST,
            "/api/matches",
            Some(json!({"game": "chess", "mode": "local", "position": position})),
        )
        .await;
        assert_eq!(status, 400, "{position}: {r}");
        assert!(r["error"].as_str().unwrap().contains(reason), "{r}");
    }
}
