//! Shogi variants beyond lishogi's: Dai shogi's published counts and its
//! rules on positions worked out by hand; Wa shogi's first moves and rule
//! positions worked out by hand (no counts have been published).

use dagaz::load::{load_game, load_str};
use dagaz::movegen::{Generator, perft_with};

use crate::common::moves;

fn perft(game: &dagaz::game::Game, depth: u32) -> u64 {
    let mut pos = game.initial_position();
    perft_with(game, &mut pos, depth, &mut Generator::new()).unwrap() as u64
}

#[test]
fn dai_shogi_counts_as_published() {
    // mcr's tests (GitHub ywzvennu/mcr, tests/perft_dai.rs), matched there
    // against H. G. Muller's HaChu move by move.
    let game = load_game("dai-shogi").unwrap();
    assert_eq!(perft(&game, 1), 71);
    assert_eq!(perft(&game, 2), 5041);
}

#[test]
fn dai_shogi_depth_three_as_hachu_counts_it() {
    // HaChu (and so mcr: 357 836) leaves out the choice not to promote
    // when the promoted piece can make every move the piece could; dagaz
    // counts both choices (357 978). With those promotions compulsory the
    // counts agree.
    let source = include_str!("../../../../games/dai-shogi.toml");
    let mut table: toml::Table = toml::from_str(source).unwrap();
    let upward = [
        "Lance",
        "DrunkElephant",
        "ReverseChariot",
        "Bishop",
        "BlindTiger",
        "Rook",
        "DragonHorse",
        "DragonKing",
        "Pawn",
        "Iron",
        "Stone",
        "AngryBoar",
        "EvilWolf",
    ];
    for name in upward {
        let promote = table
            .get_mut("pieces")
            .and_then(|p| p.get_mut(name))
            .and_then(|p| p.get_mut("promote"))
            .and_then(|p| p.as_table_mut())
            .unwrap_or_else(|| panic!("{name} promotes"));
        promote.insert("optional".into(), toml::Value::Boolean(false));
    }
    let hachu = load_str(&table.to_string(), "dai-hachu.toml", "dai-hachu").unwrap();
    assert_eq!(perft(&hachu, 3), 357_836);
    let game = load_game("dai-shogi").unwrap();
    assert_eq!(perft(&game, 3), 357_978);
}

/// The sorted move texts of a Dai shogi position, as a list to compare.
fn dai_moves(fen: &str) -> Vec<String> {
    moves(&load_game("dai-shogi").unwrap(), fen)
}

