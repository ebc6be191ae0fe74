//! The PostgreSQL store: one database that several servers share. Calls
//! go through a pool of connections; the changes every server saves are
//! announced with `NOTIFY` in the saving transaction (so only committed
//! changes are announced), and each server `LISTEN`s on a connection of
//! its own. Times of the computer's jobs are the database's clock.

use std::time::Duration;

use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Timeouts};
use futures_util::StreamExt;
use tokio::sync::mpsc;
use tokio_postgres::types::ToSql;
use tokio_postgres::{AsyncMessage, NoTls, Row};

use super::{
    Action, MATCH_COLUMNS, MIGRATIONS, MatchRow, Notice, SCHEMA_VERSION, Save, SaveError, Store,
    StoreError, StoredMatch, join_seats, millis, notice_payload, parse_notice, too_new,
};

/// The channel of the changes' notices.
const CHANNEL: &str = "dagaz_changes";
/// The advisory lock that lets one server at a time migrate the schema.
const MIGRATION_LOCK: i64 = 0x0064_6167_617a; // "dagaz"
/// Connections per server.
const POOL_SIZE: usize = 16;
/// The longest a request waits for a free connection.
const POOL_WAIT: Duration = Duration::from_secs(5);
/// Bounds of every statement and open transaction (unless the URL sets
/// `options` of its own).
const STATEMENT_LIMITS: &str =
    "-c statement_timeout=10000 -c idle_in_transaction_session_timeout=10000";
/// The database's clock in milliseconds since 1970.
const NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// The PostgreSQL store.
pub struct PostgresStore {
    pool: Pool,
    url: String,
}

fn ctx<T>(doing: &'static str, r: Result<T, tokio_postgres::Error>) -> Result<T, StoreError> {
    r.map_err(|e| StoreError::new(doing, describe_error(&e)))
}

/// A driver error with the server's own message, when it sent one.
fn describe_error(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{e}: {}", db.message()),
        None => e.to_string(),
    }
}

/// The URL without its password, for messages.
fn redacted(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user_info = &url[scheme + 3..at];
            let user = user_info.split(':').next().unwrap_or("");
            format!("{}{user}@{}", &url[..scheme + 3], &url[at + 1..])
        }
        _ => url.to_string(),
    }
}

impl PostgresStore {
    /// Connects to the database at `url` and migrates it.
    pub async fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        let mut config: tokio_postgres::Config = url
            .parse()
            .map_err(|e| StoreError::new("reading the database URL", e))?;
        // No statement or transaction may hold a match's row for long.
        if config.get_options().is_none() {
            config.options(STATEMENT_LIMITS);
        }
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .timeouts(Timeouts {
                wait: Some(POOL_WAIT),
                create: Some(POOL_WAIT),
                recycle: Some(POOL_WAIT),
            })
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .build()
            .map_err(|e| StoreError::new("connecting to the database", e))?;
        let store = PostgresStore {
            pool,
            url: url.to_string(),
        };
        store.migrate().await?;
        Ok(store)
    }

    async fn client(&self, doing: &'static str) -> Result<deadpool_postgres::Client, StoreError> {
        self.pool.get().await.map_err(|e| {
            let message = match e {
                deadpool_postgres::PoolError::Backend(e) => describe_error(&e),
                other => other.to_string(),
            };
            StoreError::new(doing, message)
        })
    }

    /// Runs one statement on a pooled connection; its rows.
    async fn rows(
        &self,
        doing: &'static str,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<Row>, StoreError> {
        let client = self.client(doing).await?;
        ctx(doing, client.query(sql, params).await)
    }

    /// Applies the migrations this database lacks, one server at a time.
    async fn migrate(&self) -> Result<(), StoreError> {
        let doing = "migrating the database";
        let mut client = self.client("connecting to the database").await?;
        let tx = ctx(doing, client.transaction().await)?;
        ctx(
            doing,
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
                .await,
        )?;
        ctx(
            doing,
            tx.batch_execute("CREATE TABLE IF NOT EXISTS dagaz_schema (version BIGINT NOT NULL)")
                .await,
        )?;
        let found: i64 = ctx(
            doing,
            tx.query_one("SELECT COALESCE(MAX(version), 0) FROM dagaz_schema", &[])
                .await,
        )?
        .get(0);
        if found > SCHEMA_VERSION {
            return Err(too_new(found));
        }
        for m in MIGRATIONS.iter().filter(|m| m.version > found) {
            ctx(doing, tx.batch_execute(m.sql).await)?;
        }
        if found < SCHEMA_VERSION {
            ctx(doing, tx.execute("DELETE FROM dagaz_schema", &[]).await)?;
            ctx(
                doing,
                tx.execute("INSERT INTO dagaz_schema VALUES ($1)", &[&SCHEMA_VERSION])
                    .await,
            )?;
        }
        ctx(doing, tx.commit().await)
    }
}

