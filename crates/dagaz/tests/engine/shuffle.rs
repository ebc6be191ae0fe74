//! Shuffled starts (`[setup] shuffle`): Chess960 and its family draw a
//! new first rank for every game, within the rules of the draw.

use std::collections::HashSet;

use dagaz::load::{load_game, load_str};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// The first rank of `fen` as its letters, and the last one.
fn ranks(fen: &str) -> (String, String) {
    let board = fen.split(' ').next().unwrap();
    let rows: Vec<&str> = board.split('/').collect();
    (rows[rows.len() - 1].to_string(), rows[0].to_string())
}

#[test]
fn chess960_draws_each_of_the_960_first_ranks_and_only_those() {
    let game = load_game("chess:chess960").unwrap();
    let mut rng = StdRng::seed_from_u64(960);
    let mut seen = HashSet::new();
    for _ in 0..20_000 {
        let pos = game.shuffled_start(&mut rng);
        let fen = game.write_position(&pos);
        let (white, black) = ranks(&fen);
        // Black mirrors White; the pawns stay.
        assert_eq!(black, white.to_lowercase(), "{fen}");
        assert!(fen.contains("/pppppppp/8/8/8/8/PPPPPPPP/"), "{fen}");
        let at = |c: char| -> Vec<usize> {
            white
                .char_indices()
                .filter(|(_, p)| *p == c)
                .map(|(i, _)| i)
                .collect()
        };
        let (bishops, rooks, king) = (at('B'), at('R'), at('K')[0]);
        assert_ne!(
            bishops[0] % 2,
            bishops[1] % 2,
            "Bishops on both colours: {fen}"
        );
        assert!(
            rooks[0] < king && king < rooks[1],
            "King between the Rooks: {fen}"
        );
        // Both sides may castle both ways, and the position reads back.
        assert_eq!(fen.split(' ').nth(2), Some("KQkq"), "{fen}");
        let again = game.parse_position(&fen).unwrap();
        assert_eq!(again.hash(), pos.hash(), "{fen}");
        seen.insert(white);
    }
    // Chess960 has 960 starting positions (Fischer's rules).
    assert_eq!(seen.len(), 960);
}

#[test]
fn the_chess960_family_shuffles_and_chess_does_not() {
    for name in [
        "chess:chess960",
        "chess:atomic960",
        "chess:seirawan960",
        "capablanca:caparandom",
        "extinction:chess960",
    ] {
        let game = load_game(name).unwrap();
        assert!(game.shuffles(), "{name}");
        let mut rng = StdRng::seed_from_u64(7);
        let firsts: HashSet<String> = (0..50)
            .map(|_| ranks(&game.write_position(&game.shuffled_start(&mut rng))).0)
            .collect();
        assert!(firsts.len() > 10, "{name}: {firsts:?}");
    }
    let chess = load_game("chess").unwrap();
    assert!(!chess.shuffles());
    let mut rng = StdRng::seed_from_u64(7);
    assert_eq!(chess.shuffled_start(&mut rng), chess.initial_position());
}

#[test]
fn a_shuffle_that_names_no_square_or_breaks_its_own_setup_is_refused() {
    let source = include_str!("../../../../games/chess.toml");
    let with = |shuffle: &str| {
        let text = source.replacen(
            "[setup]\n",
            &format!("[setup]\nshuffle = {{ {shuffle} }}\n"),
            1,
        );
        load_str(&text, "chess.toml", "chess")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    let err = with(r#"squares = "a1 z9""#);
    assert!(err.contains("setup: shuffle: no square 'z9'"), "{err}");
    let err = with(r#"squares = "a1 b1", mirror = "a8""#);
    assert!(err.contains("2 squares but 1 in the mirror"), "{err}");
    // In the usual setup the Rook on a1 stands between no two Knights.
    let err = with(r#"squares = "a1 b1 c1 d1", between = ["Rook", "Knight"]"#);
    assert!(
        err.contains("the setup's own order breaks its rules"),
        "{err}"
    );
}
