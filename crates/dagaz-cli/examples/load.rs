//! A load test for `dagaz serve` (run by `scripts/load.sh` and
//! `scripts/cluster.sh`): people play random legal moves in local matches,
//! others play against the computer, all at once, for a fixed time; then
//! every move a server acknowledged is looked for in the record of its
//! match, and every match is compared on every server.
//!
//! ```text
//! cargo run --release -p dagaz-cli --example load -- \
//!     --base http://127.0.0.1:18080 --players 50 --ai 10 --seconds 30
//! ```
//!
//! With several servers (`--base A,B,C`, servers sharing one PostgreSQL
//! database) each person sends each request to the next server in turn,
//! as a load balancer would, and goes on to the next one when a server
//! is down. Connection failures while a server is down (the scripts kill
//! and restart one mid-run) are counted apart from errors: a request a
//! server answered with a 5xx, or a 4xx it should not have sent, is an
//! error; a request that never reached one is not.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::RngExt;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};

/// What the command line asks for.
struct Options {
    /// The servers, in the order requests rotate through them.
    bases: Vec<String>,
    players: usize,
    ai: usize,
    seconds: u64,
    /// The engine of the computer's matches.
    engine: String,
}

impl Options {
    fn parse() -> Result<Options, String> {
        let mut o = Options {
            bases: vec!["http://127.0.0.1:18080".into()],
            players: 50,
            ai: 10,
            seconds: 30,
            engine: "ab:1s".into(),
        };
        let args: Vec<String> = std::env::args().skip(1).collect();
        for pair in args.chunks(2) {
            let value = pair.get(1).ok_or(format!("{} needs a value", pair[0]))?;
            let number = || {
                value
                    .parse::<u64>()
                    .map_err(|_| format!("{}: not a number", pair[0]))
            };
            match pair[0].as_str() {
                "--base" => {
                    o.bases = value
                        .split(',')
                        .map(|b| b.trim_end_matches('/').to_string())
                        .collect()
                }
                "--players" => o.players = number()?.min(500) as usize,
                "--ai" => o.ai = number()?.min(100) as usize,
                "--seconds" => o.seconds = number()?.clamp(1, 3600),
                "--engine" => o.engine = value.clone(),
                other => return Err(format!("unknown option {other}")),
            }
        }
        Ok(o)
    }
}

/// A move the server acknowledged: its match, its ply, its text.
#[derive(Clone)]
struct Ack {
    id: String,
    token: String,
    ply: usize,
    text: String,
}

/// What all clients found.
#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    errors: Vec<String>,
    unreachable: u64,
    acks: Vec<Ack>,
    /// Every match created: its id and a token of it.
    matches: Vec<(String, String)>,
}

/// One client's connection and its share of the tally.
struct Client {
    http: reqwest::blocking::Client,
    bases: Vec<String>,
    /// The server of the next request.
    next: std::cell::Cell<usize>,
    tally: Arc<Mutex<Tally>>,
}

enum Outcome {
    Answer(u16, Value),
    /// The request did not reach the server (it is down).
    Unreachable,
}

impl Client {
    /// Sends the request to the next server in turn, and to the ones
    /// after it while servers are down.
    fn request(&self, method: &str, path: &str, body: Option<&Value>) -> Outcome {
        let first = self.next.get();
        self.next.set((first + 1) % self.bases.len());
        for k in 0..self.bases.len() {
            let base = &self.bases[(first + k) % self.bases.len()];
            match self.request_to(base, method, path, body) {
                Outcome::Unreachable => continue,
                answer => return answer,
            }
        }
        std::thread::sleep(Duration::from_millis(50));
        Outcome::Unreachable
    }

    fn request_to(&self, base: &str, method: &str, path: &str, body: Option<&Value>) -> Outcome {
        let url = format!("{base}{path}");
        let started = Instant::now();
        let request = match method {
            "POST" => self.http.post(&url).json(body.unwrap_or(&Value::Null)),
            _ => self.http.get(&url),
        };
        match request.send() {
            Ok(r) => {
                let status = r.status().as_u16();
                let value = r.json().unwrap_or(Value::Null);
                let mut t = self.tally.lock().unwrap();
                t.latencies.push(started.elapsed());
                if status >= 500 {
                    t.errors.push(format!("{method} {path}: {status} {value}"));
                }
                Outcome::Answer(status, value)
            }
            // Refused, or the connection broke mid-request: the server
            // was killed.
            Err(_) => {
                self.tally.lock().unwrap().unreachable += 1;
                Outcome::Unreachable
            }
        }
    }

