//! External engines as match players: a program spoken to over UCI, USI or
//! XBoard's protocol (`dagaz match chess --a ab:1s --b uci:fairy-stockfish@0.1s`).
//!
//! A spec is `uci:PATH`, `usi:PATH` or `xboard:PATH` (the program, and after spaces its
//! arguments: `uci:dagaz uci` plays against dagaz's own protocol
//! front end), then optionally `@LIMIT` (`1s`,
//! `200ms`, `d8`, `5000n`: `go movetime`, `go depth`, `go nodes`; one
//! second a move if none is given) and `,Name=Value` options sent with
//! `setoption` (XBoard: `option Name=Value`) (`uci:fairy-stockfish@0.1s,Skill Level=5`).
//! The game is chosen with the protocol's variant option (`UCI_Variant`,
//! `USI_Variant`) when the engine offers it, or XBoard's `variant`, by
//! Fairy-Stockfish's name for the game (XBoard's `normal` for chess). XBoard
//! has no move time below a second (`st` takes whole seconds: a limit is
//! rounded up) and no node limit; moves are written as dagaz writes them,
//! so games on boards of ten ranks, which XBoard numbers from 0, do not
//! play over it yet (the engine refuses the first move, and the match stops
//! with its message).
//! Every wait on the program is bounded: a program that does not answer in
//! time, dies, or plays an illegal move is reported.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;

use dagaz::ai::Limit;
use dagaz::ai::arena::{Player, PlayerError};
use dagaz::game::Game;
use dagaz::session::Session;

use crate::squares::Notation;

/// How long a program may take to start and answer `uci`/`isready`.
const HANDSHAKE: Duration = Duration::from_secs(20);
/// Extra time a program may take beyond its move's limit.
const GRACE: Duration = Duration::from_secs(10);

/// The protocol an external engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Usi,
    Xboard,
}

/// An external engine as named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSpec {
    pub protocol: Protocol,
    pub path: String,
    pub limit: Limit,
    pub options: Vec<(String, String)>,
}

impl ExternalSpec {
    /// Reads `uci:PATH[@LIMIT][,Name=Value…]` (or `usi:`); `None` if the
    /// spec names no external engine, an error if it does but is wrong.
    pub fn parse(spec: &str) -> Option<Result<ExternalSpec, String>> {
        let (protocol, rest) = if let Some(rest) = spec.strip_prefix("uci:") {
            (Protocol::Uci, rest)
        } else if let Some(rest) = spec.strip_prefix("usi:") {
            (Protocol::Usi, rest)
        } else if let Some(rest) = spec.strip_prefix("xboard:") {
            (Protocol::Xboard, rest)
        } else {
            return None;
        };
        Some(Self::parse_rest(protocol, rest).map_err(|why| format!("bad engine '{spec}': {why}")))
    }

    fn parse_rest(protocol: Protocol, rest: &str) -> Result<ExternalSpec, String> {
        let mut parts = rest.split(',');
        let head = parts.next().unwrap_or_default();
        let (path, limit) = match head.rsplit_once('@') {
            Some((path, limit)) => (path, Limit::parse(limit)?),
            None => (head, Limit::Time(Duration::from_secs(1))),
        };
        if path.trim().is_empty() {
            return Err("no program named (e.g. uci:fairy-stockfish)".into());
        }
        let options = parts
            .map(|o| match o.split_once('=') {
                Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.to_string())),
                _ => Err(format!("option '{o}' is not Name=Value")),
            })
            .collect::<Result<Vec<_>, String>>()?;
        if protocol == Protocol::Xboard && matches!(limit, Limit::Nodes(_)) {
            return Err("XBoard's protocol has no node limit (use a time or d8)".into());
        }
        Ok(ExternalSpec {
            protocol,
            path: path.to_string(),
            limit,
            options,
        })
    }

    /// The spec as it was written, for results and records.
    pub fn name(&self) -> String {
        let word = match self.protocol {
            Protocol::Uci => "uci",
            Protocol::Usi => "usi",
            Protocol::Xboard => "xboard",
        };
        let limit = match self.limit {
            Limit::Time(t) | Limit::Clock(t) => format!("{}ms", t.as_millis()),
            Limit::Depth(d) => format!("d{d}"),
            Limit::Nodes(n) => format!("{n}n"),
        };
        let mut name = format!("{word}:{}@{limit}", self.path);
        for (k, v) in &self.options {
            name += &format!(",{k}={v}");
        }
        name
    }
}

