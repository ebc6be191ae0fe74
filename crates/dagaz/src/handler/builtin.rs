//! The handlers that ship with dagaz for the chess family and the demo
//! games: `hand:<Piece>`, `file_free:<Piece>`, `other_colour:<Piece>` and
//! `explode`.

use std::sync::Arc;

use super::{Branch, Handler, HandlerContext, HandlerRegistry};
use crate::board::Square;
use crate::position::Cell;

pub(super) fn register(r: &mut HandlerRegistry) {
    r.register("explode", Explode);
    r.register("not_last_captured", NotLastCaptured);
}

/// `not_last_captured`: succeeds unless the cursor is where this move last
/// captured (stack games: a column keeps standing after its top piece is
/// taken, and may not be jumped again straight away).
struct NotLastCaptured;

impl Handler for NotLastCaptured {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        if ctx.last_capture != Some(ctx.cursor) {
            out.push(Branch::stay(ctx.cursor));
        }
    }
}

/// The handlers named with an argument.
pub(super) fn with_argument(name: &str) -> Option<Arc<dyn Handler>> {
    if let Some(piece) = name.strip_prefix("hand:") {
        return Some(Arc::new(HandIs(piece.to_string())));
    }
    if let Some(args) = name.strip_prefix("file_free:") {
        return FileFree::parse(args).map(|f| Arc::new(f) as Arc<dyn Handler>);
    }
    if let Some(piece) = name.strip_prefix("other_colour:") {
        return Some(Arc::new(OtherColour(piece.to_string())));
    }
    if let Some(args) = name.strip_prefix("castle:") {
        return Castle::parse(args).map(|c| Arc::new(c) as Arc<dyn Handler>);
    }
    if let Some((piece, zone)) = name
        .strip_prefix("colour_room:")
        .and_then(|a| a.split_once(':'))
    {
        return Some(Arc::new(ColourRoom {
            piece: piece.to_string(),
            zone: zone.to_string(),
        }));
    }
    None
}

/// The colour (0 or 1) of a square of a chequered grid.
fn colour(ctx: &HandlerContext, sq: crate::board::Square) -> i32 {
    let c = ctx.game.topology.coords(sq);
    (c.col + c.row + c.level).rem_euclid(2)
}

/// `colour_room:<Piece>:<zone>`: succeeds if, with the cursor square
/// filled, the mover's pieces of that type still in hand can each be
/// dropped in the zone on a square of a colour no other of them takes
/// (placement chess: a drop may not leave the second Bishop without a
/// square of the other colour).
struct ColourRoom {
    piece: String,
    zone: String,
}

impl Handler for ColourRoom {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let game = ctx.game;
        let (Some(piece), Some(zone)) =
            (game.piece_by_name(&self.piece), game.zones.find(&self.zone))
        else {
            return;
        };
        let dropping = |c: Cell| {
            let info = game.cells.info(c);
            !c.is_empty() && info.piece == piece
        };
        // Colours already taken by such pieces on the board (the one being
        // dropped counts as standing on the cursor).
        let mut taken = [false; 2];
        for sq in game.topology.squares() {
            let here = if sq == ctx.cursor {
                ctx.hand
            } else {
                ctx.cells[sq.index()]
            };
            let info = game.cells.info(here);
            if !here.is_empty() && info.piece == piece && info.owner as usize == ctx.player {
                taken[colour(ctx, sq) as usize] = true;
            }
        }
        let in_hand = ctx
            .cells
            .get(game.hand_slot(ctx.player, piece))
            .map_or(0, |c| c.0 as usize)
            .saturating_sub(dropping(ctx.hand) as usize);
        let free = |k: i32| {
            game.topology.squares().any(|sq| {
                sq != ctx.cursor
                    && colour(ctx, sq) == k
                    && game.zones.contains(zone, ctx.player, sq)
                    && ctx.cells[sq.index()].is_empty()
            })
        };
        let needed: Vec<i32> = (0..2).filter(|k| !taken[*k as usize]).collect();
        let room = match in_hand {
            0 => true,
            1 => needed.iter().any(|k| free(*k)),
            _ => needed.len() >= 2 && free(0) && free(1),
        };
        if room {
            out.push(Branch::stay(ctx.cursor));
        }
    }
}

/// `other_colour:<Piece>`: succeeds if the mover has no piece of that type
/// on a square of the cursor's colour (on a chequered grid), so that two
/// such pieces stand on different colours (placement chess's bishops).
struct OtherColour(String);

impl Handler for OtherColour {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let topo = &ctx.game.topology;
        let Some(piece) = ctx.game.piece_by_name(&self.0) else {
            return;
        };
        let colour = |sq| {
            let c = topo.coords(sq);
            (c.col + c.row + c.level).rem_euclid(2)
        };
        let here = colour(ctx.cursor);
        let taken = topo.squares().any(|sq| {
            sq != ctx.cursor
                && colour(sq) == here
                && ctx
                    .piece_at(sq)
                    .is_some_and(|p| p.piece == piece && p.owner == ctx.player)
        });
        if !taken {
            out.push(Branch::stay(ctx.cursor));
        }
    }
}

