//! The store contract, checked on both stores: SQLite in memory, and a new
//! database on the PostgreSQL server of `DAGAZ_TEST_POSTGRES`
//! (`#[ignore]`d: `scripts/with-postgres.sh` starts one, `.ci/run` uses it).

use std::time::Duration;

use dagaz_server::store::{
    self, Action, PostgresStore, SCHEMA_VERSION, Save, SaveError, SqliteStore, Store, StoredMatch,
    StoredResult,
};

fn new_match(id: &str) -> StoredMatch {
    StoredMatch {
        id: id.into(),
        game: "chess".into(),
        mode: "ai".into(),
        ai: Some("ab:1s".into()),
        seats: vec!["tok".into(), String::new()],
        start: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
        result: None,
        created: 5,
        plies: 0,
        version: 0,
    }
}

fn play<'a>(id: &'a str, version: u64, ply: usize, text: &'a str) -> Save<'a> {
    Save {
        id,
        version,
        action: Action::Move { ply, text },
        result: None,
        computer_next: false,
    }
}

/// A new, empty PostgreSQL database; its URL.
async fn new_postgres_database() -> String {
    let url = std::env::var("DAGAZ_TEST_POSTGRES")
        .expect("DAGAZ_TEST_POSTGRES names no PostgreSQL server: use scripts/with-postgres.sh");
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let name = format!("store_{}", rand::random::<u64>());
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .unwrap();
    let (base, _) = url.rsplit_once('/').unwrap();
    format!("{base}/{name}")
}

async fn matches_moves_and_versions(s: &dyn Store) {
    let m = new_match("m1");
    s.create(&m, &[], false).await.unwrap();
    s.save(&play("m1", 0, 0, "e2e4")).await.unwrap();
    s.save(&play("m1", 1, 1, "e7e5")).await.unwrap();
    assert_eq!(s.moves("m1").await.unwrap(), vec!["e2e4", "e7e5"]);
    let back = Save {
        action: Action::TakeBack { ply: 1 },
        ..play("m1", 2, 0, "")
    };
    s.save(&back).await.unwrap();
    // A change computed at an old version is refused, and nothing changes.
    assert!(matches!(
        s.save(&play("m1", 2, 1, "d7d5")).await,
        Err(SaveError::Conflict)
    ));
    assert_eq!(s.moves("m1").await.unwrap(), vec!["e2e4"]);
    let result = StoredResult {
        score: "1-0".into(),
        winner: Some(0),
        reason: "Black resigned".into(),
    };
    let resign = Save {
        action: Action::Result,
        result: Some(&result),
        ..play("m1", 3, 0, "")
    };
    s.save(&resign).await.unwrap();
    let got = s.get("m1").await.unwrap().unwrap();
    assert_eq!(got.result, Some(result));
    assert_eq!((got.plies, got.version), (1, 4));
    assert_eq!(got.seats, vec!["tok".to_string(), String::new()]);
    assert!(s.get("nope").await.unwrap().is_none());
    assert_eq!(s.list().await.unwrap().len(), 1);
    // A match that does not exist cannot change.
    assert!(matches!(
        s.save(&play("nope", 0, 0, "e2e4")).await,
        Err(SaveError::Conflict)
    ));
}

async fn jobs_are_claimed_once_and_taken_over(s: &dyn Store, one_server: bool) {
    s.create(&new_match("m1"), &[], true).await.unwrap();
    let long = Duration::from_secs(60);
    assert!(s.claim_job("m1", 0, "a", long).await.unwrap());
    // On SQLite every job is the one server's; on PostgreSQL it is the
    // claiming server's until its lease runs out.
    assert_eq!(s.claim_job("m1", 0, "b", long).await.unwrap(), one_server);
    assert!(!s.claim_job("m1", 1, "a", long).await.unwrap());
    let none = s
        .claim_open_jobs("b", long, Duration::ZERO, 5)
        .await
        .unwrap();
    assert!(none.is_empty());
    // A lease that has run out: the job is anybody's.
    assert!(s.claim_job("m1", 0, "a", Duration::ZERO).await.unwrap());
    tokio::time::sleep(Duration::from_millis(5)).await;
    let taken = s
        .claim_open_jobs("b", long, Duration::ZERO, 5)
        .await
        .unwrap();
    assert_eq!(taken, vec![("m1".to_string(), 0)]);
    assert_eq!(s.claim_job("m1", 0, "a", long).await.unwrap(), one_server);
    // The computer's move is saved: no job is left.
    s.save(&play("m1", 0, 0, "e2e4")).await.unwrap();
    assert!(!s.claim_job("m1", 0, "b", long).await.unwrap());
    assert!(!s.claim_job("m1", 1, "b", long).await.unwrap());
    // A job nobody claimed is open once it has waited.
    s.create(&new_match("m2"), &[], true).await.unwrap();
    assert!(
        s.claim_open_jobs("c", long, long, 5)
            .await
            .unwrap()
            .is_empty()
    );
    tokio::time::sleep(Duration::from_millis(5)).await;
    let open = s
        .claim_open_jobs("c", long, Duration::from_millis(1), 5)
        .await
        .unwrap();
    assert_eq!(open, vec![("m2".to_string(), 0)]);
}

#[tokio::test]
async fn sqlite_matches_moves_and_versions() {
    matches_moves_and_versions(&SqliteStore::in_memory().unwrap()).await;
}

#[tokio::test]
async fn sqlite_jobs_are_claimed_once_and_taken_over() {
    jobs_are_claimed_once_and_taken_over(&SqliteStore::in_memory().unwrap(), true).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL: scripts/with-postgres.sh cargo test -- --include-ignored"]
async fn postgres_matches_moves_and_versions() {
    let url = new_postgres_database().await;
    matches_moves_and_versions(&*store::open(&url).await.unwrap()).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL: scripts/with-postgres.sh cargo test -- --include-ignored"]
async fn postgres_jobs_are_claimed_once_and_taken_over() {
    let url = new_postgres_database().await;
    jobs_are_claimed_once_and_taken_over(&PostgresStore::connect(&url).await.unwrap(), false).await;
}

/// Servers starting together on a new database: one migrates, the others
/// wait and find the tables made; a database newer than the program is
/// refused; two servers saving at one version: one wins.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs PostgreSQL: scripts/with-postgres.sh cargo test -- --include-ignored"]
async fn postgres_servers_share_one_database() {
    let url = new_postgres_database().await;
    let opened = futures_util::future::join_all((0..3).map(|_| PostgresStore::connect(&url))).await;
    let stores: Vec<PostgresStore> = opened.into_iter().map(Result::unwrap).collect();
    stores[0].create(&new_match("m"), &[], false).await.unwrap();
    for round in 0..20u64 {
        let text = format!("move{round}");
        let saves: Vec<Save> = (0..3)
            .map(|_| play("m", round, round as usize, &text))
            .collect();
        let outcomes =
            futures_util::future::join_all(stores.iter().zip(&saves).map(|(s, save)| s.save(save)))
                .await;
        let won = outcomes.iter().filter(|r| r.is_ok()).count();
        let lost = outcomes
            .iter()
            .filter(|r| matches!(r, Err(SaveError::Conflict)))
            .count();
        assert_eq!((won, lost), (1, 2), "round {round}: {outcomes:?}");
    }
    assert_eq!(stores[2].moves("m").await.unwrap().len(), 20);

    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    client
        .execute(
            "UPDATE dagaz_schema SET version = $1",
            &[&(SCHEMA_VERSION + 1)],
        )
        .await
        .unwrap();
    let err = PostgresStore::connect(&url)
        .await
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("newer than this dagaz knows"), "{err}");
}
