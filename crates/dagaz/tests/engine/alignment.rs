//! Games decided by their goals: lines (tic-tac-toe, Connect Four,
//! Gomoku), races (Breakthrough) and running out of moves (Clobber).

use crate::common::{self, v};

use dagaz::game::{Game, GameResult};
use dagaz::load::load_game;
use dagaz::movegen::{Generator, perft};
use dagaz::position::{MoveList, Position};

/// The number of finished games at each ply of the whole game tree.
fn finished_games(
    game: &Game,
    pos: &mut Position,
    ply: usize,
    out: &mut Vec<u64>,
    g: &mut Generator,
) {
    let mut list = MoveList::new();
    g.legal(game, pos, &mut list).unwrap();
    if g.result_given(game, pos, list.len()).unwrap().is_some() {
        if out.len() <= ply {
            out.resize(ply + 1, 0);
        }
        out[ply] += 1;
        return;
    }
    for i in 0..list.len() {
        let mv = list.get(i);
        game.make(pos, mv);
        finished_games(game, pos, ply + 1, out, g);
        game.undo(pos, mv);
    }
}

#[test]
fn tic_tac_toe_has_255168_finished_games() {
    let game = load_game("tic-tac-toe").unwrap();
    let mut pos = game.initial_position();
    let mut by_ply = Vec::new();
    finished_games(&game, &mut pos, 0, &mut by_ply, &mut Generator::new());
    assert_eq!(by_ply, [0, 0, 0, 0, 0, 1440, 5328, 47952, 72576, 127872]);
    assert_eq!(by_ply.iter().sum::<u64>(), 255_168);
    // A finished game has no moves, so perft 9 counts the games that
    // reach ply 9 (not 9! = 362 880, as without the goal).
    assert_eq!(
        perft(&game, &mut game.initial_position(), 9).unwrap(),
        127_872
    );
}

