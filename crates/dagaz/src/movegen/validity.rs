//! Positions no game of the rules can reach: a chess position with no King
//! or eight, the side not to move in check, a pawn on the last rank, more
//! shogi pawns on the board and in hand than the game has. Every position
//! a person gives (a FEN on the command line, a position sent to the
//! server) is checked here before it is used.
//!
//! The game file declares what it knows (`count`, `never_in`, `only_in` on
//! a piece); the rest follows from the rules: a piece that must promote in
//! a zone never stands there, royal safety means the player who just moved
//! is not in check, and in games where captured pieces go to a hand no
//! piece is ever created and royal pieces are never in hand.

use crate::game::Game;
use crate::position::{NO_PIECE, Position, squares_of};

/// The first reason `pos` cannot occur in `game`, as a sentence.
pub fn check_position(game: &Game, pos: &Position) -> Result<(), String> {
    counts(game, pos)?;
    zones(game, pos)?;
    hands(game, pos)?;
    not_to_move_in_check(game, pos)
}

/// Every player has as many of each piece on the board as its `count` says.
fn counts(game: &Game, pos: &Position) -> Result<(), String> {
    for (t, piece) in game.pieces.iter().enumerate() {
        let Some((low, high)) = piece.count else {
            continue;
        };
        for (p, player) in game.players.iter().enumerate() {
            let n = squares_of(pos.piece_bits(p, t)).count();
            if n < low as usize || n > high as usize {
                let wanted = if low == high {
                    format!("exactly {low}")
                } else {
                    format!("{low} to {high}")
                };
                return Err(format!(
                    "{} has {n} {} on the board; {} allows {wanted}",
                    player.name, piece.name, game.title
                ));
            }
        }
    }
    Ok(())
}

/// No piece stands in a zone it never stands in (declared; its `forced`
/// promotion zone; its promotion zone when promotion there is compulsory,
/// unless it can be dropped from a hand, which may put it there
/// unpromoted: Euroshogi, Dobutsu), nor outside the zone it never leaves.
fn zones(game: &Game, pos: &Position) -> Result<(), String> {
    for sq in game.topology.squares() {
        let cell = pos.cell(sq);
        let info = game.cells.info(cell);
        if cell.is_empty() || info.piece == NO_PIECE || info.phantom {
            continue;
        }
        let Some(piece) = game.pieces.get(info.piece as usize) else {
            continue;
        };
        let owner = info.owner as usize;
        let Some(player) = game.players.get(owner) else {
            continue;
        };
        let square = game.topology.name(sq);
        let zone_name = |z: usize| game.zones.names()[z].as_str();
        let forced = piece.promotion.iter().flat_map(|p| {
            // A compulsory promotion on reaching the zone keeps the piece out
            // of it; not one that only a capture (or entering) sets off.
            let whole = (!p.optional && !p.entering_or_capturing && piece.drop_programs.is_empty())
                .then_some(p.zone);
            whole.into_iter().chain(p.forced_zone)
        });
        for z in piece.never_in.iter().copied().chain(forced) {
            if game.zones.contains(z, owner, sq) {
                return Err(format!(
                    "{}'s {} stands on {square}, in its zone '{}', where it cannot stand",
                    player.name,
                    piece.name,
                    zone_name(z)
                ));
            }
        }
        if let Some(z) = piece.only_in
            && !game.zones.contains(z, owner, sq)
        {
            return Err(format!(
                "{}'s {} stands on {square}, outside its zone '{}', which it never leaves",
                player.name,
                piece.name,
                zone_name(z)
            ));
        }
    }
    Ok(())
}

/// Where captures go to hand, royal pieces are never in hand (with royal
/// safety they are never taken) and there are no more pieces of a kind on
/// the board and in the hands than the setup has.
fn hands(game: &Game, pos: &Position) -> Result<(), String> {
    if !game.has_hands() {
        return Ok(());
    }
    let players = game.players.len();
    // Royal pieces are never captured, so never captured into a hand (they
    // may start in one: placement chess).
    if game.rules.royal_safety && game.rules.captures_to_hand {
        for &t in game.royal_types() {
            for p in 0..players {
                if game.in_hand(pos, p, t) > 0 {
                    return Err(format!(
                        "{} holds a {} in hand; it is royal and never taken",
                        game.players[p].name, game.pieces[t as usize].name
                    ));
                }
            }
        }
    }
    if !game.rules.captures_to_hand {
        return Ok(());
    }
    let setup = material(game, game.setup());
    let now = material(game, pos);
    // A type that promotion makes (and capture does not turn back) may
    // exceed the setup by as many pieces as the promoting types lack.
    let base = |t: u16| game.pieces[t as usize].demotes_to.unwrap_or(t) as usize;
    let mut made_by_promotion = vec![false; game.pieces.len()];
    let mut promoters_missing = 0u32;
    for (t, piece) in game.pieces.iter().enumerate() {
        if let Some(promotion) = &piece.promotion {
            promotion
                .to
                .iter()
                .for_each(|&to| made_by_promotion[base(to)] = true);
            promoters_missing += setup[t].saturating_sub(now[t]);
        }
    }
    let mut promoted = 0u32;
    for (t, (&n, &most)) in now.iter().zip(&setup).enumerate() {
        if n <= most {
            continue;
        }
        if made_by_promotion[t] && base(t as u16) == t {
            promoted += n - most;
            if promoted <= promoters_missing {
                continue;
            }
        }
        return Err(format!(
            "there are {n} {}s on the board and in hand together; {} has {most}{}",
            game.pieces[t].name,
            game.title,
            if made_by_promotion[t] {
                ", and too few pieces are missing to have promoted to more"
            } else {
                ""
            }
        ));
    }
    Ok(())
}

/// Per base piece type (what a piece demotes to when captured): how many
/// are on the board or in a hand.
fn material(game: &Game, pos: &Position) -> Vec<u32> {
    let base = |t: usize| game.pieces[t].demotes_to.map_or(t, |b| b as usize);
    let mut out = vec![0u32; game.pieces.len()];
    for p in 0..game.players.len() {
        for t in 0..game.pieces.len() {
            out[base(t)] += squares_of(pos.piece_bits(p, t)).count() as u32;
            out[base(t)] += game.in_hand(pos, p, t as u16) as u32;
        }
    }
    out
}

/// With royal safety between two players, the player who just moved
/// cannot have left a royal piece attacked (unless the end rule allows it:
/// janggi's pass with the generals facing).
fn not_to_move_in_check(game: &Game, pos: &Position) -> Result<(), String> {
    if !game.rules.royal_safety || game.players.len() != 2 || game.in_free_phase(pos) {
        return Ok(());
    }
    let last = 1 - pos.side();
    let allowed = game
        .end_rule
        .as_ref()
        .is_some_and(|r| r.allows_check_left(game, pos));
    if !allowed && game.royal_attacked(pos, last) {
        return Err(format!(
            "{} is in check, but it is {}'s move",
            game.players[last].name,
            game.players[pos.side()].name
        ));
    }
    Ok(())
}
