//! A game in progress: the position, the moves played (with their texts),
//! the legal moves now and the result once the game is over. The terminal
//! (`dagaz play`), the web server's matches and the match runner all play
//! through a [`Session`], so each question ("is this move legal?", "is the
//! game over?") has one answer, computed once per position.
//!
//! A session changes only by whole steps: a move is made, its replies
//! generated and the result decided before the call returns; if any part
//! fails, the session is as it was.

use std::sync::Arc;
use std::sync::OnceLock;

use crate::game::{Game, GameResult};
use crate::movegen::{GenError, Generator};
use crate::position::{Move, MoveList, MoveRef, Position};
use crate::text::movetext::{self, MoveTextError};
use crate::text::san;

/// Why a session refused to change.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The move text names no legal move, or several.
    #[error(transparent)]
    Move(#[from] MoveTextError),
    /// The game is over; no move can be made.
    #[error("the game is over: {0}")]
    Over(String),
    /// There is no move to take back.
    #[error("there is no move to take back")]
    NothingToUndo,
    /// The game file's programs explore too much (see [`GenError`]).
    #[error(transparent)]
    Generation(#[from] GenError),
}

/// A game being played.
pub struct Session {
    game: Arc<Game>,
    start: Position,
    pos: Position,
    played: Vec<Move>,
    texts: Vec<String>,
    legal: MoveList,
    /// The texts of `legal`, computed when first asked for.
    legal_texts: OnceLock<Vec<String>>,
    result: Option<GameResult>,
    /// The result was declared (a resignation), not found by the rules.
    declared: bool,
    /// Draws a player must claim do not end the game (see
    /// [`Session::playing_past_claims`]).
    past_claims: bool,
    generator: Generator,
}

impl Clone for Session {
    fn clone(&self) -> Session {
        Session {
            game: self.game.clone(),
            start: self.start.clone(),
            pos: self.pos.clone(),
            played: self.played.clone(),
            texts: self.texts.clone(),
            legal: self.legal.clone(),
            legal_texts: self.legal_texts.clone(),
            result: self.result.clone(),
            declared: self.declared,
            past_claims: self.past_claims,
            generator: Generator::new(),
        }
    }
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("game", &self.game.name)
            .field("position", &self.game.write_position(&self.pos))
            .field("moves", &self.texts)
            .field("result", &self.result)
            .finish()
    }
}

impl Session {
    /// A session from the game's setup.
    pub fn new(game: Arc<Game>) -> Result<Session, GenError> {
        let start = game.initial_position();
        Session::from_position(game, start)
    }

    /// A session from `start`.
    pub fn from_position(game: Arc<Game>, start: Position) -> Result<Session, GenError> {
        let mut s = Session {
            pos: start.clone(),
            start,
            game,
            played: Vec::new(),
            texts: Vec::new(),
            legal: MoveList::new(),
            legal_texts: OnceLock::new(),
            result: None,
            declared: false,
            past_claims: false,
            generator: Generator::new(),
        };
        s.refresh()?;
        Ok(s)
    }

    /// The same session where draws a player must claim (a repetition,
    /// the move clock: [`crate::game::Goal::is_claimed_draw`]) do not end
    /// the game: an engine protocol's, whose GUI claims them. The game is
    /// over only when it ends by itself (a mate, a stalemate).
    pub fn playing_past_claims(mut self) -> Result<Session, GenError> {
        self.past_claims = true;
        self.refresh()?;
        Ok(self)
    }

