//! Janggi's rules that the notation cannot say:
//!
//! - `not_piece:<Piece>`: the cursor's square holds a piece, of either
//!   side, that is not of that type (a janggi cannon may neither jump over
//!   nor take another cannon; the notation's `=Name` has no negation).
//! - end rule `bikjang`, as Fairy-Stockfish plays it (its `janggi`
//!   variant, whose published perft counts the tests reproduce): a move
//!   may bring the two generals face to face on a file with nothing
//!   between them; the other side must then part them, or pass (even in
//!   check), and a pass ends the game. Two passes in a row end the game
//!   too. An ended game is scored by material (the tournament rule): each
//!   side counts the `value` of its pieces other than the general, and the
//!   second player (Han) adds the customary 1.5 points (150 in value
//!   units), so there is never a tie.
//! - end rule `bikjang_draw`: the same, but an ended game is a draw
//!   (Fairy-Stockfish's `janggitraditional`).

use std::sync::Arc;

use super::{Branch, EndRule, Handler, HandlerContext, HandlerRegistry};
use crate::board::Square;
use crate::game::extension::SquareTest;
use crate::game::{Game, GameResult};
use crate::position::{MoveHeader, MoveList};
use crate::position::{NO_PIECE, Ply, Position, squares_of};

pub(super) fn register(r: &mut HandlerRegistry) {
    r.register_end("bikjang", Bikjang { scored: true });
    r.register_end("bikjang_draw", Bikjang { scored: false });
}

/// `not_piece:<Piece>`.
pub(super) fn with_argument(name: &str) -> Option<Arc<dyn Handler>> {
    let piece = name.strip_prefix("not_piece:")?;
    Some(Arc::new(NotPiece(piece.to_string())))
}

struct NotPiece(String);

impl Handler for NotPiece {
    fn square_test(&self, pieces: &[String]) -> Option<SquareTest> {
        let t = pieces.iter().position(|p| *p == self.0)?;
        Some(SquareTest::NotType(t as u16))
    }

    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        // The phantom that stands in for "some piece" when attacks on an
        // empty square are asked about is of no type: it is not one.
        let cell = ctx.cells[ctx.cursor.index()];
        let phantom = !cell.is_marked() && ctx.game.cells.info(cell).phantom;
        let other = phantom
            || ctx
                .piece_at(ctx.cursor)
                .is_some_and(|p| ctx.game.pieces[p.piece as usize].name != self.0);
        if other {
            out.push(Branch::stay(ctx.cursor));
        }
    }
}

/// The second player's tie-breaking bonus, in the game file's value units
/// (1.5 points = 150).
const HAN_BONUS: i64 = 150;

struct Bikjang {
    /// An ended game is scored by material; otherwise it is a draw.
    scored: bool,
}

/// Whether a move (as the position's history records it) was a pass.
fn is_pass(ply: &Ply) -> bool {
    !ply.synthetic && ply.from.is_some() && ply.from == ply.to
}

impl EndRule for Bikjang {
    fn result(&self, game: &Game, pos: &Position, _legal: usize) -> Option<GameResult> {
        if game.players.len() != 2 {
            return None;
        }
        let history = pos.history();
        let passed = |back: usize| {
            history
                .len()
                .checked_sub(back)
                .is_some_and(|i| is_pass(&history[i]))
        };
        let why = if passed(1) && generals_face(game, pos) {
            "bikjang: the generals face each other and the player passed"
        } else if passed(1) && passed(2) {
            "both players passed"
        } else {
            return None;
        };
        if !self.scored {
            return Some(GameResult::Draw {
                reason: why.to_string(),
            });
        }
        let score = |player: usize| -> i64 {
            let material: i64 = game
                .topology
                .squares()
                .filter_map(|sq| {
                    let info = game.cells.info(pos.cell(sq));
                    let royal = info.piece != NO_PIECE && game.pieces[info.piece as usize].royal;
                    (!pos.cell(sq).is_empty()
                        && info.piece != NO_PIECE
                        && info.owner as usize == player
                        && !royal)
                        .then(|| game.pieces[info.piece as usize].value as i64)
                })
                .sum();
            material + if player == 1 { HAN_BONUS } else { 0 }
        };
        let (a, b) = (score(0), score(1));
        let winner = if a > b { 0 } else { 1 };
        Some(GameResult::Win {
            winner,
            reason: format!(
                "{why}; material {} to {} (Han +1.5)",
                a as f64 / 100.0,
                b as f64 / 100.0
            ),
        })
    }

    fn forbids_moves(&self) -> bool {
        true
    }

