//! Shogi positions in the SFEN form: `lnsgkgsnl/1r5b1/... b 2Pp 1` — the
//! board from the top row, the side to move, the pieces in hand (counts
//! before letters, upper case for the first player, `-` for none) and the
//! move number. Promoted pieces are written with `+` before the letter.
//!
//! A game whose symbols have more than one letter (Taikyoku shogi's `FLG`)
//! writes each row as comma-separated tokens, as the Taikyoku shogi site's
//! TSFEN does: a number is a run of empty squares, a symbol may be
//! followed by a count (`P36` is 36 Pawns in a row).

use super::fen::{FenError, fail};
use crate::board::Square;
use crate::game::Game;
use crate::position::{Cell, NO_PIECE, Position};

/// The piece and owner a symbol stands for (`P`, `+p`, …).
fn piece_of(game: &Game, symbol: &str) -> Option<(u16, usize)> {
    let owner = if symbol.chars().any(|c| c.is_ascii_lowercase()) {
        1
    } else {
        0
    };
    let upper = symbol.to_ascii_uppercase();
    let piece = game
        .pieces
        .iter()
        .position(|p| p.symbol.to_ascii_uppercase() == upper)
        .map(|t| t as u16)
        .or_else(|| {
            // A single letter may be an alias (`[fen] aliases`).
            let mut chars = symbol.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => game
                    .fen
                    .aliases
                    .iter()
                    .find(|(a, _)| *a == c.to_ascii_uppercase())
                    .map(|(_, t)| *t),
                _ => None,
            }
        })?;
    Some((piece, owner))
}

/// A position in Fairy-Stockfish's form, `board[hand] w|b …` (its side
/// letter `w` is the first player), rewritten as SFEN; `None` if `text`
/// is not in that form.
fn from_fsf(game: &Game, text: &str) -> Option<String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let (board, rest) = fields.first()?.split_once('[')?;
    let hand = rest.strip_suffix(']')?;
    let side = match fields.get(1).copied() {
        None | Some("w") => 0,
        Some("b") => 1,
        Some(_) => return None,
    };
    let hand = if hand.is_empty() { "-" } else { hand };
    let letter = game.players.get(side)?.letter;
    // The move number is the last field, if it is a number: a count of
    // full moves, as chess counts them, where SFEN counts plies.
    let number = fields
        .last()
        .and_then(|f| f.parse::<u32>().ok())
        .filter(|_| fields.len() > 2);
    Some(match number {
        Some(n) => format!(
            "{board} {letter} {hand} {}",
            (n.max(1) - 1) * 2 + side as u32 + 1
        ),
        None => format!("{board} {letter} {hand}"),
    })
}

/// The position in Fairy-Stockfish's form: the board with the hands in
/// brackets, `w` or `b` for the first or second player, and the move
/// number.
pub fn write_fsf(game: &Game, pos: &Position) -> String {
    let sfen = write(game, pos);
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    let hand = match fields.get(2) {
        Some(&"-") | None => String::new(),
        Some(h) => {
            let mut out = String::new();
            for (count, c) in hand_entries(&sfen, h).unwrap_or_default() {
                for _ in 0..count {
                    out.push(c);
                }
            }
            out
        }
    };
    let side = if pos.side() == 0 { "w" } else { "b" };
    format!("{}[{hand}] {side} 0 {}", fields[0], pos.fullmove())
}

/// The symbol of a cell, lower case for the second player.
pub fn symbol(game: &Game, cell: Cell) -> Option<String> {
    let info = game.cells.info(cell);
    if cell.is_empty() || info.piece == NO_PIECE {
        return None;
    }
    let s = &game.pieces[info.piece as usize].symbol;
    Some(if info.owner == 0 {
        s.to_ascii_uppercase()
    } else {
        s.to_ascii_lowercase()
    })
}