    pub fn game(&self) -> &Arc<Game> {
        &self.game
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The position the session started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played, in order.
    pub fn played(&self) -> &[Move] {
        &self.played
    }

    /// The texts of the moves played, as they were written when played.
    pub fn texts(&self) -> &[String] {
        &self.texts
    }

    /// The number of moves played.
    pub fn ply(&self) -> usize {
        self.played.len()
    }

    /// The player to move.
    pub fn side(&self) -> usize {
        self.pos.side()
    }

    /// The legal moves now (none once the game is over by resignation).
    pub fn legal(&self) -> &MoveList {
        &self.legal
    }

    /// The texts of the legal moves, one each and all different.
    pub fn legal_texts(&self) -> &[String] {
        self.legal_texts
            .get_or_init(|| movetext::texts(&self.game, &self.legal))
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// The index of the legal move a text names: dagaz's move text, or in
    /// games written in SAN, a SAN move (`Nf3`).
    pub fn find(&self, text: &str) -> Result<usize, SessionError> {
        self.refuse_if_over()?;
        match movetext::find(&self.game, &self.legal, text) {
            Err(e @ MoveTextError::Illegal { .. }) if san::applies(&self.game) => {
                let mut pos = self.pos.clone();
                san::find(&self.game, &mut pos, &self.legal, text).map_err(|_| e.into())
            }
            found => Ok(found?),
        }
    }

    /// The index of `mv` among the legal moves (a move an engine found
    /// on a copy of this position).
    pub fn index_of(&self, mv: MoveRef) -> Option<usize> {
        self.legal.index_of(mv)
    }

    /// Plays the legal move at `index`; returns its text.
    ///
    /// # Panics
    /// If `index` is not below `self.legal().len()`.
    pub fn play(&mut self, index: usize) -> Result<String, SessionError> {
        self.refuse_if_over()?;
        let text = self.legal_texts()[index].clone();
        let mv = self.legal.get(index).to_owned();
        self.game.make(&mut self.pos, mv.as_ref());
        self.played.push(mv);
        self.texts.push(text.clone());
        if let Err(e) = self.refresh() {
            self.take_back_one();
            self.refresh()?;
            return Err(e.into());
        }
        Ok(text)
    }

    /// Plays the move a text names; returns its full text.
    pub fn play_text(&mut self, text: &str) -> Result<String, SessionError> {
        let i = self.find(text)?;
        self.play(i)
    }

    /// Plays the moves of `texts` in order; stops at the first that does
    /// not apply, with the session as it was after the moves before it.
    pub fn replay<S: AsRef<str>>(&mut self, texts: &[S]) -> Result<(), SessionError> {
        for t in texts {
            self.play_text(t.as_ref())?;
        }
        Ok(())
    }

    /// Takes back the last `count` moves (and a declared result with
    /// them); returns the moves taken back, the last played first.
    pub fn undo(&mut self, count: usize) -> Result<Vec<Move>, SessionError> {
        if count == 0 || count > self.played.len() {
            return Err(SessionError::NothingToUndo);
        }
        let texts: Vec<String> = self.texts[self.texts.len() - count..].to_vec();
        let taken: Vec<Move> = (0..count).filter_map(|_| self.take_back_one()).collect();
        if let Err(e) = self.refresh() {
            // Put the moves back: the position they led to was generated before.
            for (mv, text) in taken.iter().rev().zip(texts) {
                self.game.make(&mut self.pos, mv.as_ref());
                self.played.push(mv.clone());
                self.texts.push(text);
            }
            self.refresh()?;
            return Err(e.into());
        }
        self.declared = false;
        Ok(taken)
    }

    /// Whether the result was declared ([`Session::declare`]) rather than
    /// decided by the rules.
    pub fn result_declared(&self) -> bool {
        self.declared
    }

    /// Ends the game with a result the rules did not decide (a
    /// resignation, an adjudication). Taking a move back lifts it.
    pub fn declare(&mut self, result: GameResult) {
        self.result = Some(result);
        self.declared = true;
    }

    /// Goes on after a draw a player must claim — a repetition or the
    /// move-count rule ([`crate::game::Goal::is_claimed_draw`]), which
    /// players may leave unclaimed — until a later position ends the game
    /// again (a record that plays past such a draw is read so). A draw the
    /// game reaches by itself (a stalemate, too little material to mate)
    /// stays: the game is over. Does nothing if the game is not drawn.
    pub fn resume_after_draw(&mut self) -> Result<(), GenError> {
        if matches!(self.result, Some(GameResult::Draw { .. })) && !self.declared {
            self.result =
                self.generator
                    .result_unclaimed(&self.game, &mut self.pos, self.legal.len())?;
        }
        Ok(())
    }

    /// A copy of the position for an engine to think on.
    pub fn position_copy(&self) -> Position {
        self.pos.clone()
    }

    fn refuse_if_over(&self) -> Result<(), SessionError> {
        match &self.result {
            Some(r) => Err(SessionError::Over(r.describe(&self.game))),
            None => Ok(()),
        }
    }

    fn take_back_one(&mut self) -> Option<Move> {
        let mv = self.played.pop()?;
        self.game.undo(&mut self.pos, mv.as_ref());
        self.texts.pop();
        Some(mv)
    }

    /// Generates the legal moves of the position and decides the result.
    fn refresh(&mut self) -> Result<(), GenError> {
        let mut legal = MoveList::new();
        self.generator
            .legal(&self.game, &mut self.pos, &mut legal)?;
        let result = if self.past_claims {
            self.generator
                .result_unclaimed(&self.game, &mut self.pos, legal.len())?
        } else {
            self.generator
                .result_given(&self.game, &mut self.pos, legal.len())?
        };
        self.legal = legal;
        self.legal_texts = OnceLock::new();
        self.result = result;
        Ok(())
    }
}
