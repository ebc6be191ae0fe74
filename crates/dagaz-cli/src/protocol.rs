//! `dagaz uci` and `dagaz usi`: the Universal Chess Interface and its
//! shogi dialect, the Universal Shogi Interface, on stdin and stdout, so
//! that chess and shogi programs (GUIs, match runners, python-chess,
//! cshogi) can use dagaz as an engine. Any game plays: the option
//! `UCI_Variant` (`USI_Variant`) names it (`chess`, `chess:crazyhouse`,
//! `xiangqi`, `minishogi`, …), as Fairy-Stockfish's option does. Moves
//! are dagaz's move texts, UCI writing drops its own way (`N@d3`); USI
//! names the squares its own way in every game (`7g7f`, `P*5e`, `8h2b+`;
//! kyotoshogi's `1e1d+`).
//!
//! The search runs in its own thread, so `isready` and `stop` are answered
//! while it thinks; every completed depth gives an `info` line.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use dagaz::ai::search::{Searcher, WIN};
use dagaz::ai::{Choice, Control, Limit};
use dagaz::game::Game;
use dagaz::load::library::{builtin_games, fairy_stockfish_game, fairy_stockfish_names, load_game};
use dagaz::load::variant_names;
use dagaz::session::{Session, SessionError};

use crate::squares::Notation;

/// Where the engine's lines go; shared with the search thread.
pub type Output = Arc<Mutex<dyn Write + Send>>;

/// The deepest search a `go` may ask for.
const MAX_DEPTH: u32 = 64;
/// The longest a `go` may think.
const MAX_TIME: Duration = Duration::from_secs(3600);

/// Kept back from a fixed move time: the search ends, and its last
/// lines are written, within the time the other side allowed.
const MOVE_OVERHEAD: Duration = Duration::from_millis(10);
/// The most threads the `Threads` option gives a search.
const MAX_THREADS: usize = 64;

/// Writes `line` to `out` at once.
pub(crate) fn say(out: &Output, line: &str) {
    // A closed output (the GUI went away) ends nothing here: `quit` or the
    // end of the input does.
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// Which of the two protocols is spoken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// The Universal Chess Interface.
    Uci,
    /// The Universal Shogi Interface: `usi`/`usiok`, `usinewgame`,
    /// `position sfen`, the first player's clock is `btime`, `byoyomi`,
    /// `bestmove resign`.
    Usi,
}

impl Dialect {
    /// `uci` or `usi`.
    fn word(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Usi => "usi",
        }
    }

    /// The option that chooses the game.
    fn variant_option(self) -> &'static str {
        match self {
            Dialect::Uci => "UCI_Variant",
            Dialect::Usi => "USI_Variant",
        }
    }

    /// The game played until the option says otherwise.
    fn default_game(self) -> &'static str {
        match self {
            Dialect::Uci => "chess",
            Dialect::Usi => "shogi",
        }
    }
}

/// How the dialect writes `game`'s moves: UCI writes a castling as the
/// King taking its Rook with `UCI_Chess960` set (`chess960`) and in the
/// games that shuffle their setup.
fn notation_of(dialect: Dialect, game: &Game, chess960: bool) -> Notation {
    match dialect {
        Dialect::Uci => Notation::uci_chess960(chess960 || game.shuffles()),
        Dialect::Usi => Notation::usi(game),
    }
}

/// A search in progress: its thread and its stop switch.
struct Thinking {
    thread: JoinHandle<()>,
    stop: Arc<AtomicBool>,
    /// A pondering search (`go ponder`): what it does at `ponderhit`.
    ponder: Option<AfterHit>,
}

/// What a pondering search does once the opponent played the move it
/// pondered on: the `go ponder` command's limits apply from then on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AfterHit {
    /// Answers at once (no time was given, or a depth or node count the
    /// pondering has searched already).
    Answer,
    /// Goes on for this long, the move's time from the clock.
    Search(Duration),
    /// Goes on until `stop` (`go ponder infinite`).
    UntilStop,
}

impl AfterHit {
    /// After a hit of a pondering search whose `go` gave `limit`: a fixed
    /// move time is used whole, a clock's share as far as a timed search
    /// begins new iterations (60 % of it).
    fn of(limit: Limit, infinite: bool) -> AfterHit {
        match limit {
            _ if infinite => AfterHit::UntilStop,
            Limit::Time(d) => AfterHit::Search(d),
            Limit::Clock(d) => AfterHit::Search(d * 3 / 5),
            Limit::Depth(_) | Limit::Nodes(_) => AfterHit::Answer,
        }
    }
}

