//! Position strings in the FEN form: board, side to move, castling rights,
//! en passant square, halfmove clock, move number.
//!
//! The board lists the grid's rows from the top, files from the left; the
//! first player's pieces are upper case, the second's lower case. Castling
//! rights and the en passant square are not stored as such: they become
//! the "has moved" flags of kings and rooks and a remembered last move,
//! which is what the notation's `[M]`, `[l]` and `[t]` read
//! (`docs/notation.md`, "Position strings").

use crate::board::Square;
use crate::game::Game;
use crate::position::{Cell, NO_PIECE, Position};

/// A position string that does not describe a position of the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad position '{text}': {message}")]
pub struct FenError {
    pub text: String,
    pub message: String,
}

pub(crate) fn fail(text: &str, message: impl Into<String>) -> FenError {
    FenError {
        text: text.to_string(),
        message: message.into(),
    }
}

/// Parses a position. `setup` is the game's initial position, used to tell
/// which pieces still stand where they started (their "has moved" flag is
/// clear); `None` treats every piece as unmoved.
pub fn parse(game: &Game, text: &str, setup: Option<&Position>) -> Result<Position, FenError> {
    let mut fields: Vec<&str> = text.split_whitespace().collect();
    // Fairy-Stockfish's check counts (`3+3`: checks each side may still
    // give) stand after the en passant field.
    let mut checks = match fields.get(4) {
        Some(f) if f.contains('+') => Some(fields.remove(4).to_string()),
        _ => None,
    };
    // Lichess's form counts the checks given, as a last field `+2+0`.
    if let Some(last) = fields
        .last()
        .filter(|f| fields.len() > 2 && f.starts_with('+'))
    {
        checks = Some(checks_given(game, text, last)?);
        fields.pop();
    }
    // Fairy-Stockfish leaves out castling and en passant in games without
    // them: `… w 0 1`.
    if fields.len() >= 3 && fields[2].parse::<u32>().is_ok() {
        fields.splice(2..2, ["-", "-"]);
    }
    if fields.is_empty() || fields.len() > 6 {
        return Err(fail(
            text,
            "expected 1 to 6 fields: board, side, castling, en passant, halfmove clock, move number",
        ));
    }
    let mut pos = Position::empty(
        game.topology.len(),
        game.slot_count() - game.topology.len(),
        game.players.len(),
        game.pieces.len(),
    );
    // Fairy-Stockfish writes the pieces in hand after the board, in
    // brackets: `.../RNBQKBNR[Pp]`.
    let (board, hand) = match fields[0].split_once('[') {
        Some((board, rest)) => {
            let hand = rest
                .strip_suffix(']')
                .ok_or_else(|| fail(text, "the pieces in hand '[…' have no closing ']'"))?;
            (board, Some(hand))
        }
        None => match hand_row(game, fields[0]) {
            // Or as one more row: `.../4K3/Qn`.
            Some((board, hand)) => (board, Some(hand)),
            None => (fields[0], None),
        },
    };
    let placed = parse_board(game, text, board)?;
    if let Some(hand) = hand {
        put_in_hands(game, text, &mut pos, hand)?;
    }
    let depth = game.stack_depth();
    let every: String = game.players.iter().map(|p| p.letter).collect();
    let side = match fields.get(1) {
        None => 0,
        // A free opening: every player's letter, every player may move.
        Some(s) if game.rules.free_opening && *s == every => 0,
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
    if game.rules.free_opening && fields.get(1) != Some(&every.as_str()) {
        pos.set_phase(1);
    }
    let field = fields.get(2).copied().unwrap_or("-");
    let rights = match game.fen.castling_960 {
        Some(rook) if field != "-" => castling_960(game, text, field, &placed, rook)?,
        _ => parse_castling(game, text, field)?,
    };
    // Where pieces in hand must be dropped first, a player still holding
    // some has moved nothing yet (placement chess: a Rook dropped on h1
    // castles with the King dropped later).
    let holds = |owner: usize| {
        game.rules.drops_first
            && game
                .pieces
                .iter()
                .enumerate()
                .any(|(t, _)| game.in_hand(&pos, owner, t as u16) > 0)
    };
    let holding: Vec<bool> = (0..game.players.len()).map(holds).collect();
    for Placed {
        sq,
        piece,
        owner,
        number,
        below,
    } in placed
    {
        let moved = game.pieces[piece as usize].tracks_moved
            && !holding[owner]
            && has_moved(game, setup, &rights, sq, piece, owner);
        // Attributes are not written: a piece gets its type's values.
        let cell = match game.numbered() {
            true => game.cells.numbered_piece(piece, owner, moved, number),
            false => game.cells.piece(piece, owner, moved),
        };
        pos.set(&game.cells, sq.index(), cell);
        if below.len() > depth {
            return Err(fail(
                text,
                format!(
                    "the stack on {} has {} pieces; this board holds at most {}",
                    game.topology.name(sq),
                    below.len() + 1,
                    game.stack_height
                ),
            ));
        }
        for (d, (piece, owner)) in below.into_iter().enumerate() {
            pos.set(
                &game.cells,
                game.stack_slot(sq, d),
                game.cells.piece(piece, owner, false),
            );
        }
    }
    check_castling(game, text, &pos, setup, &rights)?;
    let clock = parse_number(text, fields.get(4), 0, "halfmove clock")?;
    let fullmove = parse_number(text, fields.get(5), 1, "move number")?;
    pos.set_counters(clock, fullmove);
    // The checks were given before the last move: the double step that
    // allows en passant must stay the last entry of the history, which is
    // what `[t]` and `[l]` read.
    if let Some(field) = checks {
        note_checks(game, text, &mut pos, &field)?;
    }
    if let Some(ep) = fields.get(3).filter(|s| **s != "-") {
        set_en_passant(game, text, &mut pos, ep)?;
    }
    Ok(pos)
}

/// How many checks each player may still give before it wins (`3+3`),
/// in games that count checks.
fn check_limit(game: &Game) -> Option<u32> {
    game.rules
        .goals
        .list
        .iter()
        .find_map(|g| match g.condition {
            crate::game::Condition::Checks(n) => Some(n),
            _ => None,
        })
}

/// Fairy-Stockfish's older form of the pieces in hand, a row after the
/// last: the board and the hand, in games with hands.
fn hand_row<'a>(game: &Game, board: &'a str) -> Option<(&'a str, &'a str)> {
    let grid = game.topology.grid();
    let rows = grid.rows.len() * grid.levels.len().max(1);
    if !game.has_hands() || board.split('/').count() != rows + 1 {
        return None;
    }
    board.rsplit_once('/')
}

