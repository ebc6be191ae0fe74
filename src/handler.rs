//! Extension handlers: rules the notation cannot express, written in Rust
//! and called from a move expression as `[1]`..`[9]` (`notation.md` §9).
//!
//! A game file names the handlers it uses in its `[handlers]` table
//! (`1 = "explode"`); the names are looked up in a [`HandlerRegistry`].
//! A handler sees the path's state and answers with zero or more
//! [`Branch`]es: none fails the path, one continues it, several fork it.
//!
//! ```
//! use dagaz::handler::{Branch, Handler, HandlerContext};
//!
//! /// Fails unless the cursor is on the board's edge.
//! struct OnEdge;
//!
//! impl Handler for OnEdge {
//!     fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
//!         let topo = &ctx.game.topology;
//!         let inside = topo.all_dirs().iter().all(|d| topo.step(ctx.cursor, *d).is_some());
//!         if !inside {
//!             out.push(Branch::stay(ctx.cursor));
//!         }
//!     }
//! }
//! ```

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::board::Square;
use crate::game::Game;
use crate::position::{Cell, NO_PIECE};

/// What a handler may look at.
pub struct HandlerContext<'a> {
    pub game: &'a Game,
    /// The working board of the path (the path's own effects included).
    pub cells: &'a [Cell],
    pub cursor: Square,
    /// The piece in the hand, or [`Cell::EMPTY`].
    pub hand: Cell,
    /// The moving player.
    pub player: usize,
}

/// A piece on the board, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceOn {
    pub piece: u16,
    pub owner: usize,
}

impl HandlerContext<'_> {
    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<PieceOn> {
        let c = *self.cells.get(sq.index())?;
        let info = self.game.cells.info(c);
        (!c.is_empty() && !c.is_marked() && info.piece != NO_PIECE).then_some(PieceOn {
            piece: info.piece,
            owner: info.owner as usize,
        })
    }
}

/// One way for the path to continue after a handler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Branch {
    /// Where the cursor is afterwards.
    pub cursor: Square,
    /// Squares whose pieces are captured (as by `[x]`); the branch fails if
    /// one of them is empty.
    pub captures: Vec<Square>,
}

impl Branch {
    /// Continue on `cursor` without effects.
    pub fn stay(cursor: Square) -> Branch {
        Branch {
            cursor,
            captures: Vec::new(),
        }
    }
}

/// Rust code called from a move expression.
pub trait Handler: Send + Sync {
    /// Appends the ways the path may continue to `out` (nothing = fail).
    /// Must give the same answer for the same context.
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>);
}

/// Handlers by name, for game files to refer to.
#[derive(Clone, Default)]
pub struct HandlerRegistry {
    handlers: BTreeMap<String, Arc<dyn Handler>>,
}

impl HandlerRegistry {
    /// The handlers that ship with dagaz.
    pub fn builtin() -> HandlerRegistry {
        let mut r = HandlerRegistry::default();
        r.register("explode", Explode);
        r
    }

    pub fn register(&mut self, name: &str, handler: impl Handler + 'static) {
        self.handlers.insert(name.to_string(), Arc::new(handler));
    }

    /// The handler of this name. Besides the registered ones,
    /// `hand:<Piece>` is a check that the hand holds a piece of that type
    /// (the notation's `=Name` looks at the square, not the hand), and
    /// `file_free:<Piece>` a check that the mover has no piece of that type
    /// on the cursor's file (shogi's "two pawns" rule).
    pub fn get(&self, name: &str) -> Option<Arc<dyn Handler>> {
        if let Some(piece) = name.strip_prefix("hand:") {
            return Some(Arc::new(HandIs(piece.to_string())));
        }
        if let Some(piece) = name.strip_prefix("file_free:") {
            return Some(Arc::new(FileFree(piece.to_string())));
        }
        self.handlers.get(name).cloned()
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.handlers
            .keys()
            .map(String::as_str)
            .chain(["hand:<Piece>"])
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
            cursor: ctx.cursor,
            captures,
        });
    }
}