/// The engine's state between commands.
struct Engine {
    dialect: Dialect,
    out: Output,
    game: Arc<Game>,
    /// How moves of `game` are written.
    notation: Arc<Notation>,
    session: Session,
    thinking: Option<Thinking>,
    /// The `Threads` option: threads one search uses.
    threads: usize,
    /// UCI's `UCI_Chess960` option: castlings are written as the King
    /// taking its Rook.
    chess960: bool,
    /// The last `position` failed: the GUI's position is not known, so a
    /// `go` answers no move rather than one for the wrong side.
    unknown: bool,
}

/// Runs the protocol until `quit` or the end of the input.
pub fn run(dialect: Dialect, input: impl BufRead, out: Output) -> Result<(), String> {
    let mut engine = Engine::new(dialect, out)?;
    for line in input.lines() {
        let line = line.map_err(|e| e.to_string())?;
        if !engine.command(line.trim()) {
            break;
        }
    }
    engine.stop();
    Ok(())
}

impl Engine {
    /// An engine playing the dialect's game (chess, shogi) from its setup.
    fn new(dialect: Dialect, out: Output) -> Result<Engine, String> {
        let game = Arc::new(load_game(dialect.default_game()).map_err(|e| e.to_string())?);
        let session = open_session(&game, game.initial_position())?;
        Ok(Engine {
            dialect,
            out,
            notation: Arc::new(notation_of(dialect, &game, false)),
            game,
            session,
            thinking: None,
            threads: 1,
            chess960: false,
            unknown: false,
        })
    }

