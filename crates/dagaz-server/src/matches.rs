//! A match being played through the web: a [`Session`] (the game, its
//! position, moves and result), who holds which seat, and the views the
//! page draws from. Every change is first computed on a copy
//! ([`Change`]); the HTTP layer saves it, and only then is it applied, so
//! that memory never runs ahead of the database.

use std::sync::Arc;

use dagaz::ai::Engine;
use dagaz::board::Square;
use dagaz::entry;
use dagaz::game::{Game, GameResult};
use dagaz::movegen::GenError;
use dagaz::position::{MoveRef, NO_PIECE, Position, squares_of};
use dagaz::record::{self, Format};
use dagaz::session::Session;

use crate::store::StoredResult;
use crate::views::{
    InHand, LastMove, LegalMove, MatchView, PieceOnBoard, ResultView, StackedPiece,
};

/// How the seats of a match are held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A person, who plays `human`, against the computer, which plays
    /// every other side.
    Ai { engine: Engine, human: usize },
    /// Two people on one screen (one token holds every seat).
    Local,
    /// Two browsers, each seat with its own token.
    Online,
}

impl Mode {
    pub fn name(&self) -> &'static str {
        match self {
            Mode::Ai { .. } => "ai",
            Mode::Local => "local",
            Mode::Online => "online",
        }
    }
}

/// A refused request: an HTTP status and a message for the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub message: String,
}

impl Refusal {
    pub fn new(status: u16, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            message: message.into(),
        }
    }
}

/// A change computed but not yet applied: the session as it will be.
pub struct Change {
    next: Session,
    /// The text of the move it plays, if it plays one.
    pub text: Option<String>,
}

impl Change {
    /// The number of moves played after the change.
    pub fn ply(&self) -> usize {
        self.next.ply()
    }

    /// The result after the change, as the store keeps it.
    pub fn stored_result(&self) -> Option<StoredResult> {
        stored_result(&self.next)
    }
}

/// One match.
pub struct Match {
    pub id: String,
    pub mode: Mode,
    /// Token per player; empty for the computer's seat.
    pub seats: Vec<String>,
    session: Session,
    /// Bumped at every change; the page refetches when it moves.
    pub version: u64,
}

impl Match {
    /// A new match from `start` (the game's setup if `None`).
    pub fn new(
        id: String,
        game: Arc<Game>,
        mode: Mode,
        seats: Vec<String>,
        start: Option<Position>,
    ) -> Result<Match, Refusal> {
        let start = start.unwrap_or_else(|| game.initial_position());
        let session = Session::from_position(game, start)
            .map_err(|e| Refusal::new(400, format!("this position cannot be played: {e}")))?;
        Ok(Match {
            id,
            mode,
            seats,
            session,
            version: 0,
        })
    }

    /// Replays stored moves (after a restart), then the stored result if
    /// the rules did not decide it (a resignation).
    pub fn restore(
        &mut self,
        texts: &[String],
        result: Option<&StoredResult>,
    ) -> Result<(), String> {
        for t in texts {
            self.session
                .play_text(t)
                .map_err(|e| format!("stored move '{t}': {e}"))?;
        }
        if let Some(w) = result.and_then(|r| r.winner)
            && w >= self.game().players.len()
        {
            return Err(format!(
                "stored winner {w}, but the game has {} players",
                self.game().players.len()
            ));
        }
        if self.session.result().is_none()
            && let Some(r) = result
        {
            self.session.declare(match r.winner {
                Some(winner) => GameResult::Win {
                    winner,
                    reason: r.reason.clone(),
                },
                None => GameResult::Draw {
                    reason: r.reason.clone(),
                },
            });
        }
        Ok(())
    }

    /// Catches up with the stored match when it only played moves after
    /// this one's (another server's moves): plays them and takes the
    /// stored version. False, changing nothing, when the stored moves do
    /// not continue this match's (moves were taken back) or one of them
    /// does not play.
    pub fn catch_up(
        &mut self,
        texts: &[String],
        result: Option<&StoredResult>,
        version: u64,
    ) -> bool {
        let played = self.session.texts();
        if texts.len() < played.len() || texts[..played.len()] != *played {
            return false;
        }
        let mut next = Match {
            id: self.id.clone(),
            mode: self.mode,
            seats: self.seats.clone(),
            session: self.session.clone(),
            version,
        };
        let ply = next.ply();
        if next.restore(&texts[ply..], result).is_err() {
            return false;
        }
        *self = next;
        true
    }

