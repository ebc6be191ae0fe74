//! Moves as text, the one move language of the CLI, saved games, the web
//! page and the protocols.
//!
//! A move is written as its start and landing squares (`e2e4`), with the
//! landing squares of every part for composite moves (`a3xc5xe7`, `x` when
//! the move captures, `-` otherwise), a drop as `P*e5`, and the promoted
//! piece's letter in lower case at the end (`e7e8q`). When two legal moves
//! would get the same text, both get their captured squares appended
//! (`…xd5`) so that every legal move has its own text.

use crate::game::Game;
use crate::movegen::{MoveList, MoveRef};
use crate::position::NO_PIECE;

/// A move text that names no legal move, or more than one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    #[error("'{text}' is not a legal move here; legal moves: {}", list(.legal))]
    Illegal { text: String, legal: Vec<String> },
    #[error("'{text}' could be any of {}; write one of these", list(.candidates))]
    Ambiguous { text: String, candidates: Vec<String> },
}

fn list(moves: &[String]) -> String {
    if moves.is_empty() {
        "none".to_string()
    } else {
        moves.join(" ")
    }
}

/// The short text of a move (without disambiguation).
pub fn base_text(game: &Game, mv: MoveRef) -> String {
    let topo = &game.topology;
    let h = mv.header;
    let mut out = String::new();
    match h.from() {
        Some(from) => out += topo.name(from),
        None => {
            if let Some(p) = game.pieces.get(h.piece as usize) {
                out.push(p.letter);
            }
            out.push('*');
        }
    }
    let sep = if h.captures > 0 { "x" } else { "-" };
    for (i, sq) in mv.landings.iter().enumerate() {
        if i > 0 || h.from().is_some() {
            out += sep;
        }
        out += topo.name(*sq);
    }
    if let Some(to) = h.to() {
        if !mv.landings.is_empty() {
            out += sep;
        }
        out += topo.name(to);
    }
    if h.promotion != NO_PIECE {
        out.push(game.pieces[h.promotion as usize].letter.to_ascii_lowercase());
    }
    out
}

/// The text of a move with its captured squares appended.
pub fn full_text(game: &Game, mv: MoveRef) -> String {
    let mut out = base_text(game, mv);
    for sq in captured_squares(game, mv) {
        out += "x";
        out += game.topology.name(sq);
    }
    out
}

/// Squares whose enemy pieces the move removes or replaces.
pub fn captured_squares(game: &Game, mv: MoveRef) -> Vec<crate::board::Square> {
    let squares = game.topology.len();
    let Some(owner) = mover_owner(game, mv) else {
        return Vec::new();
    };
    mv.changes
        .iter()
        .filter(|c| (c.slot as usize) < squares && !c.old.is_empty())
        .filter(|c| {
            let old = game.cells.info(c.old);
            old.owner != owner && game.cells.info(c.new) != old
        })
        .map(|c| crate::board::Square(c.slot))
        .collect()
}

/// The owner of the moving piece.
fn mover_owner(game: &Game, mv: MoveRef) -> Option<u8> {
    let (slot, old_side) = match (mv.header.from(), mv.header.to()) {
        (Some(f), _) => (f.0, true),
        (None, Some(t)) => (t.0, false),
        (None, None) => return None,
    };
    let c = mv.changes.iter().find(|c| c.slot == slot)?;
    let cell = if old_side { c.old } else { c.new };
    Some(game.cells.info(cell).owner)
}

/// Texts of all moves of a list; each legal move gets a distinct text.
pub fn texts(game: &Game, list: &MoveList) -> Vec<String> {
    let mut out: Vec<String> = list.iter().map(|m| base_text(game, m)).collect();
    let dup: Vec<bool> = out
        .iter()
        .map(|t| out.iter().filter(|u| *u == t).count() > 1)
        .collect();
    for (i, d) in dup.iter().enumerate() {
        if *d {
            out[i] = full_text(game, list.get(i));
        }
    }
    for i in 0..out.len() {
        let n = out[..i].iter().filter(|u| **u == out[i]).count();
        if n > 0 {
            out[i] = format!("{}#{}", out[i], n + 1);
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
        .filter(|&i| all[i].to_ascii_lowercase() == lower || base_text(game, list.get(i)).to_ascii_lowercase() == lower)
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
