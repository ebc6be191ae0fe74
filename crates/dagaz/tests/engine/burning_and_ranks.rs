//! Two rules of the large shogi variants on a small board: burning pieces
//! (`[rules] burning`, Tenjiku's Fire Demon) and the handler `outranks`
//! (the jumping generals, which capture by jumping over lower-ranked
//! pieces).

use dagaz::load::load_str;

use crate::common::{moves, play, position};

const SOURCE: &str = r#"
[game]
name = "fire"
players = ["Black", "White"]

[board]
grid = "a-g x 7-1"

[players.Black]
letter = "b"

[players.White]
letter = "w"
map = "N=S S=N O=T T=O M=R R=M"

[handlers]
1 = "outranks:King>General"

[pieces.King]
letter = "K"
royal = true
moves = "*"

[pieces.Demon]
letter = "D"
moves = "*"

[pieces.General]
letter = "G"
moves = ["(+)[p](\\1[p])*", "(+)([p]\\1 ; [1]\\1)*[e]"]

[pieces.Pawn]
letter = "P"
moves = "N"

[setup]
fen = "3k3/7/7/7/7/7/3K3 b"

[rules]
burning = ["Demon"]
goals = ["no_moves = win"]
"#;

fn game() -> dagaz::game::Game {
    load_str(SOURCE, "fire.toml", "fire").unwrap()
}

#[test]
fn a_demon_burns_the_enemies_around_where_it_stops() {
    let game = game();
    // The Demon steps from c3 to d4: the white pawns on c5 and e4 burn,
    // Black's own pawn on e5 does not.
    let mut pos = position(&game, "3k3/7/2p1P2/4p2/2D4/7/K6 b");
    play(&game, &mut pos, "c3d4");
    let after = game.write_position(&pos);
    assert!(after.starts_with("3k3/7/4P2/3D3/7/7/K6 w"), "{after}");
}

#[test]
fn a_piece_that_stops_next_to_an_enemy_demon_is_burned() {
    let game = game();
    // The pawn takes on d5, next to White's Demon on e6: the capture
    // stands, the pawn is gone.
    let mut pos = position(&game, "3k3/4d2/3p3/3P3/7/7/K6 b");
    play(&game, &mut pos, "d4d5");
    let after = game.write_position(&pos);
    assert!(after.starts_with("3k3/4d2/7/7/7/7/K6 w"), "{after}");
    // A Demon that stops next to the enemy Demon burns, and burns nothing.
    let mut pos = position(&game, "3k3/4d2/2p4/3D3/7/7/K6 b");
    play(&game, &mut pos, "d4d5");
    let after = game.write_position(&pos);
    assert!(after.starts_with("3k3/4d2/2p4/7/7/7/K6 w"), "{after}");
}

#[test]
fn a_general_captures_over_lower_pieces_of_either_side_only() {
    let game = game();
    // From a1: pawns on a2 (own) and a3 (enemy) are jumped to take a4's
    // pawn; a quiet move never jumps; a King stops the general.
    let from_a1 = |fen: &str| -> Vec<String> {
        moves(&game, fen)
            .into_iter()
            .filter(|m| m.starts_with("a1"))
            .collect()
    };
    assert_eq!(
        from_a1("3k3/7/7/p6/p6/P6/G5K b"),
        ["a1a3", "a1a4", "a1b1", "a1c1", "a1d1", "a1e1", "a1f1"]
    );
    assert_eq!(
        from_a1("3k3/7/p6/k6/7/7/G5K b"),
        [
            "a1a2", "a1a3", "a1a4", "a1b1", "a1c1", "a1d1", "a1e1", "a1f1"
        ]
    );
}

#[test]
fn a_rank_list_naming_no_piece_is_refused() {
    let source = SOURCE.replace("outranks:King>General", "outranks:King>Genral");
    let err = load_str(&source, "fire.toml", "fire")
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown piece 'Genral'"), "{err}");
}

#[test]
fn burning_files_are_checked() {
    let royal = SOURCE.replace(
        "burning = [\"Demon\"]",
        "burning = [\"Demon\"]\nroyal_safety = true",
    );
    let err = load_str(&royal, "fire.toml", "fire")
        .unwrap_err()
        .to_string();
    assert!(err.contains("cannot go with royal_safety"), "{err}");
    let twice = SOURCE.replace("outranks:King>General", "outranks:King>General,King");
    let err = load_str(&twice, "fire.toml", "fire")
        .unwrap_err()
        .to_string();
    assert!(err.contains("'King' is ranked twice"), "{err}");
}