/// Lichess's `+W+B` (checks each player has given) as the `3+3` form
/// (checks each may still give).
fn checks_given(game: &Game, text: &str, field: &str) -> Result<String, FenError> {
    let limit = check_limit(game).ok_or_else(|| {
        fail(
            text,
            format!("check counts '{field}': this game does not count checks"),
        )
    })?;
    let given: Vec<Option<u32>> = field[1..].split('+').map(|n| n.parse().ok()).collect();
    match given[..] {
        [Some(w), Some(b)] if w <= limit && b <= limit => {
            Ok(format!("{}+{}", limit - w, limit - b))
        }
        _ => Err(fail(
            text,
            format!(
                "check counts '{field}': expected +W+B, the checks given, at most {limit} each"
            ),
        )),
    }
}

/// Records the checks a `3+3` field says were given (as history entries
/// that name a check and nothing else).
fn note_checks(game: &Game, text: &str, pos: &mut Position, field: &str) -> Result<(), FenError> {
    let limit = check_limit(game).ok_or_else(|| {
        fail(
            text,
            format!("check counts '{field}': this game does not count checks"),
        )
    })?;
    let counts: Vec<Option<u32>> = field.split('+').map(|n| n.parse().ok()).collect();
    let [Some(white), Some(black)] = counts[..] else {
        return Err(fail(
            text,
            format!("check counts '{field}': expected two numbers, e.g. 3+3"),
        ));
    };
    for (player, left) in [(0, white), (1, black)] {
        if left > limit {
            return Err(fail(
                text,
                format!("check counts '{field}': at most {limit} each"),
            ));
        }
        for _ in 0..limit - left {
            pos.push_check_note(player);
        }
    }
    Ok(())
}

fn parse_number(
    text: &str,
    field: Option<&&str>,
    default: u32,
    what: &str,
) -> Result<u32, FenError> {
    match field {
        None => Ok(default),
        Some(s) => s
            .parse()
            .map_err(|_| fail(text, format!("{what} '{s}' is not a number"))),
    }
}

/// The pieces in hand written in brackets: letters, upper case for the
/// first player, each letter once per piece (a count before a letter is
/// accepted too: `2P`); `[]` and `[-]` are empty hands.
fn put_in_hands(game: &Game, text: &str, pos: &mut Position, hand: &str) -> Result<(), FenError> {
    let hand = if hand == "-" { "" } else { hand };
    if !game.has_hands() {
        if hand.is_empty() || game.fen.ignore_hand {
            return Ok(());
        }
        return Err(fail(text, "this game has no pieces in hand"));
    }
    if many_players(game) {
        return put_in_many_hands(game, text, pos, hand);
    }
    for (count, c) in super::sfen::hand_entries(text, hand)? {
        let (piece, owner) = piece_of(game, text, c, 0)
            .map_err(|_| fail(text, format!("unknown piece '{c}' in hand")))?;
        let slot = game.hand_slot(owner, piece);
        let n = pos.slot(slot).0.saturating_add(count);
        pos.set(&game.cells, slot, Cell(n));
    }
    Ok(())
}

