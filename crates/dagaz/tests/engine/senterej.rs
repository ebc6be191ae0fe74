//! Ethiopian chess: the free opening (werera) until the first capture, then
//! alternation; shatranj-like pieces.

use crate::common;

use dagaz::load::load_game;
use dagaz::movegen::{Generator, perft};
use dagaz::position::MoveList;

const START: &str = "rnskfsnr/pppppppp/8/8/8/8/PPPPPPPP/RNSFKSNR wb - - 0 1";

#[test]
fn in_the_free_opening_both_players_move_at_any_time() {
    let game = load_game("senterej").unwrap();
    assert_eq!(game.write_position(game.setup()), START);
    // Medeqs 8, Fereses 4, Sabas 4 for each side.
    let mut pos = game.initial_position();
    assert_eq!(common::moves_in(&game, &mut pos).len(), 32);
    assert_eq!(perft(&game, &mut game.initial_position(), 1).unwrap(), 32);
    // White moves twice in a row, then Black, then White again.
    for m in ["e2e3", "e3e4", "d7d6", "d6d5", "f2f3"] {
        common::play(&game, &mut pos, m);
        assert!(game.write_position(&pos).contains(" wb "), "after {m}");
    }
    // The first capture ends it: the capturer's opponent moves next, then
    // the players alternate.
    common::play(&game, &mut pos, "e4d5");
    let fen = game.write_position(&pos);
    assert!(fen.contains(" b "), "{fen}");
    let mut list = MoveList::new();
    Generator::new().legal(&game, &mut pos, &mut list).unwrap();
    assert!(
        list.iter().all(|m| m.header.player == 1),
        "only Black moves now"
    );
    common::play(&game, &mut pos, "a7a6");
    assert!(game.write_position(&pos).contains(" w "));
}

#[test]
fn a_player_in_check_answers_first() {
    let game = load_game("senterej").unwrap();
    // The Ferese on e6 gives check: only Black's Negus moves.
    let mut pos = common::position(&game, "3k4/8/4N3/8/8/8/8/4K3 wb - - 0 1");
    let mut list = MoveList::new();
    Generator::new().legal(&game, &mut pos, &mut list).unwrap();
    assert!(!list.is_empty());
    assert!(
        list.iter()
            .all(|m| m.header.player == 1 && m.header.from().is_some())
    );
    let moves = common::moves_in(&game, &mut pos);
    assert!(moves.iter().all(|m| m.starts_with("d8")), "{moves:?}");
}

#[test]
fn position_strings_tell_the_free_opening_apart() {
    let game = load_game("senterej").unwrap();
    let free = common::position(&game, START);
    let after = common::position(&game, &START.replace(" wb ", " w "));
    assert_ne!(free.hash(), after.hash());
    assert!(game.in_free_phase(&free) && !game.in_free_phase(&after));
    assert_eq!(game.write_position(&after), START.replace(" wb ", " w "));
    // Alternating from the setup, White has its 16 moves only.
    let mut after = after;
    assert_eq!(common::moves_in(&game, &mut after).len(), 16);
}