#[test]
fn tic_tac_toe_results() {
    let game = load_game("tic-tac-toe").unwrap();
    let result = |fen: &str| {
        let mut pos = common::position(&game, fen);
        Generator::new().result(&game, &mut pos).unwrap()
    };
    // X completed the diagonal: X wins, O to move.
    match result("M1m/1Mm/2M o 2M2m 4") {
        Some(GameResult::Win { winner: 0, reason }) => assert_eq!(reason, "3 in a row"),
        other => panic!("{other:?}"),
    }
    assert_eq!(result("M1m/1M1/3 o 3M3m 3"), None);
    match result("MmM/Mmm/mMM o - 5") {
        Some(GameResult::Draw { reason }) => assert_eq!(reason, "the board is full"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn connect_four_perft_is_oeis_a212693() {
    let game = load_game("connect-four").unwrap();
    let expected = [7u64, 49, 343, 2_401, 16_807, 117_649, 823_536];
    for (depth, nodes) in expected.iter().enumerate() {
        let got = perft(&game, &mut game.initial_position(), depth as u32 + 1).unwrap();
        assert_eq!(got, *nodes, "depth {}", depth + 1);
    }
}

#[test]
fn connect_four_discs_fall_and_four_in_a_row_wins() {
    let game = load_game("connect-four").unwrap();
    // Only the lowest empty square of each column.
    let moves = common::moves(&game, "7/7/7/7/D6/Dd5 y 19D20d 2");
    assert_eq!(
        moves,
        v(&["D*a3", "D*b2", "D*c1", "D*d1", "D*e1", "D*f1", "D*g1"])
    );
    let mut pos = common::position(&game, "7/7/7/D6/Dd5/Dd5 r 18D19d 3");
    common::play(&game, &mut pos, "D*a4");
    match Generator::new().result(&game, &mut pos).unwrap() {
        Some(GameResult::Win { winner: 0, .. }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn gomoku_needs_exactly_five() {
    let game = load_game("gomoku").unwrap();
    let empty = "15/".repeat(14) + "15";
    let board = |row: &str| format!("{row}/{}", empty.split_once('/').unwrap().1);
    let result = |row: &str, hands: &str| {
        let mut pos = common::position(&game, &format!("{} w {hands} 1", board(row)));
        Generator::new().result(&game, &mut pos).unwrap()
    };
    match result("SSSSS10", "108S112s") {
        Some(GameResult::Win { winner: 0, reason }) => assert_eq!(reason, "exactly 5 in a row"),
        other => panic!("{other:?}"),
    }
    assert_eq!(result("SSSSSS9", "107S112s"), None, "six are not five");
    assert_eq!(result("SSSS11", "109S112s"), None);
    assert_eq!(
        perft(&game, &mut game.initial_position(), 2).unwrap(),
        225 * 224
    );
}

#[test]
fn breakthrough_first_moves_and_goals() {
    let game = load_game("breakthrough").unwrap();
    // Eight straight steps and fourteen diagonal ones from the front row.
    assert_eq!(
        common::moves_in(&game, &mut game.initial_position()).len(),
        22
    );
    let result = |fen: &str| {
        let mut pos = common::position(&game, fen);
        Generator::new().result(&game, &mut pos).unwrap()
    };
    match result("3P4/8/8/8/8/8/8/p7 b - - 0 1") {
        Some(GameResult::Win { winner: 0, reason }) => assert_eq!(reason, "reached far"),
        other => panic!("{other:?}"),
    }
    match result("8/8/8/8/8/8/3p4/8 w - - 0 1") {
        Some(GameResult::Win { winner: 1, reason }) => assert_eq!(reason, "pieces < 1"),
        other => panic!("{other:?}"),
    }
    // A pawn blocked straight ahead still captures diagonally.
    let moves = common::moves(
        &game,
        "4k3/8/8/8/8/2ppp3/3P4/8 w - - 0 1"
            .replace('k', "p")
            .as_str(),
    );
    assert_eq!(moves, v(&["d2c3", "d2e3"]));
}

#[test]
fn clobber_moves_only_by_taking_and_who_cannot_move_loses() {
    let game = load_game("clobber").unwrap();
    // Every stone can take each orthogonal neighbour: 2 x (4x6 + 5x5) = 98
    // pairs, half of them White's.
    assert_eq!(
        common::moves_in(&game, &mut game.initial_position()).len(),
        49
    );
    let mut pos = common::position(&game, "5/5/5/5/2S2/2s2 b - - 0 1");
    common::play(&game, &mut pos, "c1c2");
    match Generator::new().result(&game, &mut pos).unwrap() {
        Some(GameResult::Win { winner: 1, reason }) => assert_eq!(reason, "no legal moves"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn hex_chains_link_a_players_edges() {
    let game = load_game("hex").unwrap();
    assert_eq!(
        common::moves_in(&game, &mut game.initial_position()).len(),
        121
    );
    let result = |fen: &str| {
        let mut pos = common::position(&game, fen);
        Generator::new().result(&game, &mut pos).unwrap()
    };
    // Red down the a-file: top edge to bottom edge.
    let red = format!("S10/{} b 50S50s 11", ["S9s"; 10].join("/"));
    match result(&red) {
        Some(GameResult::Win { winner: 0, reason }) => {
            assert_eq!(reason, "connected first_edge and second_edge")
        }
        other => panic!("{other:?}"),
    }
    // Blue across row 6; Red's top row links nothing.
    match result("SSSSSSSSSSS/11/11/11/11/sssssssssss/11/11/11/11/11 r 50S49s 12") {
        Some(GameResult::Win { winner: 1, .. }) => {}
        other => panic!("{other:?}"),
    }
    // A zigzag along the board's own diagonal (R: south-west) links too;
    // a chain broken by one cell does not.
    let zigzag = "10S/9SS/11/11/11/11/11/11/11/11/11 b 58S61s 2";
    assert_eq!(result(zigzag), None);
    let diagonal: Vec<String> = (0..11)
        .map(|r| {
            let col = 10 - r;
            let before = if col > 0 {
                col.to_string()
            } else {
                String::new()
            };
            let after = if col < 10 {
                (10 - col).to_string()
            } else {
                String::new()
            };
            format!("{before}S{after}")
        })
        .collect();
    let fen = format!("{} b 50S61s 2", diagonal.join("/"));
    assert!(
        matches!(result(&fen), Some(GameResult::Win { winner: 0, .. })),
        "{fen}"
    );
}

#[test]
fn connect6_plays_one_stone_then_two_a_turn() {
    let game = load_game("connect6").unwrap();
    assert_eq!(
        perft(&game, &mut game.initial_position(), 2).unwrap(),
        361 * 360
    );
    let mut pos = game.initial_position();
    let sides: Vec<usize> = ["S*j10", "S*a1", "S*b1", "S*s19", "S*s18", "S*a2"]
        .iter()
        .map(|m| {
            let side = pos.side();
            common::play(&game, &mut pos, m);
            side
        })
        .collect();
    assert_eq!(sides, [0, 1, 1, 0, 0, 1]);
    assert_eq!(pos.side(), 1, "White's second stone");
    // Six in a row wins; the turn order does not matter to the goal.
    let row = "SSSSSS13/".to_string() + &"19/".repeat(17) + "ss17";
    let mut pos = common::position(&game, &format!("{row} w 175S178s 12"));
    match Generator::new().result(&game, &mut pos).unwrap() {
        Some(GameResult::Win { winner: 0, reason }) => assert_eq!(reason, "6 in a row"),
        other => panic!("{other:?}"),
    }
}
