//! The handlers that ship with dagaz for the chess family and the demo
//! games: `hand:<Piece>`, `file_free:<Piece>`, `other_colour:<Piece>` and
//! `explode`.

use std::sync::Arc;

use super::{Branch, Handler, HandlerContext, HandlerRegistry};

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
    if let Some(piece) = name.strip_prefix("file_free:") {
        return Some(Arc::new(FileFree(piece.to_string())));
    }
    if let Some(piece) = name.strip_prefix("other_colour:") {
        return Some(Arc::new(OtherColour(piece.to_string())));
    }
    None
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
/// player stands on the cursor's file (same column and level).
struct FileFree(String);

impl Handler for FileFree {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let topo = &ctx.game.topology;
        let Some(piece) = ctx.game.piece_by_name(&self.0) else {
            return;
        };
        let here = topo.coords(ctx.cursor);
        let taken = topo.squares().any(|sq| {
            let c = topo.coords(sq);
            c.col == here.col
                && c.level == here.level
                && ctx
                    .piece_at(sq)
                    .is_some_and(|p| p.piece == piece && p.owner == ctx.player)
        });
        if !taken {
            out.push(Branch::stay(ctx.cursor));
        }
    }
}

/// `explode`: captures every piece, of any side, on the squares one king
/// step from the cursor (the blast of a capture in the explosion demo game).
struct Explode;

impl Handler for Explode {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let topo = &ctx.game.topology;
        let captures = topo
            .all_dirs()
            .iter()
            .filter_map(|d| topo.step(ctx.cursor, *d))
            .filter(|sq| ctx.piece_at(*sq).is_some())
            .collect();
        out.push(Branch {
            captures,
            ..Branch::stay(ctx.cursor)
        });
    }
}