/// A running external engine.
pub struct External {
    spec: ExternalSpec,
    /// Fairy-Stockfish's name of the game (the variant option's value).
    variant: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The engine offers the protocol's variant option.
    has_variant_option: bool,
    /// The game shuffles its setup (Chess960): UCI engines are told
    /// `UCI_Chess960` (where they offer it) and write castlings as the
    /// King taking its Rook.
    chess960: bool,
    /// The engine offers `UCI_Chess960`.
    has_chess960_option: bool,
    /// XBoard: moves are sent as `usermove MOVE`.
    usermove: bool,
    /// How the protocol writes the game's moves.
    notation: Notation,
}

impl External {
    /// Starts the program and shakes hands; `game` is the name the game
    /// was loaded by.
    pub fn start(spec: &ExternalSpec, game: &str) -> Result<External, String> {
        let mut words = spec.path.split_whitespace();
        let program = words.next().unwrap_or_default();
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", spec.path))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let variant = dagaz::load::library::fairy_stockfish_names()
            .into_iter()
            .find(|(_, ours)| *ours == game)
            .map_or_else(|| game.to_string(), |(theirs, _)| theirs.to_string());
        let loaded = dagaz::import::open_game(game)?;
        let chess960 = loaded.shuffles();
        let notation = match spec.protocol {
            Protocol::Uci => Notation::uci_chess960(chess960),
            Protocol::Usi => Notation::usi(&loaded),
            Protocol::Xboard => Notation::xboard(&loaded),
        };
        let mut engine = External {
            notation,
            spec: spec.clone(),
            variant,
            child,
            stdin,
            lines,
            has_variant_option: false,
            chess960,
            has_chess960_option: false,
            usermove: false,
        };
        engine.handshake()?;
        Ok(engine)
    }

    fn handshake(&mut self) -> Result<(), String> {
        let (hello, ok) = match self.spec.protocol {
            Protocol::Uci => ("uci", "uciok"),
            Protocol::Usi => ("usi", "usiok"),
            Protocol::Xboard => return self.xboard_handshake(),
        };
        self.send(hello)?;
        let deadline = Instant::now() + HANDSHAKE;
        // The variant option: USI's name for it, or UCI's (which
        // Fairy-Stockfish 11 keeps in USI mode).
        let mut option = "UCI_Variant";
        loop {
            let line = self.read_line(deadline)?;
            for name in ["USI_Variant", "UCI_Variant"] {
                if line.starts_with(&format!("option name {name} ")) {
                    self.has_variant_option = true;
                    option = name;
                }
            }
            if line.starts_with("option name UCI_Chess960 ") {
                self.has_chess960_option = true;
            }
            if line.trim() == ok {
                break;
            }
        }
        for (name, value) in self.spec.options.clone() {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        if self.has_variant_option {
            self.send(&format!("setoption name {option} value {}", self.variant))?;
        }
        if self.chess960 && self.has_chess960_option {
            self.send("setoption name UCI_Chess960 value true")?;
        }
        self.ready()
    }

    /// `xboard`, `protover 2`, then the features up to `done=1`; options
    /// as `option Name=Value`.
    fn xboard_handshake(&mut self) -> Result<(), String> {
        self.send("xboard")?;
        self.send("protover 2")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let line = self.read_line(deadline)?;
            if line.starts_with("feature") && line.contains("usermove=1") {
                self.usermove = true;
            }
            if line.starts_with("feature") && line.contains("done=1") {
                break;
            }
        }
        for (name, value) in self.spec.options.clone() {
            self.send(&format!("option {name}={value}"))?;
        }
        self.ready()
    }

