//! Neutral pieces and the rule `move_neutral` (duck chess): a piece of
//! nobody's blocks every line and is never captured; every move ends by
//! putting it on another empty square.

use dagaz::load::{load_game, load_str};

use crate::common::{lab_source, moves, play, position};

#[test]
fn the_duck_blocks_and_nothing_captures_it() {
    let game = load_game("duck").unwrap();
    // White's Rook on e1 runs into the Duck on e4: e2 and e3 only.
    let rook: Vec<String> = moves(&game, "4k3/8/8/8/4*3/8/8/4R1K1 w - - 0 1")
        .into_iter()
        .filter(|m| m.starts_with("e1e"))
        .map(|m| m.split(',').next().unwrap().to_string())
        .collect();
    let mut targets = rook.clone();
    targets.dedup();
    assert_eq!(targets, ["e1e2", "e1e3"]);
    // A pawn cannot take it diagonally either.
    let pawn = moves(&game, "4k3/8/8/8/3*4/4P3/8/6K1 w - - 0 1");
    assert!(pawn.iter().all(|m| !m.starts_with("e3d4")), "{pawn:?}");
    assert!(pawn.iter().any(|m| m.starts_with("e3e4,")));
}

#[test]
fn every_move_puts_the_duck_on_another_empty_square() {
    let game = load_game("duck").unwrap();
    let start = moves(
        &game,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    // 20 moves, each with the Duck on any of the 32 squares empty after it.
    assert_eq!(start.len(), 20 * 32);
    assert!(
        start.contains(&"e2e4,e2".to_string()),
        "the square just left"
    );
    assert!(
        !start.iter().any(|m| m == "e2e4,e4"),
        "not the landing square"
    );
    // The Duck must move: never back where it stood.
    let duck_on_d5 = "rnbqkbnr/pppppppp/8/3*4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let list = moves(&game, duck_on_d5);
    assert_eq!(
        list.len(),
        20 * 31,
        "31 squares are empty besides the Duck's"
    );
    assert!(!list.iter().any(|m| m.ends_with(",d5")));
    // Playing a move moves it.
    let mut pos = position(&game, duck_on_d5);
    play(&game, &mut pos, "g1f3,d6");
    assert_eq!(
        game.write_position_fsf(&pos),
        "rnbqkbnr/pppppppp/3*4/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
    );
    assert_eq!(
        game.write_position(&pos),
        "rnbqkbnr/pppppppp/3D4/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
    );
}

#[test]
fn the_king_is_taken_not_mated() {
    let game = load_game("duck").unwrap();
    // The Black King may stand attacked; taking it wins.
    let mut pos = position(&game, "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1");
    play(&game, &mut pos, "e1e8,a1");
    let session = dagaz::session::Session::from_position(std::sync::Arc::new(game), pos).unwrap();
    assert!(session.is_over());
    assert_eq!(session.legal().len(), 0);
}

#[test]
fn a_neutral_piece_with_moves_is_refused() {
    let source = lab_source(
        "moves = '''*'''",
        "[pieces.Wall]\nletter = \"X\"\nneutral = true\nmoves = \"*\"\n",
    );
    let err = load_str(&source, "lab.toml", "lab")
        .unwrap_err()
        .to_string();
    assert!(err.contains("neutral piece belongs to nobody"), "{err}");
    let source = lab_source(
        "moves = '''*'''",
        "[pieces.Wall]\nletter = \"X\"\n[rules]\nmove_neutral = \"Wall\"\n",
    );
    let err = load_str(&source, "lab.toml", "lab")
        .unwrap_err()
        .to_string();
    assert!(err.contains("is not neutral"), "{err}");
}
