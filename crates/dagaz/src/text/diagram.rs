//! A position drawn as text, for the terminal and for scripts: rows of
//! letters with the row names on the left and the column names below.

use super::fen;
use crate::game::Game;
use crate::position::Position;

/// The board as rows of letters (`.` empty, blank for removed squares,
/// `(Sss)` for a stack, top first, a number on heap boards), with row
/// labels on the left and column labels below.
pub fn draw(game: &Game, pos: &Position) -> String {
    let topo = &game.topology;
    let grid = topo.grid();
    let heap = game.cells.is_counts();
    let text = |c: usize, r: usize, level: usize| -> String {
        match topo.at(c as i32, r as i32, level as i32) {
            None => " ".to_string(),
            Some(sq) if heap => pos.cell(sq).0.to_string(),
            Some(sq) => fen::square_text(game, pos, sq).unwrap_or_else(|| ".".to_string()),
        }
    };
    let levels = grid.levels.len().max(1);
    let mut widest = grid.cols.iter().map(String::len).max().unwrap_or(1);
    for level in 0..levels {
        for r in 0..grid.rows.len() {
            for c in 0..grid.cols.len() {
                widest = widest.max(text(c, r, level).chars().count());
            }
        }
    }
    let col_width = widest + 1;
    let label_width = grid.rows.iter().map(String::len).max().unwrap_or(1);
    let mut out = String::new();
    for level in 0..levels {
        if let Some(name) = grid.levels.get(level) {
            out += &format!("level {name}\n");
        }
        for (r, row) in grid.rows.iter().enumerate() {
            out += &format!("{row:>label_width$} ");
            for c in 0..grid.cols.len() {
                out += &format!("{:>col_width$}", text(c, r, level));
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