impl MatchRow for Row {
    type Error = tokio_postgres::Error;
    fn text(&self, i: usize) -> Result<String, Self::Error> {
        self.try_get(i)
    }
    fn opt_text(&self, i: usize) -> Result<Option<String>, Self::Error> {
        self.try_get(i)
    }
    fn int(&self, i: usize) -> Result<i64, Self::Error> {
        self.try_get(i)
    }
    fn opt_int(&self, i: usize) -> Result<Option<i64>, Self::Error> {
        self.try_get(i)
    }
}

/// Queues the computer's move of match `id` at `version`, or forgets the
/// match's job when the computer is not to move.
async fn queue_job(
    tx: &deadpool_postgres::Transaction<'_>,
    id: &str,
    version: u64,
    computer_next: bool,
) -> Result<(), tokio_postgres::Error> {
    if computer_next {
        tx.execute(
            &format!(
                "INSERT INTO think_jobs (match_id, version, owner, lease_until, queued) \
                 VALUES ($1, $2, NULL, NULL, {NOW_MS}) \
                 ON CONFLICT (match_id) DO UPDATE SET version = excluded.version, \
                 owner = NULL, lease_until = NULL, queued = excluded.queued"
            ),
            &[&id, &(version as i64)],
        )
        .await?;
    } else {
        tx.execute("DELETE FROM think_jobs WHERE match_id = $1", &[&id])
            .await?;
    }
    Ok(())
}

/// The body of [`Store::save`], in its transaction: `Ok(false)` on a
/// version conflict.
async fn save_in(
    tx: &deadpool_postgres::Transaction<'_>,
    s: &Save<'_>,
) -> Result<bool, tokio_postgres::Error> {
    let winner = s.result.and_then(|r| r.winner).map(|w| w as i64);
    let updated = tx
        .execute(
            "UPDATE matches SET version = version + 1, result = $3, winner = $4, reason = $5 \
             WHERE id = $1 AND version = $2",
            &[
                &s.id,
                &(s.version as i64),
                &s.result.map(|r| r.score.as_str()),
                &winner,
                &s.result.map(|r| r.reason.as_str()),
            ],
        )
        .await?;
    if updated == 0 {
        return Ok(false);
    }
    match s.action {
        Action::Move { ply, text } => {
            tx.execute(
                "INSERT INTO moves (match_id, ply, text) VALUES ($1, $2, $3)",
                &[&s.id, &(ply as i64), &text],
            )
            .await?;
        }
        Action::TakeBack { ply } => {
            tx.execute(
                "DELETE FROM moves WHERE match_id = $1 AND ply >= $2",
                &[&s.id, &(ply as i64)],
            )
            .await?;
        }
        Action::Result => {}
    }
    queue_job(tx, s.id, s.version + 1, s.computer_next).await?;
    tx.execute(
        "SELECT pg_notify($1, $2)",
        &[&CHANNEL, &notice_payload(s.id, s.version + 1)],
    )
    .await?;
    Ok(true)
}

#[async_trait]
impl Store for PostgresStore {
    async fn create(
        &self,
        m: &StoredMatch,
        moves: &[String],
        computer_next: bool,
    ) -> Result<(), StoreError> {
        let doing = "saving a new match";
        let mut client = self.client(doing).await?;
        let tx = ctx(doing, client.transaction().await)?;
        let r = m.result.as_ref();
        ctx(
            doing,
            tx.execute(
                "INSERT INTO matches \
                 (id, game, mode, ai, seats, start, created, version, result, winner, reason) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $9, $10)",
                &[
                    &m.id,
                    &m.game,
                    &m.mode,
                    &m.ai,
                    &join_seats(&m.seats),
                    &m.start,
                    &m.created,
                    &r.map(|r| r.score.as_str()),
                    &r.and_then(|r| r.winner).map(|w| w as i64),
                    &r.map(|r| r.reason.as_str()),
                ],
            )
            .await,
        )?;
        for (ply, text) in moves.iter().enumerate() {
            ctx(
                doing,
                tx.execute(
                    "INSERT INTO moves (match_id, ply, text) VALUES ($1, $2, $3)",
                    &[&m.id, &(ply as i64), text],
                )
                .await,
            )?;
        }
        ctx(doing, queue_job(&tx, &m.id, 0, computer_next).await)?;
        ctx(doing, tx.commit().await)
    }

    async fn save(&self, s: &Save<'_>) -> Result<(), SaveError> {
        let doing = "saving a change";
        let mut client = self.client(doing).await?;
        let tx = ctx(doing, client.transaction().await)?;
        if !ctx(doing, save_in(&tx, s).await)? {
            return Err(SaveError::Conflict);
        }
        // Two servers saving at one version: the second waits for the
        // first's row lock, then finds the version changed (a conflict).
        ctx(doing, tx.commit().await)?;
        Ok(())
    }