/// `hand:<Piece>`: succeeds if the hand holds a piece of that type.
struct HandIs(String);

impl Handler for HandIs {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let info = ctx.game.cells.info(ctx.hand);
        let holds = !ctx.hand.is_empty()
            && ctx
                .game
                .pieces
                .get(info.piece as usize)
                .is_some_and(|p| p.name == self.0);
        if holds {
            out.push(Branch::stay(ctx.cursor));
        }
    }
}

/// `file_free:<Piece>`: succeeds if no piece of that type of the moving
/// player stands on the cursor's file (same column and level) — shogi's
/// two-pawn rule; `file_free:<Piece>:<N>`: if fewer than N do (tori
/// shogi's two Swallows a file).
struct FileFree {
    piece: String,
    most: usize,
}

impl FileFree {
    fn parse(args: &str) -> Option<FileFree> {
        let (piece, most) = match args.split_once(':') {
            Some((piece, n)) => (piece, n.parse().ok().filter(|n| *n > 0)?),
            None => (args, 1),
        };
        Some(FileFree {
            piece: piece.to_string(),
            most,
        })
    }
}

impl Handler for FileFree {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let topo = &ctx.game.topology;
        let Some(piece) = ctx.game.piece_by_name(&self.piece) else {
            return;
        };
        let here = topo.coords(ctx.cursor);
        let on_file = topo
            .squares()
            .filter(|sq| {
                let c = topo.coords(*sq);
                c.col == here.col
                    && c.level == here.level
                    && ctx
                        .piece_at(*sq)
                        .is_some_and(|p| p.piece == piece && p.owner == ctx.player)
            })
            .count();
        if on_file < self.most {
            out.push(Branch::stay(ctx.cursor));
        }
    }
}

/// `explode`: captures every piece, of any side, on the squares one king
/// step from the cursor (the blast of a capture in the explosion demo game).
struct Explode;

impl Handler for Explode {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let captures = ctx
            .game
            .topology
            .neighbours(ctx.cursor)
            .into_iter()
            .filter(|sq| ctx.piece_at(*sq).is_some())
            .collect();
        out.push(Branch {
            captures,
            ..Branch::stay(ctx.cursor)
        });
    }
}

/// `castle:<Rook>:<king file>:<rook file>`: castling as Chess960 defines
/// it, from wherever the King and the Rook stand on their rank. Called with
/// the unmoved King in hand on its square: finds the unmoved Rook of the
/// mover on that rank on the side of the King's destination file (the
/// kingside when that file lies beyond the Rook's, `castle:Rook:g:f`;
/// else the queenside, `castle:Rook:c:d`), and moves the King to its file
/// and the Rook to its own. Every square either piece crosses or lands on
/// must be empty but for the two of them, and, where the King is royal and
/// the game has royal safety, no square the King stands on, crosses or
/// lands on may be attacked (with the King still in place); a King that is
/// an ordinary piece castles through attacks (extinction chess).
/// `castle:Rook:g:f:Hawk:Elephant` also brings in a piece of one of those
/// types from the mover's hand onto the King's or the Rook's start square,
/// if the castling left it empty (Seirawan chess from a shuffled rank).
struct Castle {
    rook: String,
    king_file: String,
    rook_file: String,
    gates: Vec<String>,
}

impl Castle {
    fn parse(args: &str) -> Option<Castle> {
        let mut parts = args.split(':');
        Some(Castle {
            rook: parts.next()?.to_string(),
            king_file: parts.next()?.to_string(),
            rook_file: parts.next()?.to_string(),
            gates: parts.map(str::to_string).collect(),
        })
    }

    /// The castling `branch`, and each with a piece from the hand gated on
    /// one of the start squares the castling left empty.
    fn with_gates(
        &self,
        ctx: &HandlerContext,
        branch: Branch,
        starts: [Square; 2],
        ends: [Square; 2],
        out: &mut Vec<Branch>,
    ) {
        let game = ctx.game;
        for name in &self.gates {
            let Some(piece) = game.piece_by_name(name) else {
                continue;
            };
            let slot = game.hand_slot(ctx.player, piece);
            if ctx.cells.get(slot).is_none_or(|c| c.0 == 0) {
                continue;
            }
            let cell =
                game.cells
                    .piece(piece, ctx.player, game.pieces[piece as usize].tracks_moved);
            for square in starts.into_iter().filter(|s| !ends.contains(s)) {
                out.push(branch.clone().set(square, cell).from_hand(piece));
            }
        }
        out.push(branch);
    }

    /// The square of `file` on the rank of `sq`.
    fn on_rank(ctx: &HandlerContext, sq: Square, file: &str) -> Option<Square> {
        let topo = &ctx.game.topology;
        let c = topo.coords(sq);
        let col = topo.grid().cols.iter().position(|f| f == file)?;
        topo.at(col as i32, c.row, c.level)
    }
}

