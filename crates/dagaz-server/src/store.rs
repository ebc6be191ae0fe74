//! Saved games: every match and every move is written to the store before
//! the server's memory changes, so a restarted server finds every match
//! as it was acknowledged. [`Store`] is what the server needs of a store;
//! [`SqliteStore`] keeps everything in one SQLite file.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};

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

/// The format of the tables; bumped when they change.
const SCHEMA_VERSION: i64 = 1;

/// What the server needs of a store. Each call is one transaction: it
/// happens completely or not at all.
pub trait Store: Send {
    /// Saves a new match.
    fn create(&mut self, m: &StoredMatch) -> Result<(), StoreError>;
    /// Saves the move made at `ply` and the result after it.
    fn add_move(
        &mut self,
        id: &str,
        ply: usize,
        text: &str,
        result: Option<&StoredResult>,
    ) -> Result<(), StoreError>;
    /// Forgets the moves from `ply` on (undo) and saves the result after.
    fn take_back(
        &mut self,
        id: &str,
        ply: usize,
        result: Option<&StoredResult>,
    ) -> Result<(), StoreError>;
    /// Records how the match ended (`None`: it is not over).
    fn set_result(&mut self, id: &str, result: Option<&StoredResult>) -> Result<(), StoreError>;
    /// A match, if it exists.
    fn get(&self, id: &str) -> Result<Option<StoredMatch>, StoreError>;
    /// The moves of a match, in order.
    fn moves(&self, id: &str) -> Result<Vec<String>, StoreError>;
    /// The newest matches, newest first.
    fn list(&self) -> Result<Vec<StoredMatch>, StoreError>;
}

/// The SQLite store.
pub struct SqliteStore {
    conn: Connection,
}

/// A database problem, with what was being done.
#[derive(Debug, thiserror::Error)]
#[error("database error while {doing}: {message}")]
pub struct StoreError {
    pub doing: &'static str,
    pub message: String,
}

fn ctx<T>(doing: &'static str, r: rusqlite::Result<T>) -> Result<T, StoreError> {
    r.map_err(|e| StoreError {
        doing,
        message: e.to_string(),
    })
}

impl SqliteStore {
    /// Opens (or creates) the database file.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let conn = ctx("opening the database", Connection::open(path))?;
        Self::init(conn)
    }

    /// A database in memory (for tests).
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        Self::init(ctx("opening the database", Connection::open_in_memory())?)
    }

    fn init(conn: Connection) -> Result<SqliteStore, StoreError> {
        let version: i64 = ctx(
            "reading the database version",
            conn.query_row("PRAGMA user_version", [], |r| r.get(0)),
        )?;
        if version > SCHEMA_VERSION {
            return Err(StoreError {
                doing: "opening the database",
                message: format!(
                    "the database has format {version}, newer than this dagaz knows ({SCHEMA_VERSION})"
                ),
            });
        }
        ctx(
            "creating the tables",
            conn.execute_batch(
                "PRAGMA journal_mode = WAL;
                 CREATE TABLE IF NOT EXISTS matches (
                     id TEXT PRIMARY KEY,
                     game TEXT NOT NULL,
                     mode TEXT NOT NULL,
                     ai TEXT,
                     seats TEXT NOT NULL,
                     start TEXT,
                     result TEXT,
                     winner INTEGER,
                     reason TEXT,
                     created INTEGER NOT NULL
                 );
                 CREATE TABLE IF NOT EXISTS moves (
                     match_id TEXT NOT NULL REFERENCES matches(id),
                     ply INTEGER NOT NULL,
                     text TEXT NOT NULL,
                     PRIMARY KEY (match_id, ply)
                 );
                 PRAGMA user_version = 1;",
            ),
        )?;
        Ok(SqliteStore { conn })
    }

    /// Runs `f` in one transaction, committed if it succeeds.
    fn transaction<T>(
        &mut self,
        doing: &'static str,
        f: impl FnOnce(&rusqlite::Transaction) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        let tx = ctx(doing, self.conn.transaction())?;
        let out = ctx(doing, f(&tx))?;
        ctx(doing, tx.commit())?;
        Ok(out)
    }
}

/// Writes a match's result columns.
fn write_result(
    conn: &Connection,
    id: &str,
    result: Option<&StoredResult>,
) -> rusqlite::Result<usize> {
    conn.execute(
        "UPDATE matches SET result = ?2, winner = ?3, reason = ?4 WHERE id = ?1",
        params![
            id,
            result.map(|r| r.score.as_str()),
            result.and_then(|r| r.winner).map(|w| w as i64),
            result.map(|r| r.reason.as_str())
        ],
    )
}

