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
