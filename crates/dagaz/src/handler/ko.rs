//! Ko shogi's rules that change pieces other than the one that moves (end
//! rule `ko_shogi`, `games/ko-shogi.toml`). After every move, on the board
//! as the move leaves it:
//!
//! - a Clerk that has just promoted to `MasterAtArms` promotes its side's
//!   `AdvanceGuard`s and `RearGuard`s (to the first piece of their
//!   `promote.to`);
//! - a `FiveLiFog` with an `ImmaculateLight` (of either side) on one of
//!   the eight lines through it, at most five points away with nothing in
//!   between, turns back into a `TaoistPriest`;
//! - a side with neither a `TaoistPriest` nor a `FiveLiFog` has its
//!   `Thunderclap`s turned back into `Drum`s and its `RoamingAssault`s into
//!   `Banner`s (so a Drum or Banner cannot promote while its priest is
//!   gone).
//!
//! The rule never ends the game itself (the goals do). Moves it makes
//! identical to another move are listed once. A game without one of the
//! pieces named simply never sees the rules that need it.

use super::{EndRule, HandlerRegistry};
use crate::board::Square;
use crate::game::{Game, GameResult};
use crate::position::{Cell, Change, MoveHeader, MoveList, NO_PIECE, Position};

pub(super) fn register(r: &mut HandlerRegistry) {
    r.register_end("ko_shogi", KoShogi);
}

struct KoShogi;

/// The piece types the rule works with (`NO_PIECE` where the game has no
/// such piece).
struct Types {
    master: u16,
    guards: [(u16, u16); 2],
    fog: u16,
    light: u16,
    priest: u16,
    demotions: [(u16, u16); 2],
}

impl Types {
    fn of(game: &Game) -> Types {
        let t = |name: &str| game.piece_by_name(name).unwrap_or(NO_PIECE);
        let promoted = |piece: u16| {
            game.pieces
                .get(piece as usize)
                .and_then(|p| p.promotion.as_ref())
                .and_then(|p| p.to.first().copied())
                .unwrap_or(NO_PIECE)
        };
        let (advance, rear) = (t("AdvanceGuard"), t("RearGuard"));
        Types {
            master: t("MasterAtArms"),
            guards: [(advance, promoted(advance)), (rear, promoted(rear))],
            fog: t("FiveLiFog"),
            light: t("ImmaculateLight"),
            priest: t("TaoistPriest"),
            demotions: [
                (t("Thunderclap"), t("Drum")),
                (t("RoamingAssault"), t("Banner")),
            ],
        }
    }
}

/// Which of the rule's pieces the position holds, to pass over the moves
/// the rule cannot touch (most of them) without looking at the board.
struct Present {
    fog: bool,
    light: bool,
    /// Per side: a Thunderclap or Roaming assault.
    high: [bool; 2],
    /// Per side: a Taoist priest or Five-li fog.
    priests: [bool; 2],
}

impl Present {
    fn of(pos: &Position, t: &Types) -> Present {
        let has = |owner: usize, piece: u16| {
            piece != NO_PIECE
                && pos
                    .piece_bits(owner, piece as usize)
                    .iter()
                    .any(|w| *w != 0)
        };
        Present {
            fog: has(0, t.fog) || has(1, t.fog),
            light: has(0, t.light) || has(1, t.light),
            high: [0, 1].map(|o| t.demotions.iter().any(|&(h, _)| has(o, h))),
            priests: [0, 1].map(|o| has(o, t.priest) || has(o, t.fog)),
        }
    }

    /// Whether the rule may change anything after `mv`: a Clerk's
    /// promotion; a fog and a light both on the board after it; or a side
    /// with a Thunderclap or Roaming assault that has no priest or fog, or
    /// whose priest or fog the move touches.
    fn may_act(&self, game: &Game, t: &Types, mv: crate::position::MoveRef) -> bool {
        let promoted = mv.header.promotion;
        if t.master != NO_PIECE && promoted == t.master {
            return true;
        }
        if (self.fog || promoted == t.fog) && (self.light || promoted == t.light) {
            return true;
        }
        let high = t.demotions.iter().any(|&(h, _)| h == promoted);
        (0..2).any(|owner| {
            let touched = mv.changes.iter().any(|c| {
                let info = game.cells.info(c.old);
                !c.old.is_empty()
                    && info.owner as usize == owner
                    && (info.piece == t.priest || info.piece == t.fog)
            });
            (self.high[owner] || high) && (!self.priests[owner] || touched)
        })
    }
}

/// The board after a move: the move's changes over the position.
struct After<'a> {
    pos: &'a Position,
    changes: &'a [Change],
}

impl After<'_> {
    fn cell(&self, sq: Square) -> Cell {
        self.changes
            .iter()
            .find(|c| c.slot == sq.0)
            .map_or_else(|| self.pos.cell(sq), |c| c.new)
    }

    /// The squares where `owner` has a piece of type `piece`.
    fn squares(&self, game: &Game, owner: usize, piece: u16) -> Vec<Square> {
        if piece == NO_PIECE {
            return Vec::new();
        }
        let is = |cell: Cell| {
            let info = game.cells.info(cell);
            !cell.is_empty() && info.piece == piece && info.owner as usize == owner
        };
        let squares = game.topology.len();
        let mut out: Vec<Square> =
            crate::position::squares_of(self.pos.piece_bits(owner, piece as usize))
                .filter(|sq| is(self.cell(*sq)))
                .collect();
        for c in self.changes {
            let sq = Square(c.slot);
            if (c.slot as usize) < squares && is(c.new) && !out.contains(&sq) {
                out.push(sq);
            }
        }
        out
    }
}

