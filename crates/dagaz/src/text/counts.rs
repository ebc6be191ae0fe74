//! Positions of heap boards (mancala) as counts: the rows from the top,
//! `/` between rows, each row the comma-separated counts of its squares
//! from the left (removed squares are left out), then the side to move:
//! `0,4,4,4,4,4,4/4,4,4,4,4,4,0 s`.

use super::fen::{FenError, fail};
use crate::game::Game;
use crate::position::{Cell, Position};

/// Parses a heap position.
pub fn parse(game: &Game, text: &str) -> Result<Position, FenError> {
    let topo = &game.topology;
    let mut pos = Position::empty(
        topo.len(),
        game.slot_count() - topo.len(),
        game.players.len(),
        game.pieces.len(),
    );
    let mut fields = text.split_whitespace();
    let board = fields.next().unwrap_or("");
    let rows: Vec<&str> = board.split('/').collect();
    let grid = topo.grid();
    if rows.len() != grid.rows.len() {
        return Err(fail(
            text,
            format!(
                "{} rows given, the board has {}",
                rows.len(),
                grid.rows.len()
            ),
        ));
    }
    for (r, row) in rows.iter().enumerate() {
        let squares: Vec<_> = (0..grid.cols.len() as i32)
            .filter_map(|c| topo.at(c, r as i32, 0))
            .collect();
        let counts: Vec<&str> = row.split(',').collect();
        if counts.len() != squares.len() {
            return Err(fail(
                text,
                format!(
                    "row {} has {} counts, the board has {} squares there",
                    grid.rows[r],
                    counts.len(),
                    squares.len()
                ),
            ));
        }
        for (sq, n) in squares.into_iter().zip(counts) {
            let n: u16 = n
                .trim()
                .parse()
                .ok()
                .filter(|n| *n < 0x8000)
                .ok_or_else(|| fail(text, format!("'{n}' is not a count of pieces")))?;
            pos.set(&game.cells, sq.index(), Cell(n));
        }
    }
    if let Some(side) = fields.next() {
        let p = game
            .players
            .iter()
            .position(|p| side.len() == 1 && side.starts_with(p.letter))
            .ok_or_else(|| fail(text, format!("unknown side to move '{side}'")))?;
        pos.set_side(p);
    }
    if let Some(extra) = fields.next() {
        return Err(fail(
            text,
            format!("unexpected '{extra}' after the side to move"),
        ));
    }
    Ok(pos)
}

/// Writes a heap position.
pub fn write(game: &Game, pos: &Position) -> String {
    let topo = &game.topology;
    let grid = topo.grid();
    let rows: Vec<String> = (0..grid.rows.len() as i32)
        .map(|r| {
            (0..grid.cols.len() as i32)
                .filter_map(|c| topo.at(c, r, 0))
                .map(|sq| pos.cell(sq).0.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    format!("{} {}", rows.join("/"), game.players[pos.side()].letter)
}
