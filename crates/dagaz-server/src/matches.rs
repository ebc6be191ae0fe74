//! A match being played through the web: the position, who holds which
//! seat, the moves so far, and the JSON views the page draws from. The
//! HTTP layer (`server::api`) only translates requests into these calls.

use std::sync::Arc;

use serde_json::{Value, json};

use dagaz::ai::Engine;
use dagaz::board::Square;
use dagaz::entry;
use dagaz::game::{Game, GameResult};
use dagaz::movegen::{Generator, Move, MoveList};
use dagaz::movetext;
use dagaz::position::{NO_PIECE, Position};

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

/// One match.
pub struct Match {
    pub id: String,
    pub game: Arc<Game>,
    pub mode: Mode,
    /// Token per player; empty for the computer's seat.
    pub seats: Vec<String>,
    pos: Position,
    played: Vec<Move>,
    texts: Vec<String>,
    result: Option<GameResult>,
    generator: Generator,
    /// Bumped at every change; the page refetches when it moves.
    pub version: u64,
    /// The starting position's text, if it is not the game's setup.
    custom_start: Option<String>,
}

impl Match {
    /// A new match from `start` (the game's setup if `None`).
    pub fn new(
        id: String,
        game: Arc<Game>,
        mode: Mode,
        seats: Vec<String>,
        start: Option<Position>,
    ) -> Match {
        let custom_start = start.as_ref().map(|p| game.write_position(p));
        let pos = start.unwrap_or_else(|| game.initial_position());
        let mut m = Match {
            id,
            game,
            mode,
            seats,
            pos,
            played: Vec::new(),
            texts: Vec::new(),
            result: None,
            generator: Generator::new(),
            version: 0,
            custom_start,
        };
        m.update_result();
        m
    }

    /// Replays stored moves (after a restart). Stops at the first move that
    /// does not apply and reports it.
    pub fn replay(&mut self, texts: &[String]) -> Result<(), String> {
        for t in texts {
            let i = self
                .find(t)
                .map_err(|r| format!("stored move '{t}': {}", r.message))?;
            self.apply(i);
        }
        Ok(())
    }

    /// Ends the game as it was ended before a restart (a resignation is
    /// not a position the rules can see).
    pub fn restore_result(&mut self, winner: Option<usize>, reason: String) {
        self.result = Some(match winner {
            Some(winner) => GameResult::Win { winner, reason },
            None => GameResult::Draw { reason },
        });
    }

    pub fn texts(&self) -> &[String] {
        &self.texts
    }

    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    pub fn position(&self) -> &Position {
        &self.pos
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
        match self.mode {
            Mode::Ai { engine, human } if self.result.is_none() && self.pos.side() != human => {
                Some(engine)
            }
            _ => None,
        }
    }

    fn legal(&mut self) -> MoveList {
        let mut list = MoveList::new();
        if self
            .generator
            .legal(&self.game, &mut self.pos, &mut list)
            .is_err()
        {
            list.clear();
        }
        list
    }

    fn find(&mut self, text: &str) -> Result<usize, Refusal> {
        let list = self.legal();
        movetext::find(&self.game, &list, text).map_err(|e| Refusal::new(400, e.to_string()))
    }

    /// Plays the legal move at index `i` of the current list (as found by
    /// [`Match::check_move`] or [`Match::computer_move`]); returns its text.
    pub fn apply(&mut self, i: usize) -> String {
        let list = self.legal();
        let texts = movetext::texts(&self.game, &list);
        let mv = list.get(i).to_owned();
        self.game.make(&mut self.pos, mv.as_ref());
        self.played.push(mv);
        self.texts.push(texts[i].clone());
        self.version += 1;
        self.update_result();
        texts[i].clone()
    }

    fn update_result(&mut self) {
        let legal = self.legal().len();
        self.result = dagaz::ai::terminal(&self.game, &mut self.generator, &mut self.pos, legal)
            .ok()
            .flatten();
    }

    /// Checks a move by the holder of `token` without playing it: the
    /// index to [`Match::apply`] and the move's text.
    pub fn check_move(&mut self, token: &str, text: &str) -> Result<(usize, String), Refusal> {
        if let Some(r) = &self.result {
            return Err(Refusal::new(
                409,
                format!("the game is over: {}", r.describe(&self.game)),
            ));
        }
        let side = self.pos.side();
        if !self.seats_of(token).contains(&side) {
            let who = &self.game.players[side].name;
            return Err(if self.seats_of(token).is_empty() {
                Refusal::new(
                    403,
                    format!("only the player holding {who}'s seat can move"),
                )
            } else {
                Refusal::new(409, format!("it is {who}'s turn"))
            });
        }
        let i = self.find(text)?;
        let list = self.legal();
        Ok((i, movetext::texts(&self.game, &list).swap_remove(i)))
    }

    /// A move by the holder of `token`; returns the move's text.
    pub fn play(&mut self, token: &str, text: &str) -> Result<String, Refusal> {
        let (i, _) = self.check_move(token, text)?;
        Ok(self.apply(i))
    }

