//! The large shogi variants: Dai shogi's published counts and its rules
//! on positions worked out by hand.

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