fn sorted(texts: &str) -> Vec<String> {
    let mut v: Vec<String> = texts.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

#[test]
fn dai_shogi_lion_moves_without_lion_trading() {
    // The Lion on 8h: steps, jumps (taking the protected Lion on 8f from
    // two squares away, which chu shogi would forbid), double moves through
    // the pawn on 8g (igui among them), one pass; and Black's King.
    let expected = sorted(
        "1o1n 1o2n 1o2o
         8h9g 8h7g 8h9h 8h7h 8h9i 8h8i 8h7i 8h8g
         8h10f 8h9f 8h8f 8h7f 8h6f 8h10g 8h6g 8h10h 8h6h 8h10i 8h6i 8h10j 8h9j 8h8j 8h7j 8h6j
         8hx8gx9f 8hx8gx8f 8hx8gx7f 8hx8gx9g 8hx8gx7g 8hx8gx9h 8hx8gx7h 8hx8gx8h
         8h-8i-8h",
    );
    assert_eq!(
        dai_moves("k14/15/15/15/7g7/7n7/7p7/7N7/15/15/15/15/15/15/14K b - 1"),
        expected
    );
}

#[test]
fn dai_shogi_ox_and_flying_dragon_do_not_jump() {
    let expected =
        sorted("1o1n 1o2n 1o2o 10h10g 10h10f 10h11h 10h9h 10h8h 5h6g 5h4g 5h3f 5h4i 6i6h");
    assert_eq!(
        dai_moves("k14/15/15/15/15/5p9/9p5/4pU4Z4/5P3P1p3/15/15/15/15/15/14K b - 1"),
        expected
    );
}

#[test]
fn dai_shogi_promotes_in_five_ranks_forced_only_where_stuck() {
    let expected = sorted(
        "1o1n 1o2n 1o2o
         13f12e 13f12e+ 13f13e 13f13e+ 13f14e 13f14e+ 13f12g 13f14g
         7f7e 7f7e+ 7f7d 7f7d+ 7f7c 7f7c+ 7f7b 7f7b+ 7f7a+
         15e15d 15e14d 15e15f 15e15f+
         2e1c 2e3c
         9d8c 9d10c 9d8d 9d10d 9d9e 9d9c 9d9c+
         5c4a+ 5c6a+
         2b2a+",
    );
    assert_eq!(
        dai_moves("k14/13P1/6p3N'4/6G8/C12N'1/p1S5L6/15/15/15/15/15/15/15/15/14K b - 1"),
        expected
    );
}

#[test]
fn dai_shogi_crown_prince_is_royal() {
    let game = load_game("dai-shogi").unwrap();
    let count = |fen: &str| {
        let mut pos = game.parse_position(fen).unwrap();
        perft_with(&game, &mut pos, 2, &mut Generator::new()).unwrap()
    };
    // Taking the King leaves the Prince: the game goes on (14 replies).
    assert_eq!(
        count("15/15/7k4+e2/7G7/15/15/15/15/15/15/15/15/12g2/15/14K b - 1"),
        205
    );
    // Taking the last royal ends it: no replies after 3d3c and 3d3c+.
    assert_eq!(
        count("15/15/12+e2/12G2/15/15/15/15/15/15/15/15/12g2/15/14K b - 1"),
        113
    );
}

#[test]
fn dai_shogi_falcon_and_eagle_have_the_lions_power_their_way() {
    let expected = sorted(
        "1o1n 1o2n 1o2o
         8h7g 8h9g 8h7h 8h9h 8h7i 8h8i 8h9i 8h8g 8h8f 8hx8gx8f 8hx8gx8h
         3h3g 3h2h 3h4h 3h2i 3h3i 3h4i 3h2g 3h1f 3hx2gx1f 3hx2gx3h 3h4g 3h5f 3h-4g-3h",
    );
    assert_eq!(
        dai_moves("k14/15/15/15/15/15/6ppp3pp1/6p+Hp2p+Dp1/6ppp2ppp1/15/15/15/15/15/14K b - 1"),
        expected
    );
}

fn wa_moves(fen: &str) -> Vec<String> {
    moves(&load_game("wa-shogi").unwrap(), fen)
}

#[test]
fn wa_shogi_first_moves() {
    let game = load_game("wa-shogi").unwrap();
    // Black's 51 first moves, counted by hand (docs/sources/wa-shogi.md).
    assert_eq!(perft(&game, 1), 51);
}

#[test]
fn wa_shogi_short_slides_and_jumps() {
    // The Cloud Eagle on 6f: three squares at most diagonally forward,
    // one back, slides vertically, steps sideways.
    let eagle: Vec<String> = wa_moves("k10/11/5v5/7p3/11/5E5/6P4/11/11/11/10K b - 1")
        .into_iter()
        .filter(|m| m.starts_with("6f"))
        .collect();
    assert_eq!(
        eagle,
        sorted("6f4d 6f5e 6f5f 6f6c 6f6d 6f6e 6f6g 6f6h 6f6i 6f6j 6f6k 6f7e 6f7f 6f7g 6f8d 6f9c")
    );
    // The Treacherous Fox on 6e jumps over friend and foe, never sideways.
    let fox: Vec<String> = wa_moves("k10/11/5p5/5Pg4/5X5/6P4/3u1W5/11/11/11/10K b - 1")
        .into_iter()
        .filter(|m| m.starts_with("6e"))
        .collect();
    assert_eq!(fox, sorted("6e4c 6e4g 6e5d 6e6c 6e6f 6e7d 6e7f 6e8c 6e8g"));
    // The Liberated Horse slides forward, two squares back; promoted, it
    // jumps as a Heavenly Horse.
    let horses: Vec<String> = wa_moves("k7d2/11/11/3p4H2/3+H7/3P7/11/11/11/11/10K b - 1")
        .into_iter()
        .filter(|m| !m.starts_with("1k"))
        .collect();
    assert_eq!(
        horses,
        sorted("3d3a 3d3a+ 3d3b 3d3b+ 3d3c 3d3c+ 3d3e 3d3f 8e7c 8e7g 8e9c 8e9g")
    );
}

#[test]
fn wa_shogi_promotion_and_drops() {
    // Forced on the last rank for the Pawn and Oxcart only; possible on
    // any move from inside the zone; never for a promoted piece.
    let promotions: Vec<String> = wa_moves("k10/6P2F1/4+P6/2O4p3/11/11/11/11/11/11/5K5 b - 1")
        .into_iter()
        .filter(|m| !m.starts_with("6k"))
        .collect();
    assert_eq!(
        promotions,
        sorted(
            "2b1a 2b1a+ 2b1c 2b1c+ 2b2a 2b2a+ 2b3a 2b3a+ 2b3c 2b3c+ 2b4d 2b4d+ 5b5a+
             7c6b 7c6c 7c7b 7c7d 7c8b 7c8c 9d9a+ 9d9b 9d9b+ 9d9c 9d9c+"
        )
    );
    // Drops: 341 moves; the Pawn drop on 1b would mate and is refused,
    // the same mate by an Oxcart is legal. Without White's Oxcart the
    // King escapes to 2a, and the Pawn drop is legal.
    let drops = wa_moves("9ok/11/9W1/11/6P4/3+P7/11/11/11/11/5K5 b HOP 1");
    assert_eq!(drops.len(), 341);
    assert!(!drops.contains(&"P*1b".to_string()) && drops.contains(&"O*1b".to_string()));
    let check = wa_moves("9k1/11/9W1/11/6P4/3+P7/11/11/11/11/5K5 b HOP 1");
    assert_eq!(check.len(), 343);
    assert!(check.contains(&"P*1b".to_string()));
}
