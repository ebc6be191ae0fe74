//! `dagaz xboard`: the Chess Engine Communication Protocol (version 2) of
//! XBoard and WinBoard, for GUIs and tools that speak it (xboard itself,
//! python-chess). Any game plays: `variant NAME` chooses it (XBoard's and
//! Fairy-Stockfish's names, or dagaz's). Moves are coordinates (`e2e4`,
//! `e7e8q`, drops `N@d3`), as XBoard writes them.
//!
//! The engine thinks in the command loop: a `go` (or a move given while
//! it plays the other side) is answered with `move …` before the next
//! command is read, so `ping` is answered after it, as the protocol asks.

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use dagaz::ai::search::{Searcher, WIN};
use dagaz::ai::{Choice, Control, Limit};
use dagaz::game::{Game, GameResult};
use dagaz::load::library::{fairy_stockfish_game, fairy_stockfish_names, load_game};
use dagaz::session::Session;
use dagaz::text::movetext;

use crate::protocol::{open_session, uci_text, within_move_time};

/// The deepest search `sd` may ask for.
const MAX_DEPTH: u32 = 64;
/// The longest a move may take.
const MAX_TIME: Duration = Duration::from_secs(3600);
/// The most threads `cores` gives a search.
const MAX_THREADS: usize = 64;

/// The engine's state between commands.
struct Engine<W: Write> {
    out: W,
    game: Arc<Game>,
    session: Session,
    /// The side the engine plays; none in force mode.
    plays: Option<usize>,
    /// `sd`: the deepest search.
    depth: Option<u32>,
    /// `st`: seconds per move.
    per_move: Option<Duration>,
    /// `time`: the engine's clock, and `level`'s increment and moves per
    /// session.
    clock: Option<Duration>,
    increment: Duration,
    moves_per_session: u32,
    /// `post`: thinking lines.
    post: bool,
    /// `cores`: threads one search uses.
    threads: usize,
}

/// Runs the protocol until `quit` or the end of the input.
pub fn run(input: impl BufRead, out: impl Write) -> Result<(), String> {
    let game = Arc::new(load_game("chess").map_err(|e| e.to_string())?);
    let session = open_session(&game, game.initial_position())?;
    let mut engine = Engine {
        out,
        game,
        session,
        plays: Some(1),
        depth: None,
        per_move: None,
        clock: None,
        increment: Duration::ZERO,
        moves_per_session: 0,
        post: false,
        threads: 1,
    };
    for line in input.lines() {
        let line = line.map_err(|e| e.to_string())?;
        if !engine.command(line.trim()) {
            break;
        }
    }
    Ok(())
}

impl<W: Write> Engine<W> {
    fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    /// Carries out one command; false after `quit`.
    fn command(&mut self, line: &str) -> bool {
        let (name, arg) = line.split_once(' ').unwrap_or((line, ""));
        let arg = arg.trim();
        match name {
            "" | "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy" | "computer"
            | "name" | "rating" | "ics" | "otim" | "result" | "draw" | "." => {}
            "protover" => self.features(),
            "new" => {
                self.restart(self.game.clone());
                self.plays = Some(1);
                self.depth = None;
            }
            "variant" => self.variant(arg),
            "force" => self.plays = None,
            "go" => {
                self.plays = Some(self.session.side());
                self.think();
            }
            "playother" => self.plays = Some(1 - self.session.side().min(1)),
            "setboard" => self.setboard(arg),
            "usermove" => self.user_move(arg),
            "undo" => {
                let _ = self.session.undo(1);
            }
            "remove" => {
                let _ = self.session.undo(2);
            }
            "sd" => self.depth = arg.parse::<u32>().ok().map(|d| d.clamp(1, MAX_DEPTH)),
            "st" => {
                self.per_move = arg
                    .parse::<f64>()
                    .ok()
                    .and_then(|s| Duration::try_from_secs_f64(s).ok())
                    .map(|d| d.min(MAX_TIME));
            }
            "level" => self.level(arg),
            "time" => {
                self.clock = arg
                    .parse::<u64>()
                    .ok()
                    .map(|cs| Duration::from_millis(cs * 10));
            }
            "ping" => self.say(&format!("pong {arg}")),
            "cores" => {
                if let Ok(n) = arg.parse::<usize>() {
                    self.threads = n.clamp(1, MAX_THREADS);
                }
            }
            "post" => self.post = true,
            "nopost" => self.post = false,
            "quit" => return false,
            _ => self.say(&format!("Error (unknown command): {line}")),
        }
        true
    }