impl KoShogi {
    /// The changes the rule adds to a move (`extra`), on the board the
    /// move leaves.
    fn effects(
        &self,
        game: &Game,
        t: &Types,
        after: &After,
        header: &MoveHeader,
        extra: &mut Vec<Change>,
    ) {
        let set = |extra: &mut Vec<Change>, sq: Square, new: Cell| {
            let old = after.cell(sq);
            match extra.iter_mut().find(|c| c.slot == sq.0) {
                Some(c) => c.new = new,
                None => extra.push(Change {
                    slot: sq.0,
                    old,
                    new,
                }),
            }
        };
        let mover = header.player as usize;
        // The Clerk's promotion promotes the guards.
        if t.master != NO_PIECE && header.promotion == t.master {
            for &(guard, to) in &t.guards {
                if to == NO_PIECE {
                    continue;
                }
                for sq in after.squares(game, mover, guard) {
                    set(extra, sq, game.cells.piece(to, mover, false));
                }
            }
        }
        // The fog near the light turns back into a priest.
        if t.fog != NO_PIECE && t.light != NO_PIECE && t.priest != NO_PIECE {
            let lights = (0..2).any(|p| !after.squares(game, p, t.light).is_empty());
            for owner in (0..2).filter(|_| lights) {
                for sq in after.squares(game, owner, t.fog) {
                    if self.sees_light(game, after, sq, t.light) {
                        set(extra, sq, game.cells.piece(t.priest, owner, false));
                    }
                }
            }
        }
        // Without a priest (or the fog it became), the Thunderclap and
        // the Roaming assault turn back.
        for owner in 0..2 {
            let priests = [t.priest, t.fog]
                .iter()
                .any(|&p| !after.squares(game, owner, p).is_empty());
            if priests {
                continue;
            }
            for &(high, low) in &t.demotions {
                if high == NO_PIECE || low == NO_PIECE {
                    continue;
                }
                for sq in after.squares(game, owner, high) {
                    set(extra, sq, game.cells.piece(low, owner, false));
                }
            }
        }
    }

    /// Whether a piece of type `light` stands on one of the board's lines
    /// through `at`, at most five points away, with nothing in between.
    fn sees_light(&self, game: &Game, after: &After, at: Square, light: u16) -> bool {
        let topo = &game.topology;
        topo.all_dirs().iter().any(|&d| {
            let mut sq = at;
            for _ in 0..5 {
                let Some(next) = topo.step(sq, d) else {
                    return false;
                };
                sq = next;
                let cell = after.cell(sq);
                if !cell.is_empty() {
                    return game.cells.info(cell).piece == light;
                }
            }
            false
        })
    }
}

impl EndRule for KoShogi {
    fn result(&self, _game: &Game, _pos: &Position, _legal: usize) -> Option<GameResult> {
        None
    }

    fn adds_moves(&self) -> bool {
        true
    }

    fn complete(&self, game: &Game, pos: &Position, moves: &mut MoveList) {
        if game.players.len() != 2 {
            return;
        }
        let t = Types::of(game);
        let present = Present::of(pos, &t);
        if !(0..moves.len()).any(|i| present.may_act(game, &t, moves.get(i))) {
            return;
        }
        let mut rebuilt = MoveList::new();
        let mut changed_any = false;
        let mut extra = Vec::new();
        let mut changes: Vec<Change> = Vec::new();
        for mv in moves.iter() {
            extra.clear();
            let after = After {
                pos,
                changes: mv.changes,
            };
            if present.may_act(game, &t, mv) {
                self.effects(game, &t, &after, mv.header, &mut extra);
            }
            let mut header = *mv.header;
            if extra.is_empty() {
                rebuilt.push(header, mv.changes, mv.landings);
                continue;
            }
            changed_any = true;
            header.simple = false;
            changes.clear();
            changes.extend_from_slice(mv.changes);
            for e in &extra {
                match changes.iter_mut().find(|c| c.slot == e.slot) {
                    Some(c) => c.new = e.new,
                    None => changes.push(*e),
                }
            }
            changes.retain(|c| c.old != c.new);
            changes.sort_unstable_by_key(|c| c.slot);
            header.hash_delta = changes.iter().fold(0, |h, c| {
                h ^ game.key(c.slot as usize, c.old) ^ game.key(c.slot as usize, c.new)
            });
            // A promotion undone at once (a Drum without its priest) is
            // no promotion.
            if let Some(to) = header.to()
                && header.promotion != NO_PIECE
            {
                let landed = changes
                    .iter()
                    .find(|c| c.slot == to.0)
                    .map_or_else(|| pos.cell(to), |c| c.new);
                if game.cells.info(landed).piece != header.promotion {
                    header.promotion = NO_PIECE;
                }
            }
            rebuilt.push(header, &changes, mv.landings);
        }
        if !changed_any {
            return;
        }
        // The same move twice (a promotion undone and the move without it):
        // keep the first.
        let mut keep = vec![true; rebuilt.len()];
        for i in 0..rebuilt.len() {
            let a = rebuilt.get(i);
            for j in 0..i {
                if !keep[j] {
                    continue;
                }
                let b = rebuilt.get(j);
                if a.header.hash_delta == b.header.hash_delta
                    && a.same_as(b)
                    && a.header.from() == b.header.from()
                    && a.header.to() == b.header.to()
                    && a.header.promotion == b.header.promotion
                {
                    keep[i] = false;
                    break;
                }
            }
        }
        rebuilt.retain_indices(|i| keep[i]);
        *moves = rebuilt;
    }
}
