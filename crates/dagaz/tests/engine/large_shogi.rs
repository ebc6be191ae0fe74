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

/// The moves of the Tenjiku shogi piece on `square`, sorted.
fn tenjiku_moves_of(fen: &str, square: &str) -> Vec<String> {
    moves(&load_game("tenjiku-shogi").unwrap(), fen)
        .into_iter()
        .filter(|m| m.starts_with(square))
        .collect()
}

#[test]
fn tenjiku_shogi_first_moves() {
    // The research note (docs/sources/tenjiku-dai.md §5.2) counts 64
    // start-landing pairs: 47 quiet moves and 17 captures. Both promotion
    // choices are moves, but a Rook General taking on 10d or 7d stops next
    // to a White Fire Demon and burns: no choice. 72 moves.
    let game = load_game("tenjiku-shogi").unwrap();
    assert_eq!(perft(&game, 1), 72);
    let pairs: std::collections::BTreeSet<String> =
        moves(&game, &game.write_position(&game.initial_position()))
            .into_iter()
            .map(|m| m.trim_end_matches('+').to_string())
            .collect();
    assert_eq!(pairs.len(), 64);
    for capture in ["11m3e", "6m14e", "10m10d", "9m9a", "9m1e", "8m16e"] {
        assert!(pairs.contains(capture), "{capture}");
    }
}

#[test]
fn tenjiku_fire_demon_area_move_and_burning() {
    // The Fire Demon on 8m, walled in by its own pawns but for 8l: up to
    // three steps through empty squares; it burns the enemies next to
    // where it stops (written as captures).
    let fen = "8k7/16/16/16/16/16/16/16/8p7/7g1p6/16/7P1P6/7PF'P6/7PPP6/16/7K8 b - 1";
    assert_eq!(
        tenjiku_moves_of(fen, "8m"),
        sorted(
            "8m10jx9j 8m10kx9j 8m10l 8m6jx7j 8m6kx7j 8m6l 8m7jx8i 8m7kx7j
             8m8jx8ix9jx7j 8m8kx9jx7j 8m8l 8m9jx8i 8m9kx9j"
        )
    );
}

#[test]
fn tenjiku_pieces_that_stop_next_to_an_enemy_fire_demon_burn() {
    let game = load_game("tenjiku-shogi").unwrap();
    // The Gold on 7g: 7f and 8f are next to White's Fire Demon on 8e.
    let fen = "8k7/16/16/16/8f'7/9p6/9G6/16/16/16/16/16/16/16/16/7K8 b - 1";
    assert_eq!(
        tenjiku_moves_of(fen, "7g"),
        sorted("7g6f 7g6g 7g7f 7g7h 7g8f 7g8g")
    );
    let mut pos = game.parse_position(fen).unwrap();
    crate::common::play(&game, &mut pos, "7g7f");
    // The pawn stays taken, the Gold is gone.
    assert!(
        game.write_position(&pos)
            .starts_with("8k7/16/16/16/8f'7/16/16/16/")
    );
    // A Fire Demon next to the enemy's burns and burns nothing (14c, 13c,
    // 14d: three moves); taking the enemy demon (13d) it burns 12c.
    let fen = "F'5p9/16/4p11/3f'12/16/16/16/15k/16/16/16/16/16/16/16/7K8 b - 1";
    assert_eq!(
        tenjiku_moves_of(fen, "16a"),
        sorted(
            "16a10a 16a11ax10a 16a12a 16a13a 16a13bx12c 16a13dx12c 16a14a 16a14b
             16a14c 16a13c 16a14d 16a15a 16a15b 16a15c 16a15d 16a16b 16a16c 16a16d"
        )
    );
}

#[test]
fn tenjiku_jumping_generals_pass_lower_ranks_only() {
    // The Great General on 1p passes pawns and a Vice General, not a King
    // or a Great General; it takes anything, the King on 6k included.
    let fen = "16/16/16/16/16/16/16/16/15p/9p5g'/10k4p/16/12B'2v'/13r'2/15P/11gK2G' b - 1";
    assert_eq!(
        tenjiku_moves_of(fen, "1p"),
        sorted("1p1j 1p1k 1p1m 1p2o 1p2p 1p3n 1p3p 1p6k")
    );
    // Rook General (1p), Vice General with its area move (16a), Bishop
    // General (16p): each passes lower ranks and stops at an equal one.
    let fen =
        "V'15/16/2r'13/3B'12/4v'11/5p10/16/9k6/16/16/16/16/3p11p/2r'12b'/1P13P/B'6K2v'gMg1R' b - 1";
    assert_eq!(
        tenjiku_moves_of(fen, "1p"),
        sorted("1p1n 1p2p 1p3p 1p5p 1p6p")
    );
    assert_eq!(
        tenjiku_moves_of(fen, "16a"),
        sorted(
            "16a12e 16a13a 16a13b 16a13c 16a14a 16a14b 16a14c 16a14d 16a15a
             16a15b 16a15c 16a15d 16a16b 16a16c 16a16d"
        )
    );
    assert_eq!(tenjiku_moves_of(fen, "16p"), ["16p14n"]);
}