pub fn parse(game: &Game, text: &str) -> Result<Position, FenError> {
    if let Some(sfen) = from_fsf(game, text) {
        return parse(game, &sfen).map_err(|e| fail(text, e.message));
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() || fields.len() > 4 {
        return Err(fail(text, "expected board, side, hands and move number"));
    }
    if game.players.len() != 2 {
        return Err(fail(text, "SFEN is defined for two players"));
    }
    let mut pos = Position::empty(
        game.topology.len(),
        game.slot_count() - game.topology.len(),
        2,
        game.pieces.len(),
    );
    let grid = game.topology.grid();
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != grid.rows.len() {
        return Err(fail(
            text,
            format!(
                "the board has {} rows, the position gives {}",
                grid.rows.len(),
                rows.len()
            ),
        ));
    }
    let comma_rows = comma_rows(game);
    for (r, row) in rows.iter().enumerate() {
        let tokens = if comma_rows {
            row_tokens(text, row, r)?
        } else {
            letter_tokens(row)
        };
        let mut col = 0usize;
        for (sym, count) in tokens {
            if sym.is_empty() {
                col += count;
                continue;
            }
            let (piece, owner) = piece_of(game, &sym)
                .ok_or_else(|| fail(text, format!("unknown piece '{sym}' in row {}", r + 1)))?;
            for _ in 0..count {
                let sq = game
                    .topology
                    .at(col as i32, r as i32, 0)
                    .filter(|_| col < grid.cols.len())
                    .ok_or_else(|| fail(text, format!("row {} is too long", r + 1)))?;
                pos.set(
                    &game.cells,
                    sq.index(),
                    game.cells.piece(piece, owner, false),
                );
                col += 1;
            }
        }
        if col != grid.cols.len() {
            return Err(fail(
                text,
                format!(
                    "row {} has {col} columns, the board has {}",
                    r + 1,
                    grid.cols.len()
                ),
            ));
        }
    }
    let side = match fields.get(1) {
        None => 0,
        Some(s) => game
            .players
            .iter()
            .position(|p| s.len() == 1 && s.starts_with(p.letter))
            .ok_or_else(|| {
                let letters: Vec<String> =
                    game.players.iter().map(|p| p.letter.to_string()).collect();
                fail(
                    text,
                    format!("side to move '{s}' is not one of {}", letters.join(", ")),
                )
            })?,
    };
    pos.set_side(side);
    if let Some(hands) = fields.get(2).filter(|h| **h != "-") {
        if !game.has_hands() {
            // Chu shogi (lishogi): the square where a Lion was just taken
            // by a piece that is not a Lion.
            let lions = lion_trade_mask(game);
            return match game.topology.square(hands) {
                Some(sq) if lions != 0 => {
                    pos.push_capture_note(1 - side, sq, lions);
                    finish_counters(pos, text, fields.get(3))
                }
                _ => Err(fail(text, "this game has no hands")),
            };
        }
        for (count, c) in hand_entries(text, hands)? {
            let (piece, owner) = piece_of(game, &c.to_string())
                .ok_or_else(|| fail(text, format!("unknown piece '{c}' in hand")))?;
            let slot = game.hand_slot(owner, piece);
            let n = pos.slot(slot).0.saturating_add(count);
            pos.set(&game.cells, slot, Cell(n));
        }
    }
    finish_counters(pos, text, fields.get(3))
}

/// The game writes rows as comma-separated tokens: some symbol has more
/// than one letter.
pub(crate) fn comma_rows(game: &Game) -> bool {
    game.pieces.iter().any(|p| {
        p.symbol
            .trim_start_matches('+')
            .chars()
            .filter(char::is_ascii_alphabetic)
            .count()
            > 1
    })
}

/// A row of single-letter symbols as (symbol, 1) and (`""`, run of empty
/// squares) tokens: `+P`, `N'`, `3`.
fn letter_tokens(row: &str) -> Vec<(String, usize)> {
    let chars: Vec<char> = row.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let mut n = 0usize;
            while i < chars.len() && chars[i].is_ascii_digit() {
                n = n.saturating_mul(10) + chars[i].to_digit(10).unwrap_or(0) as usize;
                i += 1;
            }
            out.push((String::new(), n));
            continue;
        }
        let start = i;
        if chars[i] == '+' {
            i += 1;
        }
        i += 1;
        // Games with more piece types than letters write some with an
        // apostrophe (`N'`), as XBoard does.
        if chars.get(i) == Some(&'\'') {
            i += 1;
        }
        out.push((chars[start..i.min(chars.len())].iter().collect(), 1));
    }
    out
}

/// A comma-separated row (`5,D,4,GB`, `P36`) as tokens: a number is a run
/// of empty squares, a symbol may end with how many stand in a row.
fn row_tokens(text: &str, row: &str, r: usize) -> Result<Vec<(String, usize)>, FenError> {
    let mut out = Vec::new();
    for token in row.split(',') {
        let digits = token.len() - token.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (sym, count) = token.split_at(token.len() - digits);
        let count = match count.parse::<usize>() {
            Ok(n) if n > 0 && n <= 1000 => n,
            Err(_) if count.is_empty() && !sym.is_empty() => 1,
            _ => {
                return Err(fail(
                    text,
                    format!("row {}: '{token}' is not a symbol, a count or both", r + 1),
                ));
            }
        };
        out.push((sym.to_string(), count));
    }
    Ok(out)
}