    fn error(&self, what: String) {
        self.tally.lock().unwrap().errors.push(what);
    }

    /// Creates a match; its id and token.
    fn create(&self, body: &Value) -> Option<(String, String)> {
        match self.request("POST", "/api/matches", Some(body)) {
            Outcome::Answer(201, r) => {
                let id = r["id"].as_str()?.to_string();
                let token = r["token"].as_str()?.to_string();
                let mut t = self.tally.lock().unwrap();
                t.matches.push((id.clone(), token.clone()));
                Some((id, token))
            }
            Outcome::Answer(status, r) => {
                self.error(format!("create: {status} {r}"));
                None
            }
            Outcome::Unreachable => None,
        }
    }

    /// Plays one random legal move if it is `token`'s turn; false when the
    /// match is over or cannot go on.
    fn play_one(&self, id: &str, token: &str, rng: &mut StdRng) -> bool {
        let state = match self.request("GET", &format!("/api/matches/{id}?token={token}"), None) {
            Outcome::Answer(200, s) => s,
            Outcome::Answer(status, r) => {
                self.error(format!("state of {id}: {status} {r}"));
                return false;
            }
            Outcome::Unreachable => return true,
        };
        if !state["result"].is_null() {
            return false;
        }
        let mine = state["you"]
            .as_array()
            .is_some_and(|you| you.contains(&state["side"]));
        let legal = state["legal"].as_array().cloned().unwrap_or_default();
        if !mine || legal.is_empty() {
            std::thread::sleep(Duration::from_millis(100));
            return true;
        }
        let text = legal[rng.random_range(0..legal.len())]["text"]
            .as_str()
            .unwrap_or("")
            .to_string();
        let ply = state["moves"].as_array().map_or(0, |m| m.len());
        let body = json!({"move": text, "token": token, "version": state["version"]});
        match self.request("POST", &format!("/api/matches/{id}/moves"), Some(&body)) {
            Outcome::Answer(200, _) => {
                self.tally.lock().unwrap().acks.push(Ack {
                    id: id.to_string(),
                    token: token.to_string(),
                    ply,
                    text,
                });
                true
            }
            // The computer or a restart moved the match on in between.
            Outcome::Answer(409, _) => true,
            Outcome::Answer(status, r) => {
                self.error(format!("move {text} in {id}: {status} {r}"));
                false
            }
            Outcome::Unreachable => true,
        }
    }
}

fn player(client: Client, seed: u64, until: Instant, against: Option<String>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let games = ["chess", "checkers", "shogi", "xiangqi", "kalah", "fanorona"];
    while Instant::now() < until {
        let game = games[rng.random_range(0..games.len())];
        let body = match &against {
            Some(engine) => json!({"game": "chess", "mode": "ai", "ai": engine}),
            None => json!({"game": game, "mode": "local"}),
        };
        let Some((id, token)) = client.create(&body) else {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        };
        let mut plies = 0;
        while Instant::now() < until && plies < 80 && client.play_one(&id, &token, &mut rng) {
            plies += 1;
        }
    }
}

