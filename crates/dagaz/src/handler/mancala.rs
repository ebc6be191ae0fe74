//! Handlers for mancala games on heap boards (Kalah, Oware). The sowing
//! itself is notation (`(S|)+!`: step along the sowing direction, drop one
//! seed, as long as seeds are left); what the notation cannot say is here:
//! captures that move seeds into a store, Kalah's extra turn, Oware's
//! skipping of the pit sown from, its "must feed" rule, and the scoring at
//! the end.
//!
//! Conventions of the game files: the zone `pits` holds each player's row,
//! the zone `store` each player's store, and the direction `S` (as the
//! player's direction map turns it) is that player's sowing order.

use super::{Branch, EndRule, Handler, HandlerContext, HandlerRegistry};
use crate::board::Square;
use crate::game::{Game, GameResult};
use crate::position::{Cell, Position};

pub(super) fn register(r: &mut HandlerRegistry) {
    r.register("kalah", Kalah);
    r.register("oware_capture", OwareCapture { strict: false });
    r.register("oware_capture_strict", OwareCapture { strict: true });
    r.register("feeds", Feeds);
    r.register("origin", Origin { is: true });
    r.register("not_origin", Origin { is: false });
    r.register_end("mancala", Scoring { majority: false });
    r.register_end("mancala_majority", Scoring { majority: true });
}

/// The squares of zone `name` for `player`, in board order.
fn zone(game: &Game, name: &str, player: usize) -> Vec<Square> {
    let Some(z) = game.zones.find(name) else {
        return Vec::new();
    };
    game.topology
        .squares()
        .filter(|sq| game.zones.contains(z, player, *sq))
        .collect()
}

fn in_zone(game: &Game, name: &str, player: usize, sq: Square) -> bool {
    game.zones
        .find(name)
        .is_some_and(|z| game.zones.contains(z, player, sq))
}

fn opponent(game: &Game, player: usize) -> usize {
    game.next_player(player)
}

/// The pit across the board from `sq`: the opponent's pit in the same
/// column.
fn across(ctx: &HandlerContext, sq: Square) -> Option<Square> {
    let topo = &ctx.game.topology;
    let col = topo.coords(sq).col;
    zone(ctx.game, "pits", opponent(ctx.game, ctx.player))
        .into_iter()
        .find(|p| topo.coords(*p).col == col)
}

/// Kalah, after the last seed is sown (at the cursor): in one's own store,
/// the player moves again; in one's own pit that was empty, with seeds in
/// the pit across, both go to one's store (Ludii's rule: nothing is taken
/// from an empty pit across).
struct Kalah;

impl Handler for Kalah {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let (game, here) = (ctx.game, ctx.cursor);
        let branch = Branch::stay(here);
        if in_zone(game, "store", ctx.player, here) {
            return out.push(branch.again());
        }
        let store = zone(game, "store", ctx.player).first().copied();
        let captures = in_zone(game, "pits", ctx.player, here) && ctx.count(here) == 1;
        match (store, across(ctx, here)) {
            (Some(store), Some(other)) if captures && ctx.count(other) > 0 => {
                let total = ctx.count(store) + 1 + ctx.count(other);
                out.push(
                    branch
                        .set(here, Cell::EMPTY)
                        .set(other, Cell::EMPTY)
                        .set(store, Cell(total)),
                );
            }
            _ => out.push(branch),
        }
    }
}

/// Oware, after the last seed is sown: if it made a pit of the opponent's
/// row hold 2 or 3, those seeds are taken, and so are those of each pit
/// before it (against the sowing order) in the opponent's row that also
/// holds 2 or 3. A capture of every seed of the opponent (grand slam)
/// takes nothing, or with `strict` makes the move illegal.
struct OwareCapture {
    strict: bool,
}

