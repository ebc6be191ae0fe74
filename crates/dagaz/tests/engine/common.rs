//! Helpers shared by the integration tests: small "laboratory" games built
//! around one piece under test, and move listing.

#![allow(dead_code)]

use dagaz::game::Game;
use dagaz::load::load_str;
use dagaz::movegen::Generator;
use dagaz::position::MoveList;
use dagaz::position::Position;
use dagaz::text::movetext;

/// An 8x8 game with a piece `Tester` (letter T) whose moves are `moves`,
/// an immobile `Stone` (S), a `Walker` (W) that steps one square in any
/// direction, and a `Rook` (R). Black reads the board upside down. `extra`
/// is appended to the file (rules, handlers, zones…).
pub fn lab(moves: &str, extra: &str) -> Game {
    lab_with(&format!("moves = '''{moves}'''"), extra)
}

/// Like [`lab`], with the tester's whole `moves = …` line given.
pub fn lab_with(moves_line: &str, extra: &str) -> Game {
    let source = lab_source(moves_line, extra);
    load_str(&source, "lab.toml", "lab").unwrap_or_else(|e| panic!("{e}"))
}

pub fn lab_source(moves_line: &str, extra: &str) -> String {
    format!(
        r#"
[game]
name = "lab"
players = ["White", "Black"]

[board]
grid = "a-h x 8-1"

[players.Black]
map = "N=S S=N O=T T=O M=R R=M"

[zones.far]
White = "a8-h8"
Black = "a1-h1"

[pieces.Tester]
letter = "T"
{moves_line}

[pieces.Stone]
letter = "S"

[pieces.Walker]
letter = "W"
moves = "*"

[pieces.Rook]
letter = "R"
moves = "(+)([p]\\1)*"

[setup]
fen = "8/8/8/8/3T4/8/8/8 w - - 0 1"

{extra}
"#
    )
}

/// Sorted texts of the legal moves in `pos`.
pub fn moves_in(game: &Game, pos: &mut Position) -> Vec<String> {
    let mut list = MoveList::new();
    Generator::new().legal(game, pos, &mut list).unwrap();
    let mut t = movetext::texts(game, &list);
    t.sort();
    t
}

/// Sorted texts of the moves `Generator::moves_to_try` gives for `pos`
/// that `Generator::allows` once made: the same as [`moves_in`] when the
/// two ways of generating agree.
pub fn moves_tried_in(game: &Game, pos: &mut Position) -> Vec<String> {
    let (mut generator, mut list) = (Generator::new(), MoveList::new());
    let legality = generator.moves_to_try(game, pos, &mut list).unwrap();
    let texts = movetext::texts(game, &list);
    let mut kept = Vec::new();
    for (i, text) in texts.into_iter().enumerate() {
        let mv = list.get(i);
        game.make(pos, mv);
        let legal = generator.allows(game, pos, mv, &legality).unwrap();
        game.undo(pos, mv);
        if legal {
            kept.push(text);
        }
    }
    kept.sort();
    kept
}

/// Sorted texts of the legal moves of `fen_text` that start with `prefix`
/// (the moves of the piece on that square).
pub fn moves_from(game: &Game, fen_text: &str, prefix: &str) -> Vec<String> {
    moves(game, fen_text)
        .into_iter()
        .filter(|m| m.starts_with(prefix))
        .collect()
}

/// Sorted texts of the legal moves of the position `fen_text`.
pub fn moves(game: &Game, fen_text: &str) -> Vec<String> {
    let mut pos = position(game, fen_text);
    moves_in(game, &mut pos)
}

pub fn position(game: &Game, fen_text: &str) -> Position {
    game.parse_position(fen_text)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A sketch: a position the game's rules cannot reach (a piece alone on
/// the board, a royal piece that can be taken), read without the checks of
/// `parse_position`, to look at how one piece moves.
pub fn sketch(game: &Game, fen_text: &str) -> Position {
    dagaz::text::read_position(game, fen_text, Some(game.setup())).unwrap_or_else(|e| panic!("{e}"))
}

/// Sorted texts of the legal moves of a sketch (see [`sketch`]).
pub fn sketch_moves(game: &Game, fen_text: &str) -> Vec<String> {
    moves_in(game, &mut sketch(game, fen_text))
}

/// Plays a move given by its text.
pub fn play(game: &Game, pos: &mut Position, text: &str) {
    let mut list = MoveList::new();
    Generator::new().legal(game, pos, &mut list).unwrap();
    let i = movetext::find(game, &list, text).unwrap_or_else(|e| panic!("{e}"));
    game.make(pos, list.get(i));
}

/// Moves of the tester on d4 of an otherwise empty board.
pub fn alone(moves_expr: &str) -> Vec<String> {
    moves(&lab(moves_expr, ""), "8/8/8/8/3T4/8/8/8 w - - 0 1")
}

pub fn v(list: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    out.sort();
    out
}

/// A position of `game` holding only `pieces`, given as (square, symbol)
/// with the symbol in upper case for the first player, with `side` to
/// move (`b`/`w`, a player's letter), written in the game's own form.
pub fn placed(game: &Game, pieces: &[(&str, &str)], side: &str) -> String {
    let mut pos = game.initial_position();
    for sq in 0..game.topology.len() {
        pos.set(&game.cells, sq, dagaz::position::Cell::EMPTY);
    }
    for (square, symbol) in pieces {
        let sq = game
            .topology
            .square(square)
            .unwrap_or_else(|| panic!("no square {square}"));
        let owner = usize::from(symbol.chars().any(|c| c.is_ascii_lowercase()));
        let piece = game
            .pieces
            .iter()
            .position(|p| p.symbol.eq_ignore_ascii_case(symbol))
            .unwrap_or_else(|| panic!("no piece {symbol}"));
        pos.set(
            &game.cells,
            sq.index(),
            game.cells.piece(piece as u16, owner, false),
        );
    }
    let side = game
        .players
        .iter()
        .position(|p| side.starts_with(p.letter))
        .unwrap_or_else(|| panic!("no player {side}"));
    pos.set_side(side);
    game.write_position(&pos)
}