#[test]
fn tenjiku_heavenly_tetrarchs_lion_hawk_and_free_eagle() {
    // Heavenly Tetrarchs on 8h: igui on its neighbours, never a step;
    // skipping the first square, slides (sideways two or three squares).
    let fen = "k15/16/16/8p7/5p5P4/16/8p7/6pP+C'7/9g6/16/5j5P4/16/16/16/16/8K7 b - 1";
    assert_eq!(
        tenjiku_moves_of(fen, "8h"),
        sorted(
            "8h10f 8h10h 8h10j 8h11e 8h11k 8h5h 8h6f 8h6h 8h6j 8h8d 8h8e 8h8f
             8h8j 8h8k 8h8l 8h8m 8h8n 8h8o 8hx7ix8h 8hx8gx8h"
        )
    );
    // Lion Hawk: a Bishop and a Lion.
    let fen = "k15/16/16/16/16/9ps5/8p7/8N'P6/16/16/16/16/16/16/16/7K8 b - 1";
    assert_eq!(
        tenjiku_moves_of(fen, "8h"),
        sorted(
            "8h-8i-8h 8h10f 8h10g 8h10h 8h10i 8h10j 8h11e 8h11k 8h12d 8h12l 8h13c
             8h13m 8h14b 8h14n 8h15a 8h15o 8h16p 8h1o 8h2n 8h3m 8h4l 8h5k 8h6f 8h6g
             8h6h 8h6i 8h6j 8h7f 8h7g 8h7i 8h7j 8h8f 8h8g 8h8i 8h8j 8h9f 8h9g 8h9h
             8h9i 8h9j 8hx8gx7f 8hx8gx7g 8hx8gx8f 8hx8gx8h 8hx8gx9f 8hx8gx9g 8hx8gx9h"
        )
    );
    // Free Eagle: a Queen with the Lion's power on the diagonals.
    let fen = "k15/16/16/16/16/10p5/7Ppp6/8Q'7/16/16/16/16/16/16/16/8K7 b - 1";
    assert_eq!(
        tenjiku_moves_of(fen, "8h"),
        sorted(
            "8h-9i-8h 8h10f 8h10h 8h10j 8h11h 8h11k 8h12h 8h12l 8h13h 8h13m 8h14h
             8h14n 8h15h 8h15o 8h16h 8h16p 8h1h 8h1o 8h2h 8h2n 8h3h 8h3m 8h4h 8h4l
             8h5h 8h5k 8h6f 8h6h 8h6j 8h7g 8h7h 8h7i 8h8g 8h8i 8h8j 8h8k 8h8l 8h8m
             8h8n 8h8o 8h9h 8h9i 8hx7gx6f 8hx7gx8h"
        )
    );
}

#[test]
fn tenjiku_a_lion_may_promote_capturing_without_moving() {
    // In the zone, igui is a capture: the Lion may become a Lion Hawk.
    let fen = "k15/16/8p7/8N7/16/16/16/16/16/16/16/16/16/16/16/7K8 b - 1";
    let lion = tenjiku_moves_of(fen, "8d");
    assert!(lion.contains(&"8dx8cx8d".to_string()) && lion.contains(&"8dx8cx8d+".to_string()));
}

fn dai_dai_moves(fen: &str) -> Vec<String> {
    moves(&load_game("dai-dai-shogi").unwrap(), fen)
}

#[test]
fn dai_dai_shogi_first_moves() {
    // Black's 58 first moves, counted by hand; no count has been published.
    assert_eq!(perft(&load_game("dai-dai-shogi").unwrap(), 1), 58);
}

#[test]
fn dai_dai_shogi_promotes_by_capture() {
    // The Cat Sword on 9i promotes when it captures (8h, 10j), and only
    // then; the Gold and the Dragon Horse never promote.
    let expected = sorted(
        "10h10g 10h10i 10h11g 10h11h 10h9g 10h9h 4d1g 4d2f 4d3c 4d3d 4d3e 4d4c
         4d4e 4d5c 4d5d 4d5e 4d6b 4d6f 4d7a 4d7g 4d8h 9i10j+ 9i8h+ 9i8j 9q10p
         9q10q 9q8p 9q8q 9q9p",
    );
    assert_eq!(
        dai_dai_moves("8k8/17/14p2/13+C'3/17/17/8p8/7G1p7/8C'8/7g9/17/17/17/17/17/17/8K8 b - 1"),
        expected
    );
}

#[test]
fn dai_dai_shogi_special_pieces() {
    // The Lion, the Furious Fiend, the Hook Mover, the jumping pieces: the
    // counts worked out by hand.
    for (fen, count) in [
        (
            "8k8/17/17/17/17/17/9p7/8p8/7GN8/17/17/17/17/17/17/17/8K8 b - 1",
            41,
        ),
        (
            "8k8/17/17/17/17/17/8p1G6/17/5p2+N8/17/17/17/17/17/17/17/8K8 b - 1",
            41,
        ),
        (
            "8k8/17/17/17/8p8/17/17/17/8+P'3G4/17/17/17/17/17/17/17/8K8 b - 1",
            259,
        ),
        (
            "8k8/17/13g3/13p3/13O1G1/17/8p8/8G8/8P'p7/7S9/10P6/17/17/17/17/17/8K8 b - 1",
            32,
        ),
    ] {
        assert_eq!(dai_dai_moves(fen).len(), count, "{fen}");
    }
    // Pieces on the last rank that cannot move stay there.
    assert_eq!(
        dai_dai_moves("2L1J1Y5P1Y'1H'/17/17/17/8k8/17/17/17/17/17/17/17/17/17/17/17/8K8 b - 1"),
        sorted("1a1b 9q10p 9q10q 9q8p 9q8q 9q9p")
    );
    // White's pieces are Black's turned half round: its Left General on 9i
    // has no step to its own left (the board's east, 8i).
    let left: Vec<String> =
        dai_dai_moves("8k8/17/17/1l'15/17/17/17/17/8g'8/17/17/17/17/9G'5L'1/17/17/8K8 w - 1")
            .into_iter()
            .filter(|m| m.starts_with("9i"))
            .collect();
    assert_eq!(left, sorted("9i10h 9i10i 9i10j 9i8h 9i8j 9i9h 9i9j"));
}