impl Handler for OwareCapture {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let game = ctx.game;
        let them = opponent(game, ctx.player);
        let row = zone(game, "pits", them);
        let mut taken: Vec<Square> = Vec::new();
        let mut sq = Some(ctx.cursor);
        while let Some(s) = sq {
            if !row.contains(&s) || !(2..=3).contains(&ctx.count(s)) || taken.contains(&s) {
                break;
            }
            taken.push(s);
            sq = previous(ctx, s);
        }
        let store = zone(game, "store", ctx.player).first().copied();
        let left: u16 = row
            .iter()
            .filter(|s| !taken.contains(s))
            .map(|s| ctx.count(*s))
            .sum();
        let branch = Branch::stay(ctx.cursor);
        match store {
            Some(store) if !taken.is_empty() && left > 0 => {
                let gain: u16 = taken.iter().map(|s| ctx.count(*s)).sum();
                let mut b = branch.set(store, Cell(ctx.count(store) + gain));
                for s in taken {
                    b = b.set(s, Cell::EMPTY);
                }
                out.push(b);
            }
            // A grand slam.
            Some(_) if !taken.is_empty() && self.strict => {}
            _ => out.push(branch),
        }
    }
}

/// The square sown just before `sq` in the mover's sowing order.
fn previous(ctx: &HandlerContext, sq: Square) -> Option<Square> {
    let topo = &ctx.game.topology;
    let sow = ctx.game.players[ctx.player].map.apply(topo.dir('S')?);
    topo.squares().find(|p| topo.step(*p, sow) == Some(sq))
}

/// Oware's "must feed": succeeds if the opponent has seeds in their row
/// after the move.
struct Feeds;

impl Handler for Feeds {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let them = opponent(ctx.game, ctx.player);
        if zone(ctx.game, "pits", them)
            .iter()
            .any(|s| ctx.count(*s) > 0)
        {
            out.push(Branch::stay(ctx.cursor));
        }
    }
}

/// Succeeds if the cursor is (`is`) or is not the square the move started
/// from (Oware skips that pit when sowing twelve seeds or more).
struct Origin {
    is: bool,
}

impl Handler for Origin {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        if (ctx.origin == Some(ctx.cursor)) == self.is {
            out.push(Branch::stay(ctx.cursor));
        }
    }
}

/// The end of a mancala game: when the side to move cannot move (or the
/// position has come back a third time), each player takes the seeds left
/// in their own row, and the larger store wins. With `majority`, a store
/// holding more than half of all seeds wins at once (Oware's 25 of 48).
struct Scoring {
    majority: bool,
}

impl EndRule for Scoring {
    fn result(&self, game: &Game, pos: &Position, legal_moves: usize) -> Option<GameResult> {
        let count = |sqs: Vec<Square>| -> u32 { sqs.iter().map(|s| pos.cell(*s).0 as u32).sum() };
        let players = game.players.len();
        let stores: Vec<u32> = (0..players)
            .map(|p| count(zone(game, "store", p)))
            .collect();
        let total: u32 = game.topology.squares().map(|s| pos.cell(s).0 as u32).sum();
        if self.majority
            && let Some(p) = (0..players).find(|p| stores[*p] * 2 > total)
        {
            return Some(GameResult::Win {
                winner: p,
                reason: format!("{} seeds of {total} in store", stores[p]),
            });
        }
        let repeated = pos.repetitions() >= 2;
        if legal_moves > 0 && !repeated {
            return None;
        }
        let scores: Vec<u32> = (0..players)
            .map(|p| stores[p] + count(zone(game, "pits", p)))
            .collect();
        let why = if repeated {
            "the position came back a third time"
        } else {
            "no move left"
        };
        let tally = (0..players)
            .map(|p| format!("{} {}", game.players[p].name, scores[p]))
            .collect::<Vec<_>>()
            .join(", ");
        let best = *scores.iter().max()?;
        let winners: Vec<usize> = (0..players).filter(|p| scores[*p] == best).collect();
        Some(match winners.as_slice() {
            [w] => GameResult::Win {
                winner: *w,
                reason: format!("{why}: {tally}"),
            },
            _ => GameResult::Draw {
                reason: format!("{why}: {tally}"),
            },
        })
    }
}