/// The hands of a game of more than two players: comma-separated tokens,
/// each an optional count, the player's letter and the piece's letter
/// (`[3rS,gS]`: three Stones in Red's hand, one in Green's).
fn put_in_many_hands(
    game: &Game,
    text: &str,
    pos: &mut Position,
    hand: &str,
) -> Result<(), FenError> {
    for token in hand.split(',').filter(|t| !t.is_empty()) {
        let digits = token.chars().take_while(char::is_ascii_digit).count();
        let count = match &token[..digits] {
            "" => 1,
            n => n
                .parse::<u16>()
                .ok()
                .filter(|n| (1..=999).contains(n))
                .ok_or_else(|| fail(text, format!("'{token}' in hand: a count is 1 to 999")))?,
        };
        let (piece, owner) = player_piece(game, text, &token[digits..], 0).map_err(|_| {
            fail(
                text,
                format!("'{token}' in hand: a count, a player's letter and a piece's letter"),
            )
        })?;
        let slot = game.hand_slot(owner, piece);
        let n = pos.slot(slot).0.saturating_add(count);
        pos.set(&game.cells, slot, Cell(n));
    }
    Ok(())
}

/// The pieces in hand in brackets, as Fairy-Stockfish writes them: the
/// first player's, then the second's, each in the reverse of the game
/// file's piece order (chess: `KQRBNP`).
fn hands_text(game: &Game, pos: &Position) -> String {
    if many_players(game) {
        let mut tokens = Vec::new();
        for (player, p) in game.players.iter().enumerate() {
            for (t, piece) in game.pieces.iter().enumerate() {
                match game.in_hand(pos, player, t as u16) {
                    0 => {}
                    1 => tokens.push(format!("{}{}", p.letter, piece.letter)),
                    n => tokens.push(format!("{n}{}{}", p.letter, piece.letter)),
                }
            }
        }
        return format!("[{}]", tokens.join(","));
    }
    let mut out = String::from("[");
    for player in 0..game.players.len().min(2) {
        for (t, piece) in game.pieces.iter().enumerate().rev() {
            let letter = if player == 0 {
                piece.letter
            } else {
                piece.letter.to_ascii_lowercase()
            };
            for _ in 0..game.in_hand(pos, player, t as u16) {
                out.push(letter);
            }
        }
    }
    out.push(']');
    out
}

/// A piece placed by a position string, with the pieces under it (stack
/// boards: `(Sss)` is a stack, top first).
struct Placed {
    sq: Square,
    piece: u16,
    owner: usize,
    /// Numbered pieces' number (0 otherwise).
    number: u16,
    below: Vec<(u16, usize)>,
}

/// A piece letter: its type and owner (upper case: the first player).
fn piece_of(game: &Game, text: &str, c: char, row: usize) -> Result<(u16, usize), FenError> {
    let piece = game
        .piece_by_letter(c)
        .ok_or_else(|| fail(text, format!("unknown piece letter '{c}' in row {row}")))?;
    // Upper case (and signs like Fairy-Stockfish's `*` wall) for the first
    // player.
    Ok((piece, if c.is_ascii_lowercase() { 1 } else { 0 }))
}

