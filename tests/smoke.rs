use dagaz::game::load_game;
use dagaz::movegen::perft;

#[test]
fn chess_perft_small() {
    let game = load_game("chess").unwrap_or_else(|e| panic!("{e}"));
    let mut pos = game.initial_position();
    for (d, n) in [(1, 20), (2, 400), (3, 8902)] {
        assert_eq!(perft(&game, &mut pos, d).unwrap(), n, "depth {d}");
    }
}

#[test]
fn dump_rook() {
    let game = load_game("chess").unwrap();
    let r = game.piece_by_name("Rook").unwrap();
    for (i, op) in game.pieces[r as usize].programs[0].ops.iter().enumerate() {
        eprintln!("{i}: {op:?}");
    }
}

#[test]
fn dump_cells() {
    let game = load_game("chess").unwrap();
    let pos = game.initial_position();
    for sq in game.topology.squares().take(16).chain(game.topology.squares().skip(48)) {
        let c = pos.cell(sq);
        eprintln!("{} {:?} {:?}", game.topology.name(sq), c, game.cells.info(c));
    }
}
