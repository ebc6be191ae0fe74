//! Matches between engines: whole games with alternating colours, optional
//! random openings, results with an Elo difference, and game records.

use std::sync::Arc;

use rand::SeedableRng;
use rand::rngs::StdRng;

use super::{Engine, choose};
use crate::game::{Game, GameResult};
use crate::movegen::GenError;
use crate::position::Position;
use crate::session::{Session, SessionError};

/// How one game of a match is played.
#[derive(Clone, Copy, Debug)]
pub struct GameSetup {
    /// Engine of each player, in turn order.
    pub engines: [Engine; 2],
    /// Random plies played before the engines take over.
    pub opening_plies: usize,
    /// Games longer than this are adjudicated drawn.
    pub max_plies: usize,
    pub seed: u64,
    /// In a game that shuffles its setup (Chess960), the seed its start is
    /// drawn with: a match gives the same to the two games of a pair, so
    /// that each engine plays each start with both colours. `None`: the
    /// setup as written.
    pub start_seed: Option<u64>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Record {
    /// The position the game started from (the setup, or a shuffled
    /// start).
    pub start: Position,
    /// Moves in the move text of the game.
    pub moves: Vec<String>,
    pub result: GameResult,
    /// Why the game was lost by forfeit (an engine played an illegal
    /// move), if it was.
    pub forfeit: Option<String>,
}

/// Whoever chooses one side's moves in a match game: a built-in
/// [`Engine`], or a program spoken to over an engine protocol (the
/// command-line front end's external engines).
pub trait Player {
    /// Called before each game.
    fn new_game(&mut self, game: &Game) -> Result<(), PlayerError> {
        let _ = game;
        Ok(())
    }

    /// The move of the side to move in `session` (a game in progress), as
    /// an index into `session.legal_texts()`; `None` if the player
    /// resigns or has nothing to play.
    fn choose(&mut self, session: &Session, rng: &mut StdRng)
    -> Result<Option<usize>, PlayerError>;
}

/// Why a player could not move.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    #[error(transparent)]
    Generation(#[from] GenError),
    /// The player answered with a move that is not legal here: it loses
    /// the game.
    #[error("{player} played {text}, which is not a legal move here")]
    Illegal { player: String, text: String },
    /// The player could not be asked (an external program died, timed out
    /// or spoke nonsense): the match stops.
    #[error("{0}")]
    Failed(String),
}

impl Player for Engine {
    fn choose(
        &mut self,
        session: &Session,
        rng: &mut StdRng,
    ) -> Result<Option<usize>, PlayerError> {
        let game = session.game();
        let mut pos = session.position_copy();
        let Some(choice) = choose(game, &mut pos, *self, rng)? else {
            return Ok(None);
        };
        Ok(session.index_of(choice.mv.as_ref()))
    }
}

/// Plays one game between built-in engines from the setup position.
pub fn play_game(game: &Arc<Game>, setup: &GameSetup) -> Result<Record, GenError> {
    let [mut first, mut second] = setup.engines;
    let mut players: [&mut dyn Player; 2] = [&mut first, &mut second];
    play_between(game, &mut players, setup).map_err(|e| match e {
        PlayerError::Generation(g) => g,
        other => unreachable!("built-in engines choose among the legal moves: {other}"),
    })
}

/// Plays one game between `players` (in turn order) from the setup
/// position, or from a start drawn with `setup.start_seed` in a game that
/// shuffles its setup; `setup.engines` is not used. A player that answers with an
/// illegal move loses the game. In games of more than two players the two
/// take the seats in turn (the first plays the first, third… player); in a
/// one-player game the first plays alone.
pub fn play_between(
    game: &Arc<Game>,
    players: &mut [&mut dyn Player; 2],
    setup: &GameSetup,
) -> Result<Record, PlayerError> {
    let mut rng = StdRng::seed_from_u64(setup.seed);
    let start = match setup.start_seed {
        Some(seed) => game.shuffled_start(&mut StdRng::seed_from_u64(seed)),
        None => game.initial_position(),
    };
    let mut session = Session::from_position(game.clone(), start)?;
    for p in players.iter_mut() {
        p.new_game(game)?;
    }
    let record = |session: &Session, result: GameResult| Record {
        start: session.start().clone(),
        moves: session.texts().to_vec(),
        result,
        forfeit: None,
    };
    for ply in 0..setup.max_plies {
        if let Some(result) = session.result() {
            return Ok(record(&session, result.clone()));
        }
        let seat = session.side();
        let side = seat % 2;
        let choice = if ply < setup.opening_plies {
            Engine::Random.choose(&session, &mut rng)
        } else {
            players[side].choose(&session, &mut rng)
        };
        let index = match choice {
            Ok(Some(index)) => index,
            Ok(None) => break,
            Err(PlayerError::Illegal { player, text }) => {
                let reason = format!("{player} played the illegal move {text}");
                let mut lost = record(&session, forfeit(seat, game.players.len(), reason.clone()));
                lost.forfeit = Some(reason);
                return Ok(lost);
            }
            Err(e) => return Err(e),
        };
        session.play(index).map_err(|e| match e {
            SessionError::Generation(g) => PlayerError::Generation(g),
            other => PlayerError::Failed(format!("a chosen move was refused: {other}")),
        })?;
    }
    Ok(record(
        &session,
        GameResult::Draw {
            reason: format!("move limit of {} plies", setup.max_plies),
        },
    ))
}

/// The result of a game of `players` players lost by `loser` for
/// `reason`: the next player wins (in a one-player game, nobody does).
fn forfeit(loser: usize, players: usize, reason: String) -> GameResult {
    match players {
        1 => GameResult::Draw { reason },
        n => GameResult::Win {
            winner: (loser + 1) % n,
            reason,
        },
    }
}

/// Running totals of a match between engine A and engine B.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub a: u32,
    pub b: u32,
    pub draws: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.a + self.b + self.draws
    }

    /// A's score, from 0 to 1.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (self.a as f64 + self.draws as f64 / 2.0) / self.games() as f64
    }

    /// Elo difference of A over B and the 95% margin around it. Infinite
    /// when one side scored everything.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games() as f64;
        let s = self.score();
        let elo = |s: f64| -> f64 {
            if s <= 0.0 {
                f64::NEG_INFINITY
            } else if s >= 1.0 {
                f64::INFINITY
            } else {
                -400.0 * (1.0 / s - 1.0).log10()
            }
        };
        if n == 0.0 {
            return (0.0, f64::INFINITY);
        }
        // Standard error of the score from the spread of the game results.
        let (w, d) = (self.a as f64 / n, self.draws as f64 / n);
        let variance = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + (1.0 - w - d) * s.powi(2);
        let margin = 1.96 * (variance / n).sqrt();
        let (low, high) = (elo((s - margin).max(0.0)), elo((s + margin).min(1.0)));
        // An even score is +0, not −0.
        let even = |e: f64| if e == 0.0 { 0.0 } else { e };
        (even(elo(s)), (high - low) / 2.0)
    }
}

