//! Ranks of pieces, for the jumping generals of Tenjiku shogi:
//! `outranks:<ranks>` succeeds if the moving piece ranks above the piece on
//! the cursor. `<ranks>` lists groups of piece names from the highest down,
//! groups separated by `>`, names within a group by `,`:
//! `outranks:King,CrownPrince>GreatGeneral>ViceGeneral>RookGeneral,BishopGeneral`.
//! Pieces not listed rank below every listed one. A Great General may then
//! jump over a Vice General but not over a King or another Great General.

use std::sync::{Arc, OnceLock};

use super::{Branch, Handler, HandlerContext};
use crate::game::Game;

/// `outranks:<ranks>`.
pub(super) fn with_argument(name: &str) -> Option<Arc<dyn Handler>> {
    let ranks = name.strip_prefix("outranks:")?;
    let groups: Vec<Vec<String>> = ranks
        .split('>')
        .map(|group| group.split(',').map(|n| n.trim().to_string()).collect())
        .collect();
    if groups.iter().flatten().any(String::is_empty) {
        return None;
    }
    Some(Arc::new(Outranks {
        groups,
        table: OnceLock::new(),
    }))
}

struct Outranks {
    /// Piece names, highest group first.
    groups: Vec<Vec<String>>,
    /// Rank by piece type, worked out for the game on the first call.
    table: OnceLock<Vec<usize>>,
}

impl Outranks {
    fn ranks(&self, game: &Game) -> &[usize] {
        self.table.get_or_init(|| {
            let mut table = vec![0; game.pieces.len()];
            for (i, group) in self.groups.iter().enumerate() {
                for name in group {
                    if let Some(piece) = game.piece_by_name(name) {
                        table[piece as usize] = self.groups.len() - i;
                    }
                }
            }
            table
        })
    }
}

impl Handler for Outranks {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let ranks = self.ranks(ctx.game);
        let rank = |piece: u16| ranks.get(piece as usize).copied().unwrap_or(0);
        let mover = ctx.game.cells.info(ctx.hand).piece;
        if ctx
            .piece_at(ctx.cursor)
            .is_some_and(|p| rank(p.piece) < rank(mover))
        {
            out.push(Branch::stay(ctx.cursor));
        }
    }
}