    fn ready(&mut self) -> Result<(), String> {
        if self.spec.protocol == Protocol::Xboard {
            // `ping N` answered by `pong N`.
            self.send("ping 1")?;
            let deadline = Instant::now() + HANDSHAKE;
            while self.read_line(deadline)?.trim() != "pong 1" {}
            return Ok(());
        }
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        while self.read_line(deadline)?.trim() != "readyok" {}
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("{} stopped listening: {e}", self.spec.path))
    }

    fn read_line(&mut self, deadline: Instant) -> Result<String, String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => {
                Err(format!("{} did not answer in time", self.spec.path))
            }
            Err(RecvTimeoutError::Disconnected) => Err(format!("{} stopped", self.spec.path)),
        }
    }

    /// `position startpos|fen F|sfen F [moves …]`: the session's start
    /// (where it is not the setup: a position string as Fairy-Stockfish
    /// writes it, an SFEN in USI) and its moves.
    fn position_command(&self, session: &Session) -> String {
        let game = session.game();
        let mut position = match custom_start(session) {
            None => String::from("position startpos"),
            Some(start) if self.spec.protocol == Protocol::Usi => {
                format!("position sfen {}", game.write_position(start))
            }
            Some(start) => format!("position fen {}", game.write_position_fsf(start)),
        };
        if !session.texts().is_empty() {
            position += " moves";
            for (mv, text) in session.played().iter().zip(session.texts()) {
                position.push(' ');
                position += &self.notation.write_move(game, mv.as_ref(), text);
            }
        }
        position
    }

    fn go_command(&self) -> (String, Duration) {
        match self.spec.limit {
            Limit::Time(t) | Limit::Clock(t) => {
                (format!("go movetime {}", t.as_millis().max(1)), t + GRACE)
            }
            Limit::Depth(d) => (format!("go depth {d}"), Duration::from_secs(600)),
            Limit::Nodes(n) => (format!("go nodes {n}"), Duration::from_secs(600)),
        }
    }
}

impl External {
    /// XBoard: the game from its start, the moves in force mode, then `go`;
    /// the answer is the text of `move MOVE` (`None` if it resigns or
    /// claims a result).
    fn xboard_move(&mut self, session: &Session) -> Result<Option<String>, String> {
        let variant = if self.variant == "chess" {
            "normal".to_string()
        } else {
            self.variant.clone()
        };
        self.send("new")?;
        self.send(&format!("variant {variant}"))?;
        self.send("force")?;
        let game = session.game();
        if let Some(start) = custom_start(session) {
            // A shuffled start (Chess960), as Fairy-Stockfish writes it.
            let fen = game.write_position_fsf(start);
            self.send(&format!("setboard {fen}"))?;
        }
        for (mv, t) in session.played().iter().zip(session.texts()) {
            let text = self.notation.write_move(game, mv.as_ref(), t);
            let prefix = if self.usermove { "usermove " } else { "" };
            self.send(&format!("{prefix}{text}"))?;
        }
        let wait = match self.spec.limit {
            Limit::Time(t) | Limit::Clock(t) => {
                let secs = t.as_secs_f64().ceil().max(1.0) as u64;
                self.send(&format!("st {secs}"))?;
                Duration::from_secs(secs) + GRACE
            }
            Limit::Depth(d) => {
                self.send(&format!("sd {d}"))?;
                Duration::from_secs(600)
            }
            Limit::Nodes(_) => return Err("XBoard's protocol has no node limit".into()),
        };
        self.send("go")?;
        let deadline = Instant::now() + wait;
        loop {
            let line = self.read_line(deadline)?;
            let line = line.trim();
            if let Some(mv) = line.strip_prefix("move ") {
                self.send("force")?;
                return Ok(Some(mv.trim().to_string()));
            }
            if line.starts_with("resign")
                || line.starts_with("1-0")
                || line.starts_with("0-1")
                || line.starts_with("1/2-1/2")
            {
                return Ok(None);
            }
            if line.starts_with("Illegal move") || line.starts_with("Error") {
                return Err(format!(
                    "{} refused the game's moves: {line}",
                    self.spec.path
                ));
            }
        }
    }
}