    /// Carries out one command; false after `quit`.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(name) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        match name {
            "uci" | "usi" => self.identify(),
            "isready" => {
                // What the first search would build, built while the GUI
                // waits (instant once built, and while a search runs).
                if self.thinking.is_none() {
                    self.game.prepare_attacks();
                }
                say(&self.out, "readyok")
            }
            "debug" | "register" | "gameover" => {}
            // The opponent played the move the search pondered on.
            "ponderhit" => self.ponderhit(),
            "setoption" => self.set_option(&rest),
            "ucinewgame" | "usinewgame" => {
                self.stop();
                self.position(&["startpos"]);
            }
            "position" => {
                self.stop();
                self.position(&rest);
            }
            "go" => {
                self.stop();
                self.go(&rest);
            }
            "stop" => self.stop(),
            "quit" => return false,
            _ => self.info(&format!("unknown command '{line}'")),
        }
        true
    }

    fn info(&self, text: &str) {
        say(&self.out, &format!("info string {text}"));
    }

    fn identify(&self) {
        say(
            &self.out,
            &format!("id name dagaz {}", env!("CARGO_PKG_VERSION")),
        );
        say(&self.out, "id author the dagaz developers");
        let vars: String = game_names().iter().map(|n| format!(" var {n}")).collect();
        let (option, default) = (self.dialect.variant_option(), self.dialect.default_game());
        say(
            &self.out,
            &format!("option name {option} type combo default {default}{vars}"),
        );
        say(
            &self.out,
            &format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
        );
        if self.dialect == Dialect::Uci {
            say(
                &self.out,
                "option name UCI_Chess960 type check default false",
            );
        }
        say(&self.out, &format!("{}ok", self.dialect.word()));
    }

    /// `setoption name UCI_Variant value NAME` (`USI_Variant`): plays that
    /// game (a dagaz name, or Fairy-Stockfish's name of a variant) from its
    /// setup. `Threads` sets the threads of a search (1 to
    /// `MAX_THREADS`); `UCI_Chess960` the form of castlings. Other options
    /// are accepted and ignored.
    fn set_option(&mut self, args: &[&str]) {
        let at = |w: &str| args.iter().position(|a| *a == w);
        let (Some(n), Some(v)) = (at("name"), at("value")) else {
            return;
        };
        let name = args[n + 1..v].join(" ");
        let value = args[v + 1..].join(" ");
        if name.eq_ignore_ascii_case("Threads") {
            match value.parse::<usize>() {
                Ok(n) => self.threads = n.clamp(1, MAX_THREADS),
                Err(_) => self.info(&format!("error: Threads must be a number, not '{value}'")),
            }
            return;
        }
        if self.dialect == Dialect::Uci && name.eq_ignore_ascii_case("UCI_Chess960") {
            match value.to_ascii_lowercase().as_str() {
                "true" => self.chess960 = true,
                "false" => self.chess960 = false,
                _ => self.info(&format!(
                    "error: UCI_Chess960 must be true or false, not '{value}'"
                )),
            }
            self.notation = Arc::new(notation_of(self.dialect, &self.game, self.chess960));
            return;
        }
        if name != self.dialect.variant_option() {
            return;
        }
        self.stop();
        let known = builtin_games()
            .iter()
            .any(|g| g.name == value.split(':').next().unwrap_or(""));
        let name = if known {
            value.as_str()
        } else {
            fairy_stockfish_game(&value).unwrap_or(&value)
        };
        match load_game(name) {
            Ok(game) => {
                self.notation = Arc::new(notation_of(self.dialect, &game, self.chess960));
                self.game = Arc::new(game);
                self.position(&["startpos"]);
            }
            Err(e) => self.info(&format!("error: {e}")),
        }
    }

    /// `position startpos|fen FEN…|sfen SFEN… [moves M…]`; on an error an
    /// `info string` says why, and the position is unknown until the next
    /// `position` that can be set (a `go` answers no move).
    fn position(&mut self, args: &[&str]) {
        let moves_at = args
            .iter()
            .position(|a| *a == "moves")
            .unwrap_or(args.len());
        let start = match args.first() {
            Some(&"startpos") => Ok(self.game.initial_position()),
            Some(&"fen") | Some(&"sfen") => self
                .game
                .parse_position(&args[1..moves_at].join(" "))
                .map_err(|e| e.to_string()),
            _ => Err(
                "expected 'position startpos', 'position fen …' or 'position sfen …'".to_string(),
            ),
        };
        let session = start
            .and_then(|pos| open_session(&self.game, pos))
            .and_then(|mut s| {
                for m in args.get(moves_at + 1..).unwrap_or(&[]) {
                    play_uci(&mut s, m, &self.notation)?;
                }
                Ok(s)
            });
        match session {
            Ok(s) => {
                self.session = s;
                self.unknown = false;
            }
            Err(e) => {
                self.info(&format!("error: {e}"));
                self.unknown = true;
            }
        }
    }

    /// `go` with `depth`, `nodes`, `movetime`, `wtime`/`btime`/`winc`/
    /// `binc`/`movestogo`, `mate`, `searchmoves` or `infinite`: starts the
    /// search. A value that cannot be read is reported and left out.
    fn go(&mut self, args: &[&str]) {
        for (key, value) in bad_values(args) {
            self.info(&format!(
                "error: go {key} '{value}' is not a count; left out"
            ));
        }
        // USI's `go mate MS` is a mate search for that long.
        let usi_mate = self.dialect == Dialect::Usi && args.contains(&"mate");
        let limit = match usi_mate {
            true => usi_mate_limit(args),
            // Pondering on the opponent's time: until `ponderhit` or `stop`.
            false if args.contains(&"ponder") => Limit::Depth(MAX_DEPTH),
            false => limit_of(args, self.clock_keys()),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let control = Control {
            stop: stop.clone(),
            max_time: Some(MAX_TIME),
            max_nodes: None,
            threads: self.threads,
            root_moves: self.search_moves(args),
            ..Control::unbounded()
        };
        let (game, out, dialect) = (self.game.clone(), self.out.clone(), self.dialect);
        let notation = self.notation.clone();
        let mut pos = self.session.position_copy();
        let over = self.session.is_over();
        let unknown = self.unknown;
        if unknown {
            self.info("error: the last position could not be set; no move");
        }
        let thread = std::thread::spawn(move || {
            let started = Instant::now();
            let report = |c: &Choice| say(&out, &info_line(&notation, &game, c, started.elapsed()));
            let best = if over || unknown {
                None
            } else {
                Searcher::new(&game, limit)
                    .with_control(control)
                    .with_progress(report)
                    .best(&mut pos)
                    .ok()
                    .flatten()
            };
            if usi_mate {
                say(&out, &checkmate_line(&notation, &game, best.as_ref()));
                return;
            }
            let none = match dialect {
                Dialect::Uci => "0000",
                Dialect::Usi => "resign",
            };
            let text = best.map_or(none.to_string(), |c| {
                notation.write_found(&game, c.mv.as_ref())
            });
            say(&out, &format!("bestmove {text}"));
        });
        let ponder = args.contains(&"ponder").then(|| {
            AfterHit::of(
                limit_of(args, self.clock_keys()),
                args.contains(&"infinite"),
            )
        });
        self.thinking = Some(Thinking {
            thread,
            stop,
            ponder,
        });
    }

    /// `ponderhit`: the pondering search goes on within the `go ponder`
    /// command's limits, counted from now ([`AfterHit`]); any other
    /// search, or one with nothing left to do, answers at once.
    fn ponderhit(&mut self) {
        let after = self.thinking.as_mut().and_then(|t| t.ponder.take());
        match (after, &self.thinking) {
            (Some(AfterHit::Search(time)), Some(t)) => {
                let stop = t.stop.clone();
                std::thread::spawn(move || {
                    std::thread::sleep(time);
                    stop.store(true, Ordering::Relaxed);
                });
            }
            (Some(AfterHit::UntilStop), _) => {}
            _ => self.stop(),
        }
    }

    /// The moves of `go searchmoves M…` (up to the next keyword), if
    /// given; a text that names no legal move is reported.
    fn search_moves(&self, args: &[&str]) -> Option<Vec<dagaz::position::Move>> {
        let at = args.iter().position(|a| *a == "searchmoves")?;
        let texts = args[at + 1..].iter().take_while(|a| !is_go_keyword(a));
        let mut moves = Vec::new();
        for text in texts {
            match self.notation.find(&self.session, text) {
                Some(i) => moves.push(self.session.legal().get(i).to_owned()),
                None => self.info(&format!("error: searchmoves '{text}' is not a legal move")),
            }
        }
        Some(moves)
    }

    /// The side to move's clock and increment keys: UCI's first player is
    /// White (`wtime`), USI's is Black (`btime`).
    fn clock_keys(&self) -> (&'static str, &'static str) {
        let first = self.session.side() == 0;
        match (self.dialect, first) {
            (Dialect::Uci, true) | (Dialect::Usi, false) => ("wtime", "winc"),
            _ => ("btime", "binc"),
        }
    }

    /// Stops the search, if one runs, and waits for its `bestmove`.
    fn stop(&mut self) {
        if let Some(t) = self.thinking.take() {
            t.stop.store(true, Ordering::Relaxed);
            let _ = t.thread.join();
        }
    }
}

