//! Perft speed of dagaz beside the `cozy-chess` crate (a hand-written
//! bitboard generator) on the same positions, in one run, single thread.
//! Both count every leaf by making the move (no bulk counting at the last
//! ply). Run with `cargo bench --bench perft` (or `scripts/bench.sh`).
//! `DAGAZ_BENCH_SCALE=0` runs each position one ply shallower.

use std::time::Instant;

use dagaz::load::load_game;
use dagaz::movegen::perft;
use dagaz::text::fen;

const POSITIONS: &[(&str, &str, u32)] = &[
    (
        "initial",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
    ),
    ("position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
    (
        "position4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        4,
    ),
    (
        "position5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        4,
    ),
    (
        "position6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        4,
    ),
];

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    board.generate_moves(|moves| {
        for mv in moves {
            let mut next = board.clone();
            next.play_unchecked(mv);
            nodes += cozy_perft(&next, depth - 1);
        }
        false
    });
    nodes
}

fn main() {
    let shallower = std::env::var("DAGAZ_BENCH_SCALE").is_ok_and(|s| s == "0");
    let game = load_game("chess").expect("chess loads");
    let setup = game.initial_position();
    println!(
        "{:<10} {:>5} {:>10} {:>12} {:>12} {:>8}",
        "position", "depth", "nodes", "dagaz n/s", "cozy n/s", "cozy/dagaz"
    );
    let (mut our_nodes, mut our_secs, mut cozy_secs) = (0u64, 0f64, 0f64);
    for &(name, text, depth) in POSITIONS {
        let depth = if shallower { depth - 1 } else { depth };
        let mut pos = fen::parse(&game, text, Some(&setup)).expect("position parses");
        let t = Instant::now();
        let ours = perft(&game, &mut pos, depth).expect("perft runs");
        let ours_time = t.elapsed().as_secs_f64();

        let board = cozy_chess::Board::from_fen(text, false).expect("cozy parses");
        let t = Instant::now();
        let theirs = cozy_perft(&board, depth);
        let theirs_time = t.elapsed().as_secs_f64();
        assert_eq!(ours, theirs, "{name}: node counts differ");

        our_nodes += ours;
        our_secs += ours_time;
        cozy_secs += theirs_time;
        println!(
            "{:<10} {:>5} {:>10} {:>12.0} {:>12.0} {:>8.1}",
            name,
            depth,
            ours,
            ours as f64 / ours_time,
            theirs as f64 / theirs_time,
            ours_time / theirs_time
        );
    }
    println!(
        "{:<10} {:>5} {:>10} {:>12.0} {:>12.0} {:>8.1}",
        "total",
        "",
        our_nodes,
        our_nodes as f64 / our_secs,
        our_nodes as f64 / cozy_secs,
        our_secs / cozy_secs
    );
    family(shallower, our_nodes as f64 / our_secs);
}

/// The other chess-family games from their setups, in the same run, with
/// their speed relative to dagaz's chess total above.
fn family(shallower: bool, chess_nps: f64) {
    println!();
    println!(
        "{:<10} {:>5} {:>10} {:>12} {:>12}",
        "game", "depth", "nodes", "dagaz n/s", "/ chess"
    );
    for (name, depth) in [
        ("xiangqi", 4),
        ("shogi", 4),
        ("janggi", 4),
        ("capablanca", 4),
        ("grand", 3),
        ("shatranj", 5),
    ] {
        let depth = if shallower { depth - 1 } else { depth };
        let game = load_game(name).expect("built-in game loads");
        let mut pos = game.initial_position();
        let t = Instant::now();
        let nodes = perft(&game, &mut pos, depth).expect("perft runs");
        let nps = nodes as f64 / t.elapsed().as_secs_f64();
        println!(
            "{:<10} {:>5} {:>10} {:>12.0} {:>12.2}",
            name,
            depth,
            nodes,
            nps,
            nps / chess_nps
        );
    }
}
