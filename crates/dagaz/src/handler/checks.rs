//! Handlers about checks and about which pieces a player has, for rules of
//! the makruk family (Thai, Cambodian and Burmese chess) that the notation
//! cannot say:
//!
//! - `sole_checker`: succeeds if the cursor holds the only enemy piece that
//!   attacks the moving piece's start square (makpong: a King in check may
//!   move only to take the piece giving check);
//! - `no_check`: fails if, on the board as the path has left it, the mover
//!   attacks an enemy royal piece (sittuyin: a promotion may not give
//!   check, not even a discovered one);
//! - `none_of:<Piece>`: succeeds if the mover has no piece of that type on
//!   the board as the path has left it (sittuyin: a pawn promotes only
//!   while its player has no General);
//! - `some_of:<Piece>,<Piece>…`: succeeds if the mover has a piece of one
//!   of these types on the board as the path has left it (Ko shogi: a
//!   Pawn steps forward only while its side's Drum, or the Thunderclap it
//!   promotes to, is on the board);
//! - `not_of:<Piece>,<Piece>…`: succeeds if the cursor's square holds a
//!   piece, of either side, of none of these types (Ko shogi: what a bow
//!   may not shoot);
//! - `aim:<Piece>`: enemy pieces of that type on the cursor's rank or file
//!   count as having moved from now on (Cambodian chess: a Rook that comes
//!   to the enemy King's rank or file takes away its first-move leap).

use std::sync::Arc;

use super::{Branch, Handler, HandlerContext, HandlerRegistry};
use crate::movegen::attack::attacked;
use crate::position::{Cell, NO_PIECE};

pub(super) fn register(r: &mut HandlerRegistry) {
    r.register("sole_checker", SoleChecker);
    r.register("no_check", NoCheck);
}

/// `none_of:<Piece>` and `aim:<Piece>`.
pub(super) fn with_argument(name: &str) -> Option<Arc<dyn Handler>> {
    if let Some(piece) = name.strip_prefix("none_of:") {
        return Some(Arc::new(NoneOf(piece.to_string())));
    }
    if let Some(list) = name.strip_prefix("some_of:") {
        return Some(Arc::new(SomeOf(names(list))));
    }
    if let Some(list) = name.strip_prefix("not_of:") {
        return Some(Arc::new(NotOf(names(list))));
    }
    if let Some(piece) = name.strip_prefix("aim:") {
        return Some(Arc::new(Aim(piece.to_string())));
    }
    None
}

/// The board as the path has left it, with the piece in hand back on its
/// start square (the position the move starts from, for the moving piece).
fn board_with_mover(ctx: &HandlerContext) -> Vec<Cell> {
    let mut board = ctx.cells.to_vec();
    if let Some(origin) = ctx.origin
        && !ctx.hand.is_empty()
    {
        board[origin.index()] = ctx.hand;
    }
    board
}

struct SoleChecker;

impl Handler for SoleChecker {
    /// Only narrows a capture the program makes anyway.
    fn transparent_to_attacks(&self) -> bool {
        true
    }

    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let (Some(origin), Some(checker)) = (ctx.origin, ctx.piece_at(ctx.cursor)) else {
            return;
        };
        if checker.owner == ctx.player || ctx.hand.is_empty() {
            return;
        }
        let board = board_with_mover(ctx);
        let by = checker.owner;
        let checked = attacked(ctx.game, &board, &[], origin, by, ctx.hand, None);
        let by_another = attacked(
            ctx.game,
            &board,
            &[],
            origin,
            by,
            ctx.hand,
            Some(ctx.cursor),
        );
        if checked && !by_another {
            out.push(Branch::stay(ctx.cursor));
        }
    }
}

struct NoCheck;

impl Handler for NoCheck {
    fn transparent_to_attacks(&self) -> bool {
        true
    }

    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let game = ctx.game;
        let gives_check = game.topology.squares().any(|sq| {
            let cell = ctx.cells[sq.index()];
            let info = game.cells.info(cell);
            !cell.is_empty()
                && !info.phantom
                && info.piece != NO_PIECE
                && info.owner as usize != ctx.player
                && game.pieces[info.piece as usize].royal
                && attacked(game, ctx.cells, &[], sq, ctx.player, cell, None)
        });
        if !gives_check {
            out.push(Branch::stay(ctx.cursor));
        }
    }
}

struct NoneOf(String);

impl Handler for NoneOf {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let Some(piece) = ctx.game.piece_by_name(&self.0) else {
            return;
        };
        let has = ctx.game.topology.squares().any(|sq| {
            ctx.piece_at(sq)
                .is_some_and(|p| p.piece == piece && p.owner == ctx.player)
        });
        if !has {
            out.push(Branch::stay(ctx.cursor));
        }
    }
}

/// The piece names of a comma-separated list.
fn names(list: &str) -> Vec<String> {
    list.split(',').map(|n| n.trim().to_string()).collect()
}

/// The types of these names that the game has.
fn types(game: &crate::game::Game, names: &[String]) -> Vec<u16> {
    names.iter().filter_map(|n| game.piece_by_name(n)).collect()
}

/// `some_of:<Piece>,…`.
struct SomeOf(Vec<String>);

impl Handler for SomeOf {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let wanted = types(ctx.game, &self.0);
        let has = ctx.game.topology.squares().any(|sq| {
            ctx.piece_at(sq)
                .is_some_and(|p| p.owner == ctx.player && wanted.contains(&p.piece))
        });
        if has {
            out.push(Branch::stay(ctx.cursor));
        }
    }
}

/// `not_of:<Piece>,…`.
struct NotOf(Vec<String>);

impl Handler for NotOf {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let unwanted = types(ctx.game, &self.0);
        // The phantom that stands in for "some piece" when attacks on an
        // empty square are asked about is of no type: it is not one.
        let cell = ctx.cells[ctx.cursor.index()];
        let phantom = !cell.is_marked() && ctx.game.cells.info(cell).phantom;
        let other = phantom
            || ctx
                .piece_at(ctx.cursor)
                .is_some_and(|p| !unwanted.contains(&p.piece));
        if other {
            out.push(Branch::stay(ctx.cursor));
        }
    }
}

struct Aim(String);

impl Handler for Aim {
    /// Only changes has-moved flags.
    fn transparent_to_attacks(&self) -> bool {
        true
    }

    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let game = ctx.game;
        let Some(piece) = game.piece_by_name(&self.0) else {
            return;
        };
        let topo = &game.topology;
        let here = topo.coords(ctx.cursor);
        let mut branch = Branch::stay(ctx.cursor);
        for sq in topo.squares() {
            let c = topo.coords(sq);
            let in_line = c.level == here.level && (c.col == here.col || c.row == here.row);
            let cell = ctx.cells[sq.index()];
            let info = game.cells.info(cell);
            if in_line
                && sq != ctx.cursor
                && !cell.is_empty()
                && !cell.is_marked()
                && info.piece == piece
                && info.owner as usize != ctx.player
                && !info.moved
            {
                branch = branch.set(sq, game.cells.with_moved(cell, true));
            }
        }
        out.push(branch);
    }
}
