//! Handlers that change pieces instead of moving them, for the flip and
//! placement games: `flip:lines` (Othello's bracketed lines), `flip:adjacent`
//! (Ataxx's neighbours), `clone` (a copy stays on the start square) and
//! `place:<Piece>` (a new piece of the mover on the cursor: Amazons'
//! arrows), `gate:<Piece>` and `gate_here:<Piece>` (a piece from the
//! mover's hand on the start square or the cursor: Seirawan chess).

use std::sync::Arc;

use super::{Branch, Handler, HandlerContext, HandlerRegistry};
use crate::board::Square;
use crate::position::Cell;

pub(super) fn register(r: &mut HandlerRegistry) {
    r.register("flip:lines", FlipLines);
    r.register("flip:adjacent", FlipAdjacent);
    r.register("clone", CloneOnStart);
}

/// The handlers named with an argument.
pub(super) fn with_argument(name: &str) -> Option<Arc<dyn Handler>> {
    if let Some(piece) = name.strip_prefix("place:") {
        return Some(Arc::new(Place(piece.to_string())));
    }
    if let Some(piece) = name.strip_prefix("gate_here:") {
        return Some(Arc::new(Gate {
            piece: piece.to_string(),
            on_start: false,
        }));
    }
    let piece = name.strip_prefix("gate:")?;
    Some(Arc::new(Gate {
        piece: piece.to_string(),
        on_start: true,
    }))
}

/// The mover's piece of the same type as the enemy piece `cell`.
fn converted(ctx: &HandlerContext, cell: Cell) -> Cell {
    let info = ctx.game.cells.info(cell);
    ctx.game.cells.piece(info.piece, ctx.player, false)
}

fn is_enemy(ctx: &HandlerContext, sq: Square) -> bool {
    ctx.piece_at(sq).is_some_and(|p| p.owner != ctx.player)
}

fn is_own(ctx: &HandlerContext, sq: Square) -> bool {
    ctx.piece_at(sq).is_some_and(|p| p.owner == ctx.player)
}

/// `flip:lines`: every line of enemy pieces that runs from the cursor, in
/// any direction, up to a piece of the mover is turned to the mover's
/// pieces. Fails when no line is turned (an Othello move must flip).
struct FlipLines;

impl Handler for FlipLines {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let topo = &ctx.game.topology;
        let mut branch = Branch::stay(ctx.cursor);
        for &d in topo.all_dirs() {
            let mut line = Vec::new();
            let mut at = topo.step(ctx.cursor, d);
            while let Some(sq) = at.filter(|s| is_enemy(ctx, *s)) {
                line.push(sq);
                at = topo.step(sq, d);
            }
            if !line.is_empty() && at.is_some_and(|s| is_own(ctx, s)) {
                for sq in line {
                    branch = branch.set(sq, converted(ctx, ctx.cells[sq.index()]));
                }
            }
        }
        if !branch.sets.is_empty() {
            out.push(branch);
        }
    }
}

/// `flip:adjacent`: every enemy piece one step from the cursor, in any
/// direction, becomes the mover's. Always succeeds.
struct FlipAdjacent;

impl Handler for FlipAdjacent {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let topo = &ctx.game.topology;
        let mut branch = Branch::stay(ctx.cursor);
        for &d in topo.all_dirs() {
            if let Some(sq) = topo.step(ctx.cursor, d).filter(|s| is_enemy(ctx, *s)) {
                branch = branch.set(sq, converted(ctx, ctx.cells[sq.index()]));
            }
        }
        out.push(branch);
    }
}

/// `clone`: a copy of the moving piece stays on the square it started
/// from (Ataxx's one-step move). Fails for a drop.
struct CloneOnStart;

impl Handler for CloneOnStart {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let Some(origin) = ctx.origin else {
            return;
        };
        if ctx.hand.is_empty() {
            return;
        }
        let info = ctx.game.cells.info(ctx.hand);
        let copy = ctx.game.cells.piece(info.piece, ctx.player, false);
        out.push(Branch::stay(ctx.cursor).set(origin, copy));
    }
}

/// `place:<Piece>`: a new piece of that type, the mover's, on the cursor
/// square, which must be empty (Amazons' arrow).
struct Place(String);

impl Handler for Place {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let Some(piece) = ctx.game.piece_by_name(&self.0) else {
            return;
        };
        if ctx
            .cells
            .get(ctx.cursor.index())
            .is_some_and(|c| c.is_empty())
        {
            let cell = ctx.game.cells.piece(piece, ctx.player, false);
            out.push(Branch::stay(ctx.cursor).set(ctx.cursor, cell).ends_here());
        }
    }
}

/// `gate:<Piece>`: a piece of that type from the mover's hand goes on the
/// moving piece's start square, which must be empty by now (Seirawan
/// chess: a piece leaving its first square for the first time may bring
/// in a Hawk or an Elephant behind it); `gate_here:<Piece>` puts it on the
/// cursor square instead (the Rook's square when castling). `gate:any`
/// brings in any piece the hand holds that may stand on the square.
struct Gate {
    piece: String,
    on_start: bool,
}

impl Handler for Gate {
    /// The gated piece lands behind the moving piece; the same move exists
    /// without it.
    fn transparent_to_attacks(&self) -> bool {
        true
    }

    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let game = ctx.game;
        let square = if self.on_start {
            ctx.origin
        } else {
            Some(ctx.cursor)
        };
        let Some(square) = square else {
            return;
        };
        if !ctx.cells.get(square.index()).is_some_and(|c| c.is_empty()) {
            return;
        }
        // `any`: every type the hand holds that may stand there (S-house).
        let types: Vec<u16> = if self.piece == "any" {
            (0..game.pieces.len() as u16)
                .filter(|&t| {
                    let slot = game.hand_slot(ctx.player, t);
                    ctx.cells.get(slot).is_some_and(|c| c.0 > 0)
                        && !game.pieces[t as usize]
                            .never_in
                            .iter()
                            .any(|&z| game.zones.contains(z, ctx.player, square))
                })
                .collect()
        } else {
            game.piece_by_name(&self.piece).into_iter().collect()
        };
        for piece in types {
            let tracks = game.pieces[piece as usize].tracks_moved;
            let cell = game.cells.piece(piece, ctx.player, tracks);
            out.push(Branch::stay(ctx.cursor).set(square, cell).from_hand(piece));
        }
    }
}
