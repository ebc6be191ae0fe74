//! Capablanca chess and Grand chess: rule positions with their exact move
//! lists. Each list was checked against Fairy-Stockfish (pyffish 0.0.90,
//! `legal_moves`), which gives the same moves; the published perft counts
//! of both games are in `family_perft.rs`.

use crate::common;

use common::v;
use dagaz::load::load_game;

/// The moves of `game` in `fen` that start on `from`.
fn from(game: &str, fen: &str, from: &str) -> Vec<String> {
    common::moves_from(&load_game(game).unwrap(), fen, from)
}

#[test]
fn capablanca_castles_three_squares_either_way() {
    let open = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1";
    assert_eq!(
        from("capablanca", open, "f1"),
        v(&["f1c1", "f1e1", "f1g1", "f1i1"])
    );
    // The rooks land beside the king.
    let game = load_game("capablanca").unwrap();
    let mut pos = common::position(&game, open);
    common::play(&game, &mut pos, "f1i1");
    assert!(
        game.write_position(&pos)
            .starts_with("r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R6RK1 b kq")
    );
    let mut pos = common::position(&game, open);
    common::play(&game, &mut pos, "f1c1");
    assert!(
        game.write_position(&pos)
            .starts_with("r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/2KR5R b kq")
    );
}

#[test]
fn capablanca_castling_needs_rights_safe_squares_and_no_check() {
    // No right on the king's side.
    let fen = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w Qkq - 0 1";
    assert_eq!(from("capablanca", fen, "f1"), v(&["f1c1", "f1e1", "f1g1"]));
    // The king would cross h1, which the rook on h8 attacks.
    let fen = "r4k1r2/ppppppp1pp/10/10/10/10/PPPPPPP1PP/R4K3R w KQ - 0 1";
    assert_eq!(from("capablanca", fen, "f1"), v(&["f1c1", "f1e1", "f1g1"]));
    // The king would land on c1, attacked from c8.
    let fen = "r1r2k4/pp1ppppppp/10/10/10/10/PP1PPPPPPP/R4K3R w KQ - 0 1";
    assert_eq!(from("capablanca", fen, "f1"), v(&["f1e1", "f1g1", "f1i1"]));
    // In check: no castling at all.
    let fen = "r4r2k1/ppppp1pppp/10/10/10/10/PPPPP1PPPP/R4K3R w KQ - 0 1";
    assert_eq!(from("capablanca", fen, "f1"), v(&["f1e1", "f1g1"]));
}

#[test]
fn archbishop_and_chancellor_add_the_knight_to_bishop_and_rook() {
    let a = "5k4/10/10/10/4A5/10/10/5K4 w - - 0 1";
    assert_eq!(
        from("capablanca", a, "e4"),
        v(&[
            "e4a8", "e4b1", "e4b7", "e4c2", "e4c3", "e4c5", "e4c6", "e4d2", "e4d3", "e4d5", "e4d6",
            "e4f2", "e4f3", "e4f5", "e4f6", "e4g2", "e4g3", "e4g5", "e4g6", "e4h1", "e4h7", "e4i8",
        ])
    );
    // The Chancellor's knight leaps pass over the pawn on d5.
    let c = "5k4/10/10/3p6/4C5/10/10/5K4 w - - 0 1";
    assert_eq!(
        from("capablanca", c, "e4"),
        v(&[
            "e4a4", "e4b4", "e4c3", "e4c4", "e4c5", "e4d2", "e4d4", "e4d6", "e4e1", "e4e2", "e4e3",
            "e4e5", "e4e6", "e4e7", "e4e8", "e4f2", "e4f4", "e4f6", "e4g3", "e4g4", "e4g5", "e4h4",
            "e4i4", "e4j4",
        ])
    );
}

#[test]
fn grand_promotes_only_to_captured_pieces() {
    // Nothing of White's captured: the pawn on j9 may not step to j10.
    let full = "r9/1nbqkcab1P/pppppppp2/10/10/10/10/PPPPPPPPP1/1NBQKCABN1/R8R w - - 0 1";
    assert_eq!(from("grand", full, "j9"), Vec::<String>::new());
    // A knight captured: j10 only as a knight (promotion is compulsory
    // on the last rank).
    let knight = "r9/1nbqkcab1P/pppppppp2/10/10/10/10/PPPPPPPPP1/1NBQKCAB2/R8R w - - 0 1";
    assert_eq!(from("grand", knight, "j9"), v(&["j9j10n"]));
    // Knight and rook captured, on the 9th rank: stay a pawn or promote.
    let two = "1r8/1nbqkcab2/pppppppp1P/10/10/10/10/PPPPPPPPP1/1NBQKCAB2/R9 w - - 0 1";
    assert_eq!(from("grand", two, "j8"), v(&["j8j9", "j8j9n", "j8j9r"]));
}

#[test]
fn grand_pawns_double_step_from_the_third_rank_and_take_en_passant() {
    let start = "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1";
    assert_eq!(from("grand", start, "e3"), v(&["e3e4", "e3e5"]));
    // Black has just played e8-e6: f6 takes on e7.
    let ep = "r8r/1nbqkcabn1/ppp2ppppp/3p6/4pP4/10/10/PPPPP1PPPP/1NBQKCABN1/R8R w - e7 0 3";
    assert_eq!(from("grand", ep, "f6"), v(&["f6e7xe6", "f6f7"]));
}