/// A session from `pos` that plays on past draws the GUI must claim
/// (a repetition, the move clock): the GUI is the arbiter of those, and
/// asks for moves after them.
pub(crate) fn open_session(
    game: &Arc<Game>,
    pos: dagaz::position::Position,
) -> Result<Session, String> {
    Session::from_position(game.clone(), pos)
        .and_then(Session::playing_past_claims)
        .map_err(|e| e.to_string())
}

/// Every game a protocol can be asked for by name: each built-in game and
/// its variants (`chess:crazyhouse`), then Fairy-Stockfish's names of
/// the games they play, each name once.
pub(crate) fn game_names() -> Vec<String> {
    let mut names = Vec::new();
    for g in builtin_games() {
        names.push(g.name.to_string());
        let variants = variant_names(g.source);
        names.extend(variants.iter().map(|v| format!("{}:{v}", g.name)));
    }
    for (fsf, _) in fairy_stockfish_names() {
        if !names.iter().any(|n| n == fsf) {
            names.push(fsf.to_string());
        }
    }
    names
}

/// Plays a move given in the protocol's form (or dagaz's own) in `session`.
fn play_uci(session: &mut Session, text: &str, notation: &Notation) -> Result<(), String> {
    match notation.find(session, text) {
        Some(i) => session.play(i).map(|_| ()).map_err(|e| e.to_string()),
        None => session.play_text(text).map(|_| ()).map_err(|e| match e {
            SessionError::Move(_) => format!(
                "'{text}' is not a legal move here; legal moves: {}",
                notation.legal(session).join(" ")
            ),
            e => e.to_string(),
        }),
    }
}

/// The words of `go` that take no count (the counts are `GO_COUNTS`).
const GO_FLAGS: [&str; 3] = ["searchmoves", "ponder", "infinite"];

/// Whether `word` is one of `go`'s words (not a move of `searchmoves`).
fn is_go_keyword(word: &str) -> bool {
    GO_FLAGS.contains(&word) || GO_COUNTS.contains(&word)
}

/// The counts `go` takes.
const GO_COUNTS: [&str; 10] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "byoyomi",
];