    /// The computer's move, found on a copy of the position at
    /// `at_version`: its index and text, if the match has not moved on.
    pub fn computer_move(&mut self, mv: &Move, at_version: u64) -> Option<(usize, String)> {
        if at_version != self.version || self.computer_to_move().is_none() {
            return None;
        }
        let list = self.legal();
        let i = (0..list.len()).find(|&i| {
            let m = list.get(i);
            m.changes == mv.changes.as_slice() && m.landings == mv.landings.as_slice()
        })?;
        Some((i, movetext::texts(&self.game, &list).swap_remove(i)))
    }

    /// The number of moves played.
    pub fn ply(&self) -> usize {
        self.played.len()
    }

    /// Takes back moves: against the computer, back to the person's last
    /// turn; on one screen, one move. Not between two browsers.
    pub fn undo(&mut self, token: &str) -> Result<usize, Refusal> {
        if self.seats_of(token).is_empty() {
            return Err(Refusal::new(403, "only a player can take moves back"));
        }
        let mut count = 0;
        match self.mode {
            Mode::Online => {
                return Err(Refusal::new(
                    409,
                    "moves cannot be taken back in a game between two browsers",
                ));
            }
            Mode::Local => count = 1,
            Mode::Ai { human, .. } => {
                // Back to the person's turn, with at least one of their moves undone.
                let mut n = 0;
                let mut sides: Vec<usize> = Vec::new();
                let mut pos = self.pos.clone();
                for mv in self.played.iter().rev() {
                    self.game.undo(&mut pos, mv.as_ref());
                    n += 1;
                    sides.push(pos.side());
                    if pos.side() == human && sides.contains(&human) {
                        count = n;
                        break;
                    }
                }
            }
        }
        if count == 0 || count > self.played.len() {
            return Err(Refusal::new(409, "there is no move to take back"));
        }
        for _ in 0..count {
            if let Some(mv) = self.played.pop() {
                self.game.undo(&mut self.pos, mv.as_ref());
                self.texts.pop();
            }
        }
        self.version += 1;
        self.update_result();
        Ok(count)
    }

    /// The holder of `token` resigns (the first of their seats).
    pub fn resign(&mut self, token: &str) -> Result<(), Refusal> {
        if self.result.is_some() {
            return Err(Refusal::new(409, "the game is already over"));
        }
        let seats = self.seats_of(token);
        let Some(&loser) = seats.first() else {
            return Err(Refusal::new(403, "only a player can resign"));
        };
        let loser = if seats.len() > 1 {
            self.pos.side()
        } else {
            loser
        };
        let winner = (loser + 1) % self.game.players.len();
        self.result = Some(GameResult::Win {
            winner,
            reason: format!("{} resigned", self.game.players[loser].name),
        });
        self.version += 1;
        Ok(())
    }

    /// A short text of the result ("1-0", "0-1", "1/2-1/2").
    pub fn result_text(&self) -> Option<String> {
        self.result.as_ref().map(|r| r.score(&self.game))
    }