/// Rows of `rank/rank/...` into placed pieces.
fn parse_board(game: &Game, text: &str, board: &str) -> Result<Vec<Placed>, FenError> {
    let grid = game.topology.grid();
    let (cols, rows, levels) = (grid.cols.len(), grid.rows.len(), grid.levels.len().max(1));
    let lines: Vec<&str> = board.split('/').collect();
    if lines.len() != rows * levels {
        return Err(fail(
            text,
            format!(
                "the board has {} rows, the position gives {}",
                rows * levels,
                lines.len()
            ),
        ));
    }
    let mut out = Vec::new();
    for (r, line) in lines.iter().enumerate() {
        let (level, row) = (r / rows, r % rows);
        if game.numbered() || many_players(game) {
            out.extend(parse_numbered_row(game, text, line, r, cols)?);
            continue;
        }
        let mut col = 0usize;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() {
                let mut n = c.to_digit(10).unwrap_or(0) as usize;
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    n = n.saturating_mul(10).saturating_add(d as usize);
                    chars.next();
                }
                col = col.saturating_add(n);
                continue;
            }
            if c == '*'
                && game.piece_by_letter('*').is_none()
                && game
                    .topology
                    .at(col as i32, row as i32, level as i32)
                    .is_none()
            {
                // Fairy-Stockfish's wall on a square the board removes.
                col += 1;
                continue;
            }
            let mut stack = Vec::new();
            if c == '(' {
                for s in chars.by_ref() {
                    if s == ')' {
                        break;
                    }
                    stack.push(piece_of(game, text, s, r + 1)?);
                }
                if stack.is_empty() {
                    return Err(fail(text, format!("empty stack '()' in row {}", r + 1)));
                }
            } else if c == '+' || chars.peek() == Some(&'~') {
                // A promoted piece written with its symbol: shogi's `+P`,
                // Fairy-Stockfish's `Q~` (crazyhouse).
                let symbol = match c {
                    '+' => format!("+{}", chars.next().unwrap_or(' ')),
                    _ => format!("{c}{}", chars.next().unwrap_or(' ')),
                };
                let piece = game.piece_by_symbol(&symbol).ok_or_else(|| {
                    fail(text, format!("unknown piece '{symbol}' in row {}", r + 1))
                })?;
                let owner = usize::from(symbol.chars().any(|c| c.is_ascii_lowercase()));
                stack.push((piece, owner));
            } else {
                stack.push(piece_of(game, text, c, r + 1)?);
            }
            let (piece, owner) = stack.remove(0);
            let sq = square_in_row(game, text, (col, row, level), cols, r)?;
            out.push(Placed {
                sq,
                piece,
                owner,
                number: 0,
                below: stack,
            });
            col += 1;
        }
        check_row_width(text, r, col, cols)?;
    }
    Ok(out)
}

/// Games of more than two players write each piece as the player's letter
/// and the piece's letter (`sK`), in comma-separated rows.
fn many_players(game: &Game) -> bool {
    game.players.len() > 2
}

/// A token `sK`: player `s`, piece `K`.
fn player_piece(
    game: &Game,
    text: &str,
    token: &str,
    row: usize,
) -> Result<(u16, usize), FenError> {
    let mut chars = token.chars();
    let (p, c) = (chars.next().unwrap_or(' '), chars.next().unwrap_or(' '));
    let owner = game
        .players
        .iter()
        .position(|pl| pl.letter == p)
        .ok_or_else(|| {
            fail(
                text,
                format!("row {row}: '{token}' does not start with a player's letter"),
            )
        })?;
    let piece = game
        .piece_by_letter(c)
        .filter(|_| chars.next().is_none())
        .ok_or_else(|| {
            fail(
                text,
                format!("row {row}: '{token}' is not a player letter and a piece letter"),
            )
        })?;
    Ok((piece, owner))
}

/// A row of a game with numbered pieces (or of more than two players):
/// tokens separated by commas, each a run of empty squares (`2`) or a
/// piece and its number (`R16`, `t9`, `P36+25`, or `P` for a piece holding
/// all its parts; `sK` with many players).
fn parse_numbered_row(
    game: &Game,
    text: &str,
    line: &str,
    r: usize,
    cols: usize,
) -> Result<Vec<Placed>, FenError> {
    let grid_rows = game.topology.grid().rows.len();
    let (level, row) = (r / grid_rows, r % grid_rows);
    let mut out = Vec::new();
    let mut col = 0usize;
    for token in line.split(',').filter(|t| !t.is_empty()) {
        if let Ok(n) = token.parse::<usize>() {
            col += n;
            continue;
        }
        let mut chars = token.chars();
        let c = chars.next().unwrap_or(' ');
        let (piece, owner, number) = if many_players(game) {
            let (piece, owner) = player_piece(game, text, token, r + 1)?;
            (piece, owner, 0)
        } else {
            let (piece, owner) = piece_of(game, text, c, r + 1)?;
            let number = game
                .parse_number(piece, owner, chars.as_str())
                .map_err(|e| fail(text, format!("row {}: '{token}': {e}", r + 1)))?;
            (piece, owner, number)
        };
        let sq = square_in_row(game, text, (col, row, level), cols, r)?;
        out.push(Placed {
            sq,
            piece,
            owner,
            number,
            below: Vec::new(),
        });
        col += 1;
    }
    check_row_width(text, r, col, cols)?;
    Ok(out)
}