/// The largest count read: larger ones are taken as this (times in
/// milliseconds are bounded by `MAX_TIME` besides).
const MAX_COUNT: u64 = 1_000_000_000_000;

/// A count as `go` gives it: digits; larger than `MAX_COUNT` is
/// `MAX_COUNT`.
fn count(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse::<u64>().unwrap_or(u64::MAX).min(MAX_COUNT))
}

/// The options of a `go` whose values are not counts (USI's `mate
/// infinite` aside), with those values.
fn bad_values<'a>(args: &[&'a str]) -> Vec<(&'a str, &'a str)> {
    args.iter()
        .enumerate()
        .filter(|(_, a)| GO_COUNTS.contains(a))
        .map(|(i, a)| (*a, args.get(i + 1).copied().unwrap_or("")))
        .filter(|(a, v)| count(v).is_none() && !(*a == "mate" && *v == "infinite"))
        .collect()
}

/// USI's `go mate MS|infinite`: a search for that long (until `stop`),
/// which ends when it finds a mate (a timed search does; a depth asked
/// for would be searched on).
fn usi_mate_limit(args: &[&str]) -> Limit {
    let at = args.iter().position(|a| *a == "mate").unwrap_or(0);
    let time = match args.get(at + 1).and_then(|v| count(v)) {
        Some(ms) => Duration::from_millis(ms),
        None => MAX_TIME,
    };
    Limit::Time(within_move_time(time))
}

/// USI's answer to a mate search: `checkmate` and the mating moves if the
/// search found a mate for the side to move, else `checkmate nomate`.
fn checkmate_line(notation: &Notation, game: &Game, best: Option<&Choice>) -> String {
    match best {
        Some(c) if c.score.is_some_and(|s| s >= WIN - 1000) => {
            let pv: Vec<String> =
                c.pv.iter()
                    .map(|m| notation.write_found(game, m.as_ref()))
                    .collect();
            format!("checkmate {}", pv.join(" "))
        }
        _ => "checkmate nomate".to_string(),
    }
}

/// The search limit a `go` asks for; the side to move's clock (`keys`:
/// its time and increment) when times are given: a thirtieth of it, or of
/// it over the moves to go, most of the increment and of USI's byoyomi.
fn limit_of(args: &[&str], keys: (&str, &str)) -> Limit {
    let value = |key: &str| -> Option<u64> {
        let i = args.iter().position(|a| *a == key)?;
        count(args.get(i + 1)?)
    };
    if let Some(d) = value("depth") {
        return Limit::Depth(d.clamp(1, MAX_DEPTH as u64) as u32);
    }
    if let Some(n) = value("nodes") {
        return Limit::Nodes(n.max(1));
    }
    // A mate in n moves lies within 2n - 1 plies.
    if let Some(n) = value("mate") {
        return Limit::Depth((n * 2).saturating_sub(1).clamp(1, MAX_DEPTH as u64) as u32);
    }
    if let Some(ms) = value("movetime") {
        return Limit::Time(within_move_time(Duration::from_millis(ms)));
    }
    let (time, inc) = keys;
    let byoyomi = value("byoyomi").unwrap_or(0);
    if let Some(left) = value(time) {
        let moves = value("movestogo").unwrap_or(30).clamp(1, 100);
        let inc = value(inc).unwrap_or(0);
        let ms = (left / moves + inc * 3 / 4).min(left / 2) + byoyomi * 4 / 5;
        let share = Duration::from_millis(ms.max(5)).min(MAX_TIME);
        // With no main time left, the byoyomi is a fixed time per move.
        return if left > 0 {
            Limit::Clock(share)
        } else {
            Limit::Time(share)
        };
    }
    if byoyomi > 0 {
        return Limit::Time(Duration::from_millis((byoyomi * 4 / 5).max(5)).min(MAX_TIME));
    }
    // `infinite`, or nothing said: until `stop` (or the deepest search);
    // values that could not be read ask for nothing endless: a second.
    if args.contains(&"infinite") || bad_values(args).is_empty() {
        Limit::Depth(MAX_DEPTH)
    } else {
        Limit::Time(Duration::from_secs(1))
    }
}

/// What a search may use of a fixed time per move: the time less
/// `MOVE_OVERHEAD` (the answer's way to the program that asked, which
/// may not wait a moment longer), at least a millisecond, at most
/// `MAX_TIME`.
pub(crate) fn within_move_time(t: Duration) -> Duration {
    t.saturating_sub(MOVE_OVERHEAD)
        .max(Duration::from_millis(1))
        .min(MAX_TIME)
}

