//! Moves as text, the one move language of the CLI, saved games, the web
//! page and the protocols.
//!
//! A move is written as its start and landing squares (`e2e4`), with the
//! landing squares of every part for composite moves (`a3xc5xe7`: `x` when
//! the move captures, `-` otherwise), a drop as `P*e5`, and the promoted
//! piece's letter in lower case at the end (`e7e8q`). Captured squares that
//! the landings do not already imply — not a landing square, not jumped
//! over between two landings — follow as `x` and the square (en passant
//! `e5d6xd5`). Legal moves that share a text write out all their captured
//! squares; if some still share one, the later ones get `#2`, `#3`, … so
//! that every legal move has its own text. When reading,
//! a text without its implied-capture suffix is accepted if it names one
//! move (so `e5d6` works too).

use crate::board::Square;
use crate::game::Game;
use crate::position::{MoveList, MoveRef, NO_PIECE};

/// A move text that names no legal move, or more than one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    #[error("'{text}' is not a legal move here; legal moves: {}", list(.legal))]
    Illegal { text: String, legal: Vec<String> },
    #[error("'{text}' could be any of {}; write one of these", list(.candidates))]
    Ambiguous {
        text: String,
        candidates: Vec<String>,
    },
}

fn list(moves: &[String]) -> String {
    if moves.is_empty() {
        "none".to_string()
    } else {
        moves.join(" ")
    }
}

/// The text of a move (without the `#n` of [`texts`]).
pub fn text(game: &Game, mv: MoveRef) -> String {
    with_captures(game, mv, false)
}

/// The text of a move, with every captured square written out that is not
/// a landing (`all`), or only those the landings do not imply.
fn with_captures(game: &Game, mv: MoveRef, all: bool) -> String {
    let mut out = short_text(game, mv);
    // A piece brought in from the hand (gating), as S-chess writes it:
    // `b1c3/Eb1`.
    for sq in crate::movegen::gated_squares(game, mv) {
        let info = game.cells.info(
            mv.changes
                .iter()
                .find(|c| c.slot == sq.0)
                .map_or(crate::position::Cell::EMPTY, |c| c.new),
        );
        if let Some(piece) = game.pieces.get(info.piece as usize) {
            out.push('/');
            out.push(piece.letter);
            out += game.topology.name(sq);
        }
    }
    // The duck moved after the move (`move_neutral`): `e2e4,d5`.
    for sq in game.placed_neutral(mv) {
        out.push(',');
        out += game.topology.name(sq);
    }
    let points = path_points(mv);
    for sq in game.captured_squares(mv) {
        let landing = points.iter().skip(1).any(|p| *p == sq);
        if (all && !landing) || !implied(game, &points, sq) {
            out += "x";
            out += game.topology.name(sq);
        }
    }
    out
}

/// Start, part landings and end of a move, as squares.
fn path_points(mv: MoveRef) -> Vec<Square> {
    let mut points: Vec<Square> = mv.header.from().into_iter().collect();
    points.extend_from_slice(mv.landings);
    points.extend(mv.header.to());
    points
}

/// Whether a captured square is a landing square or lies strictly between
/// two consecutive points of the move on a straight line.
fn implied(game: &Game, points: &[Square], sq: Square) -> bool {
    if points.iter().skip(1).any(|p| *p == sq) {
        return true;
    }
    let topo = &game.topology;
    // An explosion's victims stand around the landing square.
    if game.rules.captures_explode
        && points
            .last()
            .is_some_and(|at| topo.neighbours(*at).contains(&sq))
    {
        return true;
    }
    let c = topo.coords(sq);
    points.windows(2).any(|w| {
        let (a, b) = (topo.coords(w[0]), topo.coords(w[1]));
        let d = [b.col - a.col, b.row - a.row, b.level - a.level];
        let e = [c.col - a.col, c.row - a.row, c.level - a.level];
        let n = d.iter().map(|x| x.abs()).max().unwrap_or(0);
        let k = e.iter().map(|x| x.abs()).max().unwrap_or(0);
        let straight = d.iter().all(|x| x.abs() == n || *x == 0);
        straight && k > 0 && k < n && (0..3).all(|i| e[i] * n == d[i] * k)
    })
}