    /// Facing generals must be parted: every move but a pass has to. Once
    /// the game is over, no move is left (as in Fairy-Stockfish, whose
    /// perft counts stop there).
    fn forbid(&self, game: &Game, pos: &mut Position, moves: &MoveList, keep: &mut [bool]) {
        if self.result(game, pos, moves.len()).is_some() {
            keep.fill(false);
            return;
        }
        if !generals_face(game, pos) {
            return;
        }
        for (i, k) in keep.iter_mut().enumerate() {
            let mv = moves.get(i);
            if !*k || mv.changes.is_empty() {
                continue;
            }
            game.make(pos, mv);
            *k = !generals_face(game, pos);
            game.undo(pos, mv);
        }
    }

    fn adds_moves(&self) -> bool {
        true
    }

    /// The generals apart, the side to move with its general, the game
    /// not over: nothing to forbid or add.
    fn leaves_moves(&self, game: &Game, pos: &Position) -> bool {
        game.has_royal(pos, pos.side())
            && !generals_face(game, pos)
            && self.result(game, pos, 1).is_none()
    }

    /// A player in check may have passed with the generals facing.
    fn allows_check_left(&self, game: &Game, pos: &Position) -> bool {
        generals_face(game, pos)
    }

    /// With the generals facing, the side to move may pass even in check
    /// (royal safety took that pass away): the pass ends the game. A side
    /// whose general was taken (after such a pass) may still pass, as in
    /// Fairy-Stockfish, with its piece nearest its own corner.
    fn complete(&self, game: &Game, pos: &Position, moves: &mut MoveList) {
        if self.result(game, pos, moves.len()).is_none()
            && !moves.iter().any(|m| m.changes.is_empty())
            && let Some(sq) = generalless_pass_square(game, pos)
        {
            let piece = game.cells.info(pos.cell(sq)).piece;
            let mut header = MoveHeader::new(piece, Some(sq), Some(sq), 0);
            header.player = pos.side() as u8;
            moves.push(header, &[], &[]);
            return;
        }
        if moves.iter().any(|m| m.changes.is_empty())
            || !generals_face(game, pos)
            || self.result(game, pos, moves.len()).is_some()
        {
            return;
        }
        let side = pos.side();
        let general = game.topology.squares().find(|sq| {
            let info = game.cells.info(pos.cell(*sq));
            !pos.cell(*sq).is_empty()
                && info.owner as usize == side
                && info.piece != NO_PIECE
                && game.pieces[info.piece as usize].royal
        });
        if let Some(sq) = general {
            let piece = game.cells.info(pos.cell(sq)).piece;
            let mut header = MoveHeader::new(piece, Some(sq), Some(sq), 0);
            header.player = side as u8;
            moves.push(header, &[], &[]);
        }
    }
}

/// For a side to move without a general: the square of its piece that
/// comes first counting from a1 rank by rank (the piece Fairy-Stockfish
/// writes its pass with); none while it has a general.
fn generalless_pass_square(game: &Game, pos: &Position) -> Option<Square> {
    let side = pos.side();
    let own: Vec<Square> = game
        .topology
        .squares()
        .filter(|sq| {
            let info = game.cells.info(pos.cell(*sq));
            !pos.cell(*sq).is_empty() && info.piece != NO_PIECE && info.owner as usize == side
        })
        .collect();
    if own
        .iter()
        .any(|sq| game.pieces[game.cells.info(pos.cell(*sq)).piece as usize].royal)
    {
        return None;
    }
    let key = |sq: &Square| {
        let name = game.topology.name(*sq);
        let rank: u32 = name
            .trim_start_matches(|c: char| c.is_ascii_alphabetic())
            .parse()
            .unwrap_or(0);
        (rank, name.to_string())
    };
    own.into_iter().min_by_key(key)
}

/// Whether the two royal pieces stand on one file with nothing between.
fn generals_face(game: &Game, pos: &Position) -> bool {
    let topo = &game.topology;
    let mut generals = (0..game.players.len()).flat_map(|p| {
        game.royal_types
            .iter()
            .flat_map(move |&t| squares_of(pos.piece_bits(p, t as usize)))
    });
    let (Some(a), Some(b), None) = (generals.next(), generals.next(), generals.next()) else {
        return false;
    };
    let (ca, cb) = (topo.coords(a), topo.coords(b));
    if ca.col != cb.col || ca.level != cb.level {
        return false;
    }
    let (lo, hi) = (ca.row.min(cb.row), ca.row.max(cb.row));
    (lo + 1..hi).all(|row| {
        topo.at(ca.col, row, ca.level)
            .is_none_or(|sq| pos.cell(sq).is_empty())
    })
}
