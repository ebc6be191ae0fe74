//! Four-player chess: counts checked by hand, en passant reaching the
//! right opponent, castling on a side file, and elimination.

use crate::common;

use common::{moves, moves_in, play, position, v};
use dagaz::game::{Game, GameResult};
use dagaz::load::load_game;
use dagaz::movegen::{Generator, perft};

fn four() -> Game {
    load_game("four-player-chess").unwrap()
}

#[test]
fn first_plies_counted_by_hand() {
    let game = four();
    let mut pos = game.initial_position();
    // South: 8 pawns x 2 and 2 knights x 2.
    assert_eq!(perft(&game, &mut pos, 1).unwrap(), 20);
    // West has 20 replies as well, except after d2-d4 (its b4 pawn can no
    // longer reach d4) and after f2-f3 or f2-f4, which open the diagonal
    // g1-a7 from South's Queen to West's King and pin the b6 pawn (two
    // moves each): 400 - 1 - 2 - 2.
    assert_eq!(perft(&game, &mut pos, 2).unwrap(), 395);
    // The setup string reads back as written.
    let written = game.write_position(&pos);
    assert!(
        written.starts_with("3,nR,nN,nB,nQ,nK,nB,nN,nR,3/"),
        "{written}"
    );
    assert_eq!(game.write_position(&position(&game, &written)), written);
}

#[test]
fn en_passant_reaches_the_player_who_double_stepped() {
    let game = four();
    // West's pawn b7 double-steps past c7; North and East move; South's
    // pawn on d6 may still take it on c7, two moves later.
    let fen = "7,nK,6/14/14/14/wK,13/14/14/1,wP,11,eK/3,sP,10/14/14/14/14/7,sK,6 w - - 0 1";
    let mut pos = position(&game, fen);
    for m in ["b7d7", "h14g14", "n7n8"] {
        play(&game, &mut pos, m);
    }
    assert_eq!(
        moves_in(&game, &mut pos),
        v(&["d6c7xd7", "h1g1", "h1g2", "h1h2", "h1i1", "h1i2"])
    );
    // Once South has moved, the chance is gone.
    for m in ["h1h2", "a10a9", "g14h14", "n8n7"] {
        play(&game, &mut pos, m);
    }
    let list = moves_in(&game, &mut pos);
    assert!(!list.iter().any(|m| m.starts_with("d6")), "{list:?}");
}

#[test]
fn west_castles_along_its_file() {
    let fen = "7,nK,6/14/14/wR,13/14/14/14/wK,12,eK/14/14/wR,13/14/14/7,sK,6 w CD - 0 1";
    let game = four();
    let list = moves(&game, fen);
    // Short side toward a4 (the King to a5), long side toward a11 (to a9).
    assert!(list.contains(&"a7a5".to_string()) && list.contains(&"a7a9".to_string()));
    let mut pos = position(&game, fen);
    play(&game, &mut pos, "a7a5");
    let after = game.write_position(&pos);
    assert!(
        after.contains("/wR,13/wK,13/14/14/"),
        "the Rook lands on a6: {after}"
    );
}

#[test]
fn a_mated_player_resigns_and_then_passes() {
    let game = four();
    // North's King on h14 is mated by the Queen on h13 (guarded by the
    // Rook on h2); three others are still in: its one move is to resign.
    let fen = "7,nK,6/7,sQ,6/14/14/wK,13/14/14/13,eK/14/14/14/14/7,sR,6/4,sK,9 n - - 0 1";
    let mut pos = position(&game, fen);
    assert_eq!(moves_in(&game, &mut pos), v(&["h14h14"]));
    play(&game, &mut pos, "h14h14");
    assert!(!game.write_position(&pos).contains("nK"));
    for m in ["n7n8", "e1f1", "a10a9"] {
        play(&game, &mut pos, m);
    }
    // North's turn again: it can only pass.
    let mut list = dagaz::position::MoveList::new();
    Generator::new().legal(&game, &mut pos, &mut list).unwrap();
    assert_eq!(list.len(), 1);
    assert!(list.get(0).changes.is_empty());
}

#[test]
fn the_last_king_standing_wins() {
    let game = four();
    let mut pos = position(
        &game,
        "14/14/14/14/14/14/14/14/14/14/wP,13/14/14/7,sK,6 w - - 0 1",
    );
    match Generator::new().result(&game, &mut pos).unwrap() {
        Some(GameResult::Win { winner: 0, .. }) => {}
        other => panic!("{other:?}"),
    }
}
