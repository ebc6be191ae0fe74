//! Handlers for Ultima (Baroque chess), where pieces capture in ways the
//! notation cannot say on its own:
//!
//! - `coordinate` / `coordinate:<Piece>`: the Coordinator's capture — the
//!   enemies on the two squares where the cursor's row meets the mover's
//!   King's column and the cursor's column meets the King's row (with a
//!   piece name: only enemies of that type, as the Chameleon coordinates
//!   Coordinators only). The notation has no way to name "the square in my
//!   King's row", so this is Rust.
//! - `ultima_free`: the moving piece is not frozen — no enemy Immobilizer
//!   stands next to it, and, if it is an Immobilizer, no enemy Chameleon
//!   either. A check over eight neighbours for "enemy AND of this type" is
//!   a negated conjunction, which the notation's brackets cannot express.
//!
//! Pieces are found by name: `King` (the mover's royal piece), `Immobilizer`,
//! `Chameleon`.

use std::sync::Arc;

use super::{Branch, Handler, HandlerContext, HandlerRegistry};
use crate::board::Square;

pub(super) fn register(r: &mut HandlerRegistry) {
    r.register("coordinate", Coordinate { only: None });
    r.register("ultima_free", Free);
}

/// `coordinate:<Piece>`.
pub(super) fn with_argument(name: &str) -> Option<Arc<dyn Handler>> {
    let piece = name.strip_prefix("coordinate:")?;
    Some(Arc::new(Coordinate {
        only: Some(piece.to_string()),
    }))
}

struct Coordinate {
    only: Option<String>,
}

impl Handler for Coordinate {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let topo = &ctx.game.topology;
        let mut branch = Branch::stay(ctx.cursor);
        let king = topo.squares().find(|sq| {
            ctx.piece_at(*sq)
                .is_some_and(|p| p.owner == ctx.player && ctx.game.pieces[p.piece as usize].royal)
        });
        if let Some(king) = king {
            let (here, k) = (topo.coords(ctx.cursor), topo.coords(king));
            let corners = [
                topo.at(here.col, k.row, here.level),
                topo.at(k.col, here.row, here.level),
            ];
            for sq in corners.into_iter().flatten() {
                if sq != ctx.cursor && self.takes(ctx, sq) && !branch.captures.contains(&sq) {
                    branch = branch.capture(sq);
                }
            }
        }
        out.push(branch);
    }
}

impl Coordinate {
    fn takes(&self, ctx: &HandlerContext, sq: Square) -> bool {
        ctx.piece_at(sq).is_some_and(|p| {
            p.owner != ctx.player
                && self
                    .only
                    .as_ref()
                    .is_none_or(|name| ctx.game.pieces[p.piece as usize].name == *name)
        })
    }
}

struct Free;

impl Handler for Free {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let game = ctx.game;
        let topo = &game.topology;
        let name_of = |piece: u16| game.pieces.get(piece as usize).map(|p| p.name.as_str());
        let mover = game.cells.info(ctx.hand);
        let mover_is_immobilizer = name_of(mover.piece) == Some("Immobilizer");
        let frozen = topo.all_dirs().iter().any(|d| {
            topo.step(ctx.cursor, *d)
                .and_then(|sq| ctx.piece_at(sq))
                .is_some_and(|p| {
                    p.owner != ctx.player
                        && match name_of(p.piece) {
                            Some("Immobilizer") => true,
                            Some("Chameleon") => mover_is_immobilizer,
                            _ => false,
                        }
                })
        });
        if !frozen {
            out.push(Branch::stay(ctx.cursor));
        }
    }
}
