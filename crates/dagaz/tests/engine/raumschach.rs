//! Raumschach: the first moves counted by hand and each piece's moves in
//! the cube, worked out from the rules in `games/raumschach.toml`.

use crate::common;

use common::{moves, sketch_moves, v};
use dagaz::game::Game;
use dagaz::load::load_game;

fn raumschach() -> Game {
    load_game("raumschach").unwrap()
}

/// A position with one piece on Cc3, the centre of the cube, and `extra`
/// placed as (square, letter).
fn centre(piece: char, extra: &[(&str, char)]) -> String {
    let mut cells = vec!['.'; 125];
    let index = |name: &str| {
        let b = name.as_bytes();
        let level = (b'E' - b[0]) as usize;
        let file = (b[1] - b'a') as usize;
        let rank = (b'5' - b[2]) as usize;
        level * 25 + rank * 5 + file
    };
    cells[index("Cc3")] = piece;
    for (sq, p) in extra {
        cells[index(sq)] = *p;
    }
    let rows: Vec<String> = cells
        .chunks(5)
        .map(|row| {
            let mut out = String::new();
            let mut empty = 0;
            for c in row {
                if *c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out += &empty.to_string();
                        empty = 0;
                    }
                    out.push(*c);
                }
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            out
        })
        .collect();
    format!("{} w - - 0 1", rows.join("/"))
}

fn count(piece: char) -> usize {
    sketch_moves(&raumschach(), &centre(piece, &[])).len()
}

#[test]
fn sixty_one_first_moves() {
    // Pawns: 5 on level A step forward, 5 on level B forward or up (15).
    // Knights on Ab1, Ad1: 6 each. Bishops Ba1 6, Bd1 7; Unicorns Bb1 4,
    // Be1 3; Queen 14 (3 up the file, 7 bishop, 4 unicorn). Rooks and King
    // are shut in.
    let game = raumschach();
    let start = game.write_position(&game.initial_position());
    let all = moves(&game, &start);
    assert_eq!(all.len(), 61, "{all:?}");
    let from = |sq: &str| all.iter().filter(|m| m.starts_with(sq)).count();
    assert_eq!(from("Bc1"), 14);
    assert_eq!(from("Ab1") + from("Ad1"), 12);
    assert_eq!(from("Ba1") + from("Bd1"), 13);
    assert_eq!(from("Bb1") + from("Be1"), 7);
}

#[test]
fn pieces_in_the_centre_of_the_cube() {
    // From Cc3 every line has two squares on each side.
    assert_eq!(count('R'), 12); // 6 directions x 2
    assert_eq!(count('B'), 24); // 12 x 2
    assert_eq!(count('U'), 16); // 8 x 2
    assert_eq!(count('Q'), 52);
    assert_eq!(count('N'), 24);
    assert_eq!(count('K'), 26);
}

#[test]
fn unicorn_moves_through_corners() {
    let list = sketch_moves(&raumschach(), &centre('U', &[]));
    let expected: Vec<String> = [
        "Aa1", "Aa5", "Ae1", "Ae5", "Bb2", "Bb4", "Bd2", "Bd4", "Db2", "Db4", "Dd2", "Dd4", "Ea1",
        "Ea5", "Ee1", "Ee5",
    ]
    .iter()
    .map(|s| format!("Cc3{s}"))
    .collect();
    assert_eq!(
        list,
        v(&expected.iter().map(String::as_str).collect::<Vec<_>>())
    );
}

#[test]
fn pawn_steps_forward_or_up_and_takes_diagonally_forward_or_up() {
    // Blocked ahead (Cc4) and above (Dc3); enemies on the three capture
    // kinds and one behind-below (Bb2), which it may not take.
    let fen = centre(
        'P',
        &[
            ("Cc4", 'p'),
            ("Dc3", 'p'),
            ("Cb4", 'p'),
            ("Dd3", 'p'),
            ("Dc4", 'p'),
            ("Bb2", 'p'),
        ],
    );
    assert_eq!(
        sketch_moves(&raumschach(), &fen),
        v(&["Cc3Cb4", "Cc3Dc4", "Cc3Dd3"])
    );
}

/// The exact squares of a piece on Cc3 of an empty cube, computed from the
/// geometry (level, file, rank) of each move kind.
fn exact(piece: char, squares: &str) {
    let expected: Vec<String> = squares.split(' ').map(|s| format!("Cc3{s}")).collect();
    let got = sketch_moves(&raumschach(), &centre(piece, &[]));
    assert_eq!(
        got,
        v(&expected.iter().map(String::as_str).collect::<Vec<_>>()),
        "{piece}"
    );
}

#[test]
fn rook_bishop_knight_and_king_squares() {
    exact('R', "Ac3 Bc3 Ca3 Cb3 Cc1 Cc2 Cc4 Cc5 Cd3 Ce3 Dc3 Ec3");
    exact(
        'B',
        "Aa3 Ac1 Ac5 Ae3 Bb3 Bc2 Bc4 Bd3 Ca1 Ca5 Cb2 Cb4 Cd2 Cd4 Ce1 Ce5 Db3 Dc2 Dc4 Dd3 Ea3 Ec1 Ec5 Ee3",
    );
    exact(
        'N',
        "Ab3 Ac2 Ac4 Ad3 Ba3 Bc1 Bc5 Be3 Ca2 Ca4 Cb1 Cb5 Cd1 Cd5 Ce2 Ce4 Da3 Dc1 Dc5 De3 Eb3 Ec2 Ec4 Ed3",
    );
    exact(
        'K',
        "Bb2 Bb3 Bb4 Bc2 Bc3 Bc4 Bd2 Bd3 Bd4 Cb2 Cb3 Cb4 Cc2 Cc4 Cd2 Cd3 Cd4 Db2 Db3 Db4 Dc2 Dc3 Dc4 Dd2 Dd3 Dd4",
    );
}
