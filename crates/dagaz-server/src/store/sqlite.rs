//! The SQLite store: one file, one server. Calls run on the caller's
//! thread (a local file answers in microseconds), one at a time.

use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, Transaction, params};

use super::{
    Action, MATCH_COLUMNS, MIGRATIONS, MatchRow, SCHEMA_VERSION, Save, SaveError, Store,
    StoreError, StoredMatch, join_seats, millis, too_new,
};

/// The SQLite store.
pub struct SqliteStore {
    conn: Mutex<Connection>,
    describe: String,
}

fn ctx<T>(doing: &'static str, r: rusqlite::Result<T>) -> Result<T, StoreError> {
    r.map_err(|e| StoreError::new(doing, e))
}

impl SqliteStore {
    /// Opens (or creates) the database file.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let conn = ctx("opening the database", Connection::open(path))?;
        Self::init(conn, format!("SQLite file {}", path.display()))
    }

    /// A database in memory (for tests).
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        let conn = ctx("opening the database", Connection::open_in_memory())?;
        Self::init(conn, "SQLite in memory".into())
    }

    fn init(mut conn: Connection, describe: String) -> Result<SqliteStore, StoreError> {
        let version: i64 = ctx(
            "reading the database version",
            conn.query_row("PRAGMA user_version", [], |r| r.get(0)),
        )?;
        if version > SCHEMA_VERSION {
            return Err(too_new(version));
        }
        ctx(
            "opening the database",
            conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON;"),
        )?;
        for m in MIGRATIONS.iter().filter(|m| m.version > version) {
            let tx = ctx("migrating the database", conn.transaction())?;
            ctx("migrating the database", tx.execute_batch(m.sql))?;
            ctx(
                "migrating the database",
                tx.execute_batch(&format!("PRAGMA user_version = {}", m.version)),
            )?;
            ctx("migrating the database", tx.commit())?;
        }
        Ok(SqliteStore {
            conn: Mutex::new(conn),
            describe,
        })
    }

    /// The connection, even if a thread panicked holding it (every write
    /// is one transaction, so the file is consistent).
    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Milliseconds since 1970, the clock of leases.
fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, millis)
}

impl MatchRow for rusqlite::Row<'_> {
    type Error = rusqlite::Error;
    fn text(&self, i: usize) -> rusqlite::Result<String> {
        self.get(i)
    }
    fn opt_text(&self, i: usize) -> rusqlite::Result<Option<String>> {
        self.get(i)
    }
    fn int(&self, i: usize) -> rusqlite::Result<i64> {
        self.get(i)
    }
    fn opt_int(&self, i: usize) -> rusqlite::Result<Option<i64>> {
        self.get(i)
    }
}

/// The body of [`Store::save`], in its transaction: `Ok(false)` on a
/// version conflict.
fn save_in(tx: &Transaction, s: &Save) -> rusqlite::Result<bool> {
    let updated = tx.execute(
        "UPDATE matches SET version = version + 1, result = ?3, winner = ?4, reason = ?5 \
         WHERE id = ?1 AND version = ?2",
        params![
            s.id,
            s.version as i64,
            s.result.map(|r| r.score.as_str()),
            s.result.and_then(|r| r.winner).map(|w| w as i64),
            s.result.map(|r| r.reason.as_str())
        ],
    )?;
    if updated == 0 {
        return Ok(false);
    }
    match s.action {
        Action::Move { ply, text } => {
            tx.execute(
                "INSERT INTO moves (match_id, ply, text) VALUES (?1, ?2, ?3)",
                params![s.id, ply as i64, text],
            )?;
        }
        Action::TakeBack { ply } => {
            tx.execute(
                "DELETE FROM moves WHERE match_id = ?1 AND ply >= ?2",
                params![s.id, ply as i64],
            )?;
        }
        Action::Result => {}
    }
    queue_job(tx, s.id, s.version + 1, s.computer_next)?;
    Ok(true)
}

/// Queues the computer's move of match `id` at `version`, or forgets the
/// match's job when the computer is not to move.
fn queue_job(
    conn: &Connection,
    id: &str,
    version: u64,
    computer_next: bool,
) -> rusqlite::Result<()> {
    if computer_next {
        conn.execute(
            "INSERT INTO think_jobs (match_id, version, owner, lease_until, queued) \
             VALUES (?1, ?2, NULL, NULL, ?3) \
             ON CONFLICT (match_id) DO UPDATE SET version = excluded.version, \
             owner = NULL, lease_until = NULL, queued = excluded.queued",
            params![id, version as i64, now_ms()],
        )?;
    } else {
        conn.execute("DELETE FROM think_jobs WHERE match_id = ?1", params![id])?;
    }
    Ok(())
}

#[async_trait]
impl Store for SqliteStore {
    async fn create(
        &self,
        m: &StoredMatch,
        moves: &[String],
        computer_next: bool,
    ) -> Result<(), StoreError> {
        let doing = "saving a new match";
        let mut conn = self.conn();
        let tx = ctx(doing, conn.transaction())?;
        let r = m.result.as_ref();
        ctx(
            doing,
            tx.execute(
                "INSERT INTO matches \
                 (id, game, mode, ai, seats, start, created, version, result, winner, reason) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, ?8, ?9, ?10)",
                params![
                    m.id,
                    m.game,
                    m.mode,
                    m.ai,
                    join_seats(&m.seats),
                    m.start,
                    m.created,
                    r.map(|r| r.score.as_str()),
                    r.and_then(|r| r.winner).map(|w| w as i64),
                    r.map(|r| r.reason.as_str())
                ],
            ),
        )?;
        for (ply, text) in moves.iter().enumerate() {
            ctx(
                doing,
                tx.execute(
                    "INSERT INTO moves (match_id, ply, text) VALUES (?1, ?2, ?3)",
                    params![m.id, ply as i64, text],
                ),
            )?;
        }
        ctx(doing, queue_job(&tx, &m.id, 0, computer_next))?;
        ctx(doing, tx.commit())
    }

