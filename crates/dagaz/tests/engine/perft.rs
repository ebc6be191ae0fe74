//! Chess perft against the published counts in `tests/data/chess-perft.tsv`
//! (copied from the project's shared test data, with its source column).
//!
//! `cargo test` runs every row of at most 5 million nodes. The ignored test
//! runs the larger rows up to `DAGAZ_PERFT_MAX` nodes (default 100 million).

use dagaz::load::load_game;
use dagaz::movegen::perft;
use dagaz::text::fen;

struct Row {
    name: String,
    fen: String,
    depth: u32,
    nodes: u128,
}

fn rows() -> Vec<Row> {
    let text = include_str!("../data/chess-perft.tsv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert!(f.len() >= 5, "malformed row: {line}");
            assert!(f[4].starts_with("http"), "row without a source: {line}");
            Row {
                name: f[0].to_string(),
                fen: f[1].to_string(),
                depth: f[2].parse().unwrap(),
                nodes: f[3].parse().unwrap(),
            }
        })
        .collect()
}

fn check(min: u128, max: u128) -> usize {
    let game = load_game("chess").unwrap();
    let setup = game.initial_position();
    let mut checked = 0;
    for row in rows().iter().filter(|r| r.nodes > min && r.nodes <= max) {
        let mut pos = fen::parse(&game, &row.fen, Some(&setup)).unwrap();
        let got = perft(&game, &mut pos, row.depth).unwrap();
        assert_eq!(got as u128, row.nodes, "{} depth {}", row.name, row.depth);
        checked += 1;
    }
    checked
}

#[test]
fn published_counts_up_to_five_million_nodes() {
    let checked = check(0, 5_000_000);
    assert_eq!(checked, 30, "rows within the budget");
}

#[test]
#[ignore = "long: .ci/run runs it with --include-ignored"]
fn published_counts_larger() {
    let max = std::env::var("DAGAZ_PERFT_MAX")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000_000u128);
    let checked = check(5_000_000, max);
    eprintln!("checked {checked} larger rows");
}

#[test]
fn the_data_file_is_intact() {
    let rows = rows();
    assert_eq!(rows.len(), 55);
    assert!(
        rows.iter()
            .any(|r| r.name == "position2-kiwipete" && r.depth == 6 && r.nodes == 8_031_647_685)
    );
}
