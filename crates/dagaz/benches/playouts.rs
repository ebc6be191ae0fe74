//! Random playouts in chess, to the end of the game (checkmate, stalemate,
//! or the 50-move rule), in games per second: dagaz beside the `cozy-chess`
//! crate in the same run. Run with `cargo bench --bench playouts`.

use std::time::Instant;

use dagaz::load::load_game;
use dagaz::movegen::Generator;
use dagaz::position::MoveList;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const GAMES: u64 = 300;

fn main() {
    let game = load_game("chess").expect("chess loads");
    let mut generator = Generator::new();
    let mut list = MoveList::new();
    let mut rng = StdRng::seed_from_u64(7);
    let t = Instant::now();
    let mut plies = 0u64;
    for _ in 0..GAMES {
        let mut pos = game.initial_position();
        loop {
            generator
                .legal(&game, &mut pos, &mut list)
                .expect("generation");
            if list.is_empty() || pos.clock() >= 100 {
                break;
            }
            let i = rng.random_range(0..list.len());
            game.make(&mut pos, list.get(i));
            plies += 1;
        }
    }
    let ours = t.elapsed().as_secs_f64();

    let mut rng = StdRng::seed_from_u64(7);
    let t = Instant::now();
    let mut cozy_plies = 0u64;
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
            cozy_plies += 1;
        }
    }
    let cozy = t.elapsed().as_secs_f64();
    println!(
        "{:<8} {:>10} {:>12} {:>12}",
        "engine", "games", "plies", "games/s"
    );
    println!(
        "{:<8} {:>10} {:>12} {:>12.1}",
        "dagaz",
        GAMES,
        plies,
        GAMES as f64 / ours
    );
    println!(
        "{:<8} {:>10} {:>12} {:>12.1}",
        "cozy",
        GAMES,
        cozy_plies,
        GAMES as f64 / cozy
    );
    println!("cozy / dagaz speed: {:.1}", ours / cozy);
}