/// The square at (column, row, level) of row `r` of a position string.
fn square_in_row(
    game: &Game,
    text: &str,
    (col, row, level): (usize, usize, usize),
    cols: usize,
    r: usize,
) -> Result<Square, FenError> {
    game.topology
        .at(col as i32, row as i32, level as i32)
        .filter(|_| col < cols)
        .ok_or_else(|| {
            fail(
                text,
                format!(
                    "row {} has a piece off the board (column {})",
                    r + 1,
                    col + 1
                ),
            )
        })
}

/// Row `r` of a position string must fill the board's width exactly.
fn check_row_width(text: &str, r: usize, col: usize, cols: usize) -> Result<(), FenError> {
    if col != cols {
        return Err(fail(
            text,
            format!("row {} has {} columns, the board has {}", r + 1, col, cols),
        ));
    }
    Ok(())
}

fn parse_castling(
    game: &Game,
    text: &str,
    field: &str,
) -> Result<Vec<(char, Square, Square)>, FenError> {
    if field == "-" {
        return Ok(Vec::new());
    }
    let mut rights: Vec<(char, Square, Square)> = Vec::new();
    for c in field.chars() {
        if rights.iter().any(|(l, _, _)| *l == c) {
            return Err(fail(text, format!("castling right '{c}' is given twice")));
        }
        let right = game
            .fen
            .castling
            .iter()
            .find(|(l, _, _)| *l == c)
            .ok_or_else(|| fail(text, format!("unknown castling right '{c}'")))?;
        rights.push(*right);
    }
    Ok(rights)
}

/// Chess960's castling letters (X-FEN and Shredder-FEN): `K`/`Q` the
/// outermost Rook on the King's side or the other, a file letter the Rook
/// on that file of the King's rank; lower case for the second player.
/// Each right becomes (letter, King's square, Rook's square).
fn castling_960(
    game: &Game,
    text: &str,
    field: &str,
    placed: &[Placed],
    rook: u16,
) -> Result<Vec<(char, Square, Square)>, FenError> {
    let topo = &game.topology;
    let mut rights = Vec::new();
    for c in field.chars() {
        let owner = usize::from(c.is_ascii_lowercase());
        let bad = |m: &str| fail(text, format!("castling right '{c}': {m}"));
        let king = placed
            .iter()
            .find(|p| p.owner == owner && game.pieces[p.piece as usize].royal)
            .ok_or_else(|| bad("that player has no King"))?
            .sq;
        let (kc, row) = (topo.coords(king).col, topo.coords(king).row);
        let rooks = placed
            .iter()
            .filter(|p| p.owner == owner && p.piece == rook && topo.coords(p.sq).row == row)
            .map(|p| (topo.coords(p.sq).col, p.sq));
        let found = match c.to_ascii_uppercase() {
            'K' => rooks
                .filter(|(col, _)| *col > kc)
                .max_by_key(|(col, _)| *col),
            'Q' => rooks
                .filter(|(col, _)| *col < kc)
                .min_by_key(|(col, _)| *col),
            f if f.is_ascii_uppercase() => {
                let file = (f as u8 - b'A') as i32;
                rooks.clone().find(|(col, _)| *col == file)
            }
            _ => return Err(bad("not a castling letter")),
        };
        // Not a Rook's letter: a one-square letter of the game's table (a
        // gating right: Seirawan chess from a shuffled rank).
        let gate = game
            .fen
            .castling
            .iter()
            .find(|(l, k, r)| *l == c && k == r)
            .map(|(_, k, _)| *k);
        let (king, r) = match (found, gate) {
            (Some((_, r)), _) => (king, r),
            (None, Some(sq)) => (sq, sq),
            (None, None) => return Err(bad("no Rook of that player stands there")),
        };
        if rights.iter().any(|(_, _, sq)| *sq == r) {
            return Err(bad("given twice"));
        }
        rights.push((c, king, r));
    }
    Ok(rights)
}

