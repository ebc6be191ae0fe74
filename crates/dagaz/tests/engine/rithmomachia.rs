//! Rithmomachia against the rules reference (§1): the published first-move
//! counts of setup I (71 for White, 69 for Black), a position for each
//! capture (siege, equality, ambush, eruption, a pyramid losing one part
//! and a pyramid taken by its total), a position where nothing is taken,
//! and each victory.

use crate::common;

use std::collections::BTreeMap;

use common::{moves, play};
use dagaz::game::{Game, GameResult};
use dagaz::load::load_game;
use dagaz::movegen::Generator;

/// The setup's pieces by square, as position-string tokens.
const SETUP: &[(&str, &str)] = &[
    ("a14", "s361"),
    ("b14", "s225"),
    ("g14", "s121"),
    ("h14", "s49"),
    ("a13", "p"),
    ("b13", "s120"),
    ("c13", "t64"),
    ("d13", "t56"),
    ("e13", "t30"),
    ("f13", "t36"),
    ("g13", "s66"),
    ("h13", "s28"),
    ("a12", "t100"),
    ("b12", "t90"),
    ("c12", "r81"),
    ("d12", "r49"),
    ("e12", "r25"),
    ("f12", "r9"),
    ("g12", "t12"),
    ("h12", "t16"),
    ("c11", "r9"),
    ("d11", "r7"),
    ("e11", "r5"),
    ("f11", "r3"),
    ("c6", "R2"),
    ("d6", "R4"),
    ("e6", "R6"),
    ("f6", "R8"),
    ("a5", "T9"),
    ("b5", "T6"),
    ("c5", "R4"),
    ("d5", "R16"),
    ("e5", "R36"),
    ("f5", "R64"),
    ("g5", "T72"),
    ("h5", "T81"),
    ("a4", "S15"),
    ("b4", "S45"),
    ("c4", "T25"),
    ("d4", "T20"),
    ("e4", "T42"),
    ("f4", "T49"),
    ("g4", "P"),
    ("h4", "S153"),
    ("a3", "S25"),
    ("b3", "S81"),
    ("g3", "S169"),
    ("h3", "S289"),
];

