//! Ko shogi's Cavalry, Winged Horse, Roaming Assault and Thunderclap
//! (rules reference §5) in `games/ko-shogi-demo.toml`: the first moves and
//! positions for each piece, with move lists and counts worked out by hand.

use crate::common;

use common::{moves, v};
use dagaz::game::Game;
use dagaz::load::load_game;

fn demo() -> Game {
    load_game("ko-shogi-demo").unwrap()
}

fn of(fen: &str, from: &str) -> Vec<String> {
    common::moves_from(&demo(), fen, from)
}

#[test]
fn thirty_six_first_moves() {
    // Pawns 9, King 5, Roaming Assault 1 (9h), Thunderclap 6 (1h-5h and
    // 4i round the h rank), each Cavalry its one wide leap and one double
    // leap on the same side, each Winged Horse 2 leaps and 3 double leaps,
    // and one pass (both Cavalries and both Horses can leap out and back;
    // a pass is one move).
    let game = demo();
    let start = game.write_position(&game.initial_position());
    let expected = v(&[
        "1g1f", "1i1h", "1i2h", "1i3h", "1i4h", "1i4i", "1i5h", "2g2f", "2i-4h-6i", "2i4h", "3g3f",
        "3i-1h-2f", "3i-5h-4f", "3i-5h-6f", "3i1h", "3i5h", "4g4f", "5g5f", "5i4h", "5i4i", "5i5h",
        "5i6h", "5i6i", "6g6f", "7g7f", "7i-5h-4f", "7i-5h-6f", "7i-9h-8f", "7i5h", "7i9h", "8g8f",
        "8i-6h-4i", "8i-6h-8i", "8i6h", "9g9f", "9i9h",
    ]);
    assert_eq!(moves(&game, &start), expected);
}

#[test]
fn cavalry_leaps_once_or_twice_toward_one_side() {
    // Alone in the centre: 8 leaps, 3 squares on each side for two leaps
    // (the two leaps of a side give (±2, 4) and (0, 4)), and the pass.
    assert_eq!(of("k8/9/9/9/4C4/9/9/9/8K b - 1", "5e").len(), 21);
    // Two captures in one move, and igui (take on 4c and come back).
    // (A sketch: the side not to move is in check.)
    let list: Vec<String> = common::sketch_moves(&demo(), "6k2/9/5p3/9/4C4/9/9/9/8K b - 1")
        .into_iter()
        .filter(|m| m.starts_with("5e"))
        .collect();
    for m in ["5ex4cx3a", "5ex4cx5a", "5ex4cx5e"] {
        assert!(list.contains(&m.to_string()), "{m}: {list:?}");
    }
}

#[test]
fn a_double_leap_gives_check() {
    // The Cavalry reaches 3a through 4c: White's King must move, and its
    // Pawn may not.
    let list = moves(&demo(), "6k2/9/p8/9/4C4/9/9/9/8K w - 1");
    assert_eq!(list, v(&["3a2a", "3a2b", "3a3b", "3a4a", "3a4b"]));
}

#[test]
fn roaming_assault_takes_everything_on_its_line() {
    // North: the enemy on 5d and 5b are taken on the way; 5a is empty.
    let list = of("P8/4p4/9/4p4/4A4/9/9/9/8K b - 1", "5e");
    assert_eq!(
        list,
        v(&[
            "5e1e", "5e2e", "5e3e", "5e4e", "5e5a", "5e5b", "5e5c", "5e5d", "5e5f", "5e5g", "5e5h",
            "5e5i", "5e6e", "5e7e", "5e8e", "5e9e",
        ])
    );
    // A friendly piece stops it; five steps at most.
    let list = of("9/9/4P4/9/4A4/9/9/9/9 b - 1", "5e");
    assert!(!list.iter().any(|m| m == "5e5c" || m == "5e5b"), "{list:?}");
    assert!(list.contains(&"5e5d".to_string()), "{list:?}");
}

#[test]
fn thunderclap_turns_freely_and_takes_on_the_way() {
    // Alone: every square within five orthogonal steps (56 on this board).
    assert_eq!(of("k8/9/9/9/4T4/9/9/9/8K b - 1", "5e").len(), 56);
    // Both enemies (5d, 6e) taken in one move: 5e-6e-6d-5d-4d, and others.
    let list = of("k8/9/9/4p4/3pT4/9/9/9/8K b - 1", "5e");
    for m in ["5e4dx5dx6e", "5e5fx5dx6e", "5e7dx5dx6e"] {
        assert!(list.contains(&m.to_string()), "{m}: {list:?}");
    }
    // It never ends where it started.
    assert!(!list.iter().any(|m| m.ends_with("5e")), "{list:?}");
}
