//! "Is the game over?": the one answer, used by every front end, the AI
//! and the match runner. The game's end rule (a handler) speaks first,
//! then the goals of the game file, in a fixed order.

use super::{GenError, Generator};
use crate::game::{Game, GameResult, Outcome};
use crate::position::Position;

impl Generator {
    /// The result if the game is over in `pos`; `None` while it goes on.
    /// Generates the legal moves to find out.
    pub fn result(
        &mut self,
        game: &Game,
        pos: &mut Position,
    ) -> Result<Option<GameResult>, GenError> {
        let mut list = std::mem::take(&mut self.scratch);
        let legal = self.legal(game, pos, &mut list);
        self.scratch = list;
        let legal = legal.map(|()| self.scratch.len())?;
        self.result_given(game, pos, legal)
    }

    /// [`Generator::result`] when the side to move is known to have
    /// `legal` legal moves (the caller has just generated them).
    pub fn result_given(
        &mut self,
        game: &Game,
        pos: &mut Position,
        legal: usize,
    ) -> Result<Option<GameResult>, GenError> {
        let blocked = match game.rules.goals.colour_blocked {
            None => false,
            Some(_) => {
                let mut list = std::mem::take(&mut self.scratch);
                let own = self.own_pieces_moves(game, pos, &mut list);
                let blocked = list.is_empty();
                self.scratch = list;
                own?;
                blocked
            }
        };
        Ok(decide(game, pos, legal, blocked))
    }
}

/// The result in `pos` if the game is over, where the side to move has
/// `legal_moves` legal moves, and `colour_blocked` says whether none of its
/// pieces can move at all: the end rule first, then the goals.
fn decide(
    game: &Game,
    pos: &Position,
    legal_moves: usize,
    colour_blocked: bool,
) -> Option<GameResult> {
    if let Some(result) = game
        .end_rule
        .as_ref()
        .and_then(|r| r.result(game, pos, legal_moves))
    {
        return Some(result);
    }
    let n = game.players.len();
    let side = pos.side();
    let last = (side + n - 1) % n;
    let g = &game.rules.goals;
    let decide = |outcome: Outcome, reason: &str| -> GameResult {
        match outcome {
            Outcome::Win => GameResult::Win {
                winner: last,
                reason: reason.to_string(),
            },
            Outcome::Loss => GameResult::Win {
                winner: side,
                reason: reason.to_string(),
            },
            Outcome::Draw => GameResult::Draw {
                reason: reason.to_string(),
            },
        }
    };
    if let (true, Some(o)) = (colour_blocked, g.colour_blocked) {
        return Some(decide(o, "no piece of its colour can move"));
    }
    if let Some(o) = g.bare_king
        && bare(game, pos, side)
        && !bare(game, pos, last)
    {
        return Some(decide(o, "bare king"));
    }
    if legal_moves == 0 {
        let in_check = game.royal_attacked(pos, side);
        return Some(match (in_check, g.checkmate, g.stalemate, g.no_moves) {
            (true, Some(o), _, _) => decide(o, "checkmate"),
            (false, _, Some(o), _) => decide(o, "stalemate"),
            (_, _, _, Some(o)) => decide(o, "no legal moves"),
            _ => GameResult::Draw {
                reason: "no legal moves".into(),
            },
        });
    }
    if let Some((times, o)) = g.repetition
        && pos.repetitions() + 1 >= times
    {
        return Some(decide(o, &format!("position repeated {times} times")));
    }
    if let Some((plies, o)) = g.no_progress
        && pos.clock() >= plies
    {
        return Some(decide(o, &format!("{plies} plies without progress")));
    }
    None
}

/// True if `player` has no pieces but royal ones.
fn bare(game: &Game, pos: &Position, player: usize) -> bool {
    game.pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.royal)
        .all(|(t, _)| pos.piece_bits(player, t).iter().all(|w| *w == 0))
}
