//! Chu shogi's rules that the notation cannot say, as lishogi plays them
//! (end rule `chu_shogi`):
//!
//! - A side whose royal pieces (King, Crown Prince) are all captured has
//!   lost; there is no check rule.
//! - Lion trading. The Lions are the pieces named `Lion` and
//!   `PromotedKirin`. A Lion may take an adjacent Lion freely, but not a
//!   Lion two squares away that another enemy piece protects (could take
//!   back on that square, the board as it stands before the move),
//!   unless the same move also took a piece other than a `Pawn` or a
//!   `GoBetween` (a "bridge"). And after a piece that is not a Lion has
//!   taken a Lion, the other side may not take a Lion with a piece that is
//!   not a Lion on the very next move, except by taking back the piece
//!   that took it (the "counter-strike" rule; a position string records
//!   such a capture in its third field).

use super::{EndRule, HandlerRegistry};
use crate::board::Square;
use crate::game::{Game, GameResult};
use crate::position::{MoveList, MoveRef};
use crate::position::{NO_PIECE, Position};

pub(super) fn register(r: &mut HandlerRegistry) {
    r.register_end("chu_shogi", ChuShogi);
}

struct ChuShogi;

/// Bits of the piece types with these names.
fn mask(game: &Game, names: &[&str]) -> u64 {
    game.pieces
        .iter()
        .enumerate()
        .filter(|(i, p)| *i < 64 && names.contains(&p.name.as_str()))
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// Bits of the piece types named as Lions.
pub fn lion_mask(game: &Game) -> u64 {
    mask(game, &["Lion", "PromotedKirin"])
}

fn has(mask: u64, piece: u16) -> bool {
    piece < 64 && mask & (1 << piece) != 0
}

/// The enemy pieces a move takes: (square, type).
fn taken(game: &Game, pos: &Position, mv: MoveRef) -> Vec<(Square, u16)> {
    let side = pos.side();
    mv.changes
        .iter()
        .filter(|c| (c.slot as usize) < game.topology.len() && !c.old.is_empty())
        .filter_map(|c| {
            let old = game.cells.info(c.old);
            let new = game.cells.info(c.new);
            let gone = c.new.is_empty() || new.owner as usize == side;
            (old.piece != NO_PIECE && old.owner as usize != side && gone)
                .then_some((Square(c.slot), old.piece))
        })
        .collect()
}

fn distance(game: &Game, a: Square, b: Square) -> i32 {
    let (p, q) = (game.topology.coords(a), game.topology.coords(b));
    (p.col - q.col).abs().max((p.row - q.row).abs())
}

impl ChuShogi {
    /// Whether the move breaks a Lion-trading rule.
    /// `counter`: the square where a non-Lion just took a Lion, if any.
    fn forbidden(&self, game: &Game, pos: &Position, mv: MoveRef, counter: Option<Square>) -> bool {
        let lions = lion_mask(game);
        let taken = taken(game, pos, mv);
        let lion_targets: Vec<Square> = taken
            .iter()
            .filter(|(_, t)| has(lions, *t))
            .map(|(sq, _)| *sq)
            .collect();
        if lion_targets.is_empty() {
            return false;
        }
        if !has(lions, mv.header.piece) {
            // Taking back the piece that took the Lion is allowed.
            return counter.is_some_and(|at| lion_targets.iter().any(|t| *t != at));
        }
        let weak = mask(game, &["Pawn", "GoBetween"]);
        let bridge = taken
            .iter()
            .any(|(sq, t)| !lion_targets.contains(sq) && !has(weak, *t));
        let Some(from) = mv.header.from() else {
            return false;
        };
        let far = lion_targets.iter().any(|t| distance(game, from, *t) >= 2);
        if !far || bridge {
            return false;
        }
        // Protected: an enemy piece could take back on the Lion's square,
        // as the board stands before the move with the mover put there.
        let player = pos.side();
        let mover = pos.cell(from);
        let mut cells = pos.cells().to_vec();
        cells[from.index()] = crate::position::Cell::EMPTY;
        lion_targets.iter().any(|&t| {
            distance(game, from, t) >= 2 && {
                let saved = cells[t.index()];
                cells[t.index()] = mover;
                let hit = crate::movegen::attack::attacked(
                    game,
                    &cells,
                    pos.history(),
                    t,
                    1 - player,
                    mover,
                    None,
                );
                cells[t.index()] = saved;
                hit
            }
        })
    }
}

impl EndRule for ChuShogi {
    fn result(&self, game: &Game, pos: &Position, _legal: usize) -> Option<GameResult> {
        let royal = |player: usize| game.has_royal(pos, player);
        // A position without royals on either side (a study) never ends.
        if !royal(0) && !royal(1) {
            return None;
        }
        (0..2).find(|&p| !royal(p)).map(|loser| GameResult::Win {
            winner: 1 - loser,
            reason: "all royal pieces captured".into(),
        })
    }

    fn forbids_moves(&self) -> bool {
        true
    }

    fn restricts_lion_trading(&self) -> bool {
        true
    }

    fn forbid(&self, game: &Game, pos: &mut Position, moves: &MoveList, keep: &mut [bool]) {
        if self.result(game, pos, moves.len()).is_some() {
            keep.fill(false);
            return;
        }
        let lions = lion_mask(game);
        let counter = pos
            .history()
            .last()
            .filter(|p| p.took & lions != 0 && !has(lions, p.piece))
            .and_then(|p| p.to);
        for (i, k) in keep.iter_mut().enumerate() {
            if *k && self.forbidden(game, pos, moves.get(i), counter) {
                *k = false;
            }
        }
    }
}