/// Writes a match game as its game's standard record (PGN, PDN or KIF;
/// [`crate::record`]): the players' names, the round, today's date.
pub fn write_record(
    game: &Arc<Game>,
    record: &Record,
    a_plays_first: bool,
    names: [&str; 2],
    number: u32,
) -> Result<String, GenError> {
    let (first, second) = if a_plays_first {
        (names[0], names[1])
    } else {
        (names[1], names[0])
    };
    let mut session = Session::from_position(game.clone(), record.start.clone())?;
    for text in &record.moves {
        session.play_text(text).map_err(|e| match e {
            SessionError::Generation(g) => g,
            other => unreachable!("replaying a match game's own move: {other}"),
        })?;
    }
    if session.result() != Some(&record.result) {
        session.declare(record.result.clone());
    }
    let mut tags = crate::record::header(session.game(), "dagaz match", [first, second]);
    tags.push(("Round".to_string(), number.to_string()));
    crate::record::write(&session, &tags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_from_scores() {
        let even = Tally {
            a: 10,
            b: 10,
            draws: 0,
        };
        assert!(even.elo().0.abs() < 1e-9);
        let drawn = Tally {
            a: 0,
            b: 0,
            draws: 4,
        };
        assert_eq!(format!("{:+.0}", drawn.elo().0), "+0");
        let t = Tally {
            a: 75,
            b: 25,
            draws: 0,
        };
        let (elo, margin) = t.elo();
        assert!((elo - 190.8).abs() < 0.5, "{elo}");
        assert!(margin > 50.0 && margin < 100.0, "{margin}");
        assert_eq!(
            Tally {
                a: 5,
                b: 0,
                draws: 0
            }
            .elo()
            .0,
            f64::INFINITY
        );
    }
}