impl Handler for Castle {
    /// Castling captures nothing (and the handler asks about attacks
    /// itself, which must not come back to it).
    fn transparent_to_attacks(&self) -> bool {
        true
    }

    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let game = ctx.game;
        let topo = &game.topology;
        let (Some(origin), Some(rook_type)) = (ctx.origin, game.piece_by_name(&self.rook)) else {
            return;
        };
        if ctx.hand.is_empty() || game.cells.info(ctx.hand).moved {
            return;
        }
        let (Some(king_to), Some(rook_to)) = (
            Castle::on_rank(ctx, origin, &self.king_file),
            Castle::on_rank(ctx, origin, &self.rook_file),
        ) else {
            return;
        };
        let col = |sq: Square| topo.coords(sq).col;
        let kingside = col(king_to) > col(rook_to);
        let row = topo.coords(origin).row;
        let level = topo.coords(origin).level;
        // The unmoved Rook on that side, nearest the King.
        let step: i32 = if kingside { 1 } else { -1 };
        let mut c = col(origin) + step;
        let rook_from = loop {
            let Some(sq) = topo.at(c, row, level) else {
                return;
            };
            let cell = ctx.cells[sq.index()];
            let info = game.cells.info(cell);
            if !cell.is_empty()
                && info.owner as usize == ctx.player
                && info.piece == rook_type
                && !info.moved
            {
                break sq;
            }
            c += step;
        };
        // Every square between the four must be empty but the Rook's (the
        // King is in hand: its square is empty already).
        let cols = [col(origin), col(king_to), col(rook_from), col(rook_to)];
        let (lo, hi) = (
            *cols.iter().min().unwrap_or(&0),
            *cols.iter().max().unwrap_or(&0),
        );
        for c in lo..=hi {
            let Some(sq) = topo.at(c, row, level) else {
                return;
            };
            if sq != rook_from && !ctx.cells[sq.index()].is_empty() {
                return;
            }
        }
        let guarded = game.rules.royal_safety
            && game
                .pieces
                .get(game.cells.info(ctx.hand).piece as usize)
                .is_some_and(|p| p.royal);
        if guarded && !Castle::safe_path(ctx, origin, king_to, (rook_from, rook_to)) {
            return;
        }
        let rook = game.cells.with_moved(ctx.cells[rook_from.index()], true);
        let branch = Branch::stay(king_to)
            .set(rook_from, Cell::EMPTY)
            .set(rook_to, rook);
        self.with_gates(ctx, branch, [origin, rook_from], [king_to, rook_to], out);
    }
}

impl Castle {
    /// The King's squares, from its own to its destination, are not
    /// attacked, with the King standing on its square. Where captures
    /// explode (atomic chess, as Fairy-Stockfish plays it), the squares it
    /// leaves and passes are looked at with the King lifted, its
    /// destination on the board after the castling (the Rook in its new
    /// place may shield it), and a square next to the enemy King counts as
    /// safe: a King there cannot be taken.
    fn safe_path(
        ctx: &HandlerContext,
        origin: Square,
        king_to: Square,
        rook: (Square, Square),
    ) -> bool {
        let game = ctx.game;
        let topo = &game.topology;
        let col = |sq: Square| topo.coords(sq).col;
        let (row, level) = (topo.coords(origin).row, topo.coords(origin).level);
        let atomic = game.rules.captures_explode;
        let lifted = ctx.cells;
        let mut now = lifted.to_vec();
        now[origin.index()] = ctx.hand;
        let mut after = lifted.to_vec();
        let rook_cell = after[rook.0.index()];
        after[rook.0.index()] = Cell::EMPTY;
        after[rook.1.index()] = rook_cell;
        after[king_to.index()] = ctx.hand;
        let touches_enemy_royal = |sq: Square| {
            atomic
                && topo.neighbours(sq).iter().any(|n| {
                    let info = game.cells.info(ctx.cells[n.index()]);
                    !ctx.cells[n.index()].is_empty()
                        && info.owner as usize != ctx.player
                        && game
                            .pieces
                            .get(info.piece as usize)
                            .is_some_and(|p| p.royal)
                })
        };
        let safe = |sq: Square, board: &[Cell]| {
            if touches_enemy_royal(sq) {
                return true;
            }
            let here = if board[sq.index()].is_empty() || atomic {
                game.cells.phantom(ctx.player)
            } else {
                board[sq.index()]
            };
            !(0..game.players.len()).any(|by| {
                by != ctx.player
                    && crate::movegen::attack::attacked(game, board, &[], sq, by, here, None)
            })
        };
        let (from, to) = (col(origin).min(col(king_to)), col(origin).max(col(king_to)));
        let path_safe = (from..=to).all(|c| match topo.at(c, row, level) {
            None => false,
            Some(sq) if !atomic => safe(sq, &now),
            Some(sq) if sq == king_to && sq != origin => true,
            Some(sq) => safe(sq, lifted),
        });
        path_safe && (!atomic || safe(king_to, &after))
    }
}
