//! Games of several players in which a mated player drops out (four-player
//! chess), end rule `elimination`:
//!
//! - A player with no royal piece left passes every turn; its other pieces
//!   stay on the board, inert, and may be captured.
//! - A player who cannot move while two or more others still have royal
//!   pieces resigns: its only move takes its royal pieces off the board.
//! - One player left with royal pieces has won. With two left, a player
//!   who cannot move loses if in check (checkmate) and draws if not.

use super::{EndRule, HandlerRegistry};
use crate::game::{Game, GameResult};
use crate::position::{Cell, Change, NO_PIECE, Position};
use crate::position::{MoveHeader, MoveList};

pub(super) fn register(r: &mut HandlerRegistry) {
    r.register_end("elimination", Elimination);
}

struct Elimination;

fn alive(game: &Game, pos: &Position) -> Vec<usize> {
    (0..game.players.len())
        .filter(|&p| game.has_royal(pos, p))
        .collect()
}

impl EndRule for Elimination {
    fn result(&self, game: &Game, pos: &Position, legal_moves: usize) -> Option<GameResult> {
        let alive = alive(game, pos);
        let side = pos.side();
        match alive[..] {
            [] => Some(GameResult::Draw {
                reason: "no King is left".into(),
            }),
            [winner] => Some(GameResult::Win {
                winner,
                reason: "the last King standing".into(),
            }),
            [a, b] if legal_moves == 0 && (side == a || side == b) => {
                if game.royal_attacked(pos, side) {
                    Some(GameResult::Win {
                        winner: if side == a { b } else { a },
                        reason: "checkmate".into(),
                    })
                } else {
                    Some(GameResult::Draw {
                        reason: "stalemate".into(),
                    })
                }
            }
            _ => None,
        }
    }

    fn adds_moves(&self) -> bool {
        true
    }

    fn complete(&self, game: &Game, pos: &Position, moves: &mut MoveList) {
        let side = pos.side();
        let mut header = MoveHeader::new(NO_PIECE, None, None, 0);
        header.player = side as u8;
        if !game.has_royal(pos, side) {
            // Out of the game: a pass.
            moves.clear();
            moves.push(header, &[], &[]);
            return;
        }
        if !moves.is_empty() || alive(game, pos).len() <= 2 {
            return;
        }
        // Mated or stalemated among three or more: resign.
        let mut changes = Vec::new();
        for &t in game.royal_types() {
            for sq in game.topology.squares() {
                let cell = pos.cell(sq);
                let info = game.cells.info(cell);
                if !cell.is_empty() && info.piece == t && info.owner as usize == side {
                    changes.push(Change {
                        slot: sq.0,
                        old: cell,
                        new: Cell::EMPTY,
                    });
                    header = MoveHeader::new(t, Some(sq), Some(sq), 0);
                    header.player = side as u8;
                }
            }
        }
        header.hash_delta = changes.iter().fold(0, |h, c| {
            h ^ game.key(c.slot as usize, c.old) ^ game.key(c.slot as usize, c.new)
        });
        moves.push(header, &changes, &[]);
    }
}
