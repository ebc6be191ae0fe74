//! `dagaz match`: two engines play a series of games with alternating
//! colours; a progress bar, running results, the Elo difference with its
//! margin, and optionally the game records. Either engine may be an
//! external program (`external`).

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;

use indicatif::{ProgressBar, ProgressStyle};

use dagaz::ai::Engine;
use dagaz::ai::arena::{GameSetup, Player, Record, Tally, play_between, write_record};
use dagaz::game::{Game, GameResult};

use crate::external::{External, ExternalSpec};

/// One side of a match: a built-in engine or an external program.
#[derive(Clone, Debug)]
pub enum Contender {
    Builtin(Engine),
    External(ExternalSpec),
}

impl Contender {
    /// Reads an engine spec: `ab:1s`, `mcts:5000n`, `random`, or
    /// `uci:PATH…`/`usi:PATH…` (see `external`).
    pub fn parse(spec: &str) -> Result<Contender, String> {
        match ExternalSpec::parse(spec) {
            Some(external) => external.map(Contender::External),
            None => spec
                .parse()
                .map(Contender::Builtin)
                .map_err(|e: dagaz::ai::EngineError| e.to_string()),
        }
    }

    fn name(&self) -> String {
        match self {
            Contender::Builtin(e) => e.to_string(),
            Contender::External(x) => x.name(),
        }
    }

    /// A player for one worker thread (an external program is started
    /// once per thread and plays all of its games).
    fn player(&self, game: &str) -> Result<Box<dyn Player>, String> {
        Ok(match self {
            Contender::Builtin(e) => Box::new(*e),
            Contender::External(x) => Box::new(External::start(x, game)?),
        })
    }
}

/// The settings of a match.
pub struct MatchSpec {
    /// The name the game was loaded by (external engines are told it).
    pub game_name: String,
    pub a: Contender,
    pub b: Contender,
    pub games: u32,
    pub threads: usize,
    pub seed: u64,
    pub openings: usize,
    pub max_plies: usize,
    pub save: Option<std::path::PathBuf>,
}

/// Runs the match and prints its results.
pub fn run(game: &Arc<Game>, spec: &MatchSpec) -> Result<(), String> {
    if let Some(path) = &spec.save {
        // Found out before the games are played, not after.
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let bar = ProgressBar::new(spec.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} elapsed, {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let next = AtomicU32::new(0);
    let (tx, rx) = mpsc::channel::<Result<(u32, Record), String>>();
    let mut tally = Tally::default();
    let mut records: Vec<(u32, Record)> = Vec::new();
    let mut forfeits = 0u32;
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..spec.threads.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let players = spec
                    .a
                    .player(&spec.game_name)
                    .and_then(|a| Ok((a, spec.b.player(&spec.game_name)?)));
                let (mut a, mut b) = match players {
                    Ok(p) => p,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= spec.games {
                        return;
                    }
                    let a_first = i.is_multiple_of(2);
                    let setup = GameSetup {
                        engines: [Engine::Random; 2],
                        opening_plies: spec.openings,
                        max_plies: spec.max_plies,
                        seed: spec.seed.wrapping_mul(1_000_003).wrapping_add(i as u64),
                        // Games 2k and 2k + 1 (the colours swapped) share
                        // a shuffled start.
                        start_seed: game
                            .shuffles()
                            .then(|| spec.seed.wrapping_mul(7_919).wrapping_add((i / 2) as u64)),
                    };
                    let mut players: [&mut dyn Player; 2] = if a_first {
                        [a.as_mut(), b.as_mut()]
                    } else {
                        [b.as_mut(), a.as_mut()]
                    };
                    let result = play_between(game, &mut players, &setup)
                        .map(|r| (i, r))
                        .map_err(|e| e.to_string());
                    let failed = result.is_err();
                    if tx.send(result).is_err() || failed {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for received in rx {
            let (i, record) = received?;
            let a_first = i.is_multiple_of(2);
            match &record.result {
                // With more than two players A and B take the seats in
                // turn: the winner's seat tells whose side won.
                GameResult::Win { winner, .. } if (*winner % 2 == 0) == a_first => tally.a += 1,
                GameResult::Win { .. } => tally.b += 1,
                GameResult::Draw { .. } => tally.draws += 1,
            }
            if let Some(why) = &record.forfeit {
                forfeits += 1;
                bar.suspend(|| say!("game {} forfeited: {why}", i + 1));
            }
            bar.inc(1);
            bar.suspend(|| {
                say!(
                    "after game {} of {}: A {} wins, B {}, draws {}",
                    tally.games(),
                    spec.games,
                    tally.a,
                    tally.b,
                    tally.draws
                )
            });
            records.push((i, record));
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    let (elo, margin) = tally.elo();
    say!(
        "A = {}, B = {}, game {}",
        spec.a.name(),
        spec.b.name(),
        game.name
    );
    say!(
        "result: A {} wins, B {} wins, {} draws; A scores {:.1}%",
        tally.a,
        tally.b,
        tally.draws,
        tally.score() * 100.0
    );
    if forfeits > 0 {
        say!(
            "{forfeits} of the {} games were forfeited by an illegal move (see above)",
            tally.games()
        );
    }
    if elo.is_finite() {
        say!("Elo difference of A over B: {elo:+.0} ± {margin:.0} (95%)");
    } else {
        say!(
            "Elo difference of A over B: {} (one side won every decided game)",
            if elo > 0.0 { "+inf" } else { "-inf" }
        );
    }
    if let Some(path) = &spec.save {
        records.sort_by_key(|(i, _)| *i);
        let names = [spec.a.name(), spec.b.name()];
        let mut text = String::new();
        for (i, r) in &records {
            let names = [names[0].as_str(), names[1].as_str()];
            text += &write_record(game, r, i % 2 == 0, names, i + 1).map_err(|e| e.to_string())?;
            text.push('\n');
        }
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        // The game decides the format, whatever the file is called.
        let format = dagaz::record::Format::of(game).extension();
        let named = path.extension().and_then(|e| e.to_str());
        let note = match named {
            Some(e) if e.eq_ignore_ascii_case(format) => String::new(),
            _ => format!(
                " (as {}, {}'s record format)",
                format.to_uppercase(),
                game.title
            ),
        };
        say!("games saved to {}{note}", path.display());
    }
    Ok(())
}
