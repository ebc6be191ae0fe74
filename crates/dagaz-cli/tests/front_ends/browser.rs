//! The page in a real headless Chromium, driven through chromedriver
//! (Debian's `chromium` and `chromium-driver`; `.ci/run` installs them and
//! runs these tests with `--ignored`). Each test starts its own server.
//!
//! Screenshots go to `$DAGAZ_SCREENSHOTS` (the docs use
//! `DAGAZ_SCREENSHOTS=docs/screenshots`), by default a folder under
//! `target/`.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::server::{TestDb, TestServer};
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};

/// A chromedriver process; killed when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver is installed (apt-get install chromium-driver)");
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
        }
    }

    /// A new headless browser with its own profile.
    async fn browser(&self, width: u32, height: u32) -> Client {
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({"args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                format!("--window-size={width},{height}"),
            ]}),
        );
        // A page that has not loaded in 20 s fails the test: pages that
        // stalled the next one (streams held open by pages left behind,
        // a minute each) slowed these tests instead of failing them.
        caps.insert("timeouts".into(), json!({"pageLoad": 20_000}));
        ClientBuilder::new(HttpConnector::new())
            .capabilities(caps)
            .connect(&self.url)
            .await
            .expect("chromedriver opens a session")
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_server() -> (TestDb, TestServer) {
    let db = TestDb::sqlite();
    let server = TestServer::start(&db);
    (db, server)
}