/// The hands field as (count, letter) pairs: `2Pp` is two `P` and one
/// `p`. A count is 1 to 999 and stands before its letter.
pub(super) fn hand_entries(text: &str, hands: &str) -> Result<Vec<(u16, char)>, FenError> {
    let mut out = Vec::new();
    let mut digits = String::new();
    for c in hands.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let count = if digits.is_empty() {
            1
        } else {
            match digits.parse::<u16>() {
                Ok(n) if (1..=999).contains(&n) && !digits.starts_with('0') => n,
                _ => {
                    return Err(fail(
                        text,
                        format!("'{digits}{c}' in hand: a count is 1 to 999, before its piece"),
                    ));
                }
            }
        };
        out.push((count, c));
        digits.clear();
    }
    if !digits.is_empty() {
        return Err(fail(
            text,
            format!("the hands end with the count '{digits}' and no piece after it"),
        ));
    }
    Ok(out)
}

/// Reads the move number field: the plies played before, plus one.
fn finish_counters(mut pos: Position, text: &str, n: Option<&&str>) -> Result<Position, FenError> {
    if let Some(n) = n {
        let n: u32 = n
            .parse()
            .map_err(|_| fail(text, format!("move number '{n}' is not a number")))?;
        pos.set_plies_played(n.max(1) - 1);
    }
    Ok(pos)
}

pub fn write(game: &Game, pos: &Position) -> String {
    let grid = game.topology.grid();
    let comma_rows = comma_rows(game);
    let mut rows = Vec::new();
    for r in 0..grid.rows.len() {
        // Runs of the same symbol (`None`: empty squares).
        let mut runs: Vec<(Option<String>, usize)> = Vec::new();
        for c in 0..grid.cols.len() {
            let cell = game
                .topology
                .at(c as i32, r as i32, 0)
                .map_or(Cell::EMPTY, |sq| pos.cell(sq));
            let s = symbol(game, cell);
            match runs.last_mut() {
                Some((last, n)) if *last == s && (s.is_none() || comma_rows) => *n += 1,
                _ => runs.push((s, 1)),
            }
        }
        let tokens = runs.into_iter().map(|(s, n)| match s {
            None => n.to_string(),
            Some(s) if n > 1 => format!("{s}{n}"),
            Some(s) => s,
        });
        let separator = if comma_rows { "," } else { "" };
        rows.push(tokens.collect::<Vec<_>>().join(separator));
    }
    let mut hands = String::new();
    // The pieces of `[fen] hand_order` first, then the others in file order.
    let order = game
        .fen
        .hand_order
        .iter()
        .copied()
        .chain((0..game.pieces.len() as u16).filter(|t| !game.fen.hand_order.contains(t)));
    let order: Vec<u16> = order.collect();
    for owner in 0..2 {
        for &t in &order {
            let piece = &game.pieces[t as usize];
            let n = game.in_hand(pos, owner, t);
            if n > 1 {
                hands += &n.to_string();
            }
            if n > 0 {
                let s = &piece.symbol;
                hands += &if owner == 0 {
                    s.to_ascii_uppercase()
                } else {
                    s.to_ascii_lowercase()
                };
            }
        }
    }
    if hands.is_empty() {
        hands = last_lion_capture(game, pos)
            .map_or("-".into(), |sq| game.topology.name(sq).to_string());
    }
    format!(
        "{} {} {} {}",
        rows.join("/"),
        game.players[pos.side()].letter,
        hands,
        pos.plies_played() + 1
    )
}

/// The Lions of a game whose end rule restricts Lion trading (chu
/// shogi's), as a mask of piece types; 0 in other games (Dai shogi has
/// Lions and no such rule).
fn lion_trade_mask(game: &Game) -> u64 {
    match &game.end_rule {
        Some(rule) if rule.restricts_lion_trading() => crate::handler::lion_mask(game),
        _ => 0,
    }
}

/// Chu shogi: the square of the last move if it was a piece that is not a
/// Lion taking a Lion (lishogi writes it in the third field).
fn last_lion_capture(game: &Game, pos: &Position) -> Option<Square> {
    let lions = lion_trade_mask(game);
    let last = pos.history().last()?;
    let by_lion = last.piece < 64 && lions & (1 << last.piece) != 0;
    (lions != 0 && last.took & lions != 0 && !by_lion)
        .then_some(last.to)
        .flatten()
}
