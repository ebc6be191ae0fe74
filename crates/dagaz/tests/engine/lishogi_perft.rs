//! Shogi games against lishogi's perft counts (`tests/data/lishogi/`,
//! copied from the tests of lishogi's rules libraries, with sources):
//! hundreds of positions of shogi, minishogi, chu, Annan, Kyoto and
//! Dobutsu shogi at depth 1, the
//! start positions deeper, and rule positions.
//!
//! Kyoto and Dobutsu shogi are read in lishogi's form by their `lishogi`
//! variants (the Fairy-Stockfish games name squares and pieces otherwise).

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
        "annanshogi" => Some("shogi:annan"),
        "checkshogi" => Some("shogi:check"),
        "kyotoshogi" => Some("kyotoshogi:lishogi"),
        "dobutsu" => Some("dobutsu:lishogi"),
        _ => None,
    }
}

/// Checks the rows of the variants dagaz reads, up to `max` nodes; returns
/// how many it checked and the positions it refused (rule positions
/// without a King, which dagaz's shogi does not accept).
fn check(rows: &[Row], max: u64) -> (usize, Vec<String>) {
    let mut checked = 0;
    let mut refused = Vec::new();
    for row in rows.iter().filter(|r| r.nodes <= max) {
        let Some(name) = game_name(&row.variant) else {
            continue;
        };
        let game = load_game(name).unwrap();
        let parsed = match row.sfen.as_str() {
            "startpos" => Ok(game.initial_position()),
            sfen => game.parse_position(sfen),
        };
        let Ok(mut pos) = parsed else {
            refused.push(row.sfen.clone());
            continue;
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
    (checked, refused)
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
        (
            "annanshogi",
            include_str!("../data/lishogi/annanshogi-d1.tsv"),
        ),
        (
            "kyotoshogi",
            include_str!("../data/lishogi/kyotoshogi-d1.tsv"),
        ),
        ("dobutsu", include_str!("../data/lishogi/dobutsu-d1.tsv")),
    ];
    for (variant, text) in data {
        let rows = rows(text, variant);
        assert_eq!(check(&rows, u64::MAX), (rows.len(), vec![]), "{variant}");
        // dagaz writes each position back as lishogi wrote it.
        let game = load_game(game_name(variant).unwrap()).unwrap();
        for row in &rows {
            let pos = game.parse_position(&row.sfen).unwrap();
            assert_eq!(game.write_position(&pos), row.sfen, "{variant}");
        }
    }
}

#[test]
fn lishogi_start_and_rule_positions() {
    let rows = rows(include_str!("../data/lishogi/key-positions.tsv"), "");
    let (checked, refused) = check(&rows, 1_000_000);
    assert_eq!(checked, 100);
    // An Annan position without Black's King, which dagaz's shogi refuses.
    assert_eq!(refused, ["4k4/4p4/9/4P4/4L4/4N4/9/9/9 b - 1"]);
}

#[test]
fn annan_pieces_move_as_the_friendly_piece_behind_them() {
    let game = load_game("shogi:annan").unwrap();
    let from =
        |fen: &str, square: &str| -> Vec<String> { crate::common::moves_from(&game, fen, square) };
    // A pawn with its own Rook behind it moves as a Rook (promoting or not
    // in the zone, as a pawn).
    let pawn = from("k8/9/9/9/4P4/4R4/9/9/4K4 b - 1", "5e");
    assert_eq!(pawn.len(), 15, "{pawn:?}");
    assert!(pawn.contains(&"5e5a".to_string()) && pawn.contains(&"5e9e".to_string()));
    // An enemy Rook behind lends nothing.
    assert_eq!(from("4k4/9/9/9/4P4/4r4/9/9/K8 b - 1", "5e"), ["5e5d"]);
    // A Gold in front of its King moves as a King (back diagonally too).
    let gold = from("4k4/9/9/9/9/9/9/4G4/4K4 b - 1", "5h");
    assert!(gold.contains(&"5h4i".to_string()) && gold.contains(&"5h6i".to_string()));
}