/// Runs `script` until it returns something other than null, false, 0 or
/// an empty string, and returns that.
async fn until(c: &Client, script: &str) -> Value {
    let start = Instant::now();
    loop {
        let v = c.execute(script, vec![]).await.unwrap();
        let truthy = match &v {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Number(n) => n.as_f64() != Some(0.0),
            Value::String(s) => !s.is_empty(),
            _ => true,
        };
        if truthy {
            return v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "timed out waiting for: {script} (page: {})",
            page_text(c).await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn page_text(c: &Client) -> String {
    c.execute("return document.body.innerText", vec![])
        .await
        .map(|v| v.as_str().unwrap_or("").to_string())
        .unwrap_or_default()
}

/// Clicks the element; if the page drew itself again between finding the
/// element and clicking it (a move arrived from another browser), finds it
/// again.
async fn click(c: &Client, css: &str) {
    for attempt in 0..5 {
        let element = c
            .wait()
            .at_most(Duration::from_secs(20))
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css}: {e}"));
        match element.click().await {
            Ok(()) => return,
            Err(e) if attempt < 4 && e.to_string().contains("stale element") => continue,
            Err(e) => panic!("cannot click {css}: {e}"),
        }
    }
}

async fn click_square(c: &Client, square: &str) {
    click(c, &format!("rect.hit[data-square='{square}']")).await;
}

/// The moves in the page's move list.
async fn move_list(c: &Client) -> Vec<String> {
    let v = c
        .execute(
            "const m = document.querySelector('.moves'); return m ? m.innerText : ''",
            vec![],
        )
        .await
        .unwrap();
    v.as_str()
        .unwrap_or("")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

async fn wait_moves(c: &Client, n: usize) -> Vec<String> {
    until(
        c,
        &format!(
            "const m = document.querySelector('.moves'); \
             return m && m.innerText.split(/\\s+/).filter(x => x).length >= {n}"
        ),
    )
    .await;
    move_list(c).await
}

async fn piece_at(c: &Client, square: &str) -> Option<String> {
    let v = c
        .execute(
            &format!(
                "const g = document.querySelector(\"g.piece[data-square='{square}']\"); \
                 return g ? g.dataset.piece + '/' + g.dataset.owner : null"
            ),
            vec![],
        )
        .await
        .unwrap();
    v.as_str().map(str::to_string)
}

/// Creates a match through the API; returns the page address for its creator.
async fn create(server: &TestServer, body: Value) -> String {
    let r: Value = reqwest::Client::new()
        .post(server.url("/api/matches"))
        .json(&body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = r["id"].as_str().unwrap_or_else(|| panic!("{r}"));
    server.url(&format!("/match/{id}?t={}", r["token"].as_str().unwrap()))
}

/// Plays `moves` in the match at `url` (as `create` returns it) through
/// the API, each one accepted.
async fn play_by_api(server: &TestServer, url: &str, moves: &[&str]) {
    let (id, token) = url
        .rsplit_once("/match/")
        .unwrap()
        .1
        .split_once("?t=")
        .unwrap();
    for mv in moves {
        let r = reqwest::Client::new()
            .post(server.url(&format!("/api/matches/{id}/moves")))
            .json(&json!({"move": mv, "token": token}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 200, "{url} {mv}");
    }
}

fn screenshot_dir() -> PathBuf {
    let dir = std::env::var_os("DAGAZ_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs chromium and chromedriver; run by .ci/run"]
async fn chess_against_the_computer_by_clicking() {
    let (_dir, server) = start_server();
    let driver = Driver::start();
    let c = driver.browser(1100, 850).await;
    c.goto(&server.url("/")).await.unwrap();
    click(&c, "#game option[value='chess']").await;
    click(&c, "#opponent option[value='ai ab:0.2s']").await;
    click(&c, "#start").await;
    click_square(&c, "e2").await;
    // The pawn's targets are shown.
    until(
        &c,
        "return document.querySelector(\"circle.dot[data-square='e4']\")",
    )
    .await;
    click_square(&c, "e4").await;
    let moves = wait_moves(&c, 2).await;
    assert_eq!(moves[0], "e2e4");
    assert_eq!(moves.len(), 2, "the computer replied once: {moves:?}");
    assert_eq!(piece_at(&c, "e4").await.as_deref(), Some("Pawn/0"));
    until(
        &c,
        "return document.getElementById('status').innerText.startsWith('Your move')",
    )
    .await;

    // A reload finds the game as it was.
    c.refresh().await.unwrap();
    let after = wait_moves(&c, 2).await;
    assert_eq!(after, moves);
    assert_eq!(piece_at(&c, "e4").await.as_deref(), Some("Pawn/0"));
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs chromium and chromedriver; run by .ci/run"]
async fn game_records_are_imported_and_exported() {
    let (_db, server) = start_server();
    let dir = tempfile::tempdir().unwrap();
    let driver = Driver::start();
    let c = driver.browser(1100, 850).await;

    // A KIF file in Shift_JIS, as Japanese programs write it, chosen with
    // the file picker.
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n";
    let path = dir.path().join("game.kif");
    std::fs::write(&path, encoding_rs::SHIFT_JIS.encode(kif).0).unwrap();
    c.goto(&server.url("/")).await.unwrap();
    click(&c, "#opponent option[value='local']").await;
    click(&c, "details:nth-of-type(2) summary").await;
    let picker = c.find(Locator::Css("#record-file")).await.unwrap();
    picker.send_keys(&path.to_string_lossy()).await.unwrap();
    until(
        &c,
        "return document.getElementById('record').value.includes('２二角成')",
    )
    .await;
    click(&c, "#start").await;
    assert_eq!(wait_moves(&c, 3).await, ["7g7f", "3c3d", "8h2b+"]);

    // A PGN pasted in; the Export link gives the game back as PGN.
    c.goto(&server.url("/")).await.unwrap();
    click(&c, "#opponent option[value='local']").await;
    click(&c, "details:nth-of-type(2) summary").await;
    c.execute(
        "document.getElementById('record').value = arguments[0]",
        vec![json!("[Event \"pasted\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *")],
    )
    .await
    .unwrap();
    click(&c, "#start").await;
    assert_eq!(wait_moves(&c, 5).await.len(), 5);
    let exported = until(
        &c,
        "return fetch(document.getElementById('export').href).then(r => r.text())",
    )
    .await;
    let text = exported.as_str().unwrap_or("");
    assert!(text.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 *"), "{text}");
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs chromium and chromedriver; run by .ci/run"]
async fn a_fanorona_capture_chain_entered_part_by_part() {
    let (_dir, server) = start_server();
    let driver = Driver::start();
    let c = driver.browser(1100, 850).await;
    // White a2 approaches c2 (b2), then turns north to b3, approaching b4.
    let url = create(
        &server,
        json!({"game": "fanorona", "mode": "local", "position": "9/1s7/9/S1s6/9 w"}),
    )
    .await;
    c.goto(&url).await.unwrap();
    click_square(&c, "a2").await;
    click_square(&c, "b2").await;
    // Stopping here is a move, going on to b3 is another.
    let prompt = until(
        &c,
        "const e = document.getElementById('chooser'); return e && e.innerText",
    )
    .await;
    assert!(prompt.as_str().unwrap().contains("Stop here"), "{prompt}");
    until(
        &c,
        "return document.querySelector(\"circle.dot[data-square='b3']\")",
    )
    .await;
    click_square(&c, "b3").await;
    let moves = wait_moves(&c, 1).await;
    assert_eq!(moves.len(), 1);
    assert_eq!(piece_at(&c, "b3").await.as_deref(), Some("Stone/0"));
    assert_eq!(piece_at(&c, "c2").await, None, "captured by approach");
    assert_eq!(
        piece_at(&c, "b4").await,
        None,
        "captured in the second part"
    );
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs chromium and chromedriver; run by .ci/run"]
async fn a_shogi_drop_from_the_hand() {
    let (_dir, server) = start_server();
    let driver = Driver::start();
    let c = driver.browser(1100, 850).await;
    let url = create(
        &server,
        json!({"game": "shogi", "mode": "local",
               "position": "lnsgk1snl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b G 1"}),
    )
    .await;
    c.goto(&url).await.unwrap();
    click(&c, "button[data-hand='0'][data-piece='Gold']").await;
    until(
        &c,
        "return document.querySelector(\"circle.dot[data-square='5e']\")",
    )
    .await;
    click_square(&c, "5e").await;
    let moves = wait_moves(&c, 1).await;
    assert_eq!(moves, ["G*5e"]);
    assert_eq!(piece_at(&c, "5e").await.as_deref(), Some("Gold/0"));
    let left = c
        .execute(
            "return document.querySelectorAll(\"button[data-hand='0']\").length",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(left, json!(0), "the hand is empty");
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs chromium and chromedriver; run by .ci/run"]
async fn two_browsers_play_and_a_spectator_cannot_move() {
    let (_dir, server) = start_server();
    let driver = Driver::start();
    let white = driver.browser(1100, 850).await;
    white.goto(&server.url("/")).await.unwrap();
    click(&white, "#game option[value='chess']").await;
    click(&white, "#opponent option[value='online']").await;
    click(&white, "#start").await;
    let invite = until(
        &white,
        "const e = document.querySelector('input.invite'); return e && e.value",
    )
    .await;
    let watch = until(
        &white,
        "const e = document.querySelector('input.watch'); return e && e.value",
    )
    .await;

    let black = driver.browser(1100, 850).await;
    black.goto(invite.as_str().unwrap()).await.unwrap();
    until(&black, "return document.getElementById('status')").await;

    click_square(&white, "e2").await;
    click_square(&white, "e4").await;
    // The move reaches the other browser without a reload.
    assert_eq!(wait_moves(&black, 1).await, ["e2e4"]);
    click_square(&black, "e7").await;
    click_square(&black, "e5").await;
    assert_eq!(wait_moves(&white, 2).await, ["e2e4", "e7e5"]);

    // A third browser, without a seat, watches; its move is refused.
    let third = driver.browser(1100, 850).await;
    third.goto(watch.as_str().unwrap()).await.unwrap();
    assert_eq!(wait_moves(&third, 2).await, ["e2e4", "e7e5"]);
    click_square(&third, "g1").await;
    click_square(&third, "f3").await;
    let message = until(
        &third,
        "const t = document.getElementById('toast'); return !t.hidden && t.innerText",
    )
    .await;
    assert!(
        message.as_str().unwrap().contains("only the player"),
        "{message}"
    );
    assert_eq!(move_list(&white).await.len(), 2, "nothing changed");
    for c in [white, black, third] {
        c.close().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs chromium and chromedriver; run by .ci/run"]
async fn screenshots_of_the_boards() {
    let (_dir, server) = start_server();
    let driver = Driver::start();
    let dir = screenshot_dir();
    let c = driver.browser(1100, 850).await;
    for (game, moves) in [
        ("chess", &["e2e4", "e7e5", "g1f3"][..]),
        ("xiangqi", &["h3e3", "h8e8"][..]),
        ("shogi", &["7g7f", "3c3d", "8h2b+"][..]),
        ("fanorona", &[][..]),
        ("checkers", &[][..]),
        ("kalah", &["d1", "b1"][..]),
        ("lasca", &["c3d4", "e5c3"][..]),
        ("ultima", &["e2e5"][..]),
        ("rithmomachia", &["a3b6", "c11b10"][..]),
        (
            "four-player-chess",
            &["h2h4", "b7d7", "h13h11", "m10k10"][..],
        ),
        ("chu-shogi", &["7i7h", "6d6e"][..]),
        ("raumschach", &["Bc2Cc2"][..]),
        ("connect-four", &["D*d1", "D*d2", "D*e1", "D*c1"][..]),
        ("hex", &["S*f6", "S*e7", "S*g5"][..]),
        ("reversi", &["D*d3", "D*c5", "D*f6"][..]),
        ("senterej", &["e2e3", "d7d6", "e3e4", "c8e6"][..]),
        ("dai-shogi", &["8k8j", "8e8f"][..]),
        ("tenjiku-shogi", &["8l8k", "9e9f"][..]),
        ("wa-shogi", &["6i6h", "6c6d"][..]),
        ("dai-dai-shogi", &["9l9k", "9f9g"][..]),
        ("taikyoku-shogi", &["31y31x", "6l6m", "19gg19i"][..]),
        ("ko-shogi", &["10m10k", "10g10i"][..]),
        ("frisian-draughts", &["32-28", "19-23"][..]),
        ("dameo", &["a1d4", "h8e5"][..]),
    ] {
        let url = create(&server, json!({"game": game, "mode": "local"})).await;
        play_by_api(&server, &url, moves).await;
        c.goto(&url).await.unwrap();
        until(
            &c,
            "return document.querySelectorAll('g.piece, g.pit').length",
        )
        .await;
        let png = c.screenshot().await.unwrap();
        std::fs::write(dir.join(format!("{game}.png")), png).unwrap();
    }
    // On a phone the page fits the screen's width.
    let phone = driver.browser(390, 844).await;
    let url = create(&server, json!({"game": "chess", "mode": "local"})).await;
    phone.goto(&url).await.unwrap();
    until(&phone, "return document.querySelectorAll('g.piece').length").await;
    let overflow = phone
        .execute(
            "return document.documentElement.scrollWidth - window.innerWidth",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        overflow.as_i64().unwrap() <= 0,
        "wider than the screen by {overflow}"
    );
    std::fs::write(
        dir.join("chess-phone.png"),
        phone.screenshot().await.unwrap(),
    )
    .unwrap();
    c.close().await.unwrap();
    phone.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs chromium and chromedriver; run by .ci/run"]
async fn a_promotion_offers_a_choice() {
    let (_dir, server) = start_server();
    let driver = Driver::start();
    let c = driver.browser(1100, 850).await;
    let url = create(
        &server,
        json!({"game": "chess", "mode": "local", "position": "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"}),
    )
    .await;
    c.goto(&url).await.unwrap();
    click_square(&c, "e7").await;
    click_square(&c, "e8").await;
    let choices = until(
        &c,
        "return [...document.querySelectorAll('#chooser button[data-move]')].map(b => b.innerText)",
    )
    .await;
    let choices: Vec<&str> = choices
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(choices.len(), 4, "{choices:?}");
    assert!(choices.contains(&"Promote to Knight"), "{choices:?}");
    click(&c, "#chooser button[data-move='e7e8n']").await;
    assert_eq!(wait_moves(&c, 1).await, ["e7e8n"]);
    assert_eq!(piece_at(&c, "e8").await.as_deref(), Some("Knight/0"));
    c.close().await.unwrap();
}

/// Ethiopian chess's free opening: two browsers move at the same time, the
/// server orders their moves as they arrive, and the record replays exactly
/// after a restart.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "browser: .ci/run runs it with --include-ignored"]
async fn two_browsers_move_at_once_in_the_free_opening() {
    let db = TestDb::sqlite();
    let mut server = TestServer::start(&db);
    let driver = Driver::start();
    let r: Value = reqwest::Client::new()
        .post(server.url("/api/matches"))
        .json(&json!({"game": "senterej", "mode": "online"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = r["id"].as_str().unwrap().to_string();
    let white_url = server.url(&format!("/match/{id}?t={}", r["token"].as_str().unwrap()));
    let black_url = server.url(&format!(
        "/match/{id}?t={}",
        r["invites"][0]["token"].as_str().unwrap()
    ));
    let white = driver.browser(1100, 850).await;
    let black = driver.browser(1100, 850).await;
    white.goto(&white_url).await.unwrap();
    black.goto(&black_url).await.unwrap();
    for c in [&white, &black] {
        let status = until(
            c,
            "const s = document.getElementById('status'); return s && s.innerText",
        )
        .await;
        assert!(
            status.as_str().unwrap().contains("Free opening"),
            "{status}"
        );
    }
    // Both sides click at the same time, twice each, without waiting for
    // the other.
    let play = |c: &Client, moves: &'static [(&'static str, &'static str)]| {
        let c = c.clone();
        async move {
            for (from, to) in moves {
                click_square(&c, from).await;
                click_square(&c, to).await;
                until(
                    &c,
                    &format!("return [...document.querySelectorAll('.moves li')].some(l => l.innerText.includes('{from}{to}'))"),
                )
                .await;
            }
        }
    };
    tokio::join!(
        play(&white, &[("e2", "e3"), ("b1", "c3")]),
        play(&black, &[("d7", "d6"), ("g8", "f6")])
    );
    let moves = wait_moves(&white, 4).await;
    assert_eq!(
        wait_moves(&black, 4).await,
        moves,
        "both browsers show one order"
    );
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(sorted, ["b1c3", "d7d6", "e2e3", "g8f6"]);
    let state = |url: String| async move {
        let state: Value = reqwest::get(url).await.unwrap().json().await.unwrap();
        (state["moves"].clone(), state["position"].clone())
    };
    let before = state(server.url(&format!("/api/matches/{id}"))).await;
    assert!(
        before.1.as_str().unwrap().contains(" wb "),
        "{:?}",
        before.1
    );
    // The record replays exactly after a restart.
    server.kill();
    let server = TestServer::start(&db);
    assert_eq!(
        state(server.url(&format!("/api/matches/{id}"))).await,
        before
    );
    for c in [white, black] {
        c.close().await.unwrap();
    }
}

/// Games converted from Zillions rules files (`serve --games DIR` with
/// `.zrf` files in DIR) are offered and play on the page like any other:
/// a ZRF chess game by clicking, a checkers multiple jump, and a board of
/// named positions with three players; their screenshots go to the docs.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs chromium and chromedriver; run by .ci/run"]
async fn zrf_games_play_on_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../dagaz/tests/data/zrf");
    for (from, to) in [
        ("chess.zrf", "zrf-chess.zrf"),
        ("checkers.zrf", "zrf-checkers.zrf"),
        ("boards.zrf", "zrf-boards.zrf"),
    ] {
        std::fs::copy(fixtures.join(from), games.join(to)).unwrap();
    }
    let db = TestDb::sqlite();
    let server = TestServer::start_with(&db, &["--games", games.to_str().unwrap()]);
    let driver = Driver::start();
    let shots = screenshot_dir();
    let c = driver.browser(1100, 850).await;

    // Chess by clicking: the pawn's double step, through its zone test.
    let url = create(&server, json!({"game": "zrf-chess", "mode": "local"})).await;
    c.goto(&url).await.unwrap();
    click_square(&c, "e2").await;
    click_square(&c, "e4").await;
    assert_eq!(wait_moves(&c, 1).await, ["e2e4"]);
    assert_eq!(piece_at(&c, "e4").await.as_deref(), Some("Pawn/0"));
    click_square(&c, "g8").await;
    click_square(&c, "f6").await;
    assert_eq!(wait_moves(&c, 2).await, ["e2e4", "g8f6"]);
    std::fs::write(shots.join("zrf-chess.png"), c.screenshot().await.unwrap()).unwrap();

    // Checkers and the board of positions, moves sent to the API.
    for (game, moves) in [
        ("zrf-checkers", &["c3d4", "f6e5", "d4f6"][..]),
        ("zrf-boards", &["top-centre"][..]),
    ] {
        let url = create(&server, json!({"game": game, "mode": "local"})).await;
        play_by_api(&server, &url, moves).await;
        c.goto(&url).await.unwrap();
        assert_eq!(wait_moves(&c, moves.len()).await, moves);
        std::fs::write(
            shots.join(format!("{game}.png")),
            c.screenshot().await.unwrap(),
        )
        .unwrap();
    }
    c.close().await.unwrap();
}
