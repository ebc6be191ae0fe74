//! Saved games: every match and every move is written to the store before
//! any server's memory changes, so a restarted server — or another server
//! sharing the database — finds every match as it was acknowledged.
//!
//! [`Store`] is what the server needs of a store. Two implementations
//! share one schema and one list of migrations ([`MIGRATIONS`]):
//! [`SqliteStore`] keeps everything in one SQLite file (one server), and
//! [`PostgresStore`] in a PostgreSQL database that several servers share.
//!
//! Every change is saved with an optimistic version check: a match's
//! stored version counts its changes, and a change computed at version
//! `v` is saved only if the stored match is still at `v` — so two servers
//! can never both accept a move at the same ply. The computer's moves are
//! queued as jobs in the store, claimed by one server for a lease, and
//! taken over by another when the lease runs out (its server died).

mod postgres;
mod sqlite;

use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::mpsc;

pub use postgres::PostgresStore;
pub use sqlite::SqliteStore;

/// What is stored about a match (its moves are stored one row each).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMatch {
    pub id: String,
    pub game: String,
    /// `ai`, `local` or `online`.
    pub mode: String,
    /// Engine spec of the computer, in `ai` mode.
    pub ai: Option<String>,
    /// Seat tokens per player, `""` for a seat the computer plays.
    pub seats: Vec<String>,
    /// The starting position, if not the game's setup.
    pub start: Option<String>,
    /// How the match ended, once it is over.
    pub result: Option<StoredResult>,
    /// Seconds since 1970.
    pub created: i64,
    /// Moves played so far.
    pub plies: usize,
    /// Changes saved so far (moves, take-backs, results): 0 when created.
    pub version: u64,
}

/// How a stored match ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredResult {
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub score: String,
    /// The winning player, none for a draw.
    pub winner: Option<usize>,
    /// Why ("checkmate", "White resigned").
    pub reason: String,
}

/// One change of a match, to be saved.
#[derive(Clone, Debug)]
pub struct Save<'a> {
    pub id: &'a str,
    /// The version the change was computed at: the save is refused with
    /// [`SaveError::Conflict`] if the stored match is no longer at it.
    pub version: u64,
    pub action: Action<'a>,
    /// The result after the change (`None`: the match is not over).
    pub result: Option<&'a StoredResult>,
    /// Whether the computer is to move after the change: queues its job.
    pub computer_next: bool,
}

/// What a change does to the moves.
#[derive(Clone, Copy, Debug)]
pub enum Action<'a> {
    /// Plays the move `text` as move number `ply` (from 0).
    Move { ply: usize, text: &'a str },
    /// Forgets the moves from `ply` on.
    TakeBack { ply: usize },
    /// Only the result changes (a resignation).
    Result,
}

/// A change of a match saved by some server: the match `id` is now at
/// `version`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    Changed {
        id: String,
        version: u64,
    },
    /// Notices may have been missed (the connection was lost): every
    /// match kept in memory must be checked.
    Resync,
}

/// The format of the tables this build knows: the number of [`MIGRATIONS`].
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// One step of the schema, in SQL both databases read the same way.
pub struct Migration {
    pub version: i64,
    pub what: &'static str,
    pub sql: &'static str,
}

/// The schema's history; a store applies, in one transaction each, those
/// newer than its database at start, and refuses a database newer than
/// the last. Never edit a step: add one.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        what: "matches and their moves",
        sql: "CREATE TABLE IF NOT EXISTS matches (
                  id TEXT PRIMARY KEY,
                  game TEXT NOT NULL,
                  mode TEXT NOT NULL,
                  ai TEXT,
                  seats TEXT NOT NULL,
                  start TEXT,
                  result TEXT,
                  winner BIGINT,
                  reason TEXT,
                  created BIGINT NOT NULL
              );
              CREATE TABLE IF NOT EXISTS moves (
                  match_id TEXT NOT NULL REFERENCES matches(id),
                  ply BIGINT NOT NULL,
                  text TEXT NOT NULL,
                  PRIMARY KEY (match_id, ply)
              );",
    },
    Migration {
        version: 2,
        what: "match versions, the computer's jobs, the list's index",
        sql: "ALTER TABLE matches ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
              CREATE TABLE think_jobs (
                  match_id TEXT PRIMARY KEY REFERENCES matches(id),
                  version BIGINT NOT NULL,
                  owner TEXT,
                  lease_until BIGINT,
                  queued BIGINT NOT NULL
              );
              CREATE INDEX matches_by_created ON matches (created);",
    },
];

