//! Positions no game allows are refused when they are read, with a reason
//! that names what is wrong; the positions of real games are accepted.

use dagaz::load::load_game;

/// The reason `text` is refused in `game`.
fn refused(game: &str, text: &str) -> String {
    let game = load_game(game).unwrap();
    match game.parse_position(text) {
        Ok(_) => panic!("{text} was accepted"),
        Err(e) => e.to_string(),
    }
}

fn accepted(game: &str, text: &str) {
    let game = load_game(game).unwrap();
    if let Err(e) = game.parse_position(text) {
        panic!("{e}");
    }
}

fn assert_contains(text: &str, part: &str) {
    assert!(text.contains(part), "{text:?} does not say {part:?}");
}

#[test]
fn chess_kings_one_each() {
    let e = refused("chess", "8/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_contains(&e, "Black has 0 King on the board; Chess allows exactly 1");
    let e = refused("chess", "kkkkkkkk/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_contains(&e, "Black has 8 King on the board");
    accepted("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn chess_the_side_not_to_move_is_not_in_check() {
    let e = refused("chess", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1");
    assert_contains(&e, "Black is in check, but it is White's move");
    accepted("chess", "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1");
}

#[test]
fn chess_castling_rights() {
    let e = refused("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkqKQkq - 0 1");
    assert_contains(&e, "castling right 'K' is given twice");
    // A knight between king and rook takes no right away.
    accepted("chess", "r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1");
    let e = refused("chess", "r3k2r/8/8/8/8/8/8/R3K2N w KQkq - 0 1");
    assert_contains(
        &e,
        "castling right 'K' needs the king and rook of the setup on e1 and h1",
    );
    accepted("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
}

#[test]
fn chess_pawns_never_on_the_first_or_last_rank() {
    let e = refused("chess", "4k2P/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_contains(&e, "White's Pawn stands on h8, in its zone 'promotion'");
    let e = refused("chess", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1");
    assert_contains(&e, "White's Pawn stands on a1, in its zone 'first_rank'");
    let e = refused("chess", "4k3/8/8/8/8/8/8/p3K3 w - - 0 1");
    assert_contains(&e, "Black's Pawn stands on a1, in its zone 'promotion'");
    let e = refused("chess", "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1");
    assert_contains(&e, "Black has 9 Pawn on the board; Chess allows 0 to 8");
}

#[test]
fn shogi_hands_are_counted_exactly() {
    let board = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";
    accepted("shogi", &format!("{board} b - 1"));
    let board_without_a_pawn = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/1PPPPPPPP/1B5R1/LNSGKGSNL";
    accepted("shogi", &format!("{board_without_a_pawn} w P 1"));
    let e = refused("shogi", &format!("{board_without_a_pawn} w 0P 1"));
    assert_contains(&e, "'0P' in hand: a count is 1 to 999");
    let e = refused("shogi", &format!("{board_without_a_pawn} w P0 1"));
    assert_contains(&e, "the hands end with the count '0' and no piece after it");
    let e = refused(
        "shogi",
        &format!("{board_without_a_pawn} w 99999999999999999999P 1"),
    );
    assert_contains(&e, "a count is 1 to 999");
    let e = refused("shogi", &format!("{board_without_a_pawn} w 2P 1"));
    assert_contains(
        &e,
        "there are 19 Pawns on the board and in hand together; Shogi has 18",
    );
    let e = refused("shogi", &format!("{board} b K 1"));
    assert_contains(&e, "holds a King in hand");
}

#[test]
fn shogi_pieces_that_must_promote_never_stand_where_they_would() {
    let e = refused("shogi", "4k3P/9/9/9/9/9/9/9/4K4 b - 1");
    assert_contains(&e, "Black's Pawn stands on 1a");
    let e = refused("shogi", "4k4/7N1/9/9/9/9/9/9/4K4 b - 1");
    assert_contains(&e, "Black's Knight stands on 2b");
}

#[test]
fn xiangqi_palace_pieces_stay_in_the_palace() {
    let e = refused("xiangqi", "4k4/9/9/9/9/9/9/9/A8/4K4 w - - 0 1");
    assert_contains(&e, "Red's Advisor stands on a2, outside its zone 'palace'");
    let e = refused("xiangqi", "4k4/9/9/9/4B4/9/9/9/9/4K4 w - - 0 1");
    assert_contains(&e, "Red's Elephant stands on e6, outside its zone 'home'");
}

#[test]
fn every_game_setup_is_a_position_of_its_game() {
    for g in dagaz::load::builtin_games() {
        let game = load_game(g.name).unwrap();
        let text = game.write_position(game.setup());
        if let Err(e) = game.parse_position(&text) {
            panic!("{}: {e}", g.name);
        }
    }
}

/// SFEN's move number counts plies from 1, whoever moved first: a shogi
/// handicap game, where the second player (gote) moves first, starts at
/// `w - 1` and goes on `b - 2`, `w - 3`; a game sente began reaches
/// `w - 2` after one move. Each is written back as it was read.
#[test]
fn sfen_move_numbers_count_plies_whoever_moved_first() {
    let shogi = std::sync::Arc::new(load_game("shogi").unwrap());
    let board = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL";
    for tail in [
        "b - 1", "w - 1", "b - 2", "w - 2", "b - 3", "w - 3", "b - 10", "w - 11",
    ] {
        let text = format!("{board} {tail}");
        let pos = shogi.parse_position(&text).unwrap();
        assert_eq!(shogi.write_position(&pos), text);
    }
    for (start, after) in [("w - 1", ["b - 2", "w - 3"]), ("b - 1", ["w - 2", "b - 3"])] {
        let start = shogi.parse_position(&format!("{board} {start}")).unwrap();
        let mut session = dagaz::session::Session::from_position(shogi.clone(), start).unwrap();
        for expected in after {
            let index = (0..session.legal().len())
                .find(|&i| session.legal().header(i).from().is_some())
                .unwrap();
            session.play(index).unwrap();
            let written = shogi.write_position(session.position());
            assert!(
                written.ends_with(expected),
                "{written}: expected {expected}"
            );
        }
    }
}
