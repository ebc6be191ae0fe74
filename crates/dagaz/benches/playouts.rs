//! Random playouts in chess, to the end of the game (checkmate, stalemate,
//! or the 50-move rule), in games per second: dagaz beside the `cozy-chess`
//! crate in the same run. Run with `cargo bench --bench playouts`.
//!
//! dagaz plays them twice: listing every legal move each ply and picking
//! one (what the cozy-chess loop does), and with
//! `Generator::random_legal`, which tries the pseudo-legal moves in a
//! random order until one is legal (what MCTS playouts use).

use std::time::Instant;

use dagaz::game::Game;
use dagaz::load::load_game;
use dagaz::movegen::Generator;
use dagaz::position::MoveList;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const GAMES: u64 = 300;

/// Plays `GAMES` random games; returns (plies, seconds).
fn dagaz_playouts(game: &Game, full_list: bool) -> (u64, f64) {
    let mut generator = Generator::new();
    let mut list = MoveList::new();
    let mut rng = StdRng::seed_from_u64(7);
    let t = Instant::now();
    let mut plies = 0u64;
    for _ in 0..GAMES {
        let mut pos = game.initial_position();
        while pos.clock() < 100 {
            let chosen = if full_list {
                generator
                    .legal(game, &mut pos, &mut list)
                    .expect("generation");
                (!list.is_empty()).then(|| rng.random_range(0..list.len()))
            } else {
                generator
                    .random_legal(game, &mut pos, &mut rng, &mut list)
                    .expect("generation")
            };
            let Some(i) = chosen else { break };
            game.make(&mut pos, list.get(i));
            plies += 1;
        }
    }
    (plies, t.elapsed().as_secs_f64())
}

fn cozy_playouts() -> (u64, f64) {
    let mut rng = StdRng::seed_from_u64(7);
    let t = Instant::now();
    let mut plies = 0u64;
    for _ in 0..GAMES {
        let mut board = cozy_chess::Board::default();
        loop {
            let mut moves = Vec::new();
            board.generate_moves(|m| {
                moves.extend(m);
                false
            });
            if moves.is_empty() || board.halfmove_clock() >= 100 {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            board.play_unchecked(mv);
            plies += 1;
        }
    }
    (plies, t.elapsed().as_secs_f64())
}

fn main() {
    let game = load_game("chess").expect("chess loads");
    let full = dagaz_playouts(&game, true);
    let random = dagaz_playouts(&game, false);
    let cozy = cozy_playouts();
    println!(
        "{:<22} {:>8} {:>10} {:>10} {:>12}",
        "engine", "games", "plies", "games/s", "cozy faster"
    );
    for (name, (plies, secs)) in [
        ("dagaz (full list)", full),
        ("dagaz (random_legal)", random),
        ("cozy", cozy),
    ] {
        println!(
            "{name:<22} {GAMES:>8} {plies:>10} {:>10.1} {:>12.1}",
            GAMES as f64 / secs,
            secs / cozy.1
        );
    }
}
