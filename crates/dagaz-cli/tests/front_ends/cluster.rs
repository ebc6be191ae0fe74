//! Several `dagaz serve` processes on one PostgreSQL database, as behind a
//! load balancer: any server serves any match, no two servers accept two
//! moves at one ply, the event streams of every server see the moves made
//! on the others, and the computer's move of a killed server is made by
//! another. `#[ignore]`d: they need a PostgreSQL server
//! (`scripts/with-postgres.sh`, which `.ci/run` uses).

use std::time::Duration;

use serde_json::json;

use crate::server::{TestDb, TestServer, moves};

#[test]
#[ignore = "needs PostgreSQL: scripts/with-postgres.sh cargo test -- --include-ignored"]
fn moves_alternate_between_servers_and_every_stream_sees_them() {
    let db = TestDb::postgres();
    let servers = [TestServer::start(&db), TestServer::start(&db)];
    let (id, token, _) = servers[0].create(&json!({"game": "chess", "mode": "local"}));
    // A watcher on the second server, which has not seen the match yet.
    let mut events = servers[1].events(&id);
    events.read_until("data: 0");
    let line = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"];
    for (ply, m) in line.iter().enumerate() {
        let (on, other) = (&servers[ply % 2], &servers[1 - ply % 2]);
        let (status, state) = on.post(
            &format!("/api/matches/{id}/moves"),
            &json!({"move": m, "token": token}),
        );
        assert_eq!(status, 200, "move {m} on server {}: {state}", ply % 2);
        assert_eq!(moves(&state), line[..=ply]);
        // The other server shows it, and its stream announces it.
        other.wait_for(&format!("/api/matches/{id}"), Duration::from_secs(5), |s| {
            moves(s).len() == ply + 1
        });
        events.read_until(&format!("data: {}", ply + 1));
    }
}

#[test]
#[ignore = "needs PostgreSQL: scripts/with-postgres.sh cargo test -- --include-ignored"]
fn two_servers_never_accept_two_moves_at_one_ply() {
    let db = TestDb::postgres();
    let servers = [TestServer::start(&db), TestServer::start(&db)];
    let (id, token, _) = servers[0].create(&json!({"game": "chess", "mode": "local"}));
    let path = format!("/api/matches/{id}/moves");
    // Both servers know the match before the race.
    for s in &servers {
        assert_eq!(s.get(&format!("/api/matches/{id}")).0, 200);
    }
    // Each ply: four different legal moves sent at once, two to each
    // server; exactly one is accepted.
    let candidates = [
        ["e2e4", "d2d4", "c2c4", "g1f3"],
        ["e7e5", "d7d5", "c7c5", "g8f6"],
        ["b1c3", "a2a3", "h2h3", "b2b3"],
        ["b8c6", "a7a6", "h7h6", "b7b6"],
    ];
    let mut played = Vec::new();
    for moves_now in candidates {
        let accepted: Vec<(String, u16)> = std::thread::scope(|scope| {
            let handles: Vec<_> = moves_now
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let (server, path, token) = (&servers[i % 2], &path, &token);
                    scope.spawn(move || {
                        let (status, r) = server.post(path, &json!({"move": m, "token": token}));
                        assert!(matches!(status, 200 | 400 | 409), "{m}: {status} {r}");
                        (m.to_string(), status)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let winners: Vec<String> = accepted
            .iter()
            .filter(|(_, status)| *status == 200)
            .map(|(m, _)| m.clone())
            .collect();
        // The first saved wins; the others find the match changed, read
        // it again, and are refused (their side is no longer to move).
        assert_eq!(winners.len(), 1, "one move per ply: {accepted:?}");
        played.extend(winners);
    }
    // Both servers show exactly the accepted moves.
    for server in &servers {
        server.wait_for(&format!("/api/matches/{id}"), Duration::from_secs(5), |s| {
            moves(s) == played
        });
    }
}

#[test]
#[ignore = "needs PostgreSQL: scripts/with-postgres.sh cargo test -- --include-ignored"]
fn the_computer_move_of_a_killed_server_is_made_by_another() {
    let db = TestDb::postgres();
    let options = ["--max-think", "1"];
    let mut first = TestServer::start_with(&db, &options);
    let second = TestServer::start_with(&db, &options);
    // The person plays Black: the computer (White) moves first, on the
    // first server, which is killed at once.
    let (id, _, _) =
        first.create(&json!({"game": "chess", "mode": "ai", "ai": "ab:1s", "side": 1}));
    first.kill();
    // The second server has never seen the match: it finds the computer's
    // job in the store once the first one's claim has run out.
    let state = second.wait_for(
        &format!("/api/matches/{id}"),
        Duration::from_secs(30),
        |s| moves(s).len() == 1,
    );
    assert_eq!(state["side"], 1, "{state}");
}