    /// The state the page draws, for the holder of `token`.
    pub fn view(&mut self, token: &str) -> Value {
        let game = self.game.clone();
        let list = self.legal();
        let texts = movetext::texts(&game, &list);
        let topo = &game.topology;
        let name = |sq: Square| topo.name(sq).to_string();
        let heap = game.cells.is_counts();
        let board: Vec<Value> = topo
            .squares()
            .filter_map(|sq| {
                let c = self.pos.cell(sq);
                let info = game.cells.info(c);
                if heap {
                    Some(json!({"square": name(sq), "count": c.0}))
                } else {
                    (!c.is_empty() && info.piece != NO_PIECE).then(|| {
                        let below: Vec<Value> = game
                            .below(&self.pos, sq)
                            .map(|b| {
                                let i = game.cells.info(b);
                                json!({"piece": i.piece, "owner": i.owner})
                            })
                            .collect();
                        let mut piece = json!({
                            "square": name(sq),
                            "piece": info.piece,
                            "owner": info.owner,
                            "below": below,
                        });
                        if game.numbered() {
                            piece["number"] = json!(game.piece_number(c));
                            if let Some(parts) = game.parts_held(c) {
                                let numbers: Vec<u16> = parts.iter().map(|p| p.number).collect();
                                piece["parts"] = json!(numbers);
                            }
                        }
                        piece
                    })
                }
            })
            .collect();
        let hands: Vec<Vec<Value>> = (0..game.players.len())
            .map(|p| {
                (0..game.pieces.len() as u16)
                    .filter_map(|t| {
                        let n = game.in_hand(&self.pos, p, t);
                        (n > 0).then(|| json!({"piece": t, "count": n}))
                    })
                    .collect()
            })
            .collect();
        let you = self.seats_of(token);
        let legal: Vec<Value> = if self.result.is_none() {
            list.iter()
                .zip(&texts)
                .map(|(m, t)| {
                    json!({
                        "text": t,
                        "path": entry::path(m).into_iter().map(name).collect::<Vec<_>>(),
                        "captures": movetext::captured_squares(&game, m).into_iter().map(name).collect::<Vec<_>>(),
                        "piece": m.header.piece,
                        "drop": m.header.from().is_none(),
                        "promotion": m.header.promotion(),
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        let last = self.last_move(&name);
        let side = self.pos.side();
        let check: Vec<String> = if game.royal_attacked(&self.pos, side) {
            game.royal_types()
                .iter()
                .flat_map(|&t| {
                    dagaz::position::squares_of(self.pos.piece_bits(side, t as usize))
                        .collect::<Vec<_>>()
                })
                .map(name)
                .collect()
        } else {
            Vec::new()
        };
        json!({
            "id": self.id,
            "game": game.name,
            "mode": self.mode.name(),
            "computer": match self.mode {
                Mode::Ai { human, .. } => (0..game.players.len()).find(|p| *p != human),
                _ => None,
            },
            "engine": match self.mode { Mode::Ai { engine, .. } => Some(engine.to_string()), _ => None },
            "side": side,
            "you": you,
            "position": game.write_position(&self.pos),
            "board": board,
            "hands": hands,
            "moves": self.texts,
            "legal": legal,
            "last": last,
            "check": check,
            "result": self.result.as_ref().map(|r| json!({
                "text": r.score(&game),
                "message": r.describe(&game),
                "winner": match r { GameResult::Win { winner, .. } => Some(*winner), _ => None },
            })),
            "thinking": self.computer_to_move().is_some(),
            "version": self.version,
        })
    }

    fn last_move(&self, name: &dyn Fn(Square) -> String) -> Value {
        match self.played.last() {
            None => Value::Null,
            Some(mv) => json!({
                "path": entry::path(mv.as_ref()).into_iter().map(name).collect::<Vec<_>>(),
                "captures": movetext::captured_squares(&self.game, mv.as_ref()).into_iter().map(name).collect::<Vec<_>>(),
            }),
        }
    }

    /// The game as text, a header and the moves.
    pub fn export(&self) -> String {
        let mut out = format!("[Game \"{}\"]\n[Match \"{}\"]\n", self.game.name, self.id);
        if let Some(start) = &self.custom_start {
            out += &format!("[Position \"{start}\"]\n");
        }
        for (p, player) in self.game.players.iter().enumerate() {
            let who = match self.mode {
                Mode::Ai { engine, human } if human != p => format!("computer ({engine})"),
                _ => "person".to_string(),
            };
            out += &format!("[{} \"{who}\"]\n", player.name);
        }
        if let Some(r) = &self.result {
            out += &format!(
                "[Result \"{}\"]\n[Termination \"{}\"]\n",
                r.score(&self.game),
                r.reason()
            );
        }
        out.push('\n');
        let n = self.game.players.len();
        for (i, t) in self.texts.iter().enumerate() {
            if i % n == 0 {
                out += &format!("{}. ", i / n + 1);
            }
            out += t;
            out.push(if i % n == n - 1 { '\n' } else { ' ' });
        }
        if let Some(t) = self.result_text() {
            out += &format!("\n{t}");
        }
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dagaz::game::load_game;

    fn chess_match(mode: Mode) -> Match {
        let game = Arc::new(load_game("chess").unwrap());
        Match::new("m".into(), game, mode, vec!["w".into(), "b".into()], None)
    }

    #[test]
    fn seats_and_turns() {
        let mut m = chess_match(Mode::Online);
        assert_eq!(m.play("b", "e2e4").unwrap_err().status, 409);
        assert_eq!(m.play("", "e2e4").unwrap_err().status, 403);
        assert_eq!(m.play("w", "e2e5").unwrap_err().status, 400);
        assert_eq!(m.play("w", "e2e4").unwrap(), "e2e4");
        assert_eq!(m.play("b", "e7e5").unwrap(), "e7e5");
        assert_eq!(m.undo("w").unwrap_err().status, 409);
        m.resign("w").unwrap();
        assert_eq!(m.result_text().as_deref(), Some("0-1"));
        assert_eq!(m.play("w", "g1f3").unwrap_err().status, 409);
    }

    #[test]
    fn undo_against_the_computer_goes_back_to_the_person() {
        let mut m = chess_match(Mode::Ai {
            engine: Engine::Random,
            human: 0,
        });
        m.seats = vec!["w".into(), String::new()];
        m.play("w", "e2e4").unwrap();
        let reply = m.computer_to_move().is_some();
        assert!(reply);
        let mv = {
            let list = m.legal();
            list.get(0).to_owned()
        };
        let v = m.version;
        let (i, _) = m.computer_move(&mv, v).unwrap();
        m.apply(i);
        assert_eq!(m.undo("w").unwrap(), 2);
        assert_eq!(m.texts().len(), 0);
    }

    #[test]
    fn views_list_legal_moves_with_paths() {
        let mut m = chess_match(Mode::Local);
        m.seats = vec!["t".into(), "t".into()];
        let v = m.view("t");
        assert_eq!(v["legal"].as_array().unwrap().len(), 20);
        assert_eq!(v["you"], json!([0, 1]));
        assert!(
            v["legal"]
                .as_array()
                .unwrap()
                .iter()
                .any(|l| l["path"] == json!(["e2", "e4"]))
        );
        assert_eq!(m.view("")["you"], json!([]));
    }
}