/// A position string: `pieces` (square, token) on an empty board.
fn position(pieces: &[(&str, &str)], side: &str) -> String {
    let at: BTreeMap<&str, &str> = pieces.iter().copied().collect();
    let rows: Vec<String> = (1..=16)
        .rev()
        .map(|rank| {
            let mut tokens = Vec::new();
            let mut empty = 0;
            for file in "abcdefgh".chars() {
                match at.get(format!("{file}{rank}").as_str()) {
                    Some(t) => {
                        if empty > 0 {
                            tokens.push(empty.to_string());
                            empty = 0;
                        }
                        tokens.push(t.to_string());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                tokens.push(empty.to_string());
            }
            tokens.join(",")
        })
        .collect();
    format!("{} {side}", rows.join("/"))
}

/// The setup without the pieces on `gone`, plus `extra`.
fn setup_with(gone: &[&str], extra: &[(&str, &str)], side: &str) -> String {
    let mut pieces: Vec<(&str, &str)> = SETUP
        .iter()
        .copied()
        .filter(|(sq, _)| !gone.contains(sq))
        .collect();
    pieces.extend_from_slice(extra);
    position(&pieces, side)
}

/// The captures among the legal moves (texts with an `x`).
fn captures(game: &Game, fen: &str) -> Vec<String> {
    moves(game, fen)
        .into_iter()
        .filter(|m| m.contains('x'))
        .collect()
}

/// The position after playing `mv` in `fen`.
fn after(game: &Game, fen: &str, mv: &str) -> String {
    let mut pos = game.parse_position(fen).unwrap();
    play(game, &mut pos, mv);
    game.write_position(&pos)
}

fn result(game: &Game, fen: &str) -> Option<GameResult> {
    let mut pos = game.parse_position(fen).unwrap();
    Generator::new().result(game, &mut pos).unwrap()
}

fn win(game: &Game, fen: &str) -> (usize, String) {
    match result(game, fen) {
        Some(GameResult::Win { winner, reason }) => (winner, reason),
        other => panic!("expected a win, got {other:?}"),
    }
}

#[test]
fn setup_i_has_71_first_moves_for_white_and_69_for_black() {
    let game = load_game("rithmomachia").unwrap();
    // The helper's setup is the game's.
    assert_eq!(
        game.write_position(&game.initial_position()),
        format!("{} 0 1", position(SETUP, "w - -"))
    );
    let start = game.write_position(&game.initial_position());
    assert_eq!(moves(&game, &start).len(), 71);
    let black = load_game("rithmomachia:black-first").unwrap();
    let start = black.write_position(&black.initial_position());
    assert_eq!(moves(&black, &start).len(), 69);
}

#[test]
fn siege_takes_a_piece_closed_in_on_four_sides() {
    let game = load_game("rithmomachia").unwrap();
    // Black 97 on d8 has White rounds on c8, e8, d9; the round from c6
    // closes d7. No arithmetic applies (97 is prime, rounds attack only
    // diagonally).
    let fen = position(
        &[
            ("d8", "r97"),
            ("c8", "R2"),
            ("e8", "R4"),
            ("d9", "R6"),
            ("c6", "R8"),
            ("h16", "r3"),
        ],
        "w",
    );
    assert_eq!(captures(&game, &fen), ["c6d7xd8"]);
}

#[test]
fn equality_takes_a_piece_of_the_attackers_value() {
    let game = load_game("rithmomachia").unwrap();
    // Triangle 16 from d6 to d8 attacks d10 (two squares, d9 empty); from
    // c8 or e8 (its knight's leaps) it attacks d10 by a knight's leap.
    let fen = position(&[("d10", "r16"), ("d6", "T16"), ("h16", "r3")], "w");
    assert_eq!(captures(&game, &fen), ["d6c8xd10", "d6d8xd10", "d6e8xd10"]);
    // With d9 occupied the two-square attack is blocked, the leaps are not.
    let fen = position(
        &[("d10", "r16"), ("d9", "r1"), ("d6", "T16"), ("h16", "r3")],
        "w",
    );
    assert_eq!(captures(&game, &fen), ["d6c8xd10", "d6e8xd10"]);
}

#[test]
fn ambush_takes_a_piece_two_attackers_make() {
    let game = load_game("rithmomachia").unwrap();
    // Triangle 5 on e12 attacks e10; round 6 to d9 attacks it too: 5 x 6.
    let fen = position(
        &[("e10", "r30"), ("e12", "T5"), ("c8", "R6"), ("h16", "r3")],
        "w",
    );
    assert_eq!(captures(&game, &fen), ["c8d9xe10"]);
    // Alone, the round takes nothing.
    let fen = position(&[("e10", "r30"), ("c8", "R6"), ("h16", "r3")], "w");
    assert!(captures(&game, &fen).is_empty());
}

#[test]
fn eruption_takes_a_piece_at_value_times_distance() {
    let game = load_game("rithmomachia").unwrap();
    // Round 9 to a13: a13..a16 is a distance of 4; 9 x 4 = 36.
    let fen = position(&[("a16", "r36"), ("b12", "R9"), ("h1", "r3")], "w");
    assert_eq!(captures(&game, &fen), ["b12a13xa16"]);
    // Setup I: the square 25 to b6 erupts on b14 (25 x 9 = 225), over the
    // pieces between.
    let start = game.write_position(&game.initial_position());
    let first = captures(&game, &start);
    assert!(first.contains(&"a3b6xb14".to_string()), "{first:?}");
}

#[test]
fn a_pyramid_loses_one_part_or_goes_whole() {
    let game = load_game("rithmomachia").unwrap();
    // Black round 25 to f6 attacks the white pyramid on e5: its part 25 goes.
    let fen = position(&[("e5", "P"), ("g7", "r25"), ("a16", "R2")], "b");
    assert_eq!(captures(&game, &fen), ["g7f6xe5"]);
    let next = after(&game, &fen, "g7f6xe5");
    assert!(next.contains("P36+16+9+4+1"), "{next}");
    // A black 91 matches the total: the whole pyramid goes.
    let fen = position(&[("e5", "P"), ("g7", "r91"), ("a16", "R2")], "b");
    let next = after(&game, &fen, "g7f6xe5");
    assert_eq!(next.split(' ').next().unwrap().matches('P').count(), 0);
    // A part-taken pyramid moves like the parts it has left: without its
    // rounds (4 and 1) it cannot step diagonally.
    let fen = position(&[("e5", "P36+25+16+9"), ("a16", "r2")], "w");
    let pyramid: Vec<String> = moves(&game, &fen)
        .into_iter()
        .filter(|m| m.starts_with("e5"))
        .collect();
    assert!(!pyramid.iter().any(|m| m == "e5d6" || m == "e5f4"));
    assert!(pyramid.iter().any(|m| m == "e5e7"), "{pyramid:?}");
    // The pyramid attacks with its parts: stepping to f6, its round 4
    // erupts on f9 (f6..f9 is a distance of 4; 4 x 4 = 16).
    let fen = position(&[("e5", "P"), ("f9", "r16"), ("a16", "r2")], "w");
    let found = captures(&game, &fen);
    assert!(found.contains(&"e5f6xf9".to_string()), "{found:?}");
}

#[test]
fn near_misses_take_nothing() {
    let game = load_game("rithmomachia").unwrap();
    // Equality one off (17 against 16), a sum that is one off (5 + 6 = 11,
    // 5 x 6 = 30 against 31), and eruption one square short (9 x 3 = 27
    // against 36).
    for fen in [
        position(&[("d10", "r17"), ("d6", "T16"), ("h16", "r3")], "w"),
        position(
            &[("e10", "r31"), ("e12", "T5"), ("c8", "R6"), ("h16", "r3")],
            "w",
        ),
        position(&[("a15", "r36"), ("b12", "R9"), ("h1", "r3")], "w"),
    ] {
        assert!(captures(&game, &fen).is_empty(), "{fen}");
    }
}

#[test]
fn de_corpore_fifteen_pieces_taken() {
    let game = load_game("rithmomachia").unwrap();
    // Black has lost 15 pieces but kept its big squares (value lost 1224 < 1315).
    let fen = setup_with(
        &[
            "a13", "b13", "c13", "d13", "e13", "f13", "a12", "b12", "c12", "d12", "e12", "f12",
            "c11", "d11", "e11",
        ],
        &[],
        "b",
    );
    let (winner, reason) = win(&game, &fen);
    assert_eq!(winner, 0);
    assert!(reason.contains("De Corpore"), "{reason}");
}

#[test]
fn de_bonis_value_taken() {
    let game = load_game("rithmomachia").unwrap();
    // Black keeps 14 pieces worth 402: 1350 taken, 10 pieces.
    let fen = setup_with(&BIG_BLACK, &[], "b");
    let (winner, reason) = win(&game, &fen);
    assert_eq!(winner, 0);
    assert!(reason.contains("De Bonis"), "{reason}");
    // White needs 1315: with the square 361 back (989 taken) nobody has won.
    let fen = setup_with(&BIG_BLACK[1..], &[], "b");
    assert_eq!(result(&game, &fen), None);
    // Black needs 984 of White's 1312: White keeps 328 or less.
    let fen = setup_with(&["g4", "h3", "h4", "g3", "b3", "h5", "g5", "f5"], &[], "w");
    let (winner, reason) = win(&game, &fen);
    assert_eq!(winner, 1);
    assert!(reason.contains("De Bonis"), "{reason}");
}

/// Black's ten biggest pieces: 361, 225, 121, 49, the pyramid 190, 120, 66,
/// 28, 100, 90 (1350).
const BIG_BLACK: [&str; 10] = [
    "a14", "b14", "g14", "h14", "a13", "b13", "g13", "h13", "a12", "b12",
];

#[test]
fn de_honore_and_de_honore_liteque() {
    // 10 pieces and 1350 taken: De Honore (10, 800) is won...
    let game = load_game("rithmomachia:de-honore").unwrap();
    let fen = setup_with(&BIG_BLACK, &[], "b");
    let (winner, reason) = win(&game, &fen);
    assert_eq!(winner, 0);
    assert!(reason.contains("De Honore"), "{reason}");
    // ...De Honore Liteque is not: those pieces carry 33 digits (> 20).
    let game = load_game("rithmomachia:de-honore-liteque").unwrap();
    assert_eq!(result(&game, &fen), None);
}

#[test]
fn de_lite_value_in_few_digits() {
    let game = load_game("rithmomachia:de-lite").unwrap();
    // 361 + 225 + 121 + 120 + 100 + 90 = 1017 in 18 digits, 6 pieces.
    let fen = setup_with(&["a14", "b14", "g14", "b13", "a12", "b12"], &[], "b");
    let (winner, reason) = win(&game, &fen);
    assert_eq!(winner, 0);
    assert!(reason.contains("De Lite"), "{reason}");
    // Swap the 90 for the pyramid (190, 10 digits): more value, too many digits.
    let plain = load_game("rithmomachia").unwrap();
    let fen = setup_with(&["a14", "b14", "g14", "b13", "a12", "a13"], &[], "b");
    assert_eq!(result(&game, &fen), None);
    assert_eq!(result(&plain, &fen), None);
}

#[test]
fn proper_victories_after_the_enemy_pyramid_is_taken() {
    let game = load_game("rithmomachia:proper").unwrap();
    // Victoria Magna: 211, 223, 235 on a line in Black's half (numbers
    // chosen to make no progression with Black's pieces: lines may take
    // any step, knight's steps included).
    let magna = [("a9", "R211"), ("b9", "R223"), ("c9", "R235")];
    let fen = setup_with(&["a13"], &magna, "b");
    let (winner, reason) = win(&game, &fen);
    assert_eq!(winner, 0);
    assert!(reason.contains("Magna"), "{reason}");
    // Not while the black pyramid stands, and not in the plain game.
    assert_eq!(result(&game, &setup_with(&[], &magna, "b")), None);
    let plain = load_game("rithmomachia").unwrap();
    assert_eq!(result(&plain, &fen), None);
    // Not with equal steps but no progression (211, 223, 227).
    let fen = setup_with(
        &["a13"],
        &[("a9", "R211"), ("b9", "R223"), ("c9", "R227")],
        "b",
    );
    assert_eq!(result(&game, &fen), None);
    // Victoria Major: 160, 200, 240, 288 on the corners of a square:
    // 160-200-240 is arithmetic, 200-240-288 geometric.
    let fen = setup_with(
        &["a13"],
        &[
            ("a9", "R160"),
            ("b9", "R200"),
            ("b10", "R240"),
            ("a10", "R288"),
        ],
        "b",
    );
    let (winner, reason) = win(&game, &fen);
    assert_eq!(winner, 0);
    assert!(reason.contains("Major"), "{reason}");
    // Victoria Excellentissima: 90, 120, 180, 270 holds all three
    // (90-180-270 arithmetic, 120-180-270 geometric, 90-120-180 harmonic).
    let fen = setup_with(
        &["a13"],
        &[
            ("a9", "R90"),
            ("b9", "R120"),
            ("b10", "R180"),
            ("a10", "R270"),
        ],
        "b",
    );
    let (winner, reason) = win(&game, &fen);
    assert_eq!(winner, 0);
    assert!(reason.contains("Excellentissima"), "{reason}");
}

#[test]
fn bad_numbers_are_clear_errors() {
    let game = load_game("rithmomachia").unwrap();
    for (fen, says) in [
        (position(&[("a1", "R")], "w"), "needs one number"),
        (position(&[("a1", "R400")], "w"), "numbers go up to 361"),
        (position(&[("a1", "P36+37")], "w"), "has no part 37"),
        (position(&[("a1", "Rx")], "w"), "not a number"),
    ] {
        let e = game.parse_position(&fen).unwrap_err().to_string();
        assert!(e.contains(says), "{fen}: {e}");
    }
}

#[test]
fn the_evaluation_counts_numbers() {
    use dagaz::ai::eval::{Evaluator, Material};
    let game = load_game("rithmomachia").unwrap();
    let eval = Material::new(&game);
    // The same shapes on both sides; White's round is worth more.
    let fen = position(&[("a1", "R64"), ("h16", "r4")], "w");
    let pos = game.parse_position(&fen).unwrap();
    assert_eq!(eval.evaluate(&game, &pos, 0), 60);
    assert_eq!(eval.evaluate(&game, &pos, 1), -60);
}

#[test]
fn position_strings_round_trip() {
    let game = load_game("rithmomachia").unwrap();
    let start = game.write_position(&game.initial_position());
    let mut pos = game.parse_position(&start).unwrap();
    // A capture by eruption, then a pyramid losing a part.
    play(&game, &mut pos, "a3b6xb14");
    let text = game.write_position(&pos);
    assert!(!text.contains("s225"), "{text}");
    let again = game.parse_position(&text).unwrap();
    assert_eq!(game.write_position(&again), text);
    let fen = position(&[("e5", "P36+16+9+4+1"), ("h16", "r3")], "w - - 0 1");
    let pos = game.parse_position(&fen).unwrap();
    assert_eq!(game.write_position(&pos), fen);
}
