//! The ko rule (`[rules] ko`): a move may not bring back the position the
//! mover's previous move left ("simple"), or any earlier position with the
//! same player to move ("situation"). One stone on a strip of three
//! squares that both players may move shows each reading.

use dagaz::game::Game;
use dagaz::load::load_str;

use crate::common::{moves_in, play, v};

/// The strip's game file, with `ko` among its rules (line 15).
fn strip_source(ko: &str) -> String {
    format!(
        r#"
[game]
name = "strip"
players = ["White", "Black"]

[board]
grid = "a-c x 1"

[pieces.Stone]
letter = "S"
moves = "*"

[rules]
move_any_piece = true
{ko}

[setup]
fen = "S2 w - - 0 1"
"#
    )
}

fn strip(ko: &str) -> Game {
    load_str(&strip_source(ko), "strip.toml", "strip").unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn without_ko_the_stone_may_go_back_and_forth() {
    let g = strip("");
    let mut pos = g.initial_position();
    play(&g, &mut pos, "a1b1");
    assert_eq!(moves_in(&g, &mut pos), v(&["b1a1", "b1c1"]));
    play(&g, &mut pos, "b1a1");
    assert_eq!(moves_in(&g, &mut pos), v(&["a1b1"]));
}

#[test]
fn situational_ko_forbids_any_earlier_position() {
    let g = strip(r#"ko = "situation""#);
    let mut pos = g.initial_position();
    play(&g, &mut pos, "a1b1");
    // b1a1 would bring back the start, White to move.
    assert_eq!(moves_in(&g, &mut pos), v(&["b1c1"]));
}

#[test]
fn simple_ko_forbids_restoring_the_movers_previous_result() {
    let g = strip(r#"ko = "simple""#);
    let mut pos = g.initial_position();
    play(&g, &mut pos, "a1b1");
    // Black has not moved before: going back is allowed.
    assert_eq!(moves_in(&g, &mut pos), v(&["b1a1", "b1c1"]));
    play(&g, &mut pos, "b1a1");
    // a1b1 would restore what White's first move left.
    assert!(moves_in(&g, &mut pos).is_empty());
    // The searcher's lazy legality agrees with the list.
    let mut generator = dagaz::movegen::Generator::new();
    let mut list = dagaz::position::MoveList::new();
    let legality = generator.moves_to_try(&g, &mut pos, &mut list).unwrap();
    let allowed = (0..list.len()).filter(|&i| {
        let mv = list.get(i);
        g.make(&mut pos, mv);
        let ok = generator.allows(&g, &mut pos, mv, &legality).unwrap();
        g.undo(&mut pos, mv);
        ok
    });
    assert_eq!(allowed.count(), 0);
}

#[test]
fn an_unknown_ko_reading_is_a_located_error() {
    let source = strip_source(r#"ko = "super""#);
    let e = load_str(&source, "strip.toml", "strip")
        .unwrap_err()
        .to_string();
    assert!(e.contains("rules.ko: 'super'"), "{e}");
    assert!(e.contains("strip.toml:15"), "{e}");
}