    pub fn game(&self) -> &Arc<Game> {
        self.session.game()
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    pub fn result(&self) -> Option<&GameResult> {
        self.session.result()
    }

    /// The number of moves played.
    pub fn ply(&self) -> usize {
        self.session.ply()
    }

    /// The seats `token` holds.
    pub fn seats_of(&self, token: &str) -> Vec<usize> {
        if token.is_empty() {
            return Vec::new();
        }
        (0..self.seats.len())
            .filter(|&p| self.seats[p] == token)
            .collect()
    }

    /// The engine to ask, when the computer is to move.
    pub fn computer_to_move(&self) -> Option<Engine> {
        computer_in(self.mode, &self.session)
    }

    /// Whether the computer is to move after `change`.
    pub fn computer_moves_after(&self, change: &Change) -> bool {
        computer_in(self.mode, &change.next).is_some()
    }

    /// Applies a change computed by one of the `*_change` methods (after
    /// it has been saved).
    pub fn apply(&mut self, change: Change) {
        self.session = change.next;
        self.version += 1;
    }

    /// A move by the holder of `token`.
    pub fn move_change(&self, token: &str, text: &str) -> Result<Change, Refusal> {
        if let Some(r) = self.session.result() {
            return Err(Refusal::new(
                409,
                format!("the game is over: {}", r.describe(self.game())),
            ));
        }
        let side = self.session.side();
        let seats = self.seats_of(token);
        let free = self.game().in_free_phase(self.session.position());
        if free {
            // Every player may move: the move's own player must be the
            // token's.
            let index = self
                .session
                .find(text)
                .map_err(|e| Refusal::new(400, e.to_string()))?;
            let mover = self.session.legal().get(index).header.player as usize;
            if !seats.contains(&mover) {
                let who = &self.game().players[mover].name;
                return Err(Refusal::new(
                    403,
                    format!("only the player holding {who}'s seat can move {who}'s pieces"),
                ));
            }
            return self.play_change(index);
        }
        if !seats.contains(&side) {
            let who = &self.game().players[side].name;
            return Err(if seats.is_empty() {
                Refusal::new(
                    403,
                    format!("only the player holding {who}'s seat can move"),
                )
            } else {
                Refusal::new(409, format!("it is {who}'s turn"))
            });
        }
        let index = self
            .session
            .find(text)
            .map_err(|e| Refusal::new(400, e.to_string()))?;
        self.play_change(index)
    }

    /// The computer's move, found on a copy of the position at
    /// `at_version`, if the match has not moved on since.
    pub fn computer_change(&self, mv: MoveRef, at_version: u64) -> Option<Change> {
        if at_version != self.version || self.computer_to_move().is_none() {
            return None;
        }
        let index = self.session.index_of(mv)?;
        self.play_change(index).ok()
    }

    fn play_change(&self, index: usize) -> Result<Change, Refusal> {
        let mut next = self.session.clone();
        let text = next
            .play(index)
            .map_err(|e| Refusal::new(500, e.to_string()))?;
        Ok(Change {
            next,
            text: Some(text),
        })
    }

    /// Takes back moves: against the computer, back to the person's last
    /// turn; on one screen, one move. Not between two browsers.
    pub fn undo_change(&self, token: &str) -> Result<Change, Refusal> {
        if self.seats_of(token).is_empty() {
            return Err(Refusal::new(403, "only a player can take moves back"));
        }
        let count = match self.mode {
            Mode::Online => {
                return Err(Refusal::new(
                    409,
                    "moves cannot be taken back in a game between two browsers",
                ));
            }
            Mode::Local => 1,
            Mode::Ai { human, .. } => self.plies_back_to(human),
        };
        let mut next = self.session.clone();
        next.undo(count)
            .map_err(|e| Refusal::new(409, e.to_string()))?;
        Ok(Change { next, text: None })
    }

    /// How many moves to take back so that `player` is to move again with
    /// at least one of their moves taken back (0 if none can).
    fn plies_back_to(&self, player: usize) -> usize {
        let game = self.game();
        let mut pos = self.session.position_copy();
        let mut undone_theirs = false;
        for (n, mv) in self.session.played().iter().rev().enumerate() {
            game.undo(&mut pos, mv.as_ref());
            undone_theirs |= pos.side() == player;
            if pos.side() == player && undone_theirs {
                return n + 1;
            }
        }
        0
    }

    /// The holder of `token` resigns (the first of their seats; on one
    /// screen, the side to move).
    pub fn resign_change(&self, token: &str) -> Result<Change, Refusal> {
        if self.session.is_over() {
            return Err(Refusal::new(409, "the game is already over"));
        }
        let seats = self.seats_of(token);
        let Some(&first) = seats.first() else {
            return Err(Refusal::new(403, "only a player can resign"));
        };
        let loser = if seats.len() > 1 {
            self.session.side()
        } else {
            first
        };
        let game = self.game().clone();
        let winner = (loser + 1) % game.players.len();
        let mut next = self.session.clone();
        next.declare(GameResult::Win {
            winner,
            reason: format!("{} resigned", game.players[loser].name),
        });
        Ok(Change { next, text: None })
    }

    /// A short text of the result ("1-0", "0-1", "1/2-1/2").
    pub fn result_text(&self) -> Option<String> {
        self.result().map(|r| r.score(self.game()))
    }

    /// The state the page draws, for the holder of `token`;
    /// `think_state` says whether the computer waits or thinks.
    pub fn view(&self, token: &str, think_state: Option<&'static str>) -> MatchView {
        let game = self.game();
        let s = &self.session;
        let pos = s.position();
        let name = |sq: Square| game.topology.name(sq).to_string();
        let names = |squares: Vec<Square>| squares.into_iter().map(name).collect::<Vec<_>>();
        let free = game.in_free_phase(pos);
        let you = self.seats_of(token);
        let legal = if s.is_over() {
            Vec::new()
        } else {
            s.legal()
                .iter()
                .zip(s.legal_texts())
                .filter(|(m, _)| {
                    !free || you.is_empty() || you.contains(&(m.header.player as usize))
                })
                .map(|(m, t)| LegalMove {
                    text: t.clone(),
                    path: names(entry::path(game, m)),
                    captures: names(game.captured_squares(m)),
                    piece: m.header.piece,
                    drop: m.header.from().is_none(),
                    promotion: m.header.promotion(),
                })
                .collect()
        };
        let side = s.side();
        let check = if game.royal_attacked(pos, side) {
            game.royal_types()
                .iter()
                .flat_map(|&t| squares_of(pos.piece_bits(side, t as usize)).collect::<Vec<_>>())
                .map(name)
                .collect()
        } else {
            Vec::new()
        };
        MatchView {
            id: self.id.clone(),
            game: game.name.clone(),
            mode: self.mode.name(),
            computer: match self.mode {
                Mode::Ai { human, .. } => (0..game.players.len()).find(|p| *p != human),
                _ => None,
            },
            engine: match self.mode {
                Mode::Ai { engine, .. } => Some(engine.to_string()),
                _ => None,
            },
            side,
            free,
            you,
            position: game.write_position(pos),
            board: board_view(game, pos),
            hands: (0..game.players.len())
                .map(|p| {
                    (0..game.pieces.len() as u16)
                        .map(|t| InHand {
                            piece: t,
                            count: game.in_hand(pos, p, t),
                        })
                        .filter(|h| h.count > 0)
                        .collect()
                })
                .collect(),
            moves: s.texts().to_vec(),
            legal,
            last: s.played().last().map(|mv| LastMove {
                path: names(entry::path(game, mv.as_ref())),
                captures: names(game.captured_squares(mv.as_ref())),
            }),
            check,
            result: s.result().map(|r| ResultView {
                text: r.score(game),
                message: r.describe(game),
                winner: match r {
                    GameResult::Win { winner, .. } => Some(*winner),
                    GameResult::Draw { .. } => None,
                },
            }),
            thinking: self.computer_to_move().is_some(),
            think_state: self.computer_to_move().and(think_state),
            version: self.version,
        }
    }

    /// The game as its standard record (PGN, PDN or KIF): the players
    /// (a person, or the computer and its engine), today's date, the match.
    pub fn export(&self) -> Result<(String, Format), GenError> {
        let who = |p: usize| match self.mode {
            Mode::Ai { engine, human } if human != p => format!("computer ({engine})"),
            _ => "person".to_string(),
        };
        let tags = record::header(
            self.game(),
            &format!("dagaz match {}", self.id),
            [&who(0), &who(1)],
        );
        let text = record::write(&self.session, &tags)?;
        Ok((text, Format::of(self.game())))
    }
}

/// The engine to ask, when the computer is to move in `session`.
fn computer_in(mode: Mode, session: &Session) -> Option<Engine> {
    match mode {
        Mode::Ai { engine, human } if !session.is_over() && session.side() != human => Some(engine),
        _ => None,
    }
}

/// The result of a session, as the store keeps it.
pub fn stored_result(session: &Session) -> Option<StoredResult> {
    let game = session.game();
    session.result().map(|r| StoredResult {
        score: r.score(game),
        winner: match r {
            GameResult::Win { winner, .. } => Some(*winner),
            GameResult::Draw { .. } => None,
        },
        reason: r.reason().to_string(),
    })
}

/// The pieces on the board (counts on heap boards).
fn board_view(game: &Game, pos: &Position) -> Vec<PieceOnBoard> {
    let topo = &game.topology;
    let heap = game.cells.is_counts();
    topo.squares()
        .filter_map(|sq| {
            let c = pos.cell(sq);
            let square = topo.name(sq).to_string();
            if heap {
                return Some(PieceOnBoard {
                    square,
                    count: Some(c.0),
                    piece: None,
                    owner: None,
                    below: None,
                    number: None,
                    parts: None,
                });
            }
            let info = game.cells.info(c);
            if c.is_empty() || info.piece == NO_PIECE {
                return None;
            }
            let below = game
                .below(pos, sq)
                .map(|b| {
                    let i = game.cells.info(b);
                    StackedPiece {
                        piece: i.piece,
                        owner: i.owner,
                    }
                })
                .collect();
            Some(PieceOnBoard {
                square,
                count: None,
                piece: Some(info.piece),
                owner: Some(info.owner),
                below: Some(below),
                number: game.numbered().then(|| game.piece_number(c)),
                parts: game
                    .parts_held(c)
                    .filter(|_| game.numbered())
                    .map(|parts| parts.iter().map(|p| p.number).collect()),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use dagaz::load::load_game;

    fn chess_match(mode: Mode, seats: [&str; 2]) -> Match {
        let game = Arc::new(load_game("chess").unwrap());
        let seats = seats.iter().map(|s| s.to_string()).collect();
        Match::new("m".into(), game, mode, seats, None).unwrap()
    }

    fn play(m: &mut Match, token: &str, text: &str) -> Result<String, Refusal> {
        let change = m.move_change(token, text)?;
        let text = change.text.clone().unwrap();
        m.apply(change);
        Ok(text)
    }

    #[test]
    fn seats_and_turns() {
        let mut m = chess_match(Mode::Online, ["w", "b"]);
        assert_eq!(play(&mut m, "b", "e2e4").unwrap_err().status, 409);
        assert_eq!(play(&mut m, "", "e2e4").unwrap_err().status, 403);
        assert_eq!(play(&mut m, "w", "e2e5").unwrap_err().status, 400);
        assert_eq!(play(&mut m, "w", "e2e4").unwrap(), "e2e4");
        assert_eq!(play(&mut m, "b", "e7e5").unwrap(), "e7e5");
        assert_eq!(m.undo_change("w").err().unwrap().status, 409);
        let resign = m.resign_change("w").ok().unwrap();
        assert_eq!(m.result_text(), None, "nothing changes before apply");
        m.apply(resign);
        assert_eq!(m.result_text().as_deref(), Some("0-1"));
        assert_eq!(play(&mut m, "w", "g1f3").unwrap_err().status, 409);
    }

    #[test]
    fn a_match_catches_up_with_moves_played_elsewhere() {
        let texts = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let mut m = chess_match(Mode::Local, ["t", "t"]);
        play(&mut m, "t", "e2e4").unwrap();
        assert!(m.catch_up(&texts(&["e2e4", "e7e5", "g1f3"]), None, 7));
        assert_eq!(m.session().texts(), texts(&["e2e4", "e7e5", "g1f3"]));
        assert_eq!((m.version, m.session().side()), (7, 1));
        // Moves taken back and others played: not a continuation.
        assert!(!m.catch_up(&texts(&["e2e4", "c7c5"]), None, 9));
        // A stored move that does not play changes nothing.
        assert!(!m.catch_up(&texts(&["e2e4", "e7e5", "g1f3", "e8e6"]), None, 8));
        assert_eq!((m.version, m.ply()), (7, 3));
        // A resignation stored after the same moves.
        let resigned = StoredResult {
            score: "1-0".into(),
            winner: Some(0),
            reason: "Black resigned".into(),
        };
        assert!(m.catch_up(&texts(&["e2e4", "e7e5", "g1f3"]), Some(&resigned), 8));
        assert_eq!(m.result_text().as_deref(), Some("1-0"));
    }

    #[test]
    fn undo_against_the_computer_goes_back_to_the_person() {
        let engine = Engine::Random;
        let mut m = chess_match(Mode::Ai { engine, human: 0 }, ["w", ""]);
        play(&mut m, "w", "e2e4").unwrap();
        assert!(m.computer_to_move().is_some());
        let mv = m.session().legal().get(0).to_owned();
        let change = m
            .computer_change(mv.as_ref(), m.version)
            .ok_or("no change")
            .unwrap();
        m.apply(change);
        let undo = m.undo_change("w").ok().unwrap();
        assert_eq!(undo.ply(), 0);
        m.apply(undo);
        assert!(m.session().texts().is_empty());
    }

    #[test]
    fn views_list_legal_moves_with_paths() {
        let m = chess_match(Mode::Local, ["t", "t"]);
        let v = m.view("t", None);
        assert_eq!(v.legal.len(), 20);
        assert_eq!(v.you, vec![0, 1]);
        assert!(v.legal.iter().any(|l| l.path == ["e2", "e4"]));
        assert!(m.view("", None).you.is_empty());
    }
}
