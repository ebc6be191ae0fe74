//! Turkish draughts: the first moves, the maximum-capture rule, the
//! 180-degree rule, and both readings of crowning during a capture.

use crate::common;

use common::{moves, v};
use dagaz::load::load_game;

#[test]
fn eight_first_moves() {
    let game = load_game("turkish-draughts").unwrap();
    let initial = game.write_position(&game.initial_position());
    assert_eq!(
        moves(&game, &initial),
        v(&[
            "a3a4", "b3b4", "c3c4", "d3d4", "e3e4", "f3f4", "g3g4", "h3h4"
        ])
    );
}

#[test]
fn the_capture_of_most_pieces_is_mandatory() {
    // Taking c4 alone, or e4 then f5: only the second is legal.
    let game = load_game("turkish-draughts").unwrap();
    assert_eq!(moves(&game, "8/8/8/5m2/2mMm3/8/8/8 w"), v(&["d4xf4xf6"]));
}

#[test]
fn a_king_may_not_turn_back() {
    // After taking e4 the king may not come back west to take b4.
    let game = load_game("turkish-draughts").unwrap();
    assert_eq!(
        moves(&game, "8/8/8/8/1mK1m3/8/8/8 w"),
        v(&["c4a4", "c4f4", "c4g4", "c4h4"])
    );
}

#[test]
fn a_king_turns_between_captures() {
    // The king takes d4 landing on e4, turns south and takes e2.
    let game = load_game("turkish-draughts").unwrap();
    let got = moves(&game, "8/8/8/8/K2m4/8/4m3/8 w");
    assert!(got.contains(&"a4xe4xe1".to_string()), "{got:?}");
}

#[test]
fn crowning_during_a_capture_default_and_variant() {
    let fed = load_game("turkish-draughts").unwrap();
    let end = load_game("turkish-draughts:end").unwrap();
    let fen_text = "2m5/1m6/1M6/8/8/8/8/8 w";
    // Federation rule: crowned on b8, the new king flies on over c8.
    assert_eq!(
        moves(&fed, fen_text),
        v(&["b6xb8xd8", "b6xb8xe8", "b6xb8xf8", "b6xb8xg8", "b6xb8xh8"])
    );
    // Variant: it goes on as a man, and is crowned where the move ends.
    assert_eq!(moves(&end, fen_text), v(&["b6xb8xd8k"]));
    assert_eq!(end.name, "turkish-draughts:end");
    assert!(fed.variants.iter().any(|(n, _)| n == "end"));
}

#[test]
fn unknown_variants_are_refused() {
    let err = load_game("turkish-draughts:nonesuch")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("unknown variant 'nonesuch'") && err.contains("end"),
        "{err}"
    );
}

#[test]
fn armenian_draughts_adds_diagonal_steps_and_keeps_the_turkish_captures() {
    let game = load_game("turkish-draughts:armenian").unwrap();
    // 22 first moves: the eight men of the third row step forward (8) and
    // diagonally forward (7 + 7); the second row is blocked.
    assert_eq!(
        moves(&game, &game.write_position(&game.initial_position())).len(),
        22
    );
    // Men capture forward and sideways only, never diagonally or back.
    assert_eq!(
        moves(&game, "8/8/8/3mm3/2mM4/3m4/8/8 w"),
        v(&["d4b4", "d4d6"])
    );
    // A king slides diagonally but captures along lines, without turning
    // back: after g4 it goes north for the second piece.
    assert_eq!(
        moves(&game, "8/8/6m1/8/1m1K1m2/8/8/8 w"),
        v(&["d4xg4xg7", "d4xg4xg8"])
    );
    assert!(moves(&game, "8/8/8/8/8/8/8/K7 w").contains(&"a1h8".to_string()));
    // Pieces leave at once: the last leg passes e3, taken first.
    assert_eq!(
        moves(&game, "8/8/2m5/8/1m6/4mm2/8/4K3 w"),
        v(&["e1xe6xb6xb3xg3", "e1xe6xb6xb3xh3"])
    );
    // A man crowned on d8 goes on as a king.
    assert_eq!(moves(&game, "4m3/3m2m1/3M4/8/8/8/8/8 w").len(), 6);
}
