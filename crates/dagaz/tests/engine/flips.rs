//! Games where pieces change sides or appear: Reversi's bracketed lines,
//! Ataxx's clones and conversions, Amazons' arrows; forced passes and the
//! "most pieces" outcome. Perft against published counts and against
//! Fairy-Stockfish (`tests/data/pyffish-perft.tsv`).

use crate::common::{self, v};

use dagaz::game::GameResult;
use dagaz::load::load_game;
use dagaz::movegen::{Generator, perft};

#[test]
fn reversi_perft_with_passes_is_the_published_count() {
    let game = load_game("reversi").unwrap();
    let published = [4u64, 12, 56, 244, 1_396, 8_200, 55_092, 390_216];
    for (d, nodes) in published.iter().enumerate() {
        let got = perft(&game, &mut game.initial_position(), d as u32 + 1).unwrap();
        assert_eq!(got, *nodes, "depth {}", d + 1);
    }
}

#[test]
fn reversi_flips_every_bracketed_line_and_passes_when_it_must() {
    let game = load_game("reversi").unwrap();
    let mut pos = game.initial_position();
    assert_eq!(
        common::moves_in(&game, &mut pos),
        v(&["D*c4", "D*d3", "D*e6", "D*f5"])
    );
    common::play(&game, &mut pos, "D*d3");
    assert_eq!(
        game.write_position(&pos),
        "8/8/8/3Dd3/3DD3/3D4/8/8 w 29D30d 2"
    );
    // White has no disc to bracket with: its only move is a pass, and the
    // game ends after Black passes too, Black having more discs.
    let mut pos = common::position(&game, "8/8/8/8/3D4/8/8/8 w 29D30d 10");
    assert_eq!(common::moves_in(&game, &mut pos), v(&["pass"]));
    common::play(&game, &mut pos, "pass");
    assert_eq!(common::moves_in(&game, &mut pos), v(&["pass"]));
    common::play(&game, &mut pos, "pass");
    match Generator::new().result(&game, &mut pos).unwrap() {
        Some(GameResult::Win { winner: 0, reason }) => {
            assert_eq!(reason, "2 passes in a row; most pieces, 1-0")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn ataxx_grows_jumps_and_converts() {
    let game = load_game("ataxx").unwrap();
    let mut pos = game.initial_position();
    // g1 grows to f2: a copy stays on g1.
    common::play(&game, &mut pos, "g1f2");
    assert_eq!(game.write_position(&pos), "P5p/7/7/7/7/5P1/p5P b - - 1 1");
    // a7 jumps to c5 (the piece leaves a7), then a jump next to White's
    // pieces converts them.
    let mut pos = common::position(&game, "7/7/7/7/4P2/5P1/p6 b - - 0 1");
    common::play(&game, &mut pos, "a1c3");
    assert_eq!(game.write_position(&pos), "7/7/7/7/2p1P2/5P1/7 w - - 1 2");
    let mut pos = common::position(&game, "7/7/7/3P3/7/7/p6 b - - 0 1");
    common::play(&game, &mut pos, "a1c2");
    assert_eq!(game.write_position(&pos), "7/7/7/3P3/7/2p4/7 w - - 1 2");
    let mut pos = common::position(&game, "7/7/7/3P3/7/7/1p5 b - - 0 1");
    common::play(&game, &mut pos, "b1c3");
    assert_eq!(
        game.write_position(&pos),
        "7/7/7/3p3/2p4/7/7 w - - 0 2",
        "d4 converted"
    );
}

#[test]
fn amazons_shoot_an_arrow_after_each_move() {
    let game = load_game("amazons").unwrap();
    let moves = common::moves_in(&game, &mut game.initial_position());
    assert_eq!(moves.len(), 2176);
    // A lone queen in a corner, walled in but for one square: one move
    // there, and the arrow back on the square it left (or on to the end).
    let mut pos = common::position(&game, "9q/10/10/10/10/10/10/10/AA8/Q1A7 w - - 0 1");
    let moves = common::moves_in(&game, &mut pos);
    let arrows = ["a1", "c2", "d3", "e4", "f5", "g6", "h7", "i8", "j9"];
    let expected: Vec<String> = arrows.iter().map(|a| format!("a1-b1-{a}")).collect();
    assert_eq!(
        moves,
        v(&expected.iter().map(String::as_str).collect::<Vec<_>>())
    );
    common::play(&game, &mut pos, "a1-b1-a1");
    assert_eq!(
        game.write_position(&pos),
        "9q/10/10/10/10/10/10/10/AA8/AQA7 b - - 1 1"
    );
}

/// Rows of `tests/data/pyffish-perft.tsv`: game, position, depth, nodes.
fn pyffish_rows() -> Vec<(String, String, u32, u64)> {
    include_str!("../data/pyffish-perft.tsv")
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn perft_agrees_with_fairy_stockfish() {
    let rows = pyffish_rows();
    assert!(rows.len() >= 10);
    for (name, _, depth, nodes) in rows {
        if nodes > 2_000_000 {
            continue;
        }
        let game = load_game(&name).unwrap();
        let got = perft(&game, &mut game.initial_position(), depth).unwrap();
        assert_eq!(got, nodes, "{name} depth {depth}");
    }
}

#[test]
#[ignore = "long: .ci/run runs it with --include-ignored"]
fn perft_agrees_with_fairy_stockfish_larger() {
    for (name, _, depth, nodes) in pyffish_rows() {
        if nodes <= 2_000_000 {
            continue;
        }
        let game = load_game(&name).unwrap();
        let got = perft(&game, &mut game.initial_position(), depth).unwrap();
        assert_eq!(got, nodes, "{name} depth {depth}");
    }
}
