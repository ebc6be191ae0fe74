//! `dagaz xboard`: the Chess Engine Communication Protocol (version 2) of
//! XBoard and WinBoard, for GUIs and tools that speak it (xboard itself,
//! python-chess). Any game plays: `variant NAME` chooses it (XBoard's and
//! Fairy-Stockfish's names, or dagaz's). Moves are coordinates (`e2e4`,
//! `e7e8q`, drops `N@d3`), as XBoard writes them.
//!
//! The search runs in its own thread and writes `move …` when done; the
//! command loop goes on reading: `?` makes it move at once, `quit`,
//! `force`, `new` and the like end it without a move, and any other
//! command (`ping` among them) is carried out after the move, as the
//! protocol asks. In `analyze` mode the search runs without end on the
//! position, writes its thinking and plays nothing; each command ends it
//! and, after the command, it starts again on the position then, until
//! `exit`.

use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use dagaz::ai::search::{Searcher, WIN};
use dagaz::ai::{Choice, Control, Limit};
use dagaz::game::{Game, GameResult};
use dagaz::load::library::{fairy_stockfish_game, load_game};
use dagaz::session::Session;

use crate::protocol::{Output, game_names, open_session, say, within_move_time};
use crate::squares::Notation;

/// The deepest search `sd` may ask for.
const MAX_DEPTH: u32 = 64;
/// The longest a move may take (`st`, a share of the clock).
const MAX_TIME: Duration = Duration::from_secs(3600);
/// The time a move takes when neither `st` nor a clock says.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// A search in progress: its thread, which returns the session after the
/// move it wrote (none if it wrote none), and its switches.
struct Thinking {
    thread: JoinHandle<Option<Session>>,
    /// Ends the search; the best move so far is played.
    stop: Arc<AtomicBool>,
    /// The move is not wanted: none is written.
    abort: Arc<AtomicBool>,
}

/// How a command that comes while the engine thinks ends the search.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// The search runs to its limit; the command follows the move.
    Wait,
    /// `?`: the move at once.
    Now,
    /// The move is not wanted (`force`, `new`, `quit`, …).
    Abort,
}
/// The most threads `cores` gives a search.
const MAX_THREADS: usize = 64;

/// The engine's state between commands.
struct Engine {
    out: Output,
    game: Arc<Game>,
    /// XBoard's names of `game`'s squares (ten ranks from 0).
    names: Arc<Notation>,
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
    thinking: Option<Thinking>,
    /// `analyze` mode, until `exit`.
    analyzing: bool,
    /// Chess, which `new` goes back to (a `variant` command follows it
    /// for any other game).
    chess: Arc<Game>,
}

/// Runs the protocol until `quit` or the end of the input.
/// At the end of the input a search in progress is finished, its move
/// written.
pub fn run(input: impl BufRead, out: Output) -> Result<(), String> {
    let game = Arc::new(load_game("chess").map_err(|e| e.to_string())?);
    let session = open_session(&game, game.initial_position())?;
    let mut engine = Engine {
        out,
        names: Arc::new(Notation::xboard(&game)),
        game: game.clone(),
        session,
        plays: Some(1),
        depth: None,
        per_move: None,
        clock: None,
        increment: Duration::ZERO,
        moves_per_session: 0,
        post: false,
        threads: 1,
        thinking: None,
        analyzing: false,
        chess: game.clone(),
    };
    for line in input.lines() {
        let line = line.map_err(|e| e.to_string())?;
        if !engine.command(line.trim()) {
            break;
        }
    }
    let ending = match engine.analyzing {
        true => Ending::Abort,
        false => Ending::Wait,
    };
    engine.finish(ending);
    Ok(())
}

impl Engine {
    fn say(&mut self, line: &str) {
        say(&self.out, line);
    }

    /// Carries out one command; false after `quit`. A search in progress
    /// first ends as the command asks ([`ending_for`]).
    fn command(&mut self, line: &str) -> bool {
        let (name, arg) = line.split_once(' ').unwrap_or((line, ""));
        let arg = arg.trim();
        if self.analyzing && name == "." {
            // The status of the analysis: its thinking lines tell it.
            return true;
        }
        if self.thinking.is_some() {
            let ending = match self.analyzing {
                true => Ending::Abort,
                false => ending_for(name),
            };
            self.finish(ending);
        }
        let went_on = self.carry_out(name, arg, line);
        if went_on && self.analyzing && self.thinking.is_none() {
            self.search(true);
        }
        went_on
    }

