//! Kalah and Oware on heap boards: sowing, captures, the extra turn,
//! Oware's lap rule, grand slam and feeding, and the scoring at the end —
//! each on a position whose outcome follows from the rules
//! (docs/games.md) — and random games that keep every seed.

use crate::common;

use common::{moves, v};
use dagaz::game::{Game, GameResult};
use dagaz::load::load_game;
use dagaz::movegen::Generator;
use dagaz::position::MoveList;
use dagaz::text::movetext;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Plays `text` in `fen` and returns the position after it.
fn after(game: &Game, fen: &str, text: &str) -> String {
    let mut pos = game.parse_position(fen).unwrap();
    let mut list = MoveList::new();
    Generator::new().legal(game, &mut pos, &mut list).unwrap();
    let i = movetext::find(game, &list, text).unwrap();
    game.make(&mut pos, list.get(i));
    game.write_position(&pos)
}

fn result(game: &Game, fen: &str) -> Option<GameResult> {
    let mut pos = game.parse_position(fen).unwrap();
    Generator::new().result(game, &mut pos).unwrap()
}

#[test]
fn kalah_opening_and_the_extra_turn() {
    let game = load_game("kalah").unwrap();
    let start = game.write_position(&game.initial_position());
    assert_eq!(start, "0,4,4,4,4,4,4/4,4,4,4,4,4,0 s");
    assert_eq!(
        moves(&game, &start),
        v(&["b1", "c1", "d1", "e1", "f1", "g1"])
    );
    // d1's four seeds end in South's store: South moves again.
    assert_eq!(after(&game, &start, "d1"), "0,4,4,4,4,4,4/4,4,0,5,5,5,1 s");
    // e1's end in North's row: North's turn.
    assert_eq!(after(&game, &start, "e1"), "0,4,4,4,4,4,5/4,4,4,0,5,5,1 n");
    // North sows through its own store a2 and past South's h1.
    assert_eq!(
        after(&game, "0,0,0,0,0,0,9/0,0,0,0,0,0,0 n", "g2"),
        "1,1,1,1,1,1,0/1,1,1,0,0,0,0 n".replace(" n", " s").as_str()
    );
}

#[test]
fn kalah_capture_across() {
    let game = load_game("kalah").unwrap();
    // b1's seed lands in South's empty c1; c1 and the 7 across in c2 go
    // to South's store.
    assert_eq!(
        after(&game, "0,0,7,0,0,0,1/1,0,0,0,0,0,0 s", "b1"),
        "0,0,0,0,0,0,1/0,0,0,0,0,0,8 n"
    );
    // Nothing across: no capture (Ludii).
    assert_eq!(
        after(&game, "0,0,0,0,0,0,1/1,0,0,0,0,0,0 s", "b1"),
        "0,0,0,0,0,0,1/0,1,0,0,0,0,0 n"
    );
}

#[test]
fn kalah_ends_when_the_side_to_move_has_no_seeds() {
    let game = load_game("kalah").unwrap();
    // South cannot move; North keeps its 12 seeds: 30 against 22.
    match result(&game, "10,0,0,0,0,0,2/0,0,0,0,0,0,30 s") {
        Some(GameResult::Win { winner: 0, reason }) => {
            assert!(reason.contains("South 30, North 12"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(result(&game, "0,4,4,4,4,4,4/4,4,4,4,4,4,0 s"), None);
    // North cannot move; South's 2 seeds go to South: 22 each.
    match result(&game, "22,0,0,0,0,0,0/2,0,0,0,0,0,20 n") {
        Some(GameResult::Draw { reason }) => {
            assert!(reason.contains("South 22, North 22"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn oware_laps_skip_the_pit_sown_from() {
    let game = load_game("oware").unwrap();
    // Twelve seeds from b1: eleven go round, the twelfth skips b1 for c1.
    assert_eq!(
        after(&game, "0,0,0,0,0,0,1/12,0,0,0,0,0,0 s", "b1"),
        "0,1,1,1,1,1,2/0,2,1,1,1,1,0 n"
    );
}

#[test]
fn oware_captures_twos_and_threes_backwards() {
    let game = load_game("oware").unwrap();
    // f1 sows g1, g2, f2: f2 holds 3 and g2 before it 2: both are taken.
    assert_eq!(
        after(&game, "0,1,1,1,1,2,1/0,0,0,0,3,0,0 s", "f1"),
        "0,1,1,1,1,0,0/0,0,0,0,0,1,5 n"
    );
    // The pit before holds 4 after the sowing: only the last pit is taken.
    assert_eq!(
        after(&game, "0,1,1,1,1,1,3/0,0,0,0,3,0,0 s", "f1"),
        "0,1,1,1,1,0,4/0,0,0,0,0,1,2 n"
    );
    // The last seed makes 4: nothing is taken.
    assert_eq!(
        after(&game, "0,1,1,1,1,3,1/0,0,0,0,3,0,0 s", "f1"),
        "0,1,1,1,1,4,2/0,0,0,0,0,1,0 n"
    );
}

#[test]
fn oware_grand_slam_and_feeding() {
    let game = load_game("oware").unwrap();
    // f1 would take all of North's seeds: allowed, capturing nothing.
    let fen = "0,0,0,0,0,2,1/1,0,0,0,3,0,0 s";
    assert_eq!(after(&game, fen, "f1"), "0,0,0,0,0,3,2/1,0,0,0,0,1,0 n");
    let strict = load_game("oware:grand-slam-illegal").unwrap();
    assert_eq!(moves(&strict, fen), v(&["b1"]));
    // North has nothing: South must sow into North's row.
    assert_eq!(moves(&game, "0,0,0,0,0,0,0/1,0,0,0,0,1,0 s"), v(&["g1"]));
    let free = load_game("oware:no-feeding").unwrap();
    assert_eq!(
        moves(&free, "0,0,0,0,0,0,0/1,0,0,0,0,1,0 s"),
        v(&["b1", "g1"])
    );
}

#[test]
fn oware_is_won_with_25_seeds() {
    let game = load_game("oware").unwrap();
    match result(&game, "3,2,2,2,2,2,2/2,2,1,1,1,1,25 n") {
        Some(GameResult::Win { winner: 0, .. }) => {}
        other => panic!("{other:?}"),
    }
}

/// Random games end, and no seed is ever created or lost.
#[test]
fn random_games_keep_every_seed() {
    for name in ["kalah", "oware", "oware:grand-slam-illegal"] {
        let game = load_game(name).unwrap();
        let mut rng = StdRng::seed_from_u64(7);
        let mut generator = Generator::new();
        let mut list = MoveList::new();
        for _ in 0..50 {
            let mut pos = game.initial_position();
            let mut plies = 0;
            loop {
                let total: u32 = game.topology.squares().map(|s| pos.cell(s).0 as u32).sum();
                assert_eq!(total, 48, "{name}: {}", game.write_position(&pos));
                if generator.result(&game, &mut pos).unwrap().is_some() {
                    break;
                }
                generator.legal(&game, &mut pos, &mut list).unwrap();
                let i = rng.random_range(0..list.len());
                game.make(&mut pos, list.get(i));
                plies += 1;
                assert!(plies < 2000, "{name}: the game does not end");
            }
        }
    }
}