    fn features(&mut self) {
        let mut names = vec!["normal".to_string()];
        names.extend(
            fairy_stockfish_names()
                .into_iter()
                .map(|(n, _)| n.to_string()),
        );
        names.dedup();
        let line = format!(
            "feature myname=\"dagaz {}\" ping=1 setboard=1 usermove=1 time=1 draw=0 smp=1 \
             sigint=0 reuse=1 analyze=0 colors=0 san=0 variants=\"{}\" done=1",
            env!("CARGO_PKG_VERSION"),
            names.join(",")
        );
        self.say(&line);
    }

    fn restart(&mut self, game: Arc<Game>) {
        if let Ok(s) = open_session(&game, game.initial_position()) {
            self.game = game;
            self.session = s;
        }
    }

    /// `variant NAME`: XBoard's `normal`, Fairy-Stockfish's names, dagaz's.
    fn variant(&mut self, name: &str) {
        let dagaz = match name {
            "normal" => "chess",
            n => fairy_stockfish_game(n).unwrap_or(n),
        };
        match load_game(dagaz) {
            Ok(game) => self.restart(Arc::new(game)),
            Err(e) => self.say(&format!("Error (unknown variant): {name}: {e}")),
        }
    }

    fn setboard(&mut self, fen: &str) {
        let session = self
            .game
            .parse_position(fen)
            .map_err(|e| e.to_string())
            .and_then(|p| open_session(&self.game, p));
        match session {
            Ok(s) => self.session = s,
            Err(e) => self.say(&format!("tellusererror Illegal position: {e}")),
        }
    }

    /// `level MPS BASE INC`: moves per session, base time (`m` or `m:ss`),
    /// increment in seconds.
    fn level(&mut self, arg: &str) {
        let parts: Vec<&str> = arg.split_whitespace().collect();
        self.moves_per_session = parts.first().and_then(|m| m.parse().ok()).unwrap_or(0);
        self.increment = parts
            .get(2)
            .and_then(|s| s.parse::<f64>().ok())
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
            .unwrap_or(Duration::ZERO)
            .min(MAX_TIME);
        self.per_move = None;
    }

    fn user_move(&mut self, text: &str) {
        if self.session.is_over() {
            self.say(&format!("Illegal move (the game is over): {text}"));
            return;
        }
        let index = self
            .session
            .legal_texts()
            .iter()
            .position(|t| uci_text(t).eq_ignore_ascii_case(text));
        let played = match index {
            Some(i) => self.session.play(i).map(|_| ()),
            None => self.session.play_text(text).map(|_| ()),
        };
        if played.is_err() {
            self.say(&format!("Illegal move: {text}"));
            return;
        }
        self.announce_result();
        if self.plays == Some(self.session.side()) {
            self.think();
        }
    }

    /// Searches and plays the engine's move: `move …`.
    fn think(&mut self) {
        if self.session.is_over() {
            self.announce_result();
            return;
        }
        let limit = self.limit();
        let game = self.game.clone();
        let mut pos = self.session.position_copy();
        let started = Instant::now();
        let mut lines = Vec::new();
        let post = self.post;
        let best = {
            let report = |c: &Choice| {
                if post {
                    lines.push(thinking_line(&game, c, started.elapsed()));
                }
            };
            Searcher::new(&game, limit)
                .with_control(Control {
                    threads: self.threads,
                    ..Control::unbounded()
                })
                .with_progress(report)
                .best(&mut pos)
        };
        for l in lines {
            self.say(&l);
        }
        let Ok(Some(choice)) = best else {
            self.announce_result();
            return;
        };
        let Some(index) = self.session.index_of(choice.mv.as_ref()) else {
            return;
        };
        let text = uci_text(&self.session.legal_texts()[index]);
        if self.session.play(index).is_ok() {
            self.say(&format!("move {text}"));
            self.announce_result();
        }
    }

    /// The limit for the next move: `sd`, `st`, or the clock.
    fn limit(&self) -> Limit {
        if let Some(d) = self.depth {
            return Limit::Depth(d);
        }
        if let Some(t) = self.per_move {
            return Limit::Time(within_move_time(t));
        }
        match self.clock {
            Some(left) => {
                let moves = if self.moves_per_session > 0 {
                    let played = (self.session.ply() / 2) as u32;
                    (self.moves_per_session - played % self.moves_per_session).max(1)
                } else {
                    30
                };
                let t = (left / moves + self.increment * 3 / 4).min(left / 2);
                Limit::Clock(t.max(Duration::from_millis(5)).min(MAX_TIME))
            }
            None => Limit::Time(Duration::from_secs(1)),
        }
    }