/// Chess960's castling field of `pos`: for each unmoved King, its unmoved
/// Rooks on its rank, `K`/`Q` for the outermost on either side and the
/// file letter for another.
fn castling_960_text(game: &Game, pos: &Position, rook: u16) -> String {
    let topo = &game.topology;
    let mut out = String::new();
    for player in 0..game.players.len().min(2) {
        let unmoved = |sq: &Square| !game.cells.info(pos.cell(*sq)).moved;
        let Some(king) = game
            .royal_types()
            .iter()
            .flat_map(|&t| crate::position::squares_of(pos.piece_bits(player, t as usize)))
            .find(unmoved)
        else {
            continue;
        };
        let (kc, row) = (topo.coords(king).col, topo.coords(king).row);
        let rooks: Vec<(i32, Square)> =
            crate::position::squares_of(pos.piece_bits(player, rook as usize))
                .filter(|sq| topo.coords(*sq).row == row)
                .map(|sq| (topo.coords(sq).col, sq))
                .collect();
        for kingside in [true, false] {
            let mut side: Vec<&(i32, Square)> = rooks
                .iter()
                .filter(|(c, _)| if kingside { *c > kc } else { *c < kc })
                .collect();
            let outermost = if kingside {
                side.iter().map(|(c, _)| *c).max()
            } else {
                side.iter().map(|(c, _)| *c).min()
            };
            // The outermost (`K`, `Q`) first, then the others by file.
            side.sort_by_key(|(c, _)| (Some(*c) != outermost, *c));
            for (c, _) in side.iter().filter(|(_, sq)| unmoved(sq)) {
                let letter = if Some(*c) == outermost {
                    if kingside { 'K' } else { 'Q' }
                } else {
                    (b'A' + *c as u8) as char
                };
                out.push(if player == 0 {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                });
            }
        }
    }
    out
}

/// With Chess960 letters, the one-square letters of the game's table
/// (gating rights) whose piece has not moved, but for the Kings and Rooks
/// of a player with castling letters, which speak for them (as in
/// Fairy-Stockfish, a Rook's gating letter then reads as a castling right).
fn gating_text(game: &Game, pos: &Position, rook: u16) -> String {
    let rights = castling_960_text(game, pos, rook);
    game.fen
        .castling
        .iter()
        .filter(|(_, k, r)| k == r)
        .filter(|(l, sq, _)| {
            let cell = pos.cell(*sq);
            if cell.is_empty() {
                return false;
            }
            let info = game.cells.info(cell);
            let owner = usize::from(l.is_ascii_lowercase());
            let spoken_for = (info.piece == rook || game.pieces[info.piece as usize].royal)
                && rights
                    .chars()
                    .any(|c| usize::from(c.is_ascii_lowercase()) == owner);
            !info.moved && info.owner as usize == owner && !spoken_for
        })
        .map(|(l, _, _)| *l)
        .collect()
}

/// Whether a piece placed by a position string counts as having moved.
fn has_moved(
    game: &Game,
    setup: Option<&Position>,
    rights: &[(char, Square, Square)],
    sq: Square,
    piece: u16,
    owner: usize,
) -> bool {
    let in_table = || {
        game.fen
            .castling
            .iter()
            .any(|(_, k, r)| *k == sq || *r == sq)
    };
    let castling_square = match game.fen.castling_960 {
        // Chess960: every King and Rook is moved unless a letter names it
        // (and the pieces of one-square letters, gating rights).
        Some(rook) => piece == rook || game.pieces[piece as usize].royal || in_table(),
        None => in_table(),
    };
    if castling_square {
        return !rights.iter().any(|(_, k, r)| *k == sq || *r == sq);
    }
    match setup {
        None => false,
        Some(initial) => {
            let info = game.cells.info(initial.cell(sq));
            !(info.piece == piece && info.owner as usize == owner)
        }
    }
}

/// Every castling right needs its king and rook in place: the pieces the
/// setup has on those squares (without a setup, pieces of one side).
fn check_castling(
    game: &Game,
    text: &str,
    pos: &Position,
    setup: Option<&Position>,
    rights: &[(char, Square, Square)],
) -> Result<(), FenError> {
    if game.fen.castling_960.is_some() {
        // The letters were read from the pieces themselves.
        return Ok(());
    }
    for (letter, k, r) in rights {
        if !castling_pieces_in_place(game, pos, setup, *k, *r) {
            return Err(fail(
                text,
                format!(
                    "castling right '{letter}' needs the king and rook of the setup on {} and {}",
                    game.topology.name(*k),
                    game.topology.name(*r)
                ),
            ));
        }
    }
    Ok(())
}

/// The king square `k` and rook square `r` of a castling right hold the
/// pieces the setup has there (without a setup, or where the setup has
/// nothing: pieces of one side).
fn castling_pieces_in_place(
    game: &Game,
    pos: &Position,
    setup: Option<&Position>,
    k: Square,
    r: Square,
) -> bool {
    let (ki, ri) = (game.cells.info(pos.cell(k)), game.cells.info(pos.cell(r)));
    if ki.piece == NO_PIECE || ri.piece == NO_PIECE || ki.owner != ri.owner {
        return false;
    }
    // A one-square right (a gating right) says only that the piece there,
    // whichever it is, has not moved (Seirawan chess from a shuffled rank).
    if k == r {
        return true;
    }
    // Where the setup has nothing (placement chess), any pieces of one side.
    setup.is_none_or(|s| {
        [(k, ki), (r, ri)].iter().all(|(sq, info)| {
            let want = s.cell(*sq);
            let want_info = game.cells.info(want);
            want.is_empty() || (want_info.piece == info.piece && want_info.owner == info.owner)
        })
    })
}

