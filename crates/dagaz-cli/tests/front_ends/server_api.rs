//! The web API, against a real `dagaz serve` on a loopback port.

use std::time::Duration;

use crate::server::{Backend, TestDb, TestServer, moves};
use serde_json::{Value, json};

/// Polls the match until `done` holds (the computer's move arrives).
fn wait_for(server: &TestServer, path: &str, done: impl Fn(&Value) -> bool) -> Value {
    server.wait_for(path, Duration::from_secs(30), done)
}

fn a_match_survives_a_restart(backend: Backend) {
    let db = TestDb::new(backend);
    let mut server = TestServer::start(&db);
    let (id, token, _) = server.create(&json!({"game": "chess", "mode": "local"}));
    let path = format!("/api/matches/{id}/moves");
    let (status, state) = server.post(&path, &json!({"move": "e2e4", "token": token}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(moves(&state), ["e2e4"]);

    // An illegal move is refused with a message and changes nothing.
    let (status, r) = server.post(&path, &json!({"move": "e7e4", "token": token}));
    assert_eq!(status, 400);
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("'e7e4' is not a legal move"),
        "{r}"
    );
    let (_, state) = server.get(&format!("/api/matches/{id}?token={token}"));
    assert_eq!(moves(&state), ["e2e4"]);
    assert_eq!(state["side"], 1);

    // The server dies; a new one on the same file finds the match.
    server.kill();
    let server = TestServer::start(&db);
    let (status, state) = server.get(&format!("/api/matches/{id}?token={token}"));
    assert_eq!(status, 200, "{state}");
    assert_eq!(moves(&state), ["e2e4"]);
    assert_eq!(state["you"], json!([0, 1]));
    let (status, state) = server.post(&path, &json!({"move": "e7e5", "token": token}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(moves(&state), ["e2e4", "e7e5"]);
    let (_, list) = server.get("/api/matches");
    let listed = list
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == id.as_str())
        .unwrap();
    assert_eq!(listed["plies"], 2);
    assert_eq!(listed["result"], Value::Null);
}

fn seats_turns_and_finished_games(backend: Backend) {
    let db = TestDb::new(backend);
    let server = TestServer::start(&db);
    let (id, white, created) = server.create(&json!({"game": "chess", "mode": "online"}));
    let black = created["invites"][0]["token"].as_str().unwrap().to_string();
    assert_eq!(created["invites"][0]["player"], "Black");
    assert_ne!(white, black);
    let path = format!("/api/matches/{id}/moves");
    let (status, r) = server.post(&path, &json!({"move": "e2e4"}));
    assert_eq!(status, 403, "a spectator cannot move: {r}");
    let (status, _) = server.post(&path, &json!({"move": "e2e4", "token": "guess"}));
    assert_eq!(status, 403);
    let (status, r) = server.post(&path, &json!({"move": "e7e5", "token": black}));
    assert_eq!(status, 409, "out of turn: {r}");
    assert_eq!(
        server
            .post(&path, &json!({"move": "e2e4", "token": white}))
            .0,
        200
    );
    assert_eq!(
        server
            .post(&path, &json!({"move": "e7e5", "token": black}))
            .0,
        200
    );
    // No takebacks between two browsers.
    let undo = format!("/api/matches/{id}/undo");
    assert_eq!(server.post(&undo, &json!({"token": white})).0, 409);
    // Resigning ends the game; moves are then refused.
    let (status, state) = server.post(
        &format!("/api/matches/{id}/resign"),
        &json!({"token": black}),
    );
    assert_eq!(status, 200);
    assert_eq!(state["result"]["text"], "1-0");
    let (status, r) = server.post(&path, &json!({"move": "g1f3", "token": white}));
    assert_eq!(status, 409);
    assert!(r["error"].as_str().unwrap().contains("over"), "{r}");
    // The export is a PGN record.
    let response =
        reqwest::blocking::get(server.url(&format!("/api/matches/{id}/export"))).unwrap();
    let disposition = response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        disposition.contains(&format!("dagaz-{id}.pgn")),
        "{disposition}"
    );
    let text = response.text().unwrap();
    assert!(
        text.contains("[Result \"1-0\"]") && text.contains("1. e4 e5 1-0"),
        "{text}"
    );
}

fn a_record_is_imported_with_its_moves_and_result(backend: Backend) {
    let db = TestDb::new(backend);
    let mut server = TestServer::start(&db);
    // A KIF names its game (shogi) whatever game the request names.
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n\
               \x20  3 ２二角成(88)\n   4 同　銀(31)\n";
    let (id, token, _) = server.create(&json!({"game": "chess", "mode": "local", "record": kif}));
    let (_, state) = server.get(&format!("/api/matches/{id}?token={token}"));
    assert_eq!(state["game"], "shogi");
    assert_eq!(moves(&state), ["7g7f", "3c3d", "8h2b+", "3a2b"]);
    let path = format!("/api/matches/{id}/moves");
    let (status, _) = server.post(&path, &json!({"move": "B*4e", "token": token}));
    assert_eq!(status, 200);
    let export = reqwest::blocking::get(server.url(&format!("/api/matches/{id}/export")))
        .unwrap()
        .text()
        .unwrap();
    assert!(
        export.contains("   4 同　銀(31)\n   5 ４五角打"),
        "{export}"
    );

    // A resigned game keeps its result, and both outlive a restart.
    let pgn = "[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n1. f4 e5 2. g4 0-1";
    let (resigned, token2, _) = server.create(&json!({"mode": "local", "record": pgn}));
    server.kill();
    let server = TestServer::start(&db);
    let (_, state) = server.get(&format!("/api/matches/{resigned}?token={token2}"));
    assert_eq!(
        state["game"], "chess",
        "a PGN naming no variant, no game asked: chess"
    );
    assert_eq!(moves(&state), ["f2f4", "e7e5", "g2g4"]);
    assert_eq!(state["result"]["text"], "0-1");
    let (_, state) = server.get(&format!("/api/matches/{id}?token={token}"));
    assert_eq!(moves(&state).len(), 5);

    // A record that does not play is refused, naming the move.
    let (status, r) = server.post(
        "/api/matches",
        &json!({"game": "chess", "record": "1. e4 e5 2. Ke3 *"}),
    );
    assert_eq!(status, 400);
    assert!(
        r["error"].as_str().unwrap().contains("move 2 ('Ke3')"),
        "{r}"
    );
    let (status, _) = server.post(
        "/api/matches",
        &json!({"game": "chess", "record": "1. e4 *", "position": "8/8/8/8/8/8/8/8 w - - 0 1"}),
    );
    assert_eq!(status, 400);
}

fn bad_requests_get_json_errors(backend: Backend) {
    let db = TestDb::new(backend);
    let server = TestServer::start(&db);
    let (status, r) = server.post("/api/matches", &json!({"game": "no-such-game"}));
    assert_eq!(status, 400);
    assert!(r["error"].as_str().unwrap().contains("unknown game"), "{r}");
    let (status, _) = server.post(
        "/api/matches",
        &json!({"game": "chess", "mode": "ai", "ai": "ab:999s"}),
    );
    assert_eq!(status, 400);
    let (status, _) = server.post("/api/matches", &json!({"game": "chess", "side": 5}));
    assert_eq!(status, 400);
    let (status, r) = server.get("/api/matches/nonexistent");
    assert_eq!(status, 404);
    assert!(r["error"].is_string());
    assert_eq!(server.get("/api/games/../../etc/passwd").0, 404);
    let client = reqwest::blocking::Client::new();
    let r = client
        .post(server.url("/api/matches"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    assert!(r.json::<Value>().unwrap()["error"].is_string());
    let r = client
        .post(server.url("/api/matches"))
        .header("content-type", "application/json")
        .body(format!("{{\"game\": \"{}\"}}", "x".repeat(100_000)))
        .send()
        .unwrap();
    assert_eq!(r.status().as_u16(), 413, "oversized bodies are refused");
    // Nothing was created by any of this.
    assert_eq!(server.get("/api/matches").1, json!([]));
}

fn the_computer_replies_and_undo_goes_back_to_the_person(backend: Backend) {
    let db = TestDb::new(backend);
    let server = TestServer::start(&db);
    // The person plays Black: the computer (random mover) opens.
    let (id, token, _) = server.create(&json!({"game": "chess", "ai": "random", "side": 1}));
    let path = format!("/api/matches/{id}?token={token}");
    let state = wait_for(&server, &path, |s| moves(s).len() == 1);
    assert_eq!(state["you"], json!([1]));
    let reply = state["legal"][0]["text"].as_str().unwrap().to_string();
    let (status, _) = server.post(
        &format!("/api/matches/{id}/moves"),
        &json!({"move": reply, "token": token}),
    );
    assert_eq!(status, 200);
    let state = wait_for(&server, &path, |s| moves(s).len() == 3);
    assert_eq!(state["thinking"], false);
    let (status, state) = server.post(&format!("/api/matches/{id}/undo"), &json!({"token": token}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(moves(&state).len(), 1, "back to the person's turn: {state}");
}

fn the_computer_plays_the_three_other_sides_of_four_player_chess(backend: Backend) {
    let db = TestDb::new(backend);
    let server = TestServer::start(&db);
    // The person plays West (side 1): South, North and East are the computer.
    let (id, token, _) = server.create(&json!({
        "game": "four-player-chess", "ai": "random", "side": 1
    }));
    let path = format!("/api/matches/{id}?token={token}");
    let state = wait_for(&server, &path, |s| moves(s).len() == 1);
    assert_eq!(state["you"], json!([1]));
    let reply = state["legal"][0]["text"].as_str().unwrap().to_string();
    let (status, _) = server.post(
        &format!("/api/matches/{id}/moves"),
        &json!({"move": reply, "token": token}),
    );
    assert_eq!(status, 200);
    // North, East and South move in turn; then it is West's turn again.
    let state = wait_for(&server, &path, |s| moves(s).len() == 5);
    assert_eq!(state["side"], 1, "{state}");
    let (status, state) = server.post(&format!("/api/matches/{id}/undo"), &json!({"token": token}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(moves(&state).len(), 1, "back to the person's turn: {state}");
}

fn events_announce_each_change(backend: Backend) {
    let db = TestDb::new(backend);
    let server = TestServer::start(&db);
    let (id, token, _) = server.create(&json!({"game": "checkers", "mode": "local"}));
    let mut events = server.events(&id);
    events.read_until("data: 0");
    let (_, state) = server.get(&format!("/api/matches/{id}"));
    let first = state["legal"][0]["text"].clone();
    let (status, _) = server.post(
        &format!("/api/matches/{id}/moves"),
        &json!({"move": first, "token": token}),
    );
    assert_eq!(status, 200);
    events.read_until("data: 1");
    assert!(events.seen.contains("event: version"), "{}", events.seen);
}

/// Creates a match against `engine` where the person (White) has made a
/// first move, so the computer is to move.
fn computer_to_move(server: &TestServer, engine: &str) -> (String, String) {
    let (id, token, _) = server.create(&json!({"game": "chess", "mode": "ai", "ai": engine}));
    let (status, r) = server.post(
        &format!("/api/matches/{id}/moves"),
        &json!({"move": "e2e4", "token": token}),
    );
    assert_eq!(status, 200, "{r}");
    (id, token)
}

fn every_search_is_bounded_and_waits_for_a_free_thread(backend: Backend) {
    let db = TestDb::new(backend);
    let server = TestServer::start_with(&db, &["--think-threads", "1", "--max-think", "1.5"]);
    // Specs beyond the bounds are refused; a deep search is accepted but
    // stops at the time bound.
    for spec in ["ab:30s", "mcts:5000000n", "ab:d40", "ab:99999999n"] {
        let (status, r) = server.post(
            "/api/matches",
            &json!({"game": "chess", "mode": "ai", "ai": spec}),
        );
        assert_eq!(status, 400, "{spec}: {r}");
        assert!(
            r["error"].as_str().unwrap().contains("thinks too long"),
            "{r}"
        );
    }
    let (first, _) = computer_to_move(&server, "ab:d12");
    let (second, token) = computer_to_move(&server, "ab:d12");
    let (_, state) = server.get(&format!("/api/matches/{second}?token={token}"));
    assert_eq!(state["thinking"], true, "{state}");
    assert_eq!(
        state["think_state"], "queued",
        "one thread, busy with the first match: {state}"
    );
    for id in [first, second] {
        let state = wait_for(&server, &format!("/api/matches/{id}"), |s| {
            s["moves"].as_array().unwrap().len() == 2
        });
        assert_eq!(state["thinking"], false, "{state}");
    }
}

fn the_server_stops_at_once_while_the_computer_thinks(backend: Backend) {
    for signal in ["TERM", "INT"] {
        let db = TestDb::new(backend);
        let mut server = TestServer::start_with(&db, &["--max-think", "60"]);
        let (id, token) = computer_to_move(&server, "ab:d12");
        let (_, state) = server.get(&format!("/api/matches/{id}?token={token}"));
        assert_eq!(state["thinking"], true, "{state}");
        let took = server.signal_and_wait(signal);
        eprintln!(
            "SIG{signal}: the server ended {} ms after the signal",
            took.as_millis()
        );
        assert!(
            took < Duration::from_secs(5),
            "SIG{signal}: the server took {took:?} to stop (its search may think for 60 s)"
        );
    }
}

fn in_a_free_opening_either_seat_moves_and_stale_moves_are_refused(backend: Backend) {
    let db = TestDb::new(backend);
    let server = TestServer::start(&db);
    let (id, white, r) = server.create(&json!({"game": "senterej", "mode": "online"}));
    let black = r["invites"][0]["token"].as_str().unwrap().to_string();
    let path = format!("/api/matches/{id}/moves");
    let (_, state) = server.get(&format!("/api/matches/{id}?token={white}"));
    assert_eq!(state["free"], true);
    let version = state["version"].as_u64().unwrap();
    // Either seat moves at any time.
    for (token, mv) in [
        (&white, "e2e3"),
        (&black, "d7d6"),
        (&white, "e3e4"),
        (&black, "d6d5"),
    ] {
        let (status, r) = server.post(&path, &json!({"move": mv, "token": token}));
        assert_eq!(status, 200, "{mv}: {r}");
    }
    // A seat cannot move the other side's pieces.
    let (status, r) = server.post(&path, &json!({"move": "a7a6", "token": white}));
    assert_eq!(status, 403, "{r}");
    // White takes on d5: the free opening ends, Black moves next. Black's
    // move chosen before that capture (at an older version) is refused
    // with 409, and nothing changes.
    let (status, _) = server.post(&path, &json!({"move": "e4d5", "token": white}));
    assert_eq!(status, 200);
    let (status, r) = server.post(
        &path,
        &json!({"move": "d5d4", "token": black, "version": version}),
    );
    assert_eq!(status, 409, "{r}");
    let (_, state) = server.get(&format!("/api/matches/{id}?token={black}"));
    assert_eq!(state["free"], false);
    assert_eq!(state["side"], 1);
    assert_eq!(moves(&state), ["e2e3", "d7d6", "e3e4", "d6d5", "e4d5"]);
}

crate::on_both_stores!(
    a_match_survives_a_restart,
    seats_turns_and_finished_games,
    a_record_is_imported_with_its_moves_and_result,
    bad_requests_get_json_errors,
    the_computer_replies_and_undo_goes_back_to_the_person,
    the_computer_plays_the_three_other_sides_of_four_player_chess,
    events_announce_each_change,
    every_search_is_bounded_and_waits_for_a_free_thread,
    the_server_stops_at_once_while_the_computer_thinks,
    in_a_free_opening_either_seat_moves_and_stale_moves_are_refused,
);