    /// Carries out the command `name` with argument `arg` (the whole
    /// `line`); false after `quit`.
    fn carry_out(&mut self, name: &str, arg: &str, line: &str) -> bool {
        match name {
            "" | "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy" | "computer"
            | "name" | "rating" | "ics" | "otim" | "result" | "draw" | "." | "?" => {}
            "protover" => self.features(),
            "new" => {
                // Standard chess, as the protocol says.
                self.restart(self.chess.clone());
                // An analysis goes on from the new start; it plays nothing.
                self.plays = (!self.analyzing).then_some(1);
                self.depth = None;
            }
            "variant" => self.variant(arg),
            "force" => self.plays = None,
            "analyze" => {
                self.analyzing = true;
                self.plays = None;
            }
            "exit" => self.analyzing = false,
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
                self.clock = None;
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
        // XBoard's name of chess first, then every name `variant` takes.
        let mut names = vec!["normal".to_string()];
        names.extend(game_names().into_iter().filter(|n| n != "normal"));
        let line = format!(
            "feature myname=\"dagaz {}\" ping=1 setboard=1 usermove=1 time=1 draw=0 smp=1 \
             sigint=0 reuse=1 analyze=1 colors=0 san=0 variants=\"{}\" done=1",
            env!("CARGO_PKG_VERSION"),
            names.join(",")
        );
        self.say(&line);
    }

    fn restart(&mut self, game: Arc<Game>) {
        if let Ok(s) = open_session(&game, game.initial_position()) {
            self.names = Arc::new(Notation::xboard(&game));
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
        let played = match self.names.find(&self.session, text) {
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

    /// Starts the search for the engine's move; its thread writes the
    /// thinking lines (`post`), `move …` and the result it leads to.
    fn think(&mut self) {
        if self.session.is_over() {
            self.announce_result();
            return;
        }
        self.search(false);
    }

    /// Starts a search of the position: for the engine's move, or an
    /// `analysis` that runs until it is ended, writes its thinking and
    /// plays nothing.
    fn search(&mut self, analysis: bool) {
        if analysis && self.session.is_over() {
            return;
        }
        let (stop, abort) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicBool::new(analysis)),
        );
        let control = Control {
            stop: stop.clone(),
            max_time: Some(MAX_TIME),
            max_depth: if analysis { None } else { self.depth },
            threads: self.threads,
            ..Control::unbounded()
        };
        let limit = match analysis {
            true => Limit::Depth(MAX_DEPTH),
            false => self.limit(),
        };
        let (post, game, out) = (self.post || analysis, self.game.clone(), self.out.clone());
        let mut session = self.session.clone();
        let names = self.names.clone();
        let unwanted = abort.clone();
        let thread = std::thread::spawn(move || {
            let started = Instant::now();
            let report = |c: &Choice| {
                if post {
                    say(&out, &thinking_line(&game, &names, c, started.elapsed()));
                }
            };
            let best = Searcher::new(&game, limit)
                .with_control(control)
                .with_progress(report)
                .best(&mut session.position_copy());
            // Under the output's lock: an abort either comes before the
            // move is written, or finds it written and the session moved on.
            let mut w = out.lock().ok()?;
            if unwanted.load(Ordering::Relaxed) {
                return None;
            }
            let lines = play_found(&mut session, &names, best.ok().flatten());
            for l in &lines {
                let _ = writeln!(w, "{l}");
            }
            let _ = w.flush();
            (!lines.is_empty()).then_some(session)
        });
        self.thinking = Some(Thinking {
            thread,
            stop,
            abort,
        });
    }

    /// Ends a search in progress as `ending` says and takes over the
    /// session after the move it wrote.
    fn finish(&mut self, ending: Ending) {
        let Some(t) = self.thinking.take() else {
            return;
        };
        if ending == Ending::Abort {
            t.abort.store(true, Ordering::Relaxed);
        }
        if ending != Ending::Wait {
            t.stop.store(true, Ordering::Relaxed);
        }
        if let Ok(Some(session)) = t.thread.join() {
            self.session = session;
        }
    }

    /// The time limit for the next move: `st`, the clock, or
    /// `DEFAULT_MOVE_TIME`. (`sd` caps the depth besides.)
    fn limit(&self) -> Limit {
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
            None => Limit::Time(DEFAULT_MOVE_TIME),
        }
    }

    /// The result line, once the game is over.
    fn announce_result(&mut self) {
        if let Some(line) = result_line(&self.session) {
            self.say(&line);
        }
    }
}

/// How a command that comes during a search ends it: `?` asks for the
/// move now; a command that changes the game or leaves it drops the
/// move; any other is answered after the move (`ping` so, as CECP asks).
fn ending_for(command: &str) -> Ending {
    match command {
        "?" => Ending::Now,
        "quit" | "new" | "force" | "result" | "variant" | "setboard" | "undo" | "remove"
        | "edit" | "usermove" | "go" | "playother" => Ending::Abort,
        _ => Ending::Wait,
    }
}

/// Plays the move the search found in `session`: the lines that say so
/// (`move …` and the result it leads to); none without a move.
fn play_found(session: &mut Session, names: &Notation, best: Option<Choice>) -> Vec<String> {
    let Some(index) = best.and_then(|c| session.index_of(c.mv.as_ref())) else {
        return result_line(session).into_iter().collect();
    };
    let game = session.game().clone();
    let text = names.write_move(
        &game,
        session.legal().get(index),
        &session.legal_texts()[index],
    );
    if session.play(index).is_err() {
        return Vec::new();
    }
    let mut lines = vec![format!("move {text}")];
    lines.extend(result_line(session));
    lines
}

/// `1-0 {…}`, `0-1 {…}` or `1/2-1/2 {…}` once the game is over.
fn result_line(session: &Session) -> Option<String> {
    let result = session.result()?;
    let why = result.describe(session.game());
    let score = match result {
        GameResult::Win { winner, .. } if *winner == 0 => "1-0",
        GameResult::Win { .. } => "0-1",
        _ => "1/2-1/2",
    };
    Some(format!("{score} {{{why}}}"))
}

/// A thinking line: `ply score time nodes pv` (time in centiseconds,
/// mates as XBoard's 100000 + moves).
fn thinking_line(game: &Game, names: &Notation, c: &Choice, elapsed: Duration) -> String {
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
            .map(|m| names.write_found(game, m.as_ref()))
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
        let buffer: Arc<std::sync::Mutex<Vec<u8>>> = Arc::default();
        run(input.as_bytes(), buffer.clone()).unwrap();
        let out = buffer.lock().unwrap().clone();
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
        // Every game `variant` takes is offered, each once.
        let offered = lines[0].split("variants=\"").nth(1).unwrap();
        let offered: Vec<&str> = offered.split('"').next().unwrap().split(',').collect();
        for name in [
            "normal",
            "checkers",
            "chu-shogi",
            "fischerandom",
            "chess:crazyhouse",
        ] {
            assert!(offered.contains(&name), "{name}: {offered:?}");
        }
        let mut unique = offered.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), offered.len());
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
            "protover 2\nnew\nforce\nsetboard r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4\nsd 2\ngo\nping 1\nquit\n",
        );
        assert!(lines.contains(&"move h5f7".to_string()), "{lines:?}");
        assert!(lines[lines.len() - 2].starts_with("1-0 {"), "{lines:?}");
    }

    #[test]
    fn plays_on_past_draws_the_gui_must_claim() {
        let lines = session(
            "protover 2\nnew\nforce\nusermove g1f3\nusermove g8f6\nusermove f3g1\nusermove f6g8\n\
             usermove g1f3\nusermove g8f6\nusermove f3g1\nusermove f6g8\nsd 2\nusermove e2e4\ngo\nping 1\n\
             setboard 4k3/8/8/8/8/8/R7/4K3 b - - 100 80\ngo\nping 2\nquit\n",
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

    /// The lines for `input` and how long they took.
    fn timed(input: &str) -> (Vec<String>, Duration) {
        let started = Instant::now();
        let lines = session(input);
        (lines, started.elapsed())
    }

    #[test]
    fn a_depth_limit_caps_the_time_limited_search() {
        for input in [
            "new\nlevel 40 1 0\ntime 6000\nsd 30\nusermove e2e4\nping 1\nquit\n",
            "new\nst 1\nsd 30\nusermove e2e4\nping 1\nquit\n",
            "new\nsd 30\nst 1\nusermove e2e4\nping 1\nquit\n",
            "new\nsd 64\nusermove e2e4\nping 1\nquit\n",
        ] {
            let (lines, took) = timed(input);
            assert!(took < Duration::from_secs(4), "{input}: {took:?}");
            let at_move = lines.iter().position(|l| l.starts_with("move ")).unwrap();
            let at_pong = lines.iter().position(|l| l == "pong 1").unwrap();
            assert!(at_move < at_pong, "{lines:?}");
        }
    }

    #[test]
    fn reads_commands_while_it_thinks() {
        // `?`: the move at once; `force` and `quit`: no move.
        let (lines, took) = timed("new\nst 100000\nusermove e2e4\n?\nping 1\nquit\n");
        assert!(took < Duration::from_secs(4), "{took:?}");
        assert!(lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
        assert_eq!(lines.last().unwrap(), "pong 1");
        let (lines, took) =
            timed("new\nst 100000\nusermove e2e4\nforce\nping 2\nusermove e7e5\nquit\n");
        assert!(took < Duration::from_secs(4), "{took:?}");
        assert_eq!(lines, ["pong 2"]);
        let (lines, took) = timed("new\nsd 64\nst 100000\nusermove e2e4\nquit\n");
        assert!(
            took < Duration::from_secs(4) && lines.is_empty(),
            "{lines:?}"
        );
    }

    #[test]
    fn analyzes_until_exit_and_plays_nothing() {
        use std::io::Write;
        // Commands as a GUI sends them, with time to think between.
        let (reader, mut writer) = std::io::pipe().unwrap();
        let feeder = std::thread::spawn(move || {
            let steps = [
                "protover 2\nnew\npost\nanalyze\n",
                ".\nusermove e2e4\n",
                "exit\nping 3\nquit\n",
            ];
            for step in steps {
                writer.write_all(step.as_bytes()).unwrap();
                std::thread::sleep(Duration::from_millis(300));
            }
        });
        let buffer: Arc<std::sync::Mutex<Vec<u8>>> = Arc::default();
        run(std::io::BufReader::new(reader), buffer.clone()).unwrap();
        feeder.join().unwrap();
        let out = String::from_utf8(buffer.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].contains(" analyze=1 "), "{lines:?}");
        // Thinking lines for the start and for the position after 1. e4,
        // told apart by the rank their first move starts from.
        let from_ranks = |ranks: [char; 2]| {
            lines.iter().any(|l| {
                let first = l.split(' ').nth(4).unwrap_or("");
                l.starts_with(char::is_numeric)
                    && first.chars().nth(1).is_some_and(|r| ranks.contains(&r))
            })
        };
        assert!(from_ranks(['1', '2']), "a line of White's: {lines:?}");
        assert!(from_ranks(['7', '8']), "a line of Black's: {lines:?}");
        assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
        assert_eq!(lines.last(), Some(&"pong 3"), "{lines:?}");
    }

    #[test]
    fn numbers_ten_ranks_from_zero() {
        let lines = session(
            "protover 2\nvariant xiangqi\nforce\nusermove h2e2\nusermove h3e3\nsd 2\ngo\nping 1\nquit\n",
        );
        assert_eq!(lines[1], "Illegal move: h3e3", "{lines:?}");
        let mv = lines.iter().find(|l| l.starts_with("move ")).unwrap();
        let squares = &mv[5..];
        let digits = squares.chars().filter(char::is_ascii_digit).count();
        assert!(squares.len() == 4 && digits == 2, "{lines:?}");
        // Black's back rank is 9, White's 0.
        let lines = session(
            "protover 2\nvariant xiangqi\nforce\nusermove b0c2\nusermove b9c7\nusermove c2b0\nusermove c7b9\nquit\n",
        );
        assert!(
            lines.len() == 1 && !lines[0].starts_with("Illegal"),
            "{lines:?}"
        );
        // `new` is chess again.
        let lines = session(
            "protover 2\nvariant xiangqi\nnew\nforce\nusermove e2e4\nsd 1\ngo\nping 1\nquit\n",
        );
        assert!(!lines.iter().any(|l| l.starts_with("Illegal")), "{lines:?}");
        let mv = lines.iter().find(|l| l.starts_with("move ")).unwrap();
        assert!(
            mv[5..].ends_with(['5', '6']),
            "a reply of Black's: {lines:?}"
        );
    }

    #[test]
    fn plays_variants_and_reports_errors() {
        let lines = session(
            "protover 2\nvariant crazyhouse\nforce\nusermove e2e4\nusermove d7d5\nusermove e4d5\nusermove d8d5\nsd 1\ngo\nping 1\n\
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

    /// In fischerandom a castling is read as `O-O`/`O-O-O` or as the King
    /// taking its Rook, and the Rook stands where castling puts it.
    #[test]
    fn reads_chess960_castlings_both_ways() {
        let lines = session(
            "protover 2\nvariant fischerandom\nforce\n\
             setboard 1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1\n\
             usermove O-O\nusermove g8b8\nusermove f1e1\nusermove d8e8\nping 1\nquit\n",
        );
        assert!(lines.contains(&"pong 1".to_string()), "{lines:?}");
        assert!(
            !lines
                .iter()
                .any(|l| l.starts_with("Illegal") || l.starts_with("Error")),
            "{lines:?}"
        );
    }
}