/// The en passant square becomes the last move: a double step over it by
/// the player who moved last. Fairy-Stockfish writes some fields its own
/// way, read here too: the passed and the landing square run together
/// (`d3d4`, a Berolina pawn's `d3c4`), and, in games with a counting rule
/// (makruk), a number, its counting limit, which dagaz does not keep.
fn set_en_passant(game: &Game, text: &str, pos: &mut Position, ep: &str) -> Result<(), FenError> {
    if ep.chars().all(|c| c.is_ascii_digit()) {
        return Ok(());
    }
    let bad = |m: &str| fail(text, format!("en passant square '{ep}': {m}"));
    if game.fen.en_passant.is_empty() {
        return Err(bad("this game has no en passant"));
    }
    let n = game.players.len();
    let last = (pos.side() + n - 1) % n;
    let squares = square_run(game, ep).ok_or_else(|| bad("no such square"))?;
    let (passed, to) = match squares.as_slice() {
        [sq] => (
            *sq,
            step_along(game, last, *sq, 'N').ok_or_else(|| bad("no square in front of it"))?,
        ),
        [a, b] if pos.cell(*a).is_empty() => (*a, *b),
        [a, b] => (*b, *a),
        _ => {
            return Err(bad(
                "give the square passed over, or it and the landing square",
            ));
        }
    };
    let from = match squares.len() {
        1 => step_along(game, last, passed, 'S'),
        _ => {
            // The step from the landing square to the one passed, once more.
            let topo = &game.topology;
            let (p, t) = (topo.coords(passed), topo.coords(to));
            topo.at(2 * p.col - t.col, 2 * p.row - t.row, 2 * p.level - t.level)
        }
    }
    .ok_or_else(|| bad("no square behind it"))?;
    let info = game.cells.info(pos.cell(to));
    if !game.fen.en_passant.contains(&info.piece)
        || info.owner as usize != last
        || !pos.cell(passed).is_empty()
        || !pos.cell(from).is_empty()
    {
        let names: Vec<&str> = game
            .fen
            .en_passant
            .iter()
            .map(|t| game.pieces[*t as usize].name.as_str())
            .collect();
        return Err(bad(&format!(
            "it must be passed over by a {} of the side that moved last",
            names.join(" or ")
        )));
    }
    pos.push_synthetic(last, info.piece, Some(from), Some(to), Some(passed));
    Ok(())
}

/// The en passant field for the square `passed`: the square alone after a
/// straight double step, else (a Berolina pawn's diagonal one) the square
/// and the landing square, as Fairy-Stockfish writes it (`d3c4`).
fn ep_text(game: &Game, pos: &Position, passed: Square) -> String {
    let name = |sq: Square| game.topology.name(sq).to_string();
    let last = pos.history().last();
    match last.and_then(|ply| ply.to.map(|to| (ply.player as usize, to))) {
        Some((player, to)) if step_along(game, player, passed, 'N') != Some(to) => {
            format!("{}{}", name(passed), name(to))
        }
        _ => name(passed),
    }
}

/// One step from `sq` along what `player` calls `dir` (`N`, `S`).
fn step_along(game: &Game, player: usize, sq: Square, dir: char) -> Option<Square> {
    let d = game.players[player].map.apply(game.topology.dir(dir)?);
    game.topology.step(sq, d)
}

/// Square names written one after another (`d3d4`), as squares.
fn square_run(game: &Game, text: &str) -> Option<Vec<Square>> {
    if let Some(sq) = game.topology.square(text) {
        return Some(vec![sq]);
    }
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let letters = rest.find(|c: char| !c.is_ascii_alphabetic())?;
        let digits = rest[letters..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len(), |d| letters + d);
        out.push(game.topology.square(&rest[..digits])?);
        rest = &rest[digits..];
    }
    Some(out)
}

/// Writes a position string.
pub fn write(game: &Game, pos: &Position) -> String {
    write_with(game, pos, false)
}

