//! `dagaz match`: two engines play a series of games with alternating
//! colours; a progress bar, running results, the Elo difference with its
//! margin, and optionally the game records.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;

use indicatif::{ProgressBar, ProgressStyle};

use dagaz::ai::Engine;
use dagaz::ai::arena::{GameSetup, Record, Tally, play_game, write_record};
use dagaz::game::{Game, GameResult};

/// The settings of a match.
pub struct MatchSpec {
    pub a: Engine,
    pub b: Engine,
    pub games: u32,
    pub threads: usize,
    pub seed: u64,
    pub openings: usize,
    pub max_plies: usize,
    pub save: Option<std::path::PathBuf>,
}

/// Runs the match and prints its results.
pub fn run(game: &Arc<Game>, spec: &MatchSpec) -> Result<(), String> {
    if game.players.len() != 2 {
        return Err(format!(
            "matches need a two-player game; {} has {}",
            game.name,
            game.players.len()
        ));
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
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..spec.threads.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= spec.games {
                        return;
                    }
                    let a_first = i.is_multiple_of(2);
                    let setup = GameSetup {
                        engines: if a_first {
                            [spec.a, spec.b]
                        } else {
                            [spec.b, spec.a]
                        },
                        opening_plies: spec.openings,
                        max_plies: spec.max_plies,
                        seed: spec.seed.wrapping_mul(1_000_003).wrapping_add(i as u64),
                    };
                    let result = play_game(game, &setup)
                        .map(|r| (i, r))
                        .map_err(|e| e.to_string());
                    if tx.send(result).is_err() {
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
                GameResult::Win { winner, .. } if (*winner == 0) == a_first => tally.a += 1,
                GameResult::Win { .. } => tally.b += 1,
                GameResult::Draw { .. } => tally.draws += 1,
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
    say!("A = {}, B = {}, game {}", spec.a, spec.b, game.name);
    say!(
        "result: A {} wins, B {} wins, {} draws; A scores {:.1}%",
        tally.a,
        tally.b,
        tally.draws,
        tally.score() * 100.0
    );
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
        let names = [spec.a.to_string(), spec.b.to_string()];
        let text: String = records
            .iter()
            .map(|(i, r)| write_record(game, r, i % 2 == 0, [&names[0], &names[1]], i + 1))
            .collect();
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        say!("games saved to {}", path.display());
    }
    Ok(())
}