    async fn get(&self, id: &str) -> Result<Option<StoredMatch>, StoreError> {
        let doing = "reading a match";
        let sql = format!("SELECT {MATCH_COLUMNS} FROM matches WHERE id = $1");
        let rows = self.rows(doing, &sql, &[&id]).await?;
        rows.first()
            .map(|r| ctx(doing, r.stored_match()))
            .transpose()
    }

    async fn moves(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let doing = "reading moves";
        let sql = "SELECT text FROM moves WHERE match_id = $1 ORDER BY ply";
        let rows = self.rows(doing, sql, &[&id]).await?;
        rows.iter().map(|r| ctx(doing, r.try_get(0))).collect()
    }

    async fn list(&self) -> Result<Vec<StoredMatch>, StoreError> {
        let doing = "listing matches";
        let sql =
            format!("SELECT {MATCH_COLUMNS} FROM matches ORDER BY created DESC, id DESC LIMIT 200");
        let rows = self.rows(doing, &sql, &[]).await?;
        rows.iter().map(|r| ctx(doing, r.stored_match())).collect()
    }

    async fn claim_job(
        &self,
        id: &str,
        version: u64,
        owner: &str,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        let doing = "claiming the computer's move";
        let client = self.client(doing).await?;
        let claimed = ctx(
            doing,
            client
                .execute(
                    &format!(
                        "UPDATE think_jobs SET owner = $3, lease_until = {NOW_MS} + $4 \
                         WHERE match_id = $1 AND version = $2 \
                         AND (owner IS NULL OR owner = $3 OR lease_until < {NOW_MS})"
                    ),
                    &[&id, &(version as i64), &owner, &millis(lease)],
                )
                .await,
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
        // A queue: rows another server is claiming right now are skipped,
        // not waited for.
        let sql = format!(
            "UPDATE think_jobs SET owner = $1, lease_until = {NOW_MS} + $2 \
             WHERE match_id IN (SELECT match_id FROM think_jobs \
                 WHERE (owner IS NULL AND queued < {NOW_MS} - $3) \
                    OR lease_until < {NOW_MS} \
                 ORDER BY queued LIMIT $4 FOR UPDATE SKIP LOCKED) \
             RETURNING match_id, version"
        );
        let params: [&(dyn ToSql + Sync); 4] =
            [&owner, &millis(lease), &millis(waited), &(limit as i64)];
        let rows = self.rows(doing, &sql, &params).await?;
        rows.iter()
            .map(|r| {
                let id: String = ctx(doing, r.try_get(0))?;
                let version: i64 = ctx(doing, r.try_get(1))?;
                Ok((id, u64::try_from(version).unwrap_or(0)))
            })
            .collect()
    }

    async fn notices(&self) -> Result<Option<mpsc::Receiver<Notice>>, StoreError> {
        let (tx, rx) = mpsc::channel(1024);
        // The first connection is made here, so that a server that cannot
        // listen does not start.
        let first = listen(&self.url, tx.clone()).await?;
        let url = self.url.clone();
        tokio::spawn(async move {
            first.await;
            // The connection was lost: connect again, then have every
            // match in memory checked (notices may have been missed).
            while !tx.is_closed() {
                tokio::time::sleep(Duration::from_secs(1)).await;
                if let Ok(next) = listen(&url, tx.clone()).await {
                    if tx.send(Notice::Resync).await.is_err() {
                        return;
                    }
                    next.await;
                }
            }
        });
        Ok(Some(rx))
    }

    fn shared(&self) -> bool {
        true
    }

    fn describe(&self) -> String {
        format!("PostgreSQL {}", redacted(&self.url))
    }
}

/// Connects, `LISTEN`s, and returns the future that forwards the notices
/// to `tx` until the connection ends.
async fn listen(
    url: &str,
    tx: mpsc::Sender<Notice>,
) -> Result<impl Future<Output = ()> + use<>, StoreError> {
    let doing = "listening for changes";
    let (client, mut connection) = ctx(doing, tokio_postgres::connect(url, NoTls).await)?;
    let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
    // The connection is driven by this task, which also answers LISTEN.
    let forward = tokio::spawn(async move {
        while let Some(message) = messages.next().await {
            match message {
                Ok(AsyncMessage::Notification(n)) => {
                    if let Some(notice) = parse_notice(n.payload())
                        && tx.send(notice).await.is_err()
                    {
                        break;
                    }
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
    });
    ctx(
        doing,
        client.batch_execute(&format!("LISTEN {CHANNEL}")).await,
    )?;
    Ok(async move {
        // The client must live as long as the connection is listened to.
        let _client = client;
        let _ = forward.await;
    })
}

#[cfg(test)]
mod tests {
    use super::redacted;

    #[test]
    fn passwords_are_not_shown() {
        assert_eq!(
            redacted("postgres://me:secret@db:5432/dagaz"),
            "postgres://me@db:5432/dagaz"
        );
        assert_eq!(redacted("postgres://db/dagaz"), "postgres://db/dagaz");
    }
}