impl Store for SqliteStore {
    fn create(&mut self, m: &StoredMatch) -> Result<(), StoreError> {
        ctx(
            "saving a new match",
            self.conn.execute(
                "INSERT INTO matches (id, game, mode, ai, seats, start, created) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    m.id,
                    m.game,
                    m.mode,
                    m.ai,
                    m.seats.join(","),
                    m.start,
                    m.created
                ],
            ),
        )?;
        Ok(())
    }

    fn add_move(
        &mut self,
        id: &str,
        ply: usize,
        text: &str,
        result: Option<&StoredResult>,
    ) -> Result<(), StoreError> {
        self.transaction("saving a move", |tx| {
            tx.execute(
                "INSERT INTO moves (match_id, ply, text) VALUES (?1, ?2, ?3)",
                params![id, ply as i64, text],
            )?;
            write_result(tx, id, result)
        })?;
        Ok(())
    }

    fn take_back(
        &mut self,
        id: &str,
        ply: usize,
        result: Option<&StoredResult>,
    ) -> Result<(), StoreError> {
        self.transaction("taking moves back", |tx| {
            tx.execute(
                "DELETE FROM moves WHERE match_id = ?1 AND ply >= ?2",
                params![id, ply as i64],
            )?;
            write_result(tx, id, result)
        })?;
        Ok(())
    }

    fn set_result(&mut self, id: &str, result: Option<&StoredResult>) -> Result<(), StoreError> {
        ctx("saving a result", write_result(&self.conn, id, result))?;
        Ok(())
    }

    fn get(&self, id: &str) -> Result<Option<StoredMatch>, StoreError> {
        ctx(
            "reading a match",
            self.conn
                .query_row(
                    &format!("{SELECT} WHERE id = ?1"),
                    params![id],
                    row_to_match,
                )
                .optional(),
        )
    }

    fn moves(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let mut stmt = ctx(
            "reading moves",
            self.conn
                .prepare("SELECT text FROM moves WHERE match_id = ?1 ORDER BY ply"),
        )?;
        let rows = ctx(
            "reading moves",
            stmt.query_map(params![id], |r| r.get::<_, String>(0)),
        )?;
        ctx("reading moves", rows.collect())
    }

    fn list(&self) -> Result<Vec<StoredMatch>, StoreError> {
        let mut stmt = ctx(
            "listing matches",
            self.conn.prepare(&format!(
                "{SELECT} ORDER BY created DESC, rowid DESC LIMIT 200"
            )),
        )?;
        let rows = ctx("listing matches", stmt.query_map([], row_to_match))?;
        ctx("listing matches", rows.collect())
    }
}

/// The columns [`row_to_match`] reads.
const SELECT: &str = "SELECT id, game, mode, ai, seats, result, winner, reason, created, start, \
     (SELECT COUNT(*) FROM moves WHERE match_id = matches.id) FROM matches";

fn row_to_match(r: &rusqlite::Row) -> rusqlite::Result<StoredMatch> {
    let seats: String = r.get(4)?;
    let score: Option<String> = r.get(5)?;
    let winner: Option<i64> = r.get(6)?;
    let reason: Option<String> = r.get(7)?;
    let plies: i64 = r.get(10)?;
    Ok(StoredMatch {
        id: r.get(0)?,
        game: r.get(1)?,
        mode: r.get(2)?,
        ai: r.get(3)?,
        seats: seats.split(',').map(str::to_string).collect(),
        start: r.get(9)?,
        result: score.map(|score| StoredResult {
            score,
            winner: winner.and_then(|w| usize::try_from(w).ok()),
            reason: reason.unwrap_or_default(),
        }),
        created: r.get(8)?,
        plies: usize::try_from(plies).unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_and_moves_round_trip() {
        let mut s = SqliteStore::in_memory().unwrap();
        let m = StoredMatch {
            id: "m1".into(),
            game: "chess".into(),
            mode: "ai".into(),
            ai: Some("ab:1s".into()),
            seats: vec!["tok".into(), String::new()],
            start: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
            result: None,
            created: 5,
            plies: 0,
        };
        s.create(&m).unwrap();
        s.add_move("m1", 0, "e2e4", None).unwrap();
        s.add_move("m1", 1, "e7e5", None).unwrap();
        assert_eq!(s.moves("m1").unwrap(), vec!["e2e4", "e7e5"]);
        s.take_back("m1", 1, None).unwrap();
        // A move at a ply already taken is refused, and nothing changes.
        assert!(s.add_move("m1", 0, "d2d4", None).is_err());
        assert_eq!(s.moves("m1").unwrap(), vec!["e2e4"]);
        assert_eq!(s.moves("m1").unwrap(), vec!["e2e4"]);
        let result = StoredResult {
            score: "1-0".into(),
            winner: Some(0),
            reason: "Black resigned".into(),
        };
        s.set_result("m1", Some(&result)).unwrap();
        let got = s.get("m1").unwrap().unwrap();
        assert_eq!(got.result, Some(result));
        assert_eq!(got.plies, 1);
        assert_eq!(got.seats, m.seats);
        assert!(s.get("nope").unwrap().is_none());
        assert_eq!(s.list().unwrap().len(), 1);
    }
}
