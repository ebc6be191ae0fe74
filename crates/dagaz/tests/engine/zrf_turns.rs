//! Turns restricted to a move type and turns in which a player moves
//! another player's pieces: the game file's `turns` entries written as
//! tables (`{ player, type, pieces }`), and the ZRF turn orders that
//! convert to them (`(White setup)`, `(X N)`). The fixtures
//! `tests/data/zrf/setup-turns.zrf` and `neutral-stones.zrf` are written
//! for these tests; their counts are worked out by hand in the comments.

use dagaz::game::{Game, GameResult};
use dagaz::import::zrf::convert;
use dagaz::load::load_str;
use dagaz::movegen::{Generator, perft};

use crate::common::{moves_in, play, position, v};

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

const SETUP: &str = include_str!("../data/zrf/setup-turns.zrf");
const STONES: &str = include_str!("../data/zrf/neutral-stones.zrf");

/// A ZRF text's first game, converted and loaded.
fn zrf_game(name: &str, text: &str) -> Game {
    let c = convert(name, text, 0, &|_| None).unwrap_or_else(|e| panic!("{e}"));
    load_str(&c.game, &format!("{name} (converted)"), name).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn zrf_setup_turns_then_advance_turns_then_any_move() {
    let g = zrf_game("setup-turns.zrf", SETUP);
    let mut pos = g.initial_position();
    // (White setup): only drops, on White's empty home squares; the Man
    // on a1 neither advances to a2 nor steps sideways to b1.
    assert_eq!(moves_in(&g, &mut pos), ["M*b1", "M*c1"]);
    play(&g, &mut pos, "M*b1");
    // (Black setup): a3 and b3 (c3 holds its Man).
    assert_eq!(moves_in(&g, &mut pos), ["M*a3", "M*b3"]);
    play(&g, &mut pos, "M*b3");
    // (White advance): a step forwards each; no sideways b1c1, and no
    // drop though White holds a Man.
    assert_eq!(moves_in(&g, &mut pos), ["a1a2", "b1b2"]);
    play(&g, &mut pos, "a1a2");
    // (Black advance): forwards is down the board for Black.
    assert_eq!(moves_in(&g, &mut pos), ["b3b2", "c3c2"]);
    play(&g, &mut pos, "c3c2");
    // White: any move. a2 forwards and sideways, b1 forwards and
    // sideways, and drops on the empty home squares a1 and c1.
    let any = ["M*a1", "M*c1", "a2a3", "a2b2", "b1b2", "b1c1"];
    assert_eq!(moves_in(&g, &mut pos), v(&any));
    play(&g, &mut pos, "b1c1");
    play(&g, &mut pos, "b3c3");
    // (White advance) again: a2a3 only (c1's way is blocked by c2).
    assert_eq!(moves_in(&g, &mut pos), ["a2a3"]);
    // Perft: 2 drops, 2 drops, 2 steps; then Black's two steps but those
    // onto a square White's step took (worked out case by case): 11.
    let mut pos = g.initial_position();
    let counts: Vec<u64> = (1..=4).map(|d| perft(&g, &mut pos, d).unwrap()).collect();
    assert_eq!(counts, [2, 4, 8, 11]);
}

#[test]
fn zrf_players_drop_and_push_a_third_players_pieces() {
    let g = zrf_game("neutral-stones.zrf", STONES);
    let mut pos = g.initial_position();
    // X drops N's Stones, on N's field (column b): not on X's (a) nor
    // O's (c).
    assert_eq!(moves_in(&g, &mut pos), ["S*b1", "S*b2", "S*b3"]);
    play(&g, &mut pos, "S*b2");
    // The Stone came out of N's hand (X and O hold the stock every
    // dropping piece gets, which they never use here).
    let written = g.write_position(&pos);
    assert!(written.starts_with("3/1,nS,1/3["), "{written}");
    assert!(written.contains(",2nS]"), "{written}");
    // O: the two other drops, or N's Stone pushed east in N's terms: to
    // the board's west.
    assert_eq!(moves_in(&g, &mut pos), ["S*b1", "S*b3", "b2a2"]);
    play(&g, &mut pos, "b2a2");
    // X: three drops; the Stone on a2 has no west.
    assert_eq!(moves_in(&g, &mut pos), ["S*b1", "S*b2", "S*b3"]);
    // Every position of the first two plies leaves the next player three
    // moves: the drops left and one push per Stone on column b, or, after
    // a push, the three drops.
    let mut pos = g.initial_position();
    let counts: Vec<u64> = (1..=3).map(|d| perft(&g, &mut pos, d).unwrap()).collect();
    assert_eq!(counts, [3, 9, 27]);
    // (O N push): O may only push N's Stones (their moves are of type
    // push; the drops have none).
    let pushing = STONES.replace("(O N))", "(O N push))");
    let g = zrf_game("neutral-stones.zrf", &pushing);
    let mut pos = g.initial_position();
    play(&g, &mut pos, "S*b2");
    assert_eq!(moves_in(&g, &mut pos), ["b2a2"]);
}

#[test]
fn zrf_the_player_of_the_turn_is_the_one_who_moved() {
    let g = zrf_game("neutral-stones.zrf", STONES);
    // O's only move drops N's last Stone; X then has no move, and O, who
    // moved last, wins (`no_moves = win`): not N, whose Stone it was, nor
    // N as the player before X in the order of the players.
    let mut pos = position(&g, "nS,nS,1/nS,nS,1/nS,2[nS] o - - 0 1");
    assert_eq!(moves_in(&g, &mut pos), ["S*b1"]);
    play(&g, &mut pos, "S*b1");
    let result = Generator::new().result(&g, &mut pos).unwrap();
    assert!(
        matches!(result, Some(GameResult::Win { winner: 1, .. })),
        "{result:?}"
    );
    // A stalemate of X or O alone: the goal names the player who moves
    // before each of them in the turn order.
    let only = STONES.replace("(X O N) stalemated", "(X O) stalemated");
    let c = convert("neutral-stones.zrf", &only, 0, &|_| None).unwrap();
    assert!(
        c.game
            .contains(r#"goals = ["O: no_moves = win", "X: no_moves = win"]"#),
        "{}",
        c.game
    );
}

#[test]
fn zrf_wrong_turns_are_located_errors() {
    let order = "(turn-order (White setup) (Black setup)";
    let cases = [
        (
            "(turn-order (White jump) (Black setup)",
            "'jump' in a turn is neither a player nor a move type",
        ),
        (
            "(turn-order (Red setup) (Black setup)",
            "'Red' is not a player",
        ),
        (
            "(turn-order (White setup advance) (Black setup)",
            "a turn lists names",
        ),
        (
            "(turn-order ((White) setup) (Black setup)",
            "a turn lists names",
        ),
        (
            "(turn-order () (Black setup)",
            "a turn is a player or a list",
        ),
    ];
    for (bad, what) in cases {
        let text = SETUP.replace(order, bad);
        let e = convert("setup-turns.zrf", &text, 0, &|_| None)
            .err()
            .unwrap_or_else(|| panic!("accepted: {bad}"))
            .to_string();
        assert!(e.starts_with("setup-turns.zrf:9:"), "{bad}: {e}");
        assert!(e.contains(what), "{bad}: {e}");
    }
}
