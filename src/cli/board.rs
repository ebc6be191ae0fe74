//! Text drawing of a board for the terminal.

use dagaz::game::Game;
use dagaz::position::{Position, fen};

/// The board as rows of letters (`.` empty, blank for removed squares),
/// with row labels on the left and column labels below.
pub fn draw(game: &Game, pos: &Position) -> String {
    let topo = &game.topology;
    let grid = topo.grid();
    let label_width = grid.rows.iter().map(String::len).max().unwrap_or(1);
    let heap = game.cells.is_counts();
    let col_width = grid
        .cols
        .iter()
        .map(String::len)
        .max()
        .unwrap_or(1)
        .max(if heap { 2 } else { 1 })
        + 1;
    let mut out = String::new();
    for level in 0..grid.levels.len().max(1) {
        if let Some(name) = grid.levels.get(level) {
            out += &format!("level {name}\n");
        }
        for (r, row) in grid.rows.iter().enumerate() {
            out += &format!("{row:>label_width$} ");
            for c in 0..grid.cols.len() {
                let glyph = match topo.at(c as i32, r as i32, level as i32) {
                    None => " ".to_string(),
                    Some(sq) if heap => pos.cell(sq).0.to_string(),
                    Some(sq) => fen::letter(game, pos.cell(sq)).unwrap_or('.').to_string(),
                };
                out += &format!("{glyph:>col_width$}");
            }
            out.push('\n');
        }
    }
    out += &" ".repeat(label_width + 1);
    for col in &grid.cols {
        out += &format!("{col:>col_width$}");
    }
    out.push('\n');
    out
}
