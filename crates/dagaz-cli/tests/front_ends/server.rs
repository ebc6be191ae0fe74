//! A `dagaz serve` process on a loopback port, for the API and browser
//! tests, and small JSON request helpers.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// A running server; killed when dropped.
pub struct TestServer {
    child: Child,
    /// `http://127.0.0.1:PORT`
    pub base: String,
}

impl TestServer {
    /// Starts `dagaz serve` on a free port with the database `db`.
    pub fn start(db: &Path) -> TestServer {
        TestServer::start_with(db, &[])
    }

    /// Starts `dagaz serve` with more options.
    pub fn start_with(db: &Path, options: &[&str]) -> TestServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dagaz"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
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

impl Drop for TestServer {
    fn drop(&mut self) {
        self.kill();
    }
}
