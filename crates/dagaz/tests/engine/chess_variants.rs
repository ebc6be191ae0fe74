//! Chess with other goals: king of the hill, three-check. Perft equals
//! Fairy-Stockfish's (`kingofthehill`, counted with pyffish 0.0.90), which
//! also stops at a decided game.

use crate::common;

use dagaz::game::GameResult;
use dagaz::load::load_game;
use dagaz::movegen::{Generator, perft};

#[test]
fn king_of_the_hill_perft_and_the_hill() {
    let game = load_game("chess:king-of-the-hill").unwrap();
    // pyffish 0.0.90, variant kingofthehill.
    for (fen, counts) in [
        (
            "rnbq1bnr/ppppkppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR w - - 2 3",
            &[23u64, 531, 13_337][..],
        ),
        ("4k3/8/8/8/8/8/3K4/8 w - - 0 1", &[8, 40, 275, 1_700][..]),
    ] {
        for (d, nodes) in counts.iter().enumerate() {
            let mut pos = common::position(&game, fen);
            assert_eq!(
                perft(&game, &mut pos, d as u32 + 1).unwrap(),
                *nodes,
                "{fen} {}",
                d + 1
            );
        }
    }
    let mut pos = common::position(&game, "4k3/8/8/8/8/4K3/8/8 w - - 0 1");
    common::play(&game, &mut pos, "e3e4");
    assert!(
        common::moves_in(&game, &mut pos).is_empty(),
        "the game is over"
    );
    match Generator::new().result(&game, &mut pos).unwrap() {
        Some(GameResult::Win { winner: 0, reason }) => assert_eq!(reason, "reached hill"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn three_check_counts_the_checks_of_each_side() {
    let game = load_game("chess:three-check").unwrap();
    let mut pos = game.initial_position();
    let line = [
        "e2e4", "f7f6", "d1h5", "g7g6", "h5g6", "h7g6", "f1e2", "a7a6", "e2h5", "a6a5",
    ];
    let mut g = Generator::new();
    for (i, m) in line.iter().enumerate() {
        common::play(&game, &mut pos, m);
        let result = g.result(&game, &mut pos).unwrap();
        if i + 1 < line.len() {
            assert_eq!(result, None, "after {m}");
        }
    }
    // Qh5+ and Qxg6+ were White's first two checks; Bxg6+ is the third.
    common::play(&game, &mut pos, "h5g6");
    match g.result(&game, &mut pos).unwrap() {
        Some(GameResult::Win { winner: 0, reason }) => assert_eq!(reason, "3 checks"),
        other => panic!("{other:?}"),
    }
    assert!(common::moves_in(&game, &mut pos).is_empty());
}

#[test]
fn placement_drops_every_piece_before_any_moves() {
    let game = load_game("chess:placement").unwrap();
    let start = "8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1";
    assert_eq!(game.write_position(game.setup()), start);
    let moves = common::moves_in(&game, &mut game.initial_position());
    assert_eq!(moves.len(), 40);
    assert!(
        moves.iter().all(|m| m.contains('*')),
        "only drops: {moves:?}"
    );
    // The second Bishop goes on the other colour.
    let mut pos = game.initial_position();
    common::play(&game, &mut pos, "B*c1");
    common::play(&game, &mut pos, "K*e8");
    let bishops: Vec<String> = common::moves_in(&game, &mut pos)
        .into_iter()
        .filter(|m| m.starts_with("B*"))
        .collect();
    assert_eq!(bishops, ["B*b1", "B*d1", "B*f1", "B*h1"]);
    // With nothing left in hand, pawns move.
    let mut pos = common::position(
        &game,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 9",
    );
    assert_eq!(common::moves_in(&game, &mut pos).len(), 20);
}

#[test]
fn racing_kings_forbids_checks_and_lets_black_answer() {
    let game = load_game("chess:racing-kings").unwrap();
    // pyffish 0.0.90 (racingkings) from two endgame positions: White's King
    // reaches the eighth rank; Black can or cannot answer.
    for fen in [
        "8/5K2/k7/8/8/8/8/8 w - - 0 1",
        "8/5K2/8/k7/8/8/8/8 w - - 0 1",
    ] {
        for (d, nodes) in [8u64, 25, 200].iter().enumerate() {
            let mut pos = common::position(&game, fen);
            assert_eq!(
                perft(&game, &mut pos, d as u32 + 1).unwrap(),
                *nodes,
                "{fen} {}",
                d + 1
            );
        }
    }
    let result = |fen: &str, moves: &[&str]| {
        let mut pos = common::position(&game, fen);
        for m in moves {
            common::play(&game, &mut pos, m);
        }
        Generator::new().result(&game, &mut pos).unwrap()
    };
    // Black, a7, can answer f7-f8 with a7-a8: the game goes on, then draws.
    assert_eq!(result("8/k4K2/8/8/8/8/8/8 w - - 0 1", &["f7f8"]), None);
    match result("8/k4K2/8/8/8/8/8/8 w - - 0 1", &["f7f8", "a7a8"]) {
        Some(GameResult::Draw { reason }) => assert_eq!(reason, "all reached goal"),
        other => panic!("{other:?}"),
    }
    // From a6 it cannot: White wins at once.
    match result("8/5K2/k7/8/8/8/8/8 w - - 0 1", &["f7f8"]) {
        Some(GameResult::Win { winner: 0, .. }) => {}
        other => panic!("{other:?}"),
    }
    // A move that would give check is not legal.
    let moves = common::moves(&game, "8/8/8/8/8/8/k7/2R4K w - - 0 1");
    assert!(
        !moves.contains(&"c1a1".to_string()) && !moves.contains(&"c1c2".to_string()),
        "{moves:?}"
    );
}

#[test]
fn hold_the_hill_wins_after_the_other_sides_move() {
    let game = load_game("chess:hold-the-hill").unwrap();
    let mut pos = common::position(&game, "4k3/8/8/8/8/4K3/8/8 w - - 0 1");
    let mut g = Generator::new();
    common::play(&game, &mut pos, "e3e4");
    assert_eq!(
        g.result(&game, &mut pos).unwrap(),
        None,
        "Black moves first"
    );
    common::play(&game, &mut pos, "e8d8");
    match g.result(&game, &mut pos).unwrap() {
        Some(GameResult::Win { winner: 0, reason }) => assert_eq!(reason, "held hill"),
        other => panic!("{other:?}"),
    }
    // A King standing on the hill while the other side moves holds it.
    let mut pos = common::position(&game, "4k3/8/8/8/4K3/8/8/8 b - - 0 1");
    common::play(&game, &mut pos, "e8d7");
    assert!(
        g.result(&game, &mut pos).unwrap().is_some(),
        "White's King held e4"
    );
}

/// Chess960 castling from shuffled setups: counts of pyffish 0.0.90 in its
/// Chess960 mode (`legal_moves(variant, fen, moves, True)`, recursively),
/// and the castling letters read and written back.
#[test]
fn chess960_castles_from_anywhere() {
    let game = load_game("chess:chess960").unwrap();
    for (fen, depth, nodes) in [
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            3,
            12_189,
        ),
        (
            "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
            3,
            18_002,
        ),
        (
            "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
            3,
            10_471,
        ),
    ] {
        let mut pos = common::position(&game, fen);
        assert_eq!(perft(&game, &mut pos, depth).unwrap(), nodes, "{fen}");
    }
    // Only the a-file Rook may castle: `A` is read, and written as `Q`
    // (the outermost Rook on the queenside).
    let pos = common::position(
        &game,
        "rbk1r1n1/pp3pQ1/1B1pb1n1/4p1p1/2P1P2N/1P4P1/P2P1N1P/RB1K1R2 w A - 3 16",
    );
    assert!(game.write_position(&pos).contains(" w Q "));
    // King on b1, Rooks on a1 and h1 (an inner Rook is named by its file).
    let pos = common::position(&game, "4k3/8/8/8/8/8/8/RK3R1R w HF - 0 1");
    assert!(
        game.write_position(&pos).contains(" w KF "),
        "{}",
        game.write_position(&pos)
    );
    let texts = dagaz::session::Session::from_position(std::sync::Arc::new(game), pos)
        .unwrap()
        .legal_texts()
        .to_vec();
    // Castling with the f1 Rook: the King to g1, the Rook to f1.
    assert!(texts.iter().any(|t| t == "b1g1"), "{texts:?}");
}
