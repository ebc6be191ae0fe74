//! Jungle: strengths, traps, lakes, the Lion's and Tiger's jumps, the
//! Rat, the dens. Positions worked out from the rules in `games/jungle.toml`.

use crate::common::{self, v};

use dagaz::game::GameResult;
use dagaz::load::load_game;
use dagaz::movegen::Generator;

fn from(fen: &str, square: &str) -> Vec<String> {
    common::moves_from(
        &load_game("jungle").unwrap(),
        &format!("{fen} r - - 0 1"),
        square,
    )
}

#[test]
fn twenty_four_first_moves() {
    let game = load_game("jungle").unwrap();
    // Tiger 2, Lion 2, Cat 4, Dog 4, Elephant 3, Wolf 3 (c4 is water),
    // Panther 3 (e4 is water), Rat 3.
    assert_eq!(
        common::moves_in(&game, &mut game.initial_position()).len(),
        24
    );
}

#[test]
fn lions_jump_the_lake_unless_a_rat_swims_in_the_way() {
    // a5 is land left of the lake b4-c6: the jump lands on d5.
    assert_eq!(
        from("6r/7/7/7/L6/7/7/7/7", "a5"),
        v(&["a5a4", "a5a6", "a5d5"])
    );
    assert_eq!(from("6r/7/7/7/L1r4/7/7/7/7", "a5"), v(&["a5a4", "a5a6"]));
    // Up the b-file over three water squares, taking on b7.
    assert_eq!(
        from("6r/7/1c5/7/7/7/1T5/7/7", "b3"),
        v(&["b3a3", "b3b2", "b3b7", "b3c3"])
    );
}

#[test]
fn strengths_the_rat_and_the_elephant() {
    // The Elephant takes the Lion but not the Rat.
    assert_eq!(
        from("6r/7/7/7/7/7/7/lE5/1r5", "b2"),
        v(&["b2a2", "b2b3", "b2c2"])
    );
    // The Rat takes the Elephant from land, not from the water.
    assert_eq!(
        from("6r/7/7/7/e6/R6/7/7/7", "a4"),
        v(&["a4a3", "a4a5", "a4b4"])
    );
    assert_eq!(
        from("6r/7/7/7/e6/eR5/7/7/7", "b4"),
        v(&["b4b3", "b4b5", "b4c4"])
    );
    // Rats in the water take each other.
    assert_eq!(
        from("6e/7/7/7/7/1r5/1R5/7/7", "b3"),
        v(&["b3a3", "b3b2", "b3c3"])
    );
    assert_eq!(
        from("6e/7/7/7/1r5/1R5/7/7/7", "b4"),
        v(&["b4a4", "b4b3", "b4b5", "b4c4"])
    );
}

#[test]
fn traps_and_dens() {
    // A Blue Elephant in Red's trap d2 falls to a Cat.
    assert_eq!(
        from("6r/7/7/7/7/7/7/2Ce3/7", "c2"),
        v(&["c2b2", "c2c1", "c2c3", "c2d2"])
    );
    // No animal enters its own den.
    assert_eq!(from("6r/7/7/7/7/7/7/7/2C4", "c1"), v(&["c1b1", "c1c2"]));
    let game = load_game("jungle").unwrap();
    let mut pos = common::position(&game, "6r/3D3/7/7/7/7/7/7/7 r - - 0 1");
    common::play(&game, &mut pos, "d8d9");
    match Generator::new().result(&game, &mut pos).unwrap() {
        Some(GameResult::Win { winner: 0, reason }) => assert_eq!(reason, "reached enemy_den"),
        other => panic!("{other:?}"),
    }
}