/// Start, landings and promotion: the text before any captured squares.
fn short_text(game: &Game, mv: MoveRef) -> String {
    let topo = &game.topology;
    let h = mv.header;
    if h.from().is_none() && h.to().is_none() && mv.landings.is_empty() {
        return "pass".to_string();
    }
    let mut out = String::new();
    match h.from() {
        Some(from) => out += topo.name(from),
        None => {
            // A piece dropped with its promoted side up keeps its mark
            // (`+L*c3`, Kyoto shogi).
            if let Some(p) = game.pieces.get(h.piece as usize) {
                if p.symbol.starts_with('+') {
                    out += &p.symbol;
                } else {
                    out.push(p.letter);
                }
            }
            out.push('*');
        }
    }
    let sep = if mv.landings.is_empty() && !topo.separated_names() {
        ""
    } else if h.captures > 0 {
        "x"
    } else {
        "-"
    };
    for (i, sq) in mv.landings.iter().enumerate() {
        if i > 0 || h.from().is_some() {
            out += sep;
        }
        out += topo.name(*sq);
    }
    if let Some(to) = h.to() {
        if h.from().is_some() || !mv.landings.is_empty() {
            out += sep;
        }
        out += topo.name(to);
    }
    if h.promotion != NO_PIECE {
        let promoted = &game.pieces[h.promotion as usize];
        let moving = game.pieces.get(h.piece as usize);
        if promoted.symbol.starts_with('+') {
            out.push('+');
        } else if moving.is_some_and(|p| p.symbol.starts_with('+')) {
            // A promoted shogi piece turned back (Kyoto shogi): `a1a2-`.
            out.push('-');
        } else if game.fen.format == crate::game::PositionFormat::Sfen {
            // USI writes every promotion `+`, also to a piece that has a
            // letter of its own (Tenjiku's Bishop General to Vice General).
            out.push('+');
        } else {
            out.push(promoted.letter.to_ascii_lowercase());
        }
    }
    out
}

/// Texts of all moves of a list; each legal move gets a distinct text.
/// Moves whose texts are the same write out every square they capture
/// (a Lion that takes on d5 and goes on to d6, `d4d6xd5`, beside the jump
/// `d4d6`); those still the same are numbered `#2`, `#3`, … in list order.
pub fn texts(game: &Game, list: &MoveList) -> Vec<String> {
    use std::collections::HashMap;
    let count = |texts: &[String]| {
        let mut n: HashMap<String, usize> = HashMap::new();
        for t in texts {
            *n.entry(t.clone()).or_default() += 1;
        }
        n
    };
    let mut out: Vec<String> = list.iter().map(|m| text(game, m)).collect();
    let shared = count(&out);
    for (i, t) in out.iter_mut().enumerate() {
        if shared[t.as_str()] > 1 {
            *t = with_captures(game, list.get(i), true);
        }
    }
    let shared = count(&out);
    let mut seen: HashMap<String, usize> = HashMap::new();
    for t in out.iter_mut() {
        if shared[t.as_str()] > 1 {
            let n = seen.entry(t.clone()).or_default();
            *n += 1;
            if *n > 1 {
                *t = format!("{t}#{n}");
            }
        }
    }
    out
}

/// Finds the move a text names among `list`: an exact text, or a short
/// text that names exactly one move.
pub fn find(game: &Game, list: &MoveList, text: &str) -> Result<usize, MoveTextError> {
    let text = text.trim();
    let all = texts(game, list);
    if let Some(i) = all.iter().position(|t| t == text) {
        return Ok(i);
    }
    let lower = text.to_ascii_lowercase();
    let matches: Vec<usize> = (0..list.len())
        .filter(|&i| {
            all[i].to_ascii_lowercase() == lower
                || short_text(game, list.get(i)).to_ascii_lowercase() == lower
        })
        .collect();
    match matches.as_slice() {
        [i] => Ok(*i),
        [] => Err(MoveTextError::Illegal {
            text: text.to_string(),
            legal: all,
        }),
        _ => Err(MoveTextError::Ambiguous {
            text: text.to_string(),
            candidates: matches.iter().map(|&i| all[i].clone()).collect(),
        }),
    }
}
