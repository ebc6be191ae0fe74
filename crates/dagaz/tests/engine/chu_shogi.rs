//! Chu shogi against lishogi (its `shogiops` library): perft counts from
//! its test suite (`tests/data/chu-shogi-perft.tsv`: the start position,
//! lone Lion-powered pieces, and 42 positions from random games with their
//! legal move counts), and its rule tests turned into exact move lists.
//!
//! lishogi counts a Lion's double move as its own move even when a single
//! move has the same effect (7g-7f-7g is not 7g7g); dagaz keeps those
//! apart when asked to (`keep_distinct_landings`, `perft --keep-landings`),
//! which is how the counts are compared.

use crate::common;

use common::{moves, position};
use dagaz::game::Game;
use dagaz::load::load_game;
use dagaz::movegen::{Generator, perft_with};

fn chu() -> Game {
    load_game("chu-shogi").unwrap()
}

#[test]
fn lishogi_perft_counts() {
    let game = chu();
    let text = include_str!("../data/chu-shogi-perft.tsv");
    let mut checked = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        assert!(
            f.len() >= 4 && !f[3].is_empty(),
            "row without a source: {line}"
        );
        let fen = if f[0] == "startpos" {
            game.write_position(&game.initial_position())
        } else {
            f[0].to_string()
        };
        let (depth, nodes): (u32, u64) = (f[1].parse().unwrap(), f[2].parse().unwrap());
        let mut pos = position(&game, &fen);
        let mut generator = Generator::new();
        generator.keep_distinct_landings(true);
        let got = perft_with(&game, &mut pos, depth, &mut generator).unwrap();
        assert_eq!(got, nodes, "{fen} depth {depth}");
        checked += 1;
    }
    assert_eq!(checked, 52);
}

/// The moves of the piece on `from`.
fn from(fen: &str, from: &str) -> Vec<String> {
    common::moves_from(&chu(), fen, from)
}

fn has(list: &[String], m: &str) -> bool {
    list.iter().any(|x| x == m)
}

#[test]
fn lion_igui_double_capture_and_pass() {
    // Black Lion on 8f, a White Pawn on 8g in front, a White Lion on 8h
    // behind it (lishogi's "pos5").
    let list = from("12/12/12/12/12/4N7/4p7/4n7/12/12/12/12 b", "8f");
    // Igui: take the Pawn and stay; take it and step on.
    assert!(has(&list, "8fx8gx8f"), "{list:?}");
    assert!(has(&list, "8fx8gx7h"), "{list:?}");
    // A pass over an empty neighbour.
    assert!(has(&list, "8f-8e-8f"), "{list:?}");
    // The Lion on 8h is two squares away and protected by the Pawn: not by
    // a jump, nor through the Pawn (a Pawn is no bridge).
    assert!(!has(&list, "8f8h"), "{list:?}");
    assert!(!has(&list, "8fx8gx8h"), "{list:?}");
    // No pass without an empty neighbour: boxed in by its own Pawns.
    let boxed = from("12/12/12/12/4PPP5/4PNP5/4PPP5/12/12/12/12/12 b", "7f");
    assert!(!boxed.iter().any(|m| m.ends_with("7f")), "{boxed:?}");
}

#[test]
fn lion_trading_needs_a_bridge_for_a_protected_lion() {
    // lishogi's "pos6": Black Lion 6g; the White Lion on 4i is protected by
    // the Silver on 5h, the promoted Kirin on 6e by the Rook; a Go-Between
    // stands on 7f.
    let list = from("12/12/12/12/6+o1r3/4gi6/6N5/7s4/8n3/12/12/12 b", "6g");
    assert!(!has(&list, "6g4i"), "{list:?}");
    assert!(
        has(&list, "6gx5hx4i"),
        "taking the Silver is a bridge: {list:?}"
    );
    assert!(!list.iter().any(|m| m.ends_with("6e")), "{list:?}");
    assert!(has(&list, "6g7f"), "{list:?}");
    assert!(has(&list, "6gx7fx8f"), "{list:?}");
}

#[test]
fn counter_strike_after_a_lion_is_taken_by_a_non_lion() {
    let game = chu();
    let start = "12/12/12/12/12/4r7/12/12/5o3n1n/4N6P/12/6B5 w - 1";
    // The Rook takes the Lion on 8j: Black's Bishop may take the Rook back
    // but not the Lion on 3i.
    let mut pos = position(&game, start);
    common::play(&game, &mut pos, "8f8j");
    let after = game.write_position(&pos);
    assert!(after.contains(" b 8j "), "{after}");
    let list = common::moves_in(&game, &mut pos);
    assert!(has(&list, "6l8j"), "{list:?}");
    assert!(!has(&list, "6l3i"), "{list:?}");
    // The Kirin takes the Lion and promotes (it becomes a Lion): taking it
    // back is allowed, the other Lion is not.
    let mut pos = position(&game, start);
    common::play(&game, &mut pos, "7i8j+");
    let list = common::moves_in(&game, &mut pos);
    assert!(has(&list, "6l8j"), "{list:?}");
    assert!(!has(&list, "6l3i"), "{list:?}");
    // A Lion's own move that takes nothing: the Bishop may take the Lion.
    let mut pos = position(&game, start);
    common::play(&game, &mut pos, "3i-3j-3i");
    let list = common::moves_in(&game, &mut pos);
    assert!(has(&list, "6l3i"), "{list:?}");
    // The third field of the position string carries the rule.
    let list = moves(&game, "11k/12/12/12/12/4r7/12/12/9n2/4+o7/12/6B4K b 8j");
    assert!(has(&list, "6l8j") && !has(&list, "6l3i"), "{list:?}");
}

#[test]
fn promotion_on_entering_or_capturing_in_the_zone() {
    // lishogi's "valid promotions" position.
    let fen = "10p1/2I1pP2p1LL/1Rp1PB2LL2/12/7L4/1p10/12/12/11k/12/11K/12 b - 1";
    let list = moves(&chu(), fen);
    // A capture inside the zone may promote.
    assert!(has(&list, "7c8b+") && has(&list, "7c8b"), "{list:?}");
    // A quiet move inside the zone may not.
    assert!(!has(&list, "7c6b+") && has(&list, "7c6b"), "{list:?}");
    // A Pawn reaching the last rank may.
    assert!(has(&list, "7b7a+") && has(&list, "7b7a"), "{list:?}");
    // Entering the zone.
    assert!(has(&list, "5e5c+") && has(&list, "5e5c"), "{list:?}");
    // A capture leaving the zone.
    assert!(has(&list, "11c11f+") && has(&list, "11c11f"), "{list:?}");
}

#[test]
fn losing_every_royal_piece_loses() {
    let game = chu();
    let mut generator = Generator::new();
    // White's King is gone, Black's is on the board: Black has won.
    let mut pos = position(&game, "12/12/12/12/12/12/12/12/12/12/6K5/12 w - 1");
    let result = generator.result(&game, &mut pos).unwrap();
    assert!(format!("{result:?}").contains("winner: 0"), "{result:?}");
    // A Crown Prince keeps its side alive.
    let mut pos = position(&game, "12/12/4+e7/12/12/12/12/12/12/12/6K5/12 w - 1");
    assert_eq!(generator.result(&game, &mut pos).unwrap(), None);
}
