//! Shatranj: the opening moves counted by hand from the rules (pawns one
//! step, knights, alfils leaping two squares diagonally over anything, the
//! ferz hemmed in), the alfil and ferz moves, promotion to ferz only, and
//! the two ways to win besides mate: stalemate and the bare king.

use crate::common;

use common::{moves, v};
use dagaz::game::GameResult;
use dagaz::load::load_game;
use dagaz::movegen::Generator;

#[test]
fn sixteen_opening_moves() {
    let game = load_game("shatranj").unwrap();
    let start = game.write_position(&game.initial_position());
    let all = moves(&game, &start);
    assert_eq!(all.len(), 16, "{all:?}");
    // The alfils leap over their pawns; nothing else moves but pawns and knights.
    for m in [
        "c1a3", "c1e3", "f1d3", "f1h3", "b1a3", "b1c3", "g1f3", "g1h3",
    ] {
        assert!(all.contains(&m.to_string()), "{m}");
    }
}

#[test]
fn alfil_ferz_and_the_pawn_promoting_to_ferz() {
    let game = load_game("shatranj").unwrap();
    // Alfil on d4 (letter A), ferz on h1 (F), pawn on b7, kings a1/h8.
    assert_eq!(
        moves(&game, "7k/1P6/8/8/3A4/8/8/K6F w - - 0 1"),
        v(&[
            "a1a2", "a1b1", "a1b2", "b7b8f", "d4b2", "d4b6", "d4f2", "d4f6", "h1g2",
        ])
    );
}

#[test]
fn stalemate_and_bare_king_win() {
    let game = load_game("shatranj").unwrap();
    let mut generator = Generator::new();
    // Black to move, stalemated: White (who moved last) wins.
    let mut pos = game
        .parse_position("k7/p1K5/P7/1R6/8/8/8/8 b - - 0 1")
        .unwrap();
    match generator.result(&game, &mut pos).unwrap() {
        Some(GameResult::Win { winner: 0, reason }) => {
            assert!(reason.contains("stalemate"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    // Black has a bare king, White a rook: White wins.
    let mut pos = game.parse_position("k7/8/8/8/8/8/8/K6R b - - 0 1").unwrap();
    match generator.result(&game, &mut pos).unwrap() {
        Some(GameResult::Win { winner: 0, .. }) => {}
        other => panic!("{other:?}"),
    }
}
