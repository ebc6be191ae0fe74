//! Saved games: every match and every move goes into an SQLite database as
//! it happens, so a restarted server finds every match again.

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

/// The database.
pub struct Store {
    conn: Connection,
}

/// A database problem, with what was being done.
#[derive(Debug, thiserror::Error)]
#[error("database error while {doing}: {source}")]
pub struct StoreError {
    doing: &'static str,
    #[source]
    source: rusqlite::Error,
}

fn ctx<T>(doing: &'static str, r: rusqlite::Result<T>) -> Result<T, StoreError> {
    r.map_err(|source| StoreError { doing, source })
}

impl Store {
    /// Opens (or creates) the database file.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let conn = ctx("opening the database", Connection::open(path))?;
        Self::init(conn)
    }

    /// A database in memory (for tests).
    pub fn in_memory() -> Result<Store, StoreError> {
        Self::init(ctx("opening the database", Connection::open_in_memory())?)
    }

    fn init(conn: Connection) -> Result<Store, StoreError> {
        let version: i64 = ctx(
            "reading the database version",
            conn.query_row("PRAGMA user_version", [], |r| r.get(0)),
        )?;
        if version > SCHEMA_VERSION {
            return Err(StoreError {
                doing: "opening the database",
                source: rusqlite::Error::InvalidParameterName(format!(
                    "the database has format {version}, newer than this dagaz knows ({SCHEMA_VERSION})"
                )),
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
        Ok(Store { conn })
    }

    pub fn create(&self, m: &StoredMatch) -> Result<(), StoreError> {
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

    pub fn add_move(&self, id: &str, ply: usize, text: &str) -> Result<(), StoreError> {
        ctx(
            "saving a move",
            self.conn.execute(
                "INSERT INTO moves (match_id, ply, text) VALUES (?1, ?2, ?3)",
                params![id, ply as i64, text],
            ),
        )?;
        Ok(())
    }

    /// Forgets the moves from `ply` on (undo).
    pub fn truncate(&self, id: &str, ply: usize) -> Result<(), StoreError> {
        ctx(
            "taking moves back",
            self.conn.execute(
                "DELETE FROM moves WHERE match_id = ?1 AND ply >= ?2",
                params![id, ply as i64],
            ),
        )?;
        Ok(())
    }

    /// Records how the match ended (`None`: it is not over, after an undo).
    pub fn set_result(&self, id: &str, result: Option<&StoredResult>) -> Result<(), StoreError> {
        ctx(
            "saving a result",
            self.conn.execute(
                "UPDATE matches SET result = ?2, winner = ?3, reason = ?4 WHERE id = ?1",
                params![
                    id,
                    result.map(|r| r.score.as_str()),
                    result.and_then(|r| r.winner).map(|w| w as i64),
                    result.map(|r| r.reason.as_str())
                ],
            ),
        )?;
        Ok(())
    }

    pub fn get(&self, id: &str) -> Result<Option<StoredMatch>, StoreError> {
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

    pub fn moves(&self, id: &str) -> Result<Vec<String>, StoreError> {
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

    /// All matches, newest first.
    pub fn list(&self) -> Result<Vec<StoredMatch>, StoreError> {
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
        let s = Store::in_memory().unwrap();
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
        s.add_move("m1", 0, "e2e4").unwrap();
        s.add_move("m1", 1, "e7e5").unwrap();
        assert_eq!(s.moves("m1").unwrap(), vec!["e2e4", "e7e5"]);
        s.truncate("m1", 1).unwrap();
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