    /// `1-0 {…}`, `0-1 {…}` or `1/2-1/2 {…}` once the game is over.
    fn announce_result(&mut self) {
        let Some(result) = self.session.result().cloned() else {
            return;
        };
        let why = result.describe(&self.game);
        let score = match &result {
            GameResult::Win { winner, .. } if *winner == 0 => "1-0",
            GameResult::Win { .. } => "0-1",
            _ => "1/2-1/2",
        };
        self.say(&format!("{score} {{{why}}}"));
    }
}

/// A thinking line: `ply score time nodes pv` (time in centiseconds,
/// mates as XBoard's 100000 + moves).
fn thinking_line(game: &Game, c: &Choice, elapsed: Duration) -> String {
    let score = match c.score {
        Some(s) if s.abs() >= WIN - 1000 => {
            let moves = (WIN - s.abs() + 1) / 2;
            if s > 0 {
                100_000 + moves
            } else {
                -100_000 - moves
            }
        }
        Some(s) => s,
        None => 0,
    };
    let pv: Vec<String> =
        c.pv.iter()
            .map(|m| uci_text(&movetext::text(game, m.as_ref())))
            .collect();
    format!(
        "{} {score} {} {} {}",
        c.depth,
        elapsed.as_millis() / 10,
        c.nodes,
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(input: &str) -> Vec<String> {
        let mut out = Vec::new();
        run(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn answers_a_game_as_xboard_plays_it() {
        let lines = session(
            "xboard\nprotover 2\nnew\nsd 2\npost\nusermove e2e4\nping 7\nusermove e1e8\nquit\n",
        );
        assert!(lines[0].starts_with("feature myname=\"dagaz") && lines[0].ends_with("done=1"));
        let at_move = lines.iter().position(|l| l.starts_with("move ")).unwrap();
        let at_pong = lines.iter().position(|l| l == "pong 7").unwrap();
        assert!(at_move < at_pong, "{lines:?}");
        assert!(
            lines.iter().any(|l| l.starts_with("2 ")),
            "a thinking line: {lines:?}"
        );
        assert_eq!(lines.last().unwrap(), "Illegal move: e1e8");
    }

    #[test]
    fn finds_the_mate_and_announces_the_result() {
        let lines = session(
            "protover 2\nnew\nforce\nsetboard r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4\nsd 2\ngo\nquit\n",
        );
        assert!(lines.contains(&"move h5f7".to_string()), "{lines:?}");
        assert!(lines.last().unwrap().starts_with("1-0 {"), "{lines:?}");
    }

    #[test]
    fn plays_on_past_draws_the_gui_must_claim() {
        let lines = session(
            "protover 2\nnew\nforce\nusermove g1f3\nusermove g8f6\nusermove f3g1\nusermove f6g8\n\
             usermove g1f3\nusermove g8f6\nusermove f3g1\nusermove f6g8\nsd 2\nusermove e2e4\ngo\n\
             setboard 4k3/8/8/8/8/8/R7/4K3 b - - 100 80\ngo\nquit\n",
        );
        let moves: Vec<&String> = lines.iter().filter(|l| l.starts_with("move ")).collect();
        assert_eq!(moves.len(), 2, "{lines:?}");
        assert!(
            moves[0].ends_with('5') || moves[0].ends_with('6'),
            "{lines:?}"
        );
        assert!(moves[1].starts_with("move e8"), "{lines:?}");
        assert!(
            !lines
                .iter()
                .any(|l| l.starts_with("Illegal") || l.starts_with("1/2")),
            "{lines:?}"
        );
    }

    #[test]
    fn plays_variants_and_reports_errors() {
        let lines = session(
            "protover 2\nvariant crazyhouse\nforce\nusermove e2e4\nusermove d7d5\nusermove e4d5\nusermove d8d5\nsd 1\ngo\n\
             variant nosuchgame\nfrobnicate\nsetboard bad\nquit\n",
        );
        assert!(lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("Error (unknown variant)"))
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("Error (unknown command): frobnicate"))
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("tellusererror Illegal position"))
        );
    }
}
