//! Ultima (Baroque chess): one position per way of capturing, worked out by
//! hand from the rules (rules reference §7; Abbott's rules as given by
//! Wikipedia and chessvariants.com), and checkmate with these captures.
//! There is no published perft for Ultima; the first-move count (32: the
//! eight pawns' rook moves forward, nothing else can move) is from the rules.

use crate::common;

use common::{moves, v};
use dagaz::game::GameResult;
use dagaz::load::load_game;
use dagaz::movegen::Generator;
use dagaz::position::MoveList;

fn ultima(fen: &str) -> Vec<String> {
    let game = load_game("ultima").unwrap();
    moves(&game, &format!("{fen} - - 0 1"))
}

/// The moves of the piece on `from`.
fn from(all: &[String], from: &str) -> Vec<String> {
    all.iter()
        .filter(|m| m.starts_with(from))
        .cloned()
        .collect()
}

#[test]
fn only_pawns_move_first() {
    let game = load_game("ultima").unwrap();
    let start = game.write_position(&game.initial_position());
    let all = moves(&game, &start);
    assert_eq!(all.len(), 32, "{all:?}");
    // Each pawn can go one to four squares up its file; nothing else moves.
    for file in "abcdefgh".chars() {
        let mine: Vec<_> = all
            .iter()
            .filter(|m| m.starts_with(&format!("{file}2")))
            .collect();
        assert_eq!(mine.len(), 4, "{file}: {mine:?}");
    }
}

#[test]
fn pawn_captures_by_custodian_pincer() {
    // The pawn lands on d4: the black pawn on d5 is between it and the
    // white Immobilizer on d6, and is taken. Landing elsewhere takes nothing.
    let all = ultima("k7/8/3I4/3p4/8/8/3P4/K7 w");
    assert_eq!(
        from(&all, "d2"),
        v(&[
            "d2a2", "d2b2", "d2c2", "d2d1", "d2d3", "d2d4xd5", "d2e2", "d2f2", "d2g2", "d2h2"
        ])
    );
}

#[test]
fn withdrawer_captures_by_moving_away() {
    // Only the moves straight away from d5 (down the d-file) capture it.
    let all = ultima("k7/8/8/3p4/3W4/8/8/K7 w");
    let captures: Vec<_> = all.iter().filter(|m| m.contains('x')).cloned().collect();
    assert_eq!(captures, v(&["d4d1xd5", "d4d2xd5", "d4d3xd5"]));
    assert_eq!(from(&all, "d4").len(), 22);
}

#[test]
fn long_leaper_jumps_several_enemies() {
    // a1 over b2 to c3, on over d4 to e5 and beyond: landing on c3 takes
    // b2, landing on e5..h8 takes both. It cannot stop on d4 or leap two
    // in a row.
    let game = load_game("ultima").unwrap();
    let mut pos = common::position(&game, "k7/8/8/8/3p4/8/1p6/L6K w - - 0 1");
    let mut list = MoveList::new();
    Generator::new().legal(&game, &mut pos, &mut list).unwrap();
    let texts = dagaz::text::movetext::texts(&game, &list);
    let mut leaps: Vec<(String, Vec<&str>)> = list
        .iter()
        .zip(&texts)
        .filter(|(m, _)| m.header.captures > 0)
        .map(|(m, t)| {
            let taken = game.captured_squares(m);
            let mut names: Vec<&str> = taken.iter().map(|s| game.topology.name(*s)).collect();
            names.sort();
            (t.clone(), names)
        })
        .collect();
    leaps.sort();
    let expected: Vec<(String, Vec<&str>)> = [
        ("a1c3", vec!["b2"]),
        ("a1e5", vec!["b2", "d4"]),
        ("a1f6", vec!["b2", "d4"]),
        ("a1g7", vec!["b2", "d4"]),
        ("a1h8", vec!["b2", "d4"]),
    ]
    .into_iter()
    .map(|(t, s)| (t.to_string(), s))
    .collect();
    assert_eq!(leaps, expected);
    // Two enemies in a row cannot be leapt: the diagonal is closed.
    let all = ultima("k7/8/8/8/8/2p5/1p6/L6K w");
    assert_eq!(
        from(&all, "a1"),
        v(&[
            "a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1a7", "a1b1", "a1c1", "a1d1", "a1e1", "a1f1",
            "a1g1"
        ])
    );
}