/// `info depth … score cp|mate … nodes … nps … time … pv …`.
fn info_line(notation: &Notation, game: &Game, c: &Choice, elapsed: Duration) -> String {
    let ms = elapsed.as_millis().max(1) as u64;
    let score = match c.score {
        Some(s) if s.abs() >= WIN - 1000 => {
            let plies = WIN - s.abs();
            let moves = (plies + 1) / 2;
            format!("mate {}", if s > 0 { moves } else { -moves })
        }
        Some(s) => format!("cp {s}"),
        None => "cp 0".to_string(),
    };
    let pv: Vec<String> =
        c.pv.iter()
            .map(|m| notation.write_found(game, m.as_ref()))
            .collect();
    format!(
        "info depth {} score {score} nodes {} nps {} time {ms} pv {}",
        c.depth,
        c.nodes,
        c.nodes * 1000 / ms,
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines the engine writes for `input`; each `go` is waited for
    /// (its search runs to its limit) before the next line.
    fn session(input: &str) -> Vec<String> {
        let buffer: Arc<Mutex<Vec<u8>>> = Arc::new(Mutex::new(Vec::new()));
        let out: Output = buffer.clone();
        let dialect = if input.starts_with("usi") {
            Dialect::Usi
        } else {
            Dialect::Uci
        };
        let mut engine = Engine::new(dialect, out).unwrap();
        for line in input.lines() {
            if !engine.command(line) {
                break;
            }
            if let Some(t) = engine.thinking.take() {
                t.thread.join().unwrap();
            }
        }
        let bytes = buffer.lock().unwrap().clone();
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn identifies_itself_and_lists_the_games() {
        let lines = session("uci\nisready\nquit\n");
        assert!(lines[0].starts_with("id name dagaz"));
        let option = lines
            .iter()
            .find(|l| l.starts_with("option name UCI_Variant"))
            .unwrap();
        assert!(option.contains(" var shogi") && option.contains(" var chess:crazyhouse"));
        assert_eq!(lines[lines.len() - 2], "uciok");
        assert_eq!(lines.last().unwrap(), "readyok");
    }

    #[test]
    fn searches_with_the_threads_it_is_given() {
        let lines = session(
            "uci\nsetoption name Threads value 2\nsetoption name Threads value many\n\
             position startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6\ngo depth 3\nquit\n",
        );
        assert!(
            lines
                .iter()
                .any(|l| l == "option name Threads type spin default 1 min 1 max 64")
        );
        assert!(lines.iter().any(|l| l.contains("Threads must be a number")));
        assert_eq!(lines.last().unwrap(), "bestmove h5f7");
    }

    #[test]
    fn finds_the_mate_in_one() {
        // Scholar's mate: Qxf7#.
        let lines =
            session("position startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6\ngo depth 2\nquit\n");
        assert_eq!(lines.last().unwrap(), "bestmove h5f7");
        assert!(
            lines.iter().any(|l| l.contains("score mate 1")),
            "{lines:?}"
        );
    }

    #[test]
    fn plays_other_games_and_reports_bad_input() {
        let lines = session(
            "setoption name UCI_Variant value xiangqi\nposition startpos moves h3e3\ngo depth 1\n\
             setoption name UCI_Variant value nosuchgame\nposition startpos moves e2e5\n\
             position fen not-a-position\nfrobnicate\nquit\n",
        );
        assert!(
            lines.iter().any(|l| l.starts_with("bestmove ")),
            "{lines:?}"
        );
        let errors = lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .count();
        assert_eq!(errors, 4, "{lines:?}");
    }

    #[test]
    fn castlings_are_the_king_taking_its_rook_in_chess960() {
        let bestmoves = |input: &str| -> Vec<String> {
            let lines = session(input);
            assert!(
                !lines.iter().any(|l| l.starts_with("info string")),
                "{lines:?}"
            );
            lines
                .iter()
                .filter_map(|l| l.strip_prefix("bestmove ").map(str::to_string))
                .collect()
        };
        // A shuffled game writes castlings so; read back, the King stands
        // on g1 (g1h1 is then a King's step).
        let fen = "1r3k1r/pppppppp/8/8/8/8/PPPPPPPP/1R3K1R w KQkq - 0 1";
        assert_eq!(
            bestmoves(&format!(
                "uci\nsetoption name UCI_Variant value fischerandom\n\
                 position fen {fen}\ngo depth 1 searchmoves f1h1\n\
                 position fen {fen}\ngo depth 1 searchmoves f1b1\n\
                 position fen {fen} moves f1h1 f8b8\ngo depth 1 searchmoves g1h1\n"
            )),
            ["f1h1", "f1b1", "g1h1"]
        );
        // Chess: so with UCI_Chess960 set, as the King's two steps without.
        let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
        assert_eq!(
            bestmoves(&format!(
                "uci\nsetoption name UCI_Chess960 value true\n\
                 position fen {fen}\ngo depth 1 searchmoves e1h1\n\
                 setoption name UCI_Chess960 value false\n\
                 position fen {fen}\ngo depth 1 searchmoves e1g1\n"
            )),
            ["e1h1", "e1g1"]
        );
    }

    #[test]
    fn drops_are_written_as_uci_writes_them() {
        assert_eq!(crate::squares::uci_text("n*d3"), "N@d3");
        assert_eq!(crate::squares::uci_text("e7e8q"), "e7e8q");
        assert_eq!(crate::squares::uci_text("e5d6xd5"), "e5d6");
        let lines = session(
            "setoption name UCI_Variant value crazyhouse\n\
             position startpos moves e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 d2d4 c8g4 P@e3\n\
             go depth 1\n",
        );
        assert!(
            !lines.iter().any(|l| l.starts_with("info string")),
            "{lines:?}"
        );
        assert!(lines.last().unwrap().starts_with("bestmove "));
    }

    #[test]
    fn speaks_usi_for_shogi() {
        let lines = session(
            "usi\nusinewgame\nposition startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e\n\
             go btime 0 wtime 0 byoyomi 100\ngameover win\n\
             position sfen 8k/9/9/9/9/9/9/9/K8 b - 1\ngo depth 1\n",
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("option name USI_Variant type combo default shogi"))
        );
        assert!(lines.contains(&"usiok".to_string()));
        assert!(
            !lines.iter().any(|l| l.starts_with("info string")),
            "{lines:?}"
        );
        let best: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("bestmove "))
            .collect();
        assert_eq!(best.len(), 2, "{lines:?}");
    }

    /// The side whose move `line` (`bestmove e7e5`) is, in chess from the
    /// setup: White's moves start on ranks 1 and 2.
    fn mover(line: &str) -> char {
        match line.as_bytes().get(10) {
            Some(b'1' | b'2') => 'w',
            Some(b'7' | b'8') => 'b',
            _ => '?',
        }
    }

    #[test]
    fn plays_on_past_draws_the_gui_must_claim() {
        let shuffle = "position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
        let lines = session(&format!(
            "{shuffle}\ngo depth 3\n{shuffle} g1f3\ngo depth 3\n\
             position fen 4k3/8/8/8/8/8/8/R3K3 w - - 99 80 moves a1a2\ngo depth 3\n"
        ));
        assert!(
            !lines.iter().any(|l| l.starts_with("info string")),
            "{lines:?}"
        );
        let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 3, "{lines:?}");
        assert_eq!(mover(best[0]), 'w', "{lines:?}");
        assert_eq!(mover(best[1]), 'b', "{lines:?}");
        assert!(best[2].starts_with("bestmove e8"), "{lines:?}");
    }

    #[test]
    fn answers_no_move_after_a_position_it_could_not_set() {
        let lines = session(
            "position startpos moves e2e4\nposition startpos moves e2e4 e2e4\ngo depth 2\n\
             position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth 2\n\
             position startpos moves e2e4\ngo depth 1\n",
        );
        let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best[0], "bestmove 0000", "{lines:?}");
        assert!(
            lines.iter().any(|l| l.contains("could not be set")),
            "{lines:?}"
        );
        assert_eq!(best[1], "bestmove 0000", "stalemate: {lines:?}");
        assert_eq!(mover(best[2]), 'b', "{lines:?}");
    }

    #[test]
    fn writes_usi_squares_in_every_game() {
        let lines = session(
            "usi\nsetoption name USI_Variant value kyotoshogi\nposition startpos\ngo depth 1\n\
             position startpos moves 1e1d+\ngo depth 1\n\
             setoption name USI_Variant value dobutsu\nposition startpos moves 2c2b\ngo depth 1\n\
             position startpos moves b2b3 2a2b\nposition startpos moves b2b3 zz\n",
        );
        let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best[0], "bestmove 1e1d+", "{lines:?}");
        assert!(best[1].as_bytes()[9].is_ascii_digit(), "{lines:?}");
        assert_eq!(best.len(), 3, "{lines:?}");
        let errors: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        assert_eq!(errors.len(), 1, "dagaz's own text is read too: {lines:?}");
        assert!(errors[0].contains("legal moves: 3a3b 2a2b"), "{lines:?}");
    }

    #[test]
    fn an_endless_usi_mate_search_answers_when_it_finds_the_mate() {
        use std::io::Write;
        // G*5b mates: `checkmate` comes by itself, before the `isready`
        // sent a second later is answered.
        let (reader, mut writer) = std::io::pipe().unwrap();
        let feeder = std::thread::spawn(move || {
            let steps = [
                "position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1\ngo mate infinite\n",
                "isready\nquit\n",
            ];
            for step in steps {
                writer.write_all(step.as_bytes()).unwrap();
                std::thread::sleep(Duration::from_millis(1000));
            }
        });
        let buffer: Arc<Mutex<Vec<u8>>> = Arc::new(Mutex::new(Vec::new()));
        run(
            Dialect::Usi,
            std::io::BufReader::new(reader),
            buffer.clone(),
        )
        .unwrap();
        feeder.join().unwrap();
        let out = String::from_utf8(buffer.lock().unwrap().clone()).unwrap();
        let mate = out.find("checkmate G*5b").expect("the mate");
        let ready = out.find("readyok").expect("ready");
        assert!(mate < ready, "{out}");
    }

    #[test]
    fn go_restricts_the_root_moves_and_answers_mate_searches() {
        let lines = session(
            "position startpos\ngo searchmoves a2a3 h2h4 depth 3\ngo depth abc\n\
             position startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6\ngo mate 1\n",
        );
        let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert!(
            best[0] == "bestmove a2a3" || best[0] == "bestmove h2h4",
            "{lines:?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l == "info string error: go depth 'abc' is not a count; left out")
        );
        assert_eq!(best[2], "bestmove h5f7", "{lines:?}");
        let lines = session(
            "usi\nposition sfen 8k/9/9/9/9/9/9/9/K8 b - 1\ngo mate 300\n\
             position startpos\ngo mate 100\n",
        );
        let answers: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("checkmate"))
            .collect();
        assert_eq!(
            answers,
            ["checkmate nomate", "checkmate nomate"],
            "{lines:?}"
        );
    }

    #[test]
    fn clock_limits() {
        let white = ("wtime", "winc");
        assert_eq!(limit_of(&["depth", "500"], white), Limit::Depth(MAX_DEPTH));
        assert_eq!(
            limit_of(&["wtime", "60000", "btime", "1000"], white),
            Limit::Clock(Duration::from_millis(2000))
        );
        assert_eq!(
            limit_of(&["wtime", "60000", "btime", "1000"], ("btime", "binc")),
            Limit::Clock(Duration::from_millis(33))
        );
        assert_eq!(
            limit_of(
                &["btime", "0", "wtime", "0", "byoyomi", "1000"],
                ("btime", "binc")
            ),
            Limit::Time(Duration::from_millis(800))
        );
        assert_eq!(
            limit_of(&["byoyomi", "1000"], white),
            Limit::Time(Duration::from_millis(800))
        );
        assert_eq!(
            limit_of(&["movetime", "500"], white),
            Limit::Time(Duration::from_millis(490))
        );
        assert_eq!(
            limit_of(&["movetime", "5"], white),
            Limit::Time(Duration::from_millis(1))
        );
        assert_eq!(limit_of(&["infinite"], white), Limit::Depth(MAX_DEPTH));
        let second = Limit::Time(Duration::from_secs(1));
        for bad in [
            ["depth", "abc"],
            ["depth", "-1"],
            ["movetime", "-5"],
            ["wtime", "x"],
        ] {
            assert_eq!(limit_of(&bad, white), second, "{bad:?}");
            assert_eq!(bad_values(&bad), [(bad[0], bad[1])]);
        }
        assert_eq!(
            limit_of(&["nodes", "99999999999999999999"], white),
            Limit::Nodes(MAX_COUNT)
        );
        assert_eq!(limit_of(&["mate", "3"], white), Limit::Depth(5));
        assert_eq!(
            limit_of(&["wtime", "99999999999999999999"], white),
            Limit::Clock(MAX_TIME)
        );
    }
}