/// The session's start where it is not the game's setup (a shuffled
/// Chess960 start), which the engine must be told.
fn custom_start(session: &Session) -> Option<&dagaz::position::Position> {
    let start = session.start();
    (start.hash() != session.game().setup().hash()).then_some(start)
}

impl Player for External {
    fn new_game(&mut self, _game: &Game) -> Result<(), PlayerError> {
        let word = match self.spec.protocol {
            Protocol::Uci => "ucinewgame",
            Protocol::Usi => "usinewgame",
            Protocol::Xboard => "new",
        };
        self.send(word)
            .and_then(|_| self.ready())
            .map_err(PlayerError::Failed)
    }

    fn choose(
        &mut self,
        session: &Session,
        _rng: &mut StdRng,
    ) -> Result<Option<usize>, PlayerError> {
        if self.spec.protocol == Protocol::Xboard {
            let Some(best) = self.xboard_move(session).map_err(PlayerError::Failed)? else {
                return Ok(None);
            };
            return self.index_of(session, best).map(Some);
        }
        let position = self.position_command(session);
        let (go, wait) = self.go_command();
        self.send(&position)
            .and_then(|_| self.send(&go))
            .map_err(PlayerError::Failed)?;
        let deadline = Instant::now() + wait;
        let best = loop {
            let line = self.read_line(deadline).map_err(PlayerError::Failed)?;
            if let Some(rest) = line.strip_prefix("bestmove") {
                break rest.split_whitespace().next().unwrap_or("").to_string();
            }
        };
        if matches!(best.as_str(), "" | "0000" | "(none)" | "resign" | "win") {
            return Ok(None);
        }
        self.index_of(session, best).map(Some)
    }
}

impl External {
    /// The legal move the engine's text names; an illegal one loses.
    fn index_of(&self, session: &Session, text: String) -> Result<usize, PlayerError> {
        self.notation
            .find(session, &text)
            .ok_or_else(|| PlayerError::Illegal {
                player: self.spec.name(),
                text,
            })
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_specs() {
        let spec = ExternalSpec::parse("uci:/usr/games/fairy-stockfish@0.1s,Skill Level=5")
            .unwrap()
            .unwrap();
        assert_eq!(spec.protocol, Protocol::Uci);
        assert_eq!(spec.path, "/usr/games/fairy-stockfish");
        assert_eq!(spec.limit, Limit::Time(Duration::from_millis(100)));
        assert_eq!(spec.options, vec![("Skill Level".into(), "5".into())]);
        let usi = ExternalSpec::parse("usi:engine@d6").unwrap().unwrap();
        assert_eq!((usi.protocol, usi.limit), (Protocol::Usi, Limit::Depth(6)));
        assert_eq!(
            ExternalSpec::parse("uci:e@5000n").unwrap().unwrap().limit,
            Limit::Nodes(5000)
        );
        assert!(ExternalSpec::parse("ab:1s").is_none());
        let xboard = ExternalSpec::parse("xboard:fairymax@d4").unwrap().unwrap();
        assert_eq!(
            (xboard.protocol, xboard.limit),
            (Protocol::Xboard, Limit::Depth(4))
        );
        assert!(ExternalSpec::parse("xboard:x@100n").unwrap().is_err());
        let with_args = ExternalSpec::parse("uci:dagaz uci@d1").unwrap().unwrap();
        assert_eq!(with_args.path, "dagaz uci");
        for bad in ["uci:", "uci:x@fast", "uci:x@d0", "uci:x,Skill"] {
            let err = ExternalSpec::parse(bad).unwrap().unwrap_err();
            assert!(err.contains(bad), "{err}");
        }
    }

    #[test]
    fn a_missing_program_is_reported() {
        let spec = ExternalSpec::parse("uci:/nonexistent/engine")
            .unwrap()
            .unwrap();
        let err = External::start(&spec, "chess").err().unwrap();
        assert!(err.contains("cannot start /nonexistent/engine"), "{err}");
    }
}
