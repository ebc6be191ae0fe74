//! The computer opponent for every game: alpha-beta search ([`search`]),
//! Monte-Carlo tree search ([`mcts`]), a random mover, the evaluation they
//! share ([`eval`]) and a match runner to measure them ([`arena`]).
//!
//! Engines are named by short specs: `random`, `ab:0.2s`, `ab:d4`,
//! `mcts:5000n`, `mcts-greedy:1s` (limits: seconds `s`, milliseconds `ms`,
//! depth `d`, nodes or playouts `n`).

pub mod arena;
pub mod eval;
pub mod mcts;
pub mod search;
mod table;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::RngExt;
use rand::rngs::StdRng;

use crate::game::Game;
use crate::movegen::{GenError, Generator};
use crate::position::Position;
use crate::position::{Move, MoveList};

/// How long an engine may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// This long for the move: the search uses all of it (a fixed move
    /// time, as `ab:1s` or UCI's `go movetime`).
    Time(Duration),
    /// At most this long, a share of a game clock: no iteration is begun
    /// past 60 % of it, so time saved on one move is left for the next.
    Clock(Duration),
    Depth(u32),
    Nodes(u64),
}

/// A computer player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Plays a uniformly random legal move.
    Random,
    /// Alpha-beta search with iterative deepening.
    AlphaBeta(Limit),
    /// Monte-Carlo tree search (UCT) with random playouts, or playouts that
    /// prefer captures (`greedy`).
    Mcts { limit: Limit, greedy: bool },
}

/// A spec that names no engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad engine '{spec}': {reason} (try random, ab:0.2s, ab:d4, mcts:5000n, mcts-greedy:1s)")]
pub struct EngineError {
    pub spec: String,
    pub reason: String,
}

impl FromStr for Engine {
    type Err = EngineError;

    fn from_str(spec: &str) -> Result<Engine, EngineError> {
        let fail = |reason: &str| EngineError {
            spec: spec.to_string(),
            reason: reason.to_string(),
        };
        let (kind, limit) = match spec.split_once(':') {
            Some((k, l)) => (k, Some(l)),
            None => (spec, None),
        };
        match kind {
            "random" | "ab" | "mcts" | "mcts-greedy" => {}
            "uci" | "usi" | "xboard" => {
                return Err(fail(
                    "an external engine plays only in matches (`dagaz match … --b uci:PATH`)",
                ));
            }
            _ => return Err(fail(&format!("unknown engine '{kind}'"))),
        }
        let limit = match limit {
            None => None,
            Some(l) => Some(Limit::parse(l).map_err(|why| fail(&why))?),
        };
        match kind {
            "random" if limit.is_none() => Ok(Engine::Random),
            "random" => Err(fail("the random mover takes no limit")),
            "ab" => Ok(Engine::AlphaBeta(
                limit.unwrap_or(Limit::Time(Duration::from_secs(1))),
            )),
            // "mcts" or "mcts-greedy", the kinds left.
            _ => Ok(Engine::Mcts {
                limit: limit.unwrap_or(Limit::Time(Duration::from_secs(1))),
                greedy: kind == "mcts-greedy",
            }),
        }
    }
}

impl Limit {
    /// Reads `1s`, `200ms`, `d8` or `5000n`; the error says what is
    /// wrong and what is allowed.
    pub fn parse(text: &str) -> Result<Limit, String> {
        const TIME: &str = "a time is more than 0 and under 1000000 s (1s, 0.5s, 200ms)";
        let time = |secs: Option<f64>| {
            secs.filter(|v| v.is_finite() && *v > 0.0 && *v < 1e6)
                .map(|v| Limit::Time(Duration::from_secs_f64(v)))
                .ok_or_else(|| format!("'{text}': {TIME}"))
        };
        if let Some(ms) = text.strip_suffix("ms") {
            return time(ms.parse::<u64>().ok().map(|v| v as f64 / 1000.0));
        }
        if let Some(s) = text.strip_suffix('s') {
            return time(s.parse::<f64>().ok());
        }
        if let Some(d) = text.strip_prefix('d') {
            return d
                .parse::<u32>()
                .ok()
                .filter(|d| (1..=64).contains(d))
                .map(Limit::Depth)
                .ok_or_else(|| format!("'{text}': a depth is d1 to d64"));
        }
        if let Some(n) = text.strip_suffix('n') {
            return n
                .parse::<u64>()
                .ok()
                .filter(|n| *n > 0)
                .map(Limit::Nodes)
                .ok_or_else(|| {
                    format!("'{text}': a node count is a whole number above 0 (5000n)")
                });
        }
        Err(format!(
            "unknown limit '{text}': a time (1s, 200ms), a depth (d8) or a node count (5000n)"
        ))
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Time(d) | Limit::Clock(d) if d.subsec_millis() != 0 || d.as_secs() == 0 => {
                write!(f, "{}ms", d.as_millis())
            }
            Limit::Time(d) | Limit::Clock(d) => write!(f, "{}s", d.as_secs()),
            Limit::Depth(d) => write!(f, "d{d}"),
            Limit::Nodes(n) => write!(f, "{n}n"),
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Engine::Random => write!(f, "random"),
            Engine::AlphaBeta(l) => write!(f, "ab:{l}"),
            Engine::Mcts {
                limit,
                greedy: false,
            } => write!(f, "mcts:{limit}"),
            Engine::Mcts {
                limit,
                greedy: true,
            } => write!(f, "mcts-greedy:{limit}"),
        }
    }
}

