//! Draughts perft against the published counts in
//! `tests/data/draughts-perft.tsv` (copied from the project's shared test
//! data, with sources). The `duplicate_captures` column says how the source
//! counts two capture paths with the same start, end and captured pieces:
//! `drop` counts them once (dagaz's default), `keep` counts each path.
//!
//! `cargo test` runs the rows of at most 1.1 million nodes, making every
//! move; the ignored test runs larger rows up to `DAGAZ_PERFT_MAX` nodes
//! (default 30 million), counting the last ply's moves without making
//! them.

use dagaz::load::load_game;
use dagaz::movegen::{Generator, perft_bulk_with, perft_with};

struct Row {
    variant: String,
    position: String,
    depth: u32,
    nodes: u128,
    keep: bool,
}

fn rows() -> Vec<Row> {
    include_str!("../data/draughts-perft.tsv")
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert!(
                f.len() >= 7 && !f[6].is_empty(),
                "row without a source: {line}"
            );
            Row {
                variant: f[0].to_string(),
                position: f[2].to_string(),
                depth: f[3].parse().unwrap(),
                nodes: f[4].parse().unwrap(),
                keep: f[5] == "keep",
            }
        })
        .collect()
}

fn game_name(variant: &str) -> &'static str {
    match variant {
        "checkers-english" => "checkers",
        "russian" => "russian-draughts",
        "international" => "international-draughts",
        "brazilian" => "brazilian-draughts",
        "canadian" => "canadian-draughts",
        "pool" => "pool-checkers",
        "czech" => "czech-draughts",
        "spanish" => "spanish-draughts",
        "italian" => "italian-draughts",
        "thai" => "thai-draughts",
        "killer" => "international-draughts:killer",
        "frisian" => "frisian-draughts",
        other => panic!("no game for variant {other}"),
    }
}

/// The position of a row in the game's numbering. dctl numbers every
/// board from the top left; Spanish draughts numbers from White's lower
/// right (`names = "numbers-from-bottom"`), so dctl's square n is 33 − n.
fn position_text(variant: &str, position: &str) -> String {
    if variant != "spanish" {
        return position.to_string();
    }
    let renumber = |item: &str| {
        let (king, number) = item.split_at(item.starts_with('K') as usize);
        let n: u32 = number.parse().expect("a square number");
        format!("{king}{}", 33 - n)
    };
    position
        .split(':')
        .map(|field| match field.split_at(1) {
            (colour @ ("W" | "B"), list) if field.len() > 1 => {
                let items: Vec<String> = list.split(',').map(renumber).collect();
                format!("{colour}{}", items.join(","))
            }
            _ => field.to_string(),
        })
        .collect::<Vec<_>>()
        .join(":")
}

/// Counts one row and compares it with the published count; `bulk`
/// counts the last ply without making its moves.
fn check_row(row: &Row, bulk: bool) {
    let game = load_game(game_name(&row.variant)).unwrap();
    let mut pos = match row.position.as_str() {
        "initial" => game.initial_position(),
        fen => game
            .parse_position(&position_text(&row.variant, fen))
            .unwrap(),
    };
    let mut generator = Generator::new();
    generator.keep_distinct_paths(row.keep);
    let perft = if bulk { perft_bulk_with } else { perft_with };
    let got = perft(&game, &mut pos, row.depth, &mut generator).unwrap();
    let convention = if row.keep { "keep" } else { "drop" };
    assert_eq!(
        got as u128, row.nodes,
        "{} depth {} ({convention})",
        row.variant, row.depth
    );
}

/// Checks the rows of more than `min` and at most `max` nodes, shared out
/// over the machine's threads; returns how many.
fn check(min: u128, max: u128, bulk: bool) -> usize {
    let mut rows: Vec<Row> = rows()
        .into_iter()
        .filter(|r| r.nodes > min && r.nodes <= max)
        .collect();
    // The largest first, each thread taking the next row left.
    rows.sort_by_key(|r| std::cmp::Reverse(r.nodes));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                while let Some(row) =
                    rows.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                {
                    check_row(row, bulk);
                }
            });
        }
    });
    rows.len()
}

#[test]
fn published_counts_up_to_a_million_nodes() {
    assert_eq!(check(0, 1_100_000, false), 176);
}

#[test]
#[ignore = "long: .ci/run runs it with --include-ignored"]
fn published_counts_larger() {
    let max = std::env::var("DAGAZ_PERFT_MAX")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30_000_000u128);
    let checked = check(1_100_000, max, true);
    eprintln!("checked {checked} larger rows");
}

#[test]
fn both_conventions_are_in_the_data() {
    let rows = rows();
    assert!(rows.iter().any(|r| r.keep) && rows.iter().any(|r| !r.keep));
    assert_eq!(rows.len(), 303);
}
