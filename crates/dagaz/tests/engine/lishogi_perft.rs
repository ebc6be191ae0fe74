//! Shogi games against lishogi's perft counts (`tests/data/lishogi/`,
//! copied from the tests of lishogi's rules libraries, with sources):
//! hundreds of positions of shogi, minishogi and chu shogi at depth 1, the
//! start positions deeper, and rule positions.
//!
//! Not read yet: Kyoto shogi and Dobutsu shogi (dagaz plays them in
//! Fairy-Stockfish's letters and squares, lishogi's SFEN names their
//! pieces otherwise), Annan shogi and Check shogi in lishogi's SFEN.

use dagaz::load::load_game;
use dagaz::movegen::{Generator, perft_with};

struct Row {
    variant: String,
    sfen: String,
    depth: u32,
    nodes: u64,
}

fn rows(text: &str, variant: &str) -> Vec<Row> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let (variant, f) = match variant {
                "" => (f[0].to_string(), &f[1..]),
                v => (v.to_string(), &f[..]),
            };
            Row {
                variant,
                sfen: f[0].to_string(),
                depth: f[1].parse().unwrap(),
                nodes: f[2].parse().unwrap(),
            }
        })
        .collect()
}

/// The dagaz game of a lishogi variant, where dagaz reads its SFEN.
fn game_name(variant: &str) -> Option<&'static str> {
    match variant {
        "standard" => Some("shogi"),
        "minishogi" => Some("minishogi"),
        "chushogi" => Some("chu-shogi"),
        _ => None,
    }
}

/// Checks the rows of the variants dagaz reads, up to `max` nodes; returns
/// how many it checked.
fn check(rows: &[Row], max: u64) -> usize {
    let mut checked = 0;
    for row in rows.iter().filter(|r| r.nodes <= max) {
        let Some(name) = game_name(&row.variant) else {
            continue;
        };
        let game = load_game(name).unwrap();
        let mut pos = match row.sfen.as_str() {
            "startpos" => game.initial_position(),
            sfen => game
                .parse_position(sfen)
                .unwrap_or_else(|e| panic!("{}: {e}", row.sfen)),
        };
        let mut generator = Generator::new();
        generator.keep_distinct_landings(name == "chu-shogi");
        let got = perft_with(&game, &mut pos, row.depth, &mut generator).unwrap();
        assert_eq!(
            got as u64, row.nodes,
            "{} {} depth {}",
            row.variant, row.sfen, row.depth
        );
        checked += 1;
    }
    checked
}

#[test]
fn lishogi_positions_at_depth_one() {
    let data = [
        ("standard", include_str!("../data/lishogi/standard-d1.tsv")),
        (
            "minishogi",
            include_str!("../data/lishogi/minishogi-d1.tsv"),
        ),
        ("chushogi", include_str!("../data/lishogi/chushogi-d1.tsv")),
    ];
    for (variant, text) in data {
        let rows = rows(text, variant);
        assert_eq!(check(&rows, u64::MAX), rows.len(), "{variant}");
    }
}

#[test]
fn lishogi_start_and_rule_positions() {
    let rows = rows(include_str!("../data/lishogi/key-positions.tsv"), "");
    assert_eq!(check(&rows, 1_000_000), 63);
}
