//! A `dagaz serve` process on a loopback port, for the API and browser
//! tests, its store (a SQLite file or a PostgreSQL database), and small
//! JSON request helpers.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The two kinds of store a server can use.
#[derive(Clone, Copy, Debug)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// The environment variable naming the PostgreSQL server the tests use
/// (`scripts/with-postgres.sh` starts one and sets it).
pub const POSTGRES_VAR: &str = "DAGAZ_TEST_POSTGRES";

/// A store of its own for a test: a SQLite file in a temporary folder, or
/// a new database on the PostgreSQL server of [`POSTGRES_VAR`].
pub struct TestDb {
    /// What `dagaz serve --db` is given.
    pub arg: String,
    _dir: Option<tempfile::TempDir>,
}

impl TestDb {
    pub fn new(backend: Backend) -> TestDb {
        match backend {
            Backend::Sqlite => TestDb::sqlite(),
            Backend::Postgres => TestDb::postgres(),
        }
    }

    pub fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().unwrap();
        TestDb {
            arg: dir.path().join("games.db").display().to_string(),
            _dir: Some(dir),
        }
    }

    /// A new, empty database; the test fails if no server is named.
    pub fn postgres() -> TestDb {
        let url = std::env::var(POSTGRES_VAR).unwrap_or_else(|_| {
            panic!(
                "{POSTGRES_VAR} names no PostgreSQL server: run the tests with \
                 scripts/with-postgres.sh cargo test …"
            )
        });
        let name = format!("test_{}", random_name());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .unwrap_or_else(|e| panic!("cannot connect to {url}: {e}"));
            let driver = tokio::spawn(connection);
            client
                .batch_execute(&format!("CREATE DATABASE {name}"))
                .await
                .unwrap();
            drop(client);
            let _ = driver.await;
        });
        let (base, _) = url.rsplit_once('/').expect("a database URL");
        TestDb {
            arg: format!("{base}/{name}"),
            _dir: None,
        }
    }
}

/// 12 random lower-case letters.
fn random_name() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos(),
    );
    let mut n = h.finish();
    (0..12)
        .map(|_| {
            let c = (b'a' + (n % 26) as u8) as char;
            n /= 26;
            c
        })
        .collect()
}

/// Runs each listed test (a function taking a [`Backend`]) on both
/// stores: `sqlite::NAME`, and `postgres::NAME`, `#[ignore]`d because it
/// needs a PostgreSQL server (`.ci/run` starts one).
#[macro_export]
macro_rules! on_both_stores {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[test]
            fn $name() {
                super::$name($crate::server::Backend::Sqlite)
            })*
        }
        mod postgres {
            $(#[test]
            #[ignore = "needs PostgreSQL: scripts/with-postgres.sh cargo test -- --include-ignored"]
            fn $name() {
                super::$name($crate::server::Backend::Postgres)
            })*
        }
    };
}

/// A running server; killed when dropped.
pub struct TestServer {
    child: Child,
    /// `http://127.0.0.1:PORT`
    pub base: String,
}

impl TestServer {
    /// Starts `dagaz serve` on a free port with the store `db`.
    pub fn start(db: &TestDb) -> TestServer {
        TestServer::start_with(db, &[])
    }

    /// Starts `dagaz serve` with more options.
    pub fn start_with(db: &TestDb, options: &[&str]) -> TestServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dagaz"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(&db.arg)
            .args(options)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let base = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("the server did not start: {line:?}"))
            .trim_end_matches('/')
            .to_string();
        TestServer { child, base }
    }

    /// Sends the server a signal (`TERM`, `INT`) and waits for it to end;
    /// returns how long it took.
    pub fn signal_and_wait(&mut self, signal: &str) -> std::time::Duration {
        let started = std::time::Instant::now();
        let sent = Command::new("kill")
            .args([format!("-{signal}"), self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "the server ended with {status}");
        started.elapsed()
    }

    /// Kills the server at once, as a crash or power cut would.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn get(&self, path: &str) -> (u16, Value) {
        let r = reqwest::blocking::get(self.url(path)).unwrap();
        let status = r.status().as_u16();
        (status, r.json().unwrap_or(Value::Null))
    }

    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let r = reqwest::blocking::Client::new()
            .post(self.url(path))
            .json(body)
            .send()
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().unwrap_or(Value::Null))
    }

    /// Creates a match; returns its id and the creator's token.
    pub fn create(&self, body: &Value) -> (String, String, Value) {
        let (status, r) = self.post("/api/matches", body);
        assert_eq!(status, 201, "{r}");
        (
            r["id"].as_str().unwrap().to_string(),
            r["token"].as_str().unwrap().to_string(),
            r,
        )
    }
}

impl TestServer {
    /// Polls `path` until `done` holds (another server's or the
    /// computer's move arrives), for at most `limit`.
    pub fn wait_for(&self, path: &str, limit: Duration, done: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let (status, state) = self.get(path);
            assert_eq!(status, 200, "{state}");
            if done(&state) {
                return state;
            }
            assert!(start.elapsed() < limit, "timed out: {state}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The event stream of match `id`.
    pub fn events(&self, id: &str) -> Events {
        let stream = reqwest::blocking::Client::new()
            .get(self.url(&format!("/api/matches/{id}/events")))
            .send()
            .unwrap();
        assert_eq!(stream.status().as_u16(), 200);
        Events {
            stream,
            seen: String::new(),
        }
    }
}

/// A match's server-sent events, read as they come.
pub struct Events {
    stream: reqwest::blocking::Response,
    /// Everything read so far.
    pub seen: String,
}

impl Events {
    /// Reads until `needle` has been seen.
    pub fn read_until(&mut self, needle: &str) {
        let mut buf = [0u8; 256];
        while !self.seen.contains(needle) {
            let n = self.stream.read(&mut buf).unwrap();
            assert!(n > 0, "stream ended: {}", self.seen);
            self.seen.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    }
}

/// The moves of a match state.
pub fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.kill();
    }
}
