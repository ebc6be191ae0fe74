//! Draughts positions in the PDN form `W:W21,22,K30:B1,2,3`: the side to
//! move, then each side's pieces by square number, `K` before a king.
//! Ranges (`W21-32`) are accepted. Square numbers are the board's square
//! names (`[board] names = "numbers"`).

use super::fen::{FenError, fail};
use crate::game::Game;
use crate::position::Position;

/// Parses a PDN position; `man` and `king` are the piece types.
pub fn parse(game: &Game, text: &str, man: u16, king: u16) -> Result<Position, FenError> {
    let text = text.trim().trim_end_matches('.');
    let mut pos = Position::empty(
        game.topology.len(),
        game.slot_count() - game.topology.len(),
        game.players.len(),
        game.pieces.len(),
    );
    let mut fields = text.split(':');
    let side = fields.next().unwrap_or("");
    let side = player_of(game, side)
        .ok_or_else(|| fail(text, format!("unknown side to move '{side}'")))?;
    pos.set_side(side);
    for field in fields {
        let field = field.trim();
        if field.is_empty() {
            continue;
        }
        let (who, list) = field.split_at(field.chars().next().map_or(0, char::len_utf8));
        let owner =
            player_of(game, who).ok_or_else(|| fail(text, format!("unknown side '{who}'")))?;
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (piece, squares) = match item.strip_prefix('K') {
                Some(rest) => (king, rest),
                None => (man, item),
            };
            let (a, b) = squares.split_once('-').unwrap_or((squares, squares));
            let (a, b): (usize, usize) = match (a.parse(), b.parse()) {
                (Ok(a), Ok(b)) if a >= 1 && a <= b => (a, b),
                _ => {
                    return Err(fail(
                        text,
                        format!("'{item}' is not a square number or range"),
                    ));
                }
            };
            for n in a..=b {
                let sq = game
                    .topology
                    .square(&n.to_string())
                    .ok_or_else(|| fail(text, format!("there is no square {n}")))?;
                if !pos.cell(sq).is_empty() {
                    return Err(fail(text, format!("square {n} is given twice")));
                }
                pos.set(
                    &game.cells,
                    sq.index(),
                    game.cells.piece(piece, owner, false),
                );
            }
        }
    }
    Ok(pos)
}

/// Writes a PDN position.
pub fn write(game: &Game, pos: &Position, king: u16) -> String {
    let mut out = game.players[pos.side()]
        .letter
        .to_ascii_uppercase()
        .to_string();
    for (owner, player) in game.players.iter().enumerate() {
        out.push(':');
        out.push(player.letter.to_ascii_uppercase());
        let mut items = Vec::new();
        for sq in game.topology.squares() {
            let info = game.cells.info(pos.cell(sq));
            if !pos.cell(sq).is_empty() && info.owner as usize == owner && !info.phantom {
                let k = if info.piece == king { "K" } else { "" };
                let name = game.topology.name(sq);
                items.push((name.parse::<u32>().ok(), format!("{k}{name}")));
            }
        }
        // Numbered squares in increasing order, whichever corner they
        // start from.
        items.sort_by_key(|(number, _)| *number);
        let items: Vec<String> = items.into_iter().map(|(_, text)| text).collect();
        out += &items.join(",");
    }
    out
}

fn player_of(game: &Game, s: &str) -> Option<usize> {
    let mut chars = s.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    game.players
        .iter()
        .position(|p| p.letter.eq_ignore_ascii_case(&c))
}
