//! Janggi: the first moves counted by hand from the rules (rules reference
//! §6), and positions for each rule that differs from xiangqi, each with
//! its exact move list worked out by hand.

use crate::common;

use common::{moves, v};
use dagaz::game::{Game, GameResult};
use dagaz::load::load_game;
use dagaz::movegen::Generator;

fn janggi() -> Game {
    load_game("janggi").unwrap()
}

fn at(fen: &str) -> Vec<String> {
    moves(&janggi(), &format!("{fen} - - 0 1"))
}

#[test]
fn thirty_two_first_moves() {
    // Chariots 2 + 2, horses 2 + 2, elephants 0 (their first steps lead
    // onto their own pieces), guards 2 + 2, the general 6 and a pass,
    // cannons 0 (no screen they may use: the other cannons face them),
    // soldiers 2 + 3 + 3 + 3 + 2.
    let game = janggi();
    let start = game.write_position(&game.initial_position());
    let all = moves(&game, &start);
    assert_eq!(all.len(), 32, "{all:?}");
    for m in ["e2e2", "b1c3", "d1e1", "e2d3"] {
        assert!(all.contains(&m.to_string()), "{m}");
    }
}

#[test]
fn the_cannon_needs_a_screen_and_never_touches_cannons() {
    // Cannon e5: the Han cannon on e7 can be neither jumped nor taken; over
    // the soldier on c5 it lands on b5 or takes the chariot on a5; with no
    // screen east or south it cannot move there at all.
    assert_eq!(
        at("5k3/9/9/4c4/9/r1P1C4/9/9/9/3K5 w"),
        v(&[
            "c5b5", "c5c6", "c5d5", "d1d1", "d1d2", "d1e1", "d1e2", "e5a5", "e5b5"
        ])
    );
}

#[test]
fn palace_diagonals_and_no_pass_in_check() {
    // The Han soldier on e2 checks the general on d1 along the palace
    // diagonal. Only taking it answers: by the general, or by the chariot
    // from d3 along the other diagonal. Passing is not allowed in check.
    assert_eq!(at("5k3/9/9/9/9/9/9/3R5/4p4/3K5 w"), v(&["d1e2", "d3e2"]));
}

#[test]
fn the_cannon_jumps_across_the_palace() {
    // The chariot on f1 checks along rank 1. The cannon on d3 jumps the
    // soldier on the centre point and takes it on f1; or the general steps
    // out of the line.
    assert_eq!(at("4k4/9/9/9/9/9/9/3C5/4P4/3K1r3 w"), v(&["d1d2", "d3f1"]));
}

#[test]
fn the_elephant_is_blocked_on_either_point() {
    // Elephant c1: north is blocked at once by the soldier on c2; east it
    // goes d1, e2 to f3; west it leaves the board.
    let all = at("3k5/9/9/9/9/9/9/9/2P6/2B2K3 w");
    let elephant: Vec<_> = all.iter().filter(|m| m.starts_with("c1")).collect();
    assert_eq!(elephant, ["c1f3"]);
}

#[test]
fn soldiers_step_diagonally_in_the_enemy_palace() {
    assert_eq!(
        at("5k3/9/3P5/9/9/9/9/9/9/3K5 w"),
        v(&[
            "d1d1", "d1d2", "d1e1", "d1e2", "d8c8", "d8d9", "d8e8", "d8e9"
        ])
    );
    // From the centre: forward, sideways, and diagonally to both far
    // corners (taking the general on f10).
    // (A sketch: the side not to move is in check.)
    let all = common::sketch_moves(&janggi(), "5k3/4P4/9/9/9/9/9/9/9/3K5 w - - 0 1");
    let soldier: Vec<_> = all
        .iter()
        .filter(|m| m.starts_with("e9"))
        .cloned()
        .collect();
    assert_eq!(soldier, v(&["e9d10", "e9d9", "e9e10", "e9f10", "e9f9"]));
}

/// Janggi's moves are streamed (pseudo-legal, tested once made) except
/// where bikjang forbids or adds moves; both ways give the same moves, in
/// positions where the generals face, after a pass, without a general.
#[test]
fn streamed_moves_are_the_legal_moves() {
    let game = janggi();
    for (fen, played) in [
        ("4k4/9/9/9/9/9/9/9/9/R3K4 b", &[][..]),
        ("4k4/9/9/9/9/9/9/9/9/R3K4 b", &["e10e10"][..]),
        ("4k4/9/9/9/4p4/9/9/9/9/R3K4 b", &[][..]),
        ("3k5/9/9/9/9/9/9/9/9/R3K4 w", &["e1e1"][..]),
        ("3k5/9/9/9/9/9/9/9/9/R3K4 w", &["e1e1", "d10d10"][..]),
        ("3k5/9/9/9/9/9/9/9/9/R3K4 w", &["a1d1"][..]),
        ("4k4/9/9/9/9/9/9/9/4r4/R8 w", &[][..]),
    ] {
        let mut pos = game.parse_position(&format!("{fen} - - 0 1")).unwrap();
        for m in played {
            common::play(&game, &mut pos, m);
        }
        assert_eq!(
            common::moves_tried_in(&game, &mut pos),
            common::moves_in(&game, &mut pos),
            "{fen} after {played:?}"
        );
    }
}

/// Bikjang as Fairy-Stockfish plays it: facing generals must be parted
/// (or the player passes, which ends the game); two passes in a row end
/// the game too; an ended game is scored by material, Han +1.5.
#[test]
fn bikjang_must_be_parted_or_ends_the_game_on_material() {
    let game = janggi();
    let mut generator = Generator::new();
    let mut after = |fen: &str, played: &[&str]| {
        let mut pos = game.parse_position(&format!("{fen} - - 0 1")).unwrap();
        for m in played {
            common::play(&game, &mut pos, m);
        }
        let list = common::moves_in(&game, &mut pos);
        (list, generator.result(&game, &mut pos).unwrap())
    };
    // Facing generals, Han to move: not over yet; Han must step off the
    // file (e9 would stay on it) or pass.
    let facing = "4k4/9/9/9/9/9/9/9/9/R3K4 b";
    let (list, result) = after(facing, &[]);
    assert_eq!(result, None);
    assert_eq!(list, v(&["e10d10", "e10e10", "e10f10"]));
    // Han passes: the game ends; Cho is a chariot up (13 to 1.5).
    let (list, result) = after(facing, &["e10e10"]);
    assert!(list.is_empty());
    match result {
        Some(GameResult::Win { winner: 0, reason }) => {
            assert!(reason.contains("bikjang"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    // Equal material: Han's 1.5 decides.
    match after("4k4/9/9/9/9/9/9/9/r8/4K3R b", &["e10e10"]).1 {
        Some(GameResult::Win { winner: 1, .. }) => {}
        other => panic!("{other:?}"),
    }
    // Parting them goes on normally.
    assert_eq!(after(facing, &["e10d10"]).1, None);
    // A piece between them: no bikjang, every move is allowed.
    let (list, result) = after("4k4/9/9/9/4p4/9/9/9/9/R3K4 b", &[]);
    assert_eq!(result, None);
    assert!(list.contains(&"e10e9".to_string()), "{list:?}");
    // Two passes in a row end the game.
    let quiet = "3k5/9/9/9/9/9/9/9/9/R3K4 w";
    assert_eq!(after(quiet, &["e1e1"]).1, None);
    match after(quiet, &["e1e1", "d10d10"]).1 {
        Some(GameResult::Win { winner: 0, reason }) => {
            assert!(reason.contains("both players passed"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}