/// Writes a position string; with `walls`, the squares the board removes
/// are written `*`, as Fairy-Stockfish writes them, instead of counting as
/// empty.
pub fn write_with(game: &Game, pos: &Position, walls: bool) -> String {
    let grid = game.topology.grid();
    let (cols, rows, levels) = (grid.cols.len(), grid.rows.len(), grid.levels.len().max(1));
    let mut lines = Vec::new();
    for level in 0..levels {
        for row in 0..rows {
            let mut tokens: Vec<String> = Vec::new();
            let mut empty = 0;
            for col in 0..cols {
                let square = game.topology.at(col as i32, row as i32, level as i32);
                match square.map(|sq| square_text(game, pos, sq)) {
                    None if walls => {
                        if empty > 0 {
                            tokens.push(empty.to_string());
                            empty = 0;
                        }
                        tokens.push("*".to_string());
                    }
                    None | Some(None) => empty += 1,
                    Some(Some(t)) => {
                        if empty > 0 {
                            tokens.push(empty.to_string());
                            empty = 0;
                        }
                        tokens.push(t);
                    }
                }
            }
            if empty > 0 {
                tokens.push(empty.to_string());
            }
            let comma = game.numbered() || many_players(game);
            lines.push(tokens.join(if comma { "," } else { "" }));
        }
    }
    let rights: Vec<&(char, Square, Square)> = game
        .fen
        .castling
        .iter()
        .filter(|(_, k, r)| unmoved_pair(game, pos, *k, *r))
        .collect();
    // A one-square letter is left out where a castling right names its
    // square already (Seirawan's `E` beside `K`).
    let mut castling: String = if let Some(rook) = game.fen.castling_960 {
        castling_960_text(game, pos, rook) + &gating_text(game, pos, rook)
    } else {
        rights
            .iter()
            .filter(|(_, k, r)| {
                k != r
                    || !rights
                        .iter()
                        .any(|(_, k2, r2)| k2 != r2 && (k2 == k || r2 == k))
            })
            .map(|(l, _, _)| *l)
            .collect()
    };
    if castling.is_empty() {
        castling = "-".into();
    }
    let mut ep = pos
        .ep()
        .map_or("-".to_string(), |sq| ep_text(game, pos, sq));
    if let Some(limit) = check_limit(game) {
        let left = |player: u8| {
            let given = pos
                .history()
                .iter()
                .filter(|p| p.check && p.player == player)
                .count() as u32;
            limit.saturating_sub(given)
        };
        ep = format!("{ep} {}+{}", left(0), left(1));
    }
    let side = if game.in_free_phase(pos) {
        game.players.iter().map(|p| p.letter).collect()
    } else {
        game.players[pos.side()].letter.to_string()
    };
    format!(
        "{} {} {} {} {} {}",
        lines.join("/")
            + &if game.has_hands() {
                hands_text(game, pos)
            } else {
                String::new()
            },
        side,
        castling,
        ep,
        pos.clock(),
        pos.fullmove()
    )
}

/// The pieces of a castling right stand where the setup has them and
/// have not moved.
fn unmoved_pair(game: &Game, pos: &Position, k: Square, r: Square) -> bool {
    let (ki, ri) = (game.cells.info(pos.cell(k)), game.cells.info(pos.cell(r)));
    !ki.moved && !ri.moved && castling_pieces_in_place(game, pos, Some(game.setup()), k, r)
}

/// What a position string shows on `sq`: a letter, a stack `(Sss)` (top
/// first), or nothing for an empty square.
pub fn square_text(game: &Game, pos: &Position, sq: Square) -> Option<String> {
    let top = letter(game, pos.cell(sq))?;
    if many_players(game) {
        let info = game.cells.info(pos.cell(sq));
        let player = game.players.get(info.owner as usize)?.letter;
        return Some(format!("{player}{}", top.to_ascii_uppercase()));
    }
    if game.numbered() {
        return Some(format!("{top}{}", game.number_text(pos.cell(sq))));
    }
    if game.stack_depth() == 0 {
        let info = game.cells.info(pos.cell(sq));
        let symbol = &game.pieces[info.piece as usize].symbol;
        if symbol.len() > 1 {
            // A promoted piece with a symbol of its own (`Q~`, `+P`).
            return Some(if info.owner == 0 || info.is_neutral() {
                symbol.clone()
            } else {
                symbol.to_ascii_lowercase()
            });
        }
        return Some(top.to_string());
    }
    let below: String = game
        .below(pos, sq)
        .filter_map(|c| letter(game, c))
        .collect();
    Some(if below.is_empty() {
        top.to_string()
    } else {
        format!("({top}{below})")
    })
}

/// The letter of a piece, upper case for the first player.
pub fn letter(game: &Game, cell: Cell) -> Option<char> {
    let info = game.cells.info(cell);
    if cell.is_empty() || info.piece == NO_PIECE {
        return None;
    }
    let l = game.pieces[info.piece as usize].letter;
    Some(if info.owner == 0 || info.is_neutral() {
        l
    } else {
        l.to_ascii_lowercase()
    })
}
