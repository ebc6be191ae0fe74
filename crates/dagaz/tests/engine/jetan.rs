//! Jetan (rules reference §8): the first moves counted by hand and
//! positions for each rule, with exact move lists.

use crate::common;

use common::{moves, position, v};
use dagaz::game::{Game, GameResult};
use dagaz::load::load_game;
use dagaz::movegen::Generator;

fn jetan() -> Game {
    load_game("jetan").unwrap()
}

fn of(fen: &str, from: &str) -> Vec<String> {
    common::moves_from(&jetan(), fen, from)
}

#[test]
fn sixty_one_first_moves() {
    // Orange (north) to move: 8 Panthans x 3 (forward, both diagonals
    // forward), Thoats 2 each, Fliers 4 each (three diagonal steps over
    // their own pieces to rank 7), and the Princess 14 ordinary moves (every
    // empty square within three steps, none threatened yet) plus 11 escapes
    // along her three open lines to unthreatened squares (ranks 6 to 8; rank
    // 4 and 3 are Black's Panthans' and Fliers' targets). Everything else is
    // blocked.
    let game = jetan();
    let start = game.write_position(&game.initial_position());
    let all = moves(&game, &start);
    assert_eq!(all.len(), 61, "{all:?}");
    let count = |from: &str| all.iter().filter(|m| m.starts_with(from)).count();
    assert_eq!(count("e10"), 25);
    assert_eq!(count("d10") + count("g10"), 8);
    assert_eq!(count("a9") + count("j9"), 4);
}

#[test]
fn thoat_needs_one_of_its_two_ways_open() {
    // Black Thoat on e5, its own Panthans on e6 and f6: f7 is shut off both
    // ways (e6 then f7, f6 then f7); d7 still opens through d6.
    let fen = "10/10/10/10/4nn4/4t5/10/10/10/10 b - - 0 1";
    assert_eq!(
        of(fen, "e5"),
        v(&["e5c4", "e5c6", "e5d3", "e5d7", "e5f3", "e5g4", "e5g6"])
    );
}

#[test]
fn warrior_takes_two_orthogonal_steps_through_empty_squares() {
    let fen = "10/10/10/10/4n5/4w5/10/10/10/10 b - - 0 1";
    assert_eq!(
        of(fen, "e5"),
        v(&["e5c5", "e5d4", "e5d6", "e5e3", "e5f4", "e5f6", "e5g5"])
    );
}

#[test]
fn flier_jumps_and_dwar_does_not() {
    // Own Panthans all around: the Flier leaps over them, the Dwar is stuck.
    let flier = "10/10/10/10/3nnn4/3nfn4/3nnn4/10/10/10 b - - 0 1";
    assert_eq!(of(flier, "e5").len(), 12);
    let dwar = "10/10/10/10/3nnn4/3ndn4/3nnn4/10/10/10 b - - 0 1";
    assert_eq!(of(dwar, "e5"), Vec::<String>::new());
}

#[test]
fn princess_never_captures_nor_ends_threatened() {
    // An Orange Panthan on e8 threatens d7, e7, f7 (forward for Orange is
    // south) and d8, f8. Black's Princess on e5 may not land there, nor take
    // the Panthan.
    let fen = "10/10/4N5/10/10/4q5/10/10/10/10 b - - 0 1";
    let list = of(fen, "e5");
    for sq in ["e8", "d7", "e7", "f7", "d8", "f8"] {
        assert!(!list.iter().any(|m| m.ends_with(sq)), "{sq}: {list:?}");
    }
    assert!(list.contains(&"e5e6".to_string()), "{list:?}");
}

#[test]
fn princess_escapes_once_per_game() {
    let game = jetan();
    let fen = "9C/10/10/10/10/10/10/10/10/q9 b - - 0 1";
    // From a1: the escape along the rank and the file reaches a5 and e1,
    // four squares away, out of reach of an ordinary move.
    let list = of(fen, "a1");
    assert!(list.contains(&"a1a5".to_string()) && list.contains(&"a1e1".to_string()));
    let mut pos = position(&game, fen);
    common::play(&game, &mut pos, "a1a5");
    common::play(&game, &mut pos, "j10j7");
    let list: Vec<String> = common::moves_in(&game, &mut pos)
        .into_iter()
        .filter(|m| m.starts_with("a5"))
        .collect();
    // Only ordinary moves now: nothing four squares or more away.
    assert!(
        !list
            .iter()
            .any(|m| m == "a5a9" || m == "a5e5" || m == "a5a1"),
        "{list:?}"
    );
    assert!(list.contains(&"a5a8".to_string()), "{list:?}");
}

#[test]
fn the_game_ends_when_a_princess_or_a_chief_is_taken() {
    let game = jetan();
    let mut generator = Generator::new();
    let mut after = |fen: &str, mv: &str| {
        let mut pos = position(&game, fen);
        common::play(&game, &mut pos, mv);
        generator.result(&game, &mut pos).unwrap()
    };
    // An Orange Panthan takes Black's Princess: Orange wins.
    match after("10/10/10/10/3N6/3q6/10/10/10/c9 o - - 0 1", "d6d5") {
        Some(GameResult::Win { winner: 0, .. }) => {}
        other => panic!("{other:?}"),
    }
    // Orange's Chief takes Black's Chief: Orange wins.
    match after("Q9/10/4C5/10/10/4c5/10/10/10/q9 o - - 0 1", "e8e5") {
        Some(GameResult::Win { winner: 0, reason }) => assert!(reason.contains("Chief")),
        other => panic!("{other:?}"),
    }
    // A Panthan takes a Chief: a draw.
    match after("Q9/10/10/10/4N5/4c5/10/10/10/q9 o - - 0 1", "e6e5") {
        Some(GameResult::Draw { .. }) => {}
        other => panic!("{other:?}"),
    }
}