/// Every acknowledged move is where it was acknowledged, in the server's
/// record of its match.
fn check_integrity(client: &Client, acks: &[Ack]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut by_match: std::collections::BTreeMap<&str, Vec<&Ack>> = Default::default();
    for a in acks {
        by_match.entry(&a.id).or_default().push(a);
    }
    for (id, list) in by_match {
        let token = &list[0].token;
        let state = match client.request("GET", &format!("/api/matches/{id}?token={token}"), None) {
            Outcome::Answer(200, s) => s,
            Outcome::Answer(status, r) => {
                problems.push(format!("{id}: {status} {r}"));
                continue;
            }
            Outcome::Unreachable => {
                problems.push(format!("{id}: server unreachable"));
                continue;
            }
        };
        let moves: Vec<&str> = state["moves"]
            .as_array()
            .map(|m| m.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for a in list {
            if moves.get(a.ply) != Some(&a.text.as_str()) {
                problems.push(format!(
                    "{id}: move {} ({}) was acknowledged but the server has {:?} there",
                    a.ply + 1,
                    a.text,
                    moves.get(a.ply)
                ));
            }
        }
    }
    problems
}

/// Every match, asked of every server: all that answer show the same
/// moves at the same version (a match the computer is still moving in
/// is asked again, for a few seconds). Returns the servers asked and the
/// disagreements.
fn check_consistency(client: &Client, matches: &[(String, String)]) -> (usize, Vec<String>) {
    let mut problems = Vec::new();
    let mut reachable = std::collections::BTreeSet::new();
    for (id, token) in matches {
        let mut last = String::new();
        let settled = (0..40).any(|attempt| {
            if attempt > 0 {
                std::thread::sleep(Duration::from_millis(250));
            }
            let seen: Vec<(String, Value, Value)> = client
                .bases
                .iter()
                .filter_map(|base| {
                    match client.request_to(
                        base,
                        "GET",
                        &format!("/api/matches/{id}?token={token}"),
                        None,
                    ) {
                        Outcome::Answer(200, s) => {
                            reachable.insert(base.clone());
                            Some((base.clone(), s["version"].clone(), s["moves"].clone()))
                        }
                        _ => None,
                    }
                })
                .collect();
            last = seen
                .iter()
                .map(|(b, v, m)| {
                    format!(
                        "{b}: version {v}, {} moves",
                        m.as_array().map_or(0, |m| m.len())
                    )
                })
                .collect::<Vec<_>>()
                .join("; ");
            !seen.is_empty()
                && seen
                    .iter()
                    .all(|(_, v, m)| (v, m) == (&seen[0].1, &seen[0].2))
        });
        if !settled {
            problems.push(format!("{id}: the servers disagree: {last}"));
        }
    }
    (reachable.len(), problems)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() -> std::process::ExitCode {
    let o = match Options::parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("load: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let tally = Arc::new(Mutex::new(Tally::default()));
    let client = |first: usize| Client {
        http: reqwest::blocking::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .expect("an HTTP client"),
        bases: o.bases.clone(),
        next: std::cell::Cell::new(first % o.bases.len()),
        tally: tally.clone(),
    };
    let started = Instant::now();
    let until = started + Duration::from_secs(o.seconds);
    std::thread::scope(|scope| {
        for i in 0..o.players + o.ai {
            let c = client(i);
            let against = (i >= o.players).then(|| o.engine.clone());
            scope.spawn(move || player(c, i as u64, until, against));
        }
    });
    let elapsed = started.elapsed().as_secs_f64();
    let acks = tally.lock().unwrap().acks.clone();
    let matches = tally.lock().unwrap().matches.clone();
    // Servers first agree (a match the computer was moving in settles),
    // then the acknowledged moves are looked for.
    let (servers, disagreements) = check_consistency(&client(0), &matches);
    let problems = check_integrity(&client(0), &acks);
    let t = tally.lock().unwrap();
    let mut sorted = t.latencies.clone();
    sorted.sort();
    println!(
        "{} players and {} matches against the computer ({}) for {:.0} s on {} server(s)",
        o.players,
        o.ai,
        o.engine,
        elapsed,
        o.bases.len()
    );
    println!(
        "requests {} ({:.0}/s), p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        sorted.len(),
        sorted.len() as f64 / elapsed,
        percentile(&sorted, 0.5).as_secs_f64() * 1e3,
        percentile(&sorted, 0.99).as_secs_f64() * 1e3,
        sorted.last().map_or(0.0, |d| d.as_secs_f64() * 1e3)
    );
    println!(
        "matches created {}, moves acknowledged {}, requests that found a server down {}",
        t.matches.len(),
        acks.len(),
        t.unreachable
    );
    println!("errors {}", t.errors.len());
    for e in t.errors.iter().take(10) {
        println!("  {e}");
    }
    println!(
        "integrity: {} acknowledged moves in {} matches checked, {} missing",
        acks.len(),
        acks.iter()
            .map(|a| &a.id)
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        problems.len()
    );
    for p in problems.iter().take(10) {
        println!("  {p}");
    }
    println!(
        "consistency: {} matches asked of {servers} server(s), {} where they disagree",
        matches.len(),
        disagreements.len()
    );
    for d in disagreements.iter().take(10) {
        println!("  {d}");
    }
    if t.errors.is_empty() && problems.is_empty() && disagreements.is_empty() {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