/// What the server needs of a store. Each call is one transaction: it
/// happens completely or not at all.
#[async_trait]
pub trait Store: Send + Sync {
    /// Saves a new match (at version 0) with the moves it starts with (an
    /// imported game's) and its result; `computer_next` queues the
    /// computer's move.
    async fn create(
        &self,
        m: &StoredMatch,
        moves: &[String],
        computer_next: bool,
    ) -> Result<(), StoreError>;
    /// Saves one change, if the match is still at `save.version`.
    async fn save(&self, save: &Save<'_>) -> Result<(), SaveError>;
    /// A match, if it exists.
    async fn get(&self, id: &str) -> Result<Option<StoredMatch>, StoreError>;
    /// The moves of a match, in order.
    async fn moves(&self, id: &str) -> Result<Vec<String>, StoreError>;
    /// The newest matches, newest first.
    async fn list(&self) -> Result<Vec<StoredMatch>, StoreError>;
    /// Claims the computer's move of match `id` at `version` for `owner`
    /// (a server) for `lease`: true if the job is `owner`'s now, false if
    /// another server holds it or the match has moved on.
    async fn claim_job(
        &self,
        id: &str,
        version: u64,
        owner: &str,
        lease: Duration,
    ) -> Result<bool, StoreError>;
    /// Claims up to `limit` jobs for `owner`: those nobody claimed for
    /// `waited`, and those whose lease ran out. Returns their matches and
    /// versions.
    async fn claim_open_jobs(
        &self,
        owner: &str,
        lease: Duration,
        waited: Duration,
        limit: usize,
    ) -> Result<Vec<(String, u64)>, StoreError>;
    /// The changes saved by every server sharing the store, as they
    /// happen; `None` if only this server uses the store (SQLite).
    async fn notices(&self) -> Result<Option<mpsc::Receiver<Notice>>, StoreError> {
        Ok(None)
    }
    /// Whether other servers may change the matches (PostgreSQL): then a
    /// match kept in memory may lag behind the store by a notice.
    fn shared(&self) -> bool {
        false
    }
    /// What the store is, for the start-up line ("SQLite file x.db").
    fn describe(&self) -> String;
}

/// A database problem, with what was being done.
#[derive(Debug, thiserror::Error)]
#[error("database error while {doing}: {message}")]
pub struct StoreError {
    pub doing: &'static str,
    pub message: String,
}

impl StoreError {
    pub fn new(doing: &'static str, message: impl ToString) -> StoreError {
        StoreError {
            doing,
            message: message.to_string(),
        }
    }
}

/// Why a change was not saved.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The match changed (on another server) since the change was computed.
    #[error("the match changed while this change was being saved")]
    Conflict,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Opens the store `db` names: a `postgres://` or `postgresql://` URL, or
/// a SQLite file (a path, or `sqlite://path`). Applies the migrations.
pub async fn open(db: &str) -> Result<Box<dyn Store>, StoreError> {
    if db.starts_with("postgres://") || db.starts_with("postgresql://") {
        Ok(Box::new(PostgresStore::connect(db).await?))
    } else {
        let path = db.strip_prefix("sqlite://").unwrap_or(db);
        Ok(Box::new(SqliteStore::open(std::path::Path::new(path))?))
    }
}

/// The refusal of a database whose schema is newer than this build's.
fn too_new(found: i64) -> StoreError {
    StoreError::new(
        "opening the database",
        format!(
            "the database has format {found}, newer than this dagaz knows ({SCHEMA_VERSION}); \
             use a newer dagaz"
        ),
    )
}

/// Milliseconds of a lease or a wait, as stored.
fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// The text of a notice: `id version`.
fn notice_payload(id: &str, version: u64) -> String {
    format!("{id} {version}")
}

/// Reads a notice's text; `None` if it is not one.
fn parse_notice(payload: &str) -> Option<Notice> {
    let (id, version) = payload.split_once(' ')?;
    Some(Notice::Changed {
        id: id.to_string(),
        version: version.parse().ok()?,
    })
}

/// A match's seats as stored: comma-separated tokens.
fn join_seats(seats: &[String]) -> String {
    seats.join(",")
}

fn split_seats(seats: &str) -> Vec<String> {
    seats.split(',').map(str::to_string).collect()
}

/// The columns both stores read a match from, in this order.
const MATCH_COLUMNS: &str = "id, game, mode, ai, seats, result, winner, reason, created, start, \
     (SELECT COUNT(*) FROM moves WHERE match_id = matches.id), version";

/// A row of [`MATCH_COLUMNS`], as each database's driver reads it.
trait MatchRow {
    type Error;
    fn text(&self, i: usize) -> Result<String, Self::Error>;
    fn opt_text(&self, i: usize) -> Result<Option<String>, Self::Error>;
    fn int(&self, i: usize) -> Result<i64, Self::Error>;
    fn opt_int(&self, i: usize) -> Result<Option<i64>, Self::Error>;

    /// The match of the row.
    fn stored_match(&self) -> Result<StoredMatch, Self::Error> {
        let score = self.opt_text(5)?;
        let winner = self.opt_int(6)?;
        let reason = self.opt_text(7)?;
        Ok(StoredMatch {
            id: self.text(0)?,
            game: self.text(1)?,
            mode: self.text(2)?,
            ai: self.opt_text(3)?,
            seats: split_seats(&self.text(4)?),
            start: self.opt_text(9)?,
            result: score.map(|score| StoredResult {
                score,
                winner: winner.and_then(|w| usize::try_from(w).ok()),
                reason: reason.unwrap_or_default(),
            }),
            created: self.int(8)?,
            plies: usize::try_from(self.int(10)?).unwrap_or(0),
            version: u64::try_from(self.int(11)?).unwrap_or(0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_round_trip() {
        assert_eq!(
            parse_notice(&notice_payload("abc", 7)),
            Some(Notice::Changed {
                id: "abc".into(),
                version: 7
            })
        );
        assert_eq!(parse_notice("abc"), None);
        assert_eq!(parse_notice("abc x"), None);
    }

    #[test]
    fn migrations_are_numbered_in_order() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.version, i as i64 + 1, "{}", m.what);
        }
    }
}