    async fn save(&self, s: &Save<'_>) -> Result<(), SaveError> {
        let doing = "saving a change";
        let mut conn = self.conn();
        let tx = ctx(doing, conn.transaction())?;
        if !ctx(doing, save_in(&tx, s))? {
            return Err(SaveError::Conflict);
        }
        ctx(doing, tx.commit())?;
        Ok(())
    }

    async fn get(&self, id: &str) -> Result<Option<StoredMatch>, StoreError> {
        ctx(
            "reading a match",
            self.conn()
                .query_row(
                    &format!("SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?1"),
                    params![id],
                    |r| r.stored_match(),
                )
                .optional(),
        )
    }

    async fn moves(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let doing = "reading moves";
        let conn = self.conn();
        let mut stmt = ctx(
            doing,
            conn.prepare("SELECT text FROM moves WHERE match_id = ?1 ORDER BY ply"),
        )?;
        let rows = ctx(
            doing,
            stmt.query_map(params![id], |r| r.get::<_, String>(0)),
        )?;
        ctx(doing, rows.collect())
    }

    async fn list(&self) -> Result<Vec<StoredMatch>, StoreError> {
        let doing = "listing matches";
        let conn = self.conn();
        let mut stmt = ctx(
            doing,
            conn.prepare(&format!(
                "SELECT {MATCH_COLUMNS} FROM matches ORDER BY created DESC, rowid DESC LIMIT 200"
            )),
        )?;
        let rows = ctx(doing, stmt.query_map([], |r| r.stored_match()))?;
        ctx(doing, rows.collect())
    }

    async fn claim_job(
        &self,
        id: &str,
        version: u64,
        owner: &str,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        // One server per file: every job is this server's, also one an
        // earlier run of it claimed before it was killed.
        let claimed = ctx(
            "claiming the computer's move",
            self.conn().execute(
                "UPDATE think_jobs SET owner = ?3, lease_until = ?4 + ?5 \
                 WHERE match_id = ?1 AND version = ?2",
                params![id, version as i64, owner, now_ms(), millis(lease)],
            ),
        )?;
        Ok(claimed == 1)
    }

    async fn claim_open_jobs(
        &self,
        owner: &str,
        lease: Duration,
        waited: Duration,
        limit: usize,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        let doing = "looking for the computer's moves to make";
        let now = now_ms();
        let conn = self.conn();
        let mut stmt = ctx(
            doing,
            conn.prepare(
                "UPDATE think_jobs SET owner = ?1, lease_until = ?2 + ?3 \
                 WHERE match_id IN (SELECT match_id FROM think_jobs \
                     WHERE (owner IS NULL AND queued < ?2 - ?4) OR lease_until < ?2 \
                     ORDER BY queued LIMIT ?5) \
                 RETURNING match_id, version",
            ),
        )?;
        let rows = ctx(
            doing,
            stmt.query_map(
                params![owner, now, millis(lease), millis(waited), limit as i64],
                |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)),
            ),
        )?;
        let jobs: Vec<(String, i64)> = ctx(doing, rows.collect())?;
        Ok(jobs
            .into_iter()
            .map(|(id, v)| (id, u64::try_from(v).unwrap_or(0)))
            .collect())
    }

    fn describe(&self) -> String {
        self.describe.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play<'a>(id: &'a str, version: u64, ply: usize, text: &'a str) -> Save<'a> {
        Save {
            id,
            version,
            action: Action::Move { ply, text },
            result: None,
            computer_next: false,
        }
    }

    #[test]
    fn a_database_newer_than_the_program_is_refused() {
        let dir = std::env::temp_dir().join(format!("dagaz-newer-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("new.db");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(&format!("PRAGMA user_version = {}", SCHEMA_VERSION + 1))
            .unwrap();
        drop(conn);
        let err = SqliteStore::open(&path).err().unwrap().to_string();
        assert!(err.contains("newer than this dagaz knows"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[tokio::test]
    async fn a_database_of_the_first_format_is_migrated() {
        let dir = std::env::temp_dir().join(format!("dagaz-old-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("old.db");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(MIGRATIONS[0].sql).unwrap();
        conn.execute_batch(
            "INSERT INTO matches (id, game, mode, seats, created) VALUES ('m', 'chess', 'local', 't,t', 1);
             INSERT INTO moves VALUES ('m', 0, 'e2e4');
             PRAGMA user_version = 1;",
        )
        .unwrap();
        drop(conn);
        let s = SqliteStore::open(&path).unwrap();
        let m = s.get("m").await.unwrap().unwrap();
        assert_eq!((m.plies, m.version), (1, 0));
        s.save(&play("m", 0, 1, "e7e5")).await.unwrap();
        assert_eq!(s.moves("m").await.unwrap(), vec!["e2e4", "e7e5"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