#[test]
fn coordinator_captures_where_its_lines_meet_its_kings() {
    // King e1. The Coordinator landing on b5 or d5 has row 5 meeting the
    // King's e-file on e5.
    let all = ultima("k7/8/8/4p3/8/1C6/8/4K3 w");
    let captures: Vec<_> = all.iter().filter(|m| m.contains('x')).cloned().collect();
    assert_eq!(captures, v(&["b3b5xe5", "b3d5xe5"]));
}

#[test]
fn immobilizer_freezes_its_neighbours() {
    // The Withdrawer on d4 is next to the black Immobilizer: only the
    // white King moves.
    assert_eq!(
        ultima("k7/8/8/4i3/3W4/8/8/K7 w"),
        v(&["a1a2", "a1b1", "a1b2"])
    );
}

#[test]
fn chameleon_captures_each_piece_its_own_way() {
    // Withdrawing from a Withdrawer...
    let all = ultima("k7/8/8/3w4/3M4/8/8/7K w");
    let captures: Vec<_> = all.iter().filter(|m| m.contains('x')).cloned().collect();
    assert_eq!(captures, v(&["d4d1xd5", "d4d2xd5", "d4d3xd5"]));
    // ...but not from a Chameleon, which it cannot capture.
    let all = ultima("k7/8/8/3m4/3M4/8/8/7K w");
    assert!(!all.iter().any(|m| m.contains('x')), "{all:?}");
    // Leaping a Long Leaper (b2 over d4 to e5..h8), not a pawn.
    let all = ultima("k7/8/8/8/3l4/8/1M6/7K w");
    for m in ["b2e5", "b2f6", "b2g7", "b2h8"] {
        assert!(all.contains(&m.to_string()), "{m}: {all:?}");
    }
    let all = ultima("k7/8/8/8/3p4/8/1M6/7K w");
    assert!(!all.contains(&"b2e5".to_string()), "{all:?}");
    // Pincering a pawn, not a Withdrawer.
    let all = ultima("k7/8/3I4/3p4/8/8/3M4/K7 w");
    assert!(all.contains(&"d2d4xd5".to_string()), "{all:?}");
    let all = ultima("k7/8/3I4/3w4/8/8/3M4/K7 w");
    assert!(all.contains(&"d2d4".to_string()), "{all:?}");
    // Coordinating a Coordinator, not a pawn.
    let all = ultima("k7/8/8/4c3/8/1M6/8/4K3 w");
    assert!(all.contains(&"b3b5xe5".to_string()), "{all:?}");
    let all = ultima("k7/8/8/4p3/8/1M6/8/4K3 w");
    assert!(all.contains(&"b3b5".to_string()), "{all:?}");
    // Stepping onto the King like a King.
    // (A sketch: the side not to move is in check.)
    let game = load_game("ultima").unwrap();
    let all = common::sketch_moves(&game, "8/8/8/8/3k4/3M4/8/7K w - - 0 1");
    assert!(all.contains(&"d3d4".to_string()), "{all:?}");
}

#[test]
fn chameleon_freezes_an_immobilizer() {
    // The black Immobilizer next to the white Chameleon cannot move.
    assert_eq!(
        ultima("k7/8/8/4i3/3M4/8/8/K7 b"),
        v(&["a8a7", "a8b7", "a8b8"])
    );
}

#[test]
fn the_king_must_be_kept_from_every_kind_of_capture() {
    // The Withdrawer on e2 would take the King on e1 by moving to e3; every
    // other King move is next to it too. Only taking it, or a pawn pincering
    // it from e3 against the King (which also blocks), saves the King.
    assert_eq!(ultima("7k/8/8/8/8/8/P3w3/4K3 w"), v(&["e1e2"]));
    assert_eq!(ultima("7k/8/8/8/8/7P/4w3/4K3 w"), v(&["e1e2", "h3e3xe2"]));
}

#[test]
fn checkmate_wins() {
    let game = load_game("ultima").unwrap();
    let mut generator = Generator::new();
    // The white King in the corner is frozen by the Immobilizer on b2 and
    // the Withdrawer on a2 threatens to withdraw to a3. White has nothing else.
    let mut pos = game
        .parse_position("7k/8/8/8/8/8/wi6/K7 w - - 0 1")
        .unwrap();
    match generator.result(&game, &mut pos).unwrap() {
        Some(GameResult::Win { winner: 1, reason }) => {
            assert!(reason.contains("checkmate"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}
