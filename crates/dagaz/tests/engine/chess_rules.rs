//! Chess rules that perft does not show: promotion choices, the end of the
//! game (checkmate, stalemate, repetition, the 50-move rule), and the
//! once-per-game flag `[o]`.

use crate::common;

use common::{moves, moves_in, play, position, v};
use dagaz::game::GameResult;
use dagaz::load::load_game;
use dagaz::movegen::Generator;

fn result(fen_text: &str, line: &[&str]) -> Option<GameResult> {
    let game = load_game("chess").unwrap();
    let mut pos = position(&game, fen_text);
    for m in line {
        play(&game, &mut pos, m);
    }
    Generator::new().result(&game, &mut pos).unwrap()
}

#[test]
fn promotion_offers_every_piece() {
    let game = load_game("chess").unwrap();
    let got: Vec<String> = moves(&game, "3r4/4P3/8/8/8/8/8/K6k w - - 0 1")
        .into_iter()
        .filter(|m| m.starts_with("e7"))
        .collect();
    assert_eq!(
        got,
        v(&[
            "e7e8q", "e7e8r", "e7e8b", "e7e8n", "e7d8q", "e7d8r", "e7d8b", "e7d8n"
        ])
    );
}

#[test]
fn checkmate_and_stalemate() {
    let mate = result(
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        &["d8h4"],
    );
    assert_eq!(
        mate,
        Some(GameResult::Win {
            winner: 1,
            reason: "checkmate".into()
        })
    );
    let stale = result("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &[]);
    assert_eq!(
        stale,
        Some(GameResult::Draw {
            reason: "stalemate".into()
        })
    );
    assert_eq!(
        result(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &[]
        ),
        None
    );
}

#[test]
fn threefold_repetition() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    assert_eq!(result(start, &cycle), None, "second occurrence");
    let twice: Vec<&str> = cycle.iter().chain(cycle.iter()).copied().collect();
    match result(start, &twice) {
        Some(GameResult::Draw { reason }) => assert!(reason.contains("repeated 3"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn fifty_move_rule() {
    let fen_text = "8/8/8/4k3/8/8/3K4/7R w - - 99 80";
    assert_eq!(result(fen_text, &[]), None);
    match result(fen_text, &["d2d3"]) {
        Some(GameResult::Draw { reason }) => assert!(reason.contains("100 plies"), "{reason}"),
        other => panic!("{other:?}"),
    }
    // A pawn move restarts the count.
    assert_eq!(result("8/8/8/4k3/8/8/3KP3/8 w - - 99 80", &["e2e3"]), None);
}

#[test]
fn insufficient_material_draws() {
    let drawn = |fen_text: &str| match result(fen_text, &[]) {
        Some(GameResult::Draw { reason }) => reason.contains("insufficient"),
        _ => false,
    };
    assert!(drawn("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    assert!(drawn("4k3/8/8/8/8/8/8/3NK3 b - - 0 1"));
    assert!(drawn("4kb2/8/8/8/8/8/8/4K3 w - - 0 1"));
    // Two minor pieces, a pawn or a Rook can still mate.
    assert!(!drawn("4k3/8/8/8/8/8/8/2NNK3 w - - 0 1"));
    assert!(!drawn("4kb2/8/8/8/8/8/8/3NK3 w - - 0 1"));
    assert!(!drawn("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"));
    assert!(!drawn("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
    // A capture that leaves K v K ends the game.
    match result("4k3/8/8/8/8/8/4q3/3BK3 w - - 0 1", &["d1e2"]) {
        Some(GameResult::Draw { reason }) => assert!(reason.contains("insufficient"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn castling_through_check_is_refused() {
    let game = load_game("chess").unwrap();
    // The rook on f8 attacks f1: no short castling; long castling is fine.
    let got = moves(&game, "5rk1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(!got.contains(&"e1g1".to_string()), "{got:?}");
    assert!(got.contains(&"e1c1".to_string()), "{got:?}");
    // In check: no castling at all.
    let got = moves(&game, "4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(!got.iter().any(|m| m == "e1g1" || m == "e1c1"), "{got:?}");
}

#[test]
fn en_passant_that_exposes_the_king_is_illegal() {
    let game = load_game("chess").unwrap();
    let got = moves(&game, "8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
    assert!(!got.iter().any(|m| m.starts_with("b5c6")), "{got:?}");
}

#[test]
fn once_per_game_flags() {
    // The tester may jump two squares once per game, per player.
    let game = common::lab("[o]N{2}; N", "");
    let mut pos = position(&game, "w7/8/8/8/3T4/8/8/W7 w - - 0 1");
    let tester = |pos: &mut dagaz::position::Position| -> Vec<String> {
        moves_in(&game, pos)
            .into_iter()
            .filter(|m| m.starts_with('d'))
            .collect()
    };
    assert_eq!(tester(&mut pos), v(&["d4d5", "d4d6"]));
    play(&game, &mut pos, "d4d6");
    play(&game, &mut pos, "a8a7");
    assert_eq!(tester(&mut pos), v(&["d6d7"]));
}
