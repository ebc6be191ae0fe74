//! Turns restricted to a move type and turns in which a player moves
//! another player's pieces: the game file's `turns` entries written as
//! tables (`{ player, type, pieces }`), and the ZRF turn orders that
//! convert to them (`(White setup)`, `(X N)`). The fixtures
//! `tests/data/zrf/setup-turns.zrf` and `neutral-stones.zrf` are written
//! for these tests; their counts are worked out by hand in the comments.

use dagaz::load::load_str;

use crate::common::{moves_in, play};

/// A 3x3 game file whose Man steps as a king (notation) and drops with
/// ZRF blocks of type `place`, with `rules` appended.
fn placing(rules: &str) -> String {
    format!(
        r#"
[game]
name = "placing"
players = ["White", "Black"]

[board]
grid = "a-c x 3-1"

[pieces.Man]
letter = "M"
moves = "*"
drops = [{{ zrf = "((verify empty?) add)", type = "place" }}]

[setup]
fen = "m2/1M1/3[M] w - - 0 1"

[rules]
hands = true
{rules}
"#
    )
}

#[test]
fn a_turn_restricted_to_a_move_type_in_a_game_file() {
    let text = placing(
        r#"turns = { opening = [{ player = "White", type = "place" }], repeat = ["Black", "White"] }"#,
    );
    let g = load_str(&text, "placing.toml", "placing").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.move_types, ["place"]);
    let mut pos = g.initial_position();
    // White's first turn only places: the Man on b2 does not step (its
    // notation moves have no type), and the seven empty squares take one.
    let first = moves_in(&g, &mut pos);
    assert_eq!(first.len(), 7, "{first:?}");
    assert!(first.iter().all(|m| m.starts_with("M*")), "{first:?}");
    play(&g, &mut pos, "M*c1");
    // Black's turn is any move: the Man on a3 steps, or takes on b2.
    assert_eq!(moves_in(&g, &mut pos), ["a3a2", "a3b2", "a3b3"]);
    play(&g, &mut pos, "a3a2");
    // White's turns are any move from now on: both Men step, b2's to its
    // seven free neighbours (taking on a2), c1's to b1 and c2.
    let white = moves_in(&g, &mut pos);
    assert_eq!(white.len(), 9, "{white:?}");
    assert!(white.iter().any(|m| m == "b2a2"), "{white:?}");
}

#[test]
fn a_turn_that_moves_the_other_players_pieces_keeps_its_own_royal_safe() {
    // Each player moves the other's pieces; royal safety protects the
    // royal pieces of the player whose turn it is.
    let text = r#"
[game]
name = "swapped"
players = ["White", "Black"]

[board]
grid = "a-c x 3-1"

[pieces.King]
letter = "K"
royal = true
moves = "*"

[pieces.Rook]
letter = "R"
moves = "(+)([p]\\1)*"

[setup]
fen = "1r1/3/K1k w - - 0 1"

[rules]
royal_safety = true
turns = [{ player = "White", pieces = "Black" }, { player = "Black", pieces = "White" }]
"#;
    let g = load_str(text, "swapped.toml", "swapped").unwrap_or_else(|e| panic!("{e}"));
    let mut pos = g.initial_position();
    // Black's Rook (a3, c3, b2, b1) and King (b1, b2, c2): a move that
    // attacks White's King on a1 is refused, whoever's piece makes it.
    assert_eq!(moves_in(&g, &mut pos), ["b3b2", "b3c3", "c1c2"]);
    play(&g, &mut pos, "c1c2");
    // Black's turn: it moves White's King, but not next to Black's.
    assert_eq!(g.write_position(&pos), "1r1/2k/K2 b - - 1 1");
    assert_eq!(moves_in(&g, &mut pos), ["a1a2"]);
}

#[test]
fn wrong_names_in_turns_are_located_errors() {
    let cases = [
        (
            r#"turns = [{ player = "White", type = "jump" }, "Black"]"#,
            "no move has the move type 'jump' (the move types are place)",
        ),
        (
            r#"turns = [{ player = "White", pieces = "Red" }, "Black"]"#,
            "'Red' is not a player",
        ),
        (
            r#"turns = [{ player = "Blue" }, "Black"]"#,
            "'Blue' is not a player",
        ),
        (
            r#"turns = [{ player = "White", colour = "Black" }]"#,
            "unknown field `colour`",
        ),
    ];
    for (rules, what) in cases {
        let text = placing(rules);
        let e = load_str(&text, "placing.toml", "placing")
            .unwrap_err()
            .to_string();
        let line = text.lines().position(|l| l.starts_with("turns")).unwrap() + 1;
        assert!(e.contains(what), "{rules}: {e}");
        assert!(e.contains(&format!("placing.toml:{line}:")), "{rules}: {e}");
    }
}
