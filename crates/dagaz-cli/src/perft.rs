//! `dagaz perft`: the count split at the first move over threads, with a
//! progress bar on a terminal once a run takes more than a second.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use dagaz::game::Game;
use dagaz::movegen::{Generator, perft_with};
use dagaz::position::{Move, MoveList, Position};
use dagaz::text::movetext;

/// How the generator counts (the draughts and chu shogi conventions).
#[derive(Clone, Copy, Debug, Default)]
pub struct Counting {
    pub keep_duplicates: bool,
    pub keep_landings: bool,
}

impl Counting {
    fn generator(self) -> Generator {
        let mut g = Generator::new();
        g.keep_distinct_paths(self.keep_duplicates);
        if self.keep_landings {
            g.keep_distinct_landings(true);
        }
        g
    }
}

/// The most threads `--threads` may ask for.
pub const MAX_THREADS: usize = 64;

/// Each legal first move's text with the leaves below it (to `depth` in
/// all), counted by up to `threads` threads taking first moves in turn;
/// sorted by move text.
pub fn divide(
    game: &Game,
    pos: &Position,
    depth: u32,
    threads: usize,
    counting: Counting,
) -> Result<Vec<(String, u64)>, String> {
    let mut root = MoveList::new();
    counting
        .generator()
        .legal(game, &mut pos.clone(), &mut root)
        .map_err(|e| e.to_string())?;
    let texts = movetext::texts(game, &root);
    let moves: Vec<Move> = root.to_vec();
    let counts: Mutex<Vec<Option<u64>>> = Mutex::new(vec![None; moves.len()]);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let next = AtomicUsize::new(0);
    let bar = progress(moves.len());
    let started = Instant::now();
    let threads = threads.clamp(1, MAX_THREADS).min(moves.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut pos = pos.clone();
                let mut generator = counting.generator();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(mv) = moves.get(i) else { break };
                    game.make(&mut pos, mv.as_ref());
                    let n = perft_with(game, &mut pos, depth.saturating_sub(1), &mut generator);
                    game.undo(&mut pos, mv.as_ref());
                    match n {
                        Ok(n) => {
                            if let Ok(mut c) = counts.lock() {
                                c[i] = Some(n);
                            }
                        }
                        Err(e) => {
                            if let Ok(mut f) = failure.lock() {
                                f.get_or_insert(e.to_string());
                            }
                            break;
                        }
                    }
                    show_after_a_second(&bar, started);
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let counts = counts.into_inner().map_err(|e| e.to_string())?;
    let mut rows: Vec<(String, u64)> = texts
        .into_iter()
        .zip(counts.into_iter().map(|c| c.unwrap_or(0)))
        .collect();
    rows.sort();
    Ok(rows)
}

/// A bar over the first moves, drawn on stderr only when it is a terminal,
/// and only once the run has taken a second.
fn progress(len: usize) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::hidden());
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} first moves, {elapsed} elapsed, {eta} left",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

fn show_after_a_second(bar: &ProgressBar, started: Instant) {
    if bar.is_hidden() && started.elapsed() > Duration::from_secs(1) {
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dagaz::load::library::load_game;

    #[test]
    fn threads_count_what_one_thread_counts() {
        // chessprogramming.org's "position 3" at depth 4: 43 238.
        let game = load_game("chess").unwrap();
        let pos = game
            .parse_position("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1")
            .unwrap();
        for threads in [1, 3] {
            let rows = divide(&game, &pos, 4, threads, Counting::default()).unwrap();
            assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), 43_238);
            assert!(rows.windows(2).all(|w| w[0].0 <= w[1].0));
        }
    }
}
