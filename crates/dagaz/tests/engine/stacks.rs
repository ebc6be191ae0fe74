//! Lasca and Bashni on stack boards: first moves, captures that take only
//! the top of a column and put it under the capturing column, the ban on
//! jumping the same column straight back, promotion in mid-capture, and
//! random games in which no piece is ever created or lost.

use crate::common;

use common::{moves, v};
use dagaz::game::Game;
use dagaz::load::load_game;
use dagaz::movegen::Generator;
use dagaz::position::MoveList;
use dagaz::position::Position;
use dagaz::text::movetext;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn after(game: &Game, fen: &str, text: &str) -> String {
    let mut pos = game.parse_position(fen).unwrap();
    let mut list = MoveList::new();
    Generator::new().legal(game, &mut pos, &mut list).unwrap();
    let i = movetext::find(game, &list, text).unwrap();
    game.make(&mut pos, list.get(i));
    game.write_position(&pos)
}

/// Every piece on the board, tops and the pieces under them.
fn pieces(game: &Game, pos: &Position) -> usize {
    game.topology
        .squares()
        .filter(|sq| !pos.cell(*sq).is_empty())
        .map(|sq| 1 + game.below(pos, sq).count())
        .sum()
}

#[test]
fn first_moves() {
    let lasca = load_game("lasca").unwrap();
    let start = lasca.write_position(&lasca.initial_position());
    assert_eq!(
        moves(&lasca, &start),
        v(&["a3b4", "c3b4", "c3d4", "e3d4", "e3f4", "g3f4"])
    );
    let bashni = load_game("bashni").unwrap();
    let start = bashni.write_position(&bashni.initial_position());
    assert_eq!(moves(&bashni, &start).len(), 7);
}

#[test]
fn a_capture_takes_the_top_and_puts_it_under() {
    let lasca = load_game("lasca").unwrap();
    // The white soldier jumps a column of two black soldiers: it takes the
    // top one along, under itself; the other stays on b4.
    assert_eq!(
        after(&lasca, "7/7/7/1(ss)5/S6/7/7 w", "a3c5"),
        "7/7/2(Ss)4/1s5/7/7/7 b - - 0 1"
    );
    // A column moves whole and is owned by its top: the black soldier on
    // top of a white officer moves it south.
    assert_eq!(
        after(&lasca, "7/7/7/3(sO)3/7/7/7 b", "d4c3"),
        "7/7/7/7/2(sO)4/7/7 w - - 1 2"
    );
}

#[test]
fn the_same_column_is_not_jumped_straight_back() {
    let lasca = load_game("lasca").unwrap();
    // After c3xd4-e5 the column on d4 still has a black soldier; jumping
    // it back to c3 at once is not allowed, so the move ends on e5.
    assert_eq!(moves(&lasca, "7/7/7/3(ss)3/2O4/7/7 w"), v(&["c3e5"]));
    // With a plain soldier on d4 the square empties and the move ends too.
    assert_eq!(moves(&lasca, "7/7/7/3s3/2O4/7/7 w"), v(&["c3e5"]));
}

#[test]
fn bashni_promotion_in_mid_capture() {
    let bashni = load_game("bashni").unwrap();
    // b6xc7 reaches d8, becomes a king, and flies on over e7.
    let fen = "8/2m1m3/1M6/8/8/8/8/8 w";
    assert_eq!(
        moves(&bashni, fen),
        v(&["b6xd8xf6", "b6xd8xg5", "b6xd8xh4"])
    );
    assert_eq!(
        after(&bashni, fen, "b6xd8xg5"),
        "8/8/8/6(Kmm)1/8/8/8/8 b - - 0 1"
    );
    // Men capture backwards (Russian rules); in Ludii's variant they do not.
    let backwards = "8/8/8/4M3/3m4/8/8/8 w";
    assert_eq!(moves(&bashni, backwards), v(&["e5c3"]));
    let forward = load_game("bashni:forward-captures").unwrap();
    assert_eq!(moves(&forward, backwards), v(&["e5d6", "e5f6"]));
}

#[test]
fn random_games_keep_every_piece() {
    for name in ["lasca", "bashni"] {
        let game = load_game(name).unwrap();
        let mut rng = StdRng::seed_from_u64(11);
        let mut generator = Generator::new();
        let mut list = MoveList::new();
        for _ in 0..30 {
            let mut pos = game.initial_position();
            let total = pieces(&game, &pos);
            let mut played = Vec::new();
            for _ in 0..300 {
                if generator.result(&game, &mut pos).unwrap().is_some() {
                    break;
                }
                generator.legal(&game, &mut pos, &mut list).unwrap();
                let mv = list.get(rng.random_range(0..list.len())).to_owned();
                game.make(&mut pos, mv.as_ref());
                assert_eq!(
                    pieces(&game, &pos),
                    total,
                    "{name}: {}",
                    game.write_position(&pos)
                );
                played.push(mv);
            }
            // Taking every move back restores the start exactly.
            while let Some(mv) = played.pop() {
                game.undo(&mut pos, mv.as_ref());
            }
            assert_eq!(pos.hash(), game.initial_position().hash());
            assert_eq!(
                game.write_position(&pos),
                game.write_position(&game.initial_position())
            );
        }
    }
}

/// Until a capture takes a piece off a column of two, Bashni is Russian
/// draughts: the published Russian counts hold for its first five plies
/// (at six, a column built at ply 4 is jumped and the games part).
#[test]
fn bashni_counts_follow_russian_draughts_for_five_plies() {
    let bashni = load_game("bashni").unwrap();
    let published: Vec<(u32, u64)> = include_str!("../data/draughts-perft.tsv")
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| {
            f.len() > 5 && f[0] == "russian" && f[2].starts_with("W:W21,22") && f[5] == "drop"
        })
        .filter_map(|f| Some((f[3].parse().ok()?, f[4].parse().ok()?)))
        .filter(|(depth, _)| *depth <= 5)
        .collect();
    assert_eq!(published.len(), 5);
    for (depth, nodes) in published {
        let mut pos = bashni.initial_position();
        assert_eq!(
            dagaz::movegen::perft(&bashni, &mut pos, depth).unwrap(),
            nodes,
            "depth {depth}"
        );
    }
}

#[test]
fn taking_the_top_of_a_stack_of_two_enemy_kinds_is_a_capture() {
    // White's man on c3 takes the top (a man) of d4's stack, whose piece
    // below is a king of the same side: d4 is captured though its owner
    // still holds it.
    let game = load_game("lasca").unwrap();
    let mut pos = common::position(&game, "6s/7/7/3(so)3/2S4/7/7 w");
    let mut list = MoveList::new();
    Generator::new().legal(&game, &mut pos, &mut list).unwrap();
    let i = movetext::find(&game, &list, "c3e5").unwrap();
    let taken: Vec<String> = game
        .captured_squares(list.get(i))
        .into_iter()
        .map(|sq| game.topology.name(sq).to_string())
        .collect();
    assert_eq!(taken, ["d4"]);
}
