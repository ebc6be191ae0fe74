//! The rule `move_neutral` (duck chess): every move ends with the mover
//! putting a neutral piece — one that belongs to nobody — on another empty
//! square. Each move the programs generate becomes one move per square the
//! piece may go to.

use crate::board::Square;
use crate::game::Game;
use crate::position::{Cell, Change, MoveList, Position};

/// Replaces every move of `moves` by its versions that also move the
/// neutral piece `piece` from where it stands (if it is on the board) to an
/// empty square of the position after the move. `scratch` is a buffer.
pub(super) fn expand(
    game: &Game,
    pos: &Position,
    piece: u16,
    moves: &mut MoveList,
    scratch: &mut MoveList,
) {
    let neutral = game.cells.piece(piece, 0, false);
    let squares = game.topology.len();
    let at = game.topology.squares().find(|sq| pos.cell(*sq) == neutral);
    let mut empty: Vec<bool> = game
        .topology
        .squares()
        .map(|sq| pos.cell(sq).is_empty())
        .collect();
    std::mem::swap(moves, scratch);
    moves.clear();
    let mut changes: Vec<Change> = Vec::new();
    for mv in scratch.iter() {
        let on_board = || mv.changes.iter().filter(|c| (c.slot as usize) < squares);
        for c in on_board() {
            empty[c.slot as usize] = c.new.is_empty();
        }
        for to in (0..squares).filter(|s| empty[*s]).map(|s| Square(s as u16)) {
            changes.clear();
            changes.extend_from_slice(mv.changes);
            let mut header = *mv.header;
            header.simple = false;
            let mut put = |slot: Square, old: Cell, new: Cell| {
                changes.push(Change {
                    slot: slot.0,
                    old,
                    new,
                });
                header.hash_delta ^= game.key(slot.index(), old) ^ game.key(slot.index(), new);
            };
            if let Some(from) = at {
                put(from, neutral, Cell::EMPTY);
            }
            put(to, Cell::EMPTY, neutral);
            changes.sort_unstable_by_key(|c| c.slot);
            moves.push(header, &changes, mv.landings);
        }
        for c in on_board() {
            empty[c.slot as usize] = pos.cell(Square(c.slot)).is_empty();
        }
    }
}