/// Bounds a search obeys besides its engine's own limit, and a switch to
/// stop it from another thread. A server gives every search from the
/// network a time and a node bound, and stops searches that are no longer
/// wanted; the best move found so far is then returned.
#[derive(Clone, Debug, Default)]
pub struct Control {
    /// Set from another thread to stop the search at once.
    pub stop: Arc<AtomicBool>,
    /// Never think longer than this.
    pub max_time: Option<Duration>,
    /// Never visit more positions (alpha-beta) or run more playouts (MCTS).
    pub max_nodes: Option<u64>,
    /// Threads the alpha-beta search may use (0 or 1: one).
    pub threads: usize,
    /// Never search deeper than this (alpha-beta): a depth cap on a search
    /// bounded by time, as XBoard's `sd` with a clock.
    pub max_depth: Option<u32>,
    /// Only these moves at the root (alpha-beta; UCI's `go searchmoves`):
    /// the legal ones among them, or every legal move if none is.
    pub root_moves: Option<Vec<Move>>,
}

impl Control {
    /// No bounds and no stop switch.
    pub fn unbounded() -> Control {
        Control::default()
    }

    /// Bounded by time and nodes.
    pub fn bounded(max_time: Duration, max_nodes: u64) -> Control {
        Control {
            stop: Arc::new(AtomicBool::new(false)),
            max_time: Some(max_time),
            max_nodes: Some(max_nodes),
            threads: 1,
            max_depth: None,
            root_moves: None,
        }
    }

    /// True once the stop switch is set.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// When the search must end at the latest, if it started at `started`
    /// with `limit`.
    fn deadline(&self, started: Instant, limit: Limit) -> Option<Instant> {
        let own = match limit {
            Limit::Time(t) | Limit::Clock(t) => Some(t),
            _ => None,
        };
        let bound = match (own, self.max_time) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        bound.map(|t| started + t)
    }

    /// The node (or playout) budget with `limit`.
    fn node_budget(&self, limit: Limit) -> Option<u64> {
        let own = match limit {
            Limit::Nodes(n) => Some(n),
            _ => None,
        };
        match (own, self.max_nodes) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// What an engine decided.
#[derive(Clone, Debug)]
pub struct Choice {
    pub mv: Move,
    /// Score from the mover's point of view (centipawn-like; mates near
    /// ±[`search::WIN`]), if the engine computes one.
    pub score: Option<i32>,
    /// Depth of the last completed iteration (alpha-beta).
    pub depth: u32,
    /// Principal variation, starting with `mv`.
    pub pv: Vec<Move>,
    /// Positions visited (alpha-beta) or playouts (MCTS).
    pub nodes: u64,
}

/// Lets `engine` choose a move for the side to move; `None` if there is no
/// legal move.
pub fn choose(
    game: &Game,
    pos: &mut Position,
    engine: Engine,
    rng: &mut StdRng,
) -> Result<Option<Choice>, GenError> {
    choose_within(game, pos, engine, rng, &Control::unbounded())
}

/// [`choose`] within the bounds of `control`.
pub fn choose_within(
    game: &Game,
    pos: &mut Position,
    engine: Engine,
    rng: &mut StdRng,
    control: &Control,
) -> Result<Option<Choice>, GenError> {
    match engine {
        Engine::Random => {
            let mut list = MoveList::new();
            Generator::new().moves_of_side(game, pos, &mut list)?;
            if list.is_empty() {
                return Ok(None);
            }
            let mv = list.get(rng.random_range(0..list.len())).to_owned();
            Ok(Some(Choice {
                pv: vec![mv.clone()],
                mv,
                score: None,
                depth: 0,
                nodes: 1,
            }))
        }
        Engine::AlphaBeta(limit) => search::Searcher::new(game, limit)
            .with_control(control.clone())
            .best(pos),
        Engine::Mcts { limit, greedy } => mcts::Mcts::new(game, limit, greedy, rng)
            .with_control(control.clone())
            .best(pos),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs() {
        assert_eq!("random".parse::<Engine>(), Ok(Engine::Random));
        assert_eq!(
            "ab:d4".parse::<Engine>(),
            Ok(Engine::AlphaBeta(Limit::Depth(4)))
        );
        assert_eq!(
            "ab:0.2s".parse::<Engine>(),
            Ok(Engine::AlphaBeta(Limit::Time(Duration::from_millis(200))))
        );
        assert_eq!(
            "mcts-greedy:500n".parse::<Engine>(),
            Ok(Engine::Mcts {
                limit: Limit::Nodes(500),
                greedy: true
            })
        );
        for bad in [
            "",
            "ab:",
            "ab:fast",
            "alpha:1s",
            "random:1s",
            "ab:d0",
            "ab:-1s",
            "mcts:0n",
        ] {
            assert!(bad.parse::<Engine>().is_err(), "{bad}");
        }
        // The error says what is allowed.
        let why = |spec: &str| spec.parse::<Engine>().unwrap_err().reason;
        assert!(why("ab:d100").contains("d1 to d64"), "{}", why("ab:d100"));
        assert!(why("ab:0s").contains("more than 0"), "{}", why("ab:0s"));
        assert!(why("ab:0n").contains("above 0"), "{}", why("ab:0n"));
        assert_eq!(
            "ab:200ms".parse::<Engine>().unwrap().to_string(),
            "ab:200ms"
        );
        assert_eq!("mcts:2s".parse::<Engine>().unwrap().to_string(), "mcts:2s");
    }
}
