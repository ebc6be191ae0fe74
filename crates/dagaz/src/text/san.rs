//! Standard algebraic notation (SAN) for the chess family, as PGN records
//! and Fairy-Stockfish write it: `e4`, `Nbd7`, `exd5`, `e8=Q`, `O-O-O`,
//! `P@e4` (a drop), `Nc3/H` (Seirawan gating), `+` for check and `#` for
//! mate.
//!
//! The piece's letter is its `san` letter if the game file gives one, else
//! Fairy-Stockfish's letter for it; it is left out for the chess family's
//! pawns (a piece lettered `P` that restarts the no-progress clock, in a
//! game whose positions are FEN). Moves of several parts are written in
//! dagaz's move text. A piece is told apart from the others of
//! its type that could go to the same square by its file, else its rank,
//! else both; a pawn's capture always names its file. Any game whose square
//! names are a file's letters and a rank's number can be written this way
//! ([`applies`]).
//!
//! Reading is lenient, as PGN readers are: check marks and annotations
//! (`+ # ! ?`) may be left out or wrong, `0-0` is castling, the `=` of a
//! promotion may be missing and extra disambiguation is accepted; dagaz's
//! own move text (`e2e4`) is accepted too.

use crate::board::Square;
use crate::game::{Game, PositionFormat};
use crate::movegen::{GenError, Generator};
use crate::position::{MoveList, MoveRef, NO_PIECE, Position};
use crate::text::movetext::{self, MoveTextError};

/// Whether moves of `game` can be written in SAN: two players, and every
/// square named by letters followed by digits (`e4`, `a10`).
pub fn applies(game: &Game) -> bool {
    game.players.len() == 2
        && !matches!(game.fen.format, PositionFormat::Pdn { .. })
        && game
            .topology
            .squares()
            .all(|sq| split_name(game.topology.name(sq)).is_some())
}

/// A square name's file (letters) and rank (digits).
fn split_name(name: &str) -> Option<(&str, &str)> {
    let at = name.find(|c: char| c.is_ascii_digit())?;
    let (file, rank) = name.split_at(at);
    let ok = !file.is_empty()
        && file.chars().all(|c| c.is_ascii_lowercase())
        && rank.chars().all(|c| c.is_ascii_digit());
    ok.then_some((file, rank))
}

fn file_of(game: &Game, sq: Square) -> &str {
    split_name(game.topology.name(sq)).map_or("", |(f, _)| f)
}

fn rank_of(game: &Game, sq: Square) -> &str {
    split_name(game.topology.name(sq)).map_or("", |(_, r)| r)
}

/// Whether a piece type's letter is left out: a chess pawn, lettered `P`
/// and restarting the no-progress clock (a shogi pawn or a xiangqi
/// soldier does not), unless the game file gives it a `san` letter.
fn is_pawn(game: &Game, piece: u16) -> bool {
    let Some(p) = game.pieces.get(piece as usize) else {
        return false;
    };
    p.letter == 'P' && p.san.is_none() && p.resets_clock && game.fen.format == PositionFormat::Fen
}

/// The SAN texts of every move of `list`, the legal moves of `pos`; each
/// is distinct (moves that SAN cannot tell apart get dagaz's move text).
pub fn texts(game: &Game, pos: &mut Position, list: &MoveList) -> Result<Vec<String>, GenError> {
    let mut generator = Generator::new();
    bare_texts(game, list)
        .into_iter()
        .enumerate()
        .map(|(i, bare)| with_mark(game, &mut generator, pos, list, i, bare))
        .collect()
}

/// The SAN text of the move at `index` of `list`, the legal moves of `pos`
/// (only its own check mark is worked out).
pub fn text(
    game: &Game,
    pos: &mut Position,
    list: &MoveList,
    index: usize,
) -> Result<String, GenError> {
    let bare = bare_texts(game, list).swap_remove(index);
    with_mark(game, &mut Generator::new(), pos, list, index, bare)
}

/// The texts of `list` without check marks: SAN, or dagaz's move text
/// (`Err`) for moves whose SAN another move shares (moves of composite
/// games).
fn bare_texts(game: &Game, list: &MoveList) -> Vec<Result<String, String>> {
    let sans: Vec<String> = (0..list.len())
        .map(|i| without_check(game, list, i))
        .collect();
    let mut uses: rustc_hash::FxHashMap<&str, usize> = Default::default();
    for san in &sans {
        *uses.entry(san.as_str()).or_default() += 1;
    }
    if uses.len() == sans.len() {
        return sans.into_iter().map(Ok).collect();
    }
    let plain = movetext::texts(game, list);
    sans.iter()
        .zip(plain)
        .map(|(san, plain)| {
            if uses[san.as_str()] > 1 {
                Err(plain)
            } else {
                Ok(san.clone())
            }
        })
        .collect()
}

/// A bare text with the check mark of its move (dagaz's move text gets none).
fn with_mark(
    game: &Game,
    generator: &mut Generator,
    pos: &mut Position,
    list: &MoveList,
    index: usize,
    bare: Result<String, String>,
) -> Result<String, GenError> {
    match bare {
        Ok(san) => Ok(san + check_mark(game, generator, pos, list.get(index))?),
        Err(plain) => Ok(plain),
    }
}

/// `+` if the move gives check, `#` if it mates, else nothing.
fn check_mark(
    game: &Game,
    generator: &mut Generator,
    pos: &mut Position,
    mv: MoveRef,
) -> Result<&'static str, GenError> {
    if game.royal_types().is_empty() || !game.rules.royal_safety {
        return Ok("");
    }
    game.make(pos, mv);
    let them = pos.side();
    let mark = if them != mv.header.player as usize
        && game.has_royal(pos, them)
        && game.royal_attacked(pos, them)
    {
        let mut replies = MoveList::new();
        match generator.legal(game, pos, &mut replies) {
            Ok(()) if replies.is_empty() => Ok("#"),
            Ok(()) => Ok("+"),
            Err(e) => Err(e),
        }
    } else {
        Ok("")
    };
    game.undo(pos, mv);
    mark
}

/// The SAN text of a move without its check mark.
fn without_check(game: &Game, list: &MoveList, index: usize) -> String {
    let mv = list.get(index);
    let h = mv.header;
    if let Some(text) = placed_promotion(game, mv) {
        return text;
    }
    // A move of several parts, or one that places a second piece (an
    // arrow, a wall), is written in dagaz's move text; parts that stay on
    // the landing square (petrified chess's piece turning to stone where
    // it captured) add nothing to write.
    let Some(to) = h
        .to()
        .filter(|&to| mv.landings.iter().all(|&landing| landing == to))
    else {
        return movetext::text(game, mv);
    };
    let gate = gating(game, mv);
    if let Some(side) = castling(game, mv) {
        let mut out = side.to_string();
        if let Some((letter, sq)) = gate {
            out.push('/');
            out.push(letter);
            out += game.topology.name(sq);
        }
        out += &neutral_suffix(game, mv);
        return out;
    }
    let mut out = String::new();
    match h.from() {
        None => {
            out.push(game.san_letter(h.piece));
            out.push('@');
        }
        Some(from) => {
            let pawn = is_pawn(game, h.piece);
            if !pawn {
                out.push(game.san_letter(h.piece));
                out += &disambiguation(game, list, index, from, to);
            } else if file_of(game, from) != file_of(game, to) {
                out += file_of(game, from);
            }
            if h.captures > 0 {
                out.push('x');
            }
        }
    }
    out += game.topology.name(to);
    if h.promotion != NO_PIECE {
        out.push('=');
        out.push(game.san_letter(h.promotion));
    }
    if let Some((letter, sq)) = gate {
        out.push('/');
        out.push(letter);
        if Some(sq) != h.from() {
            out += game.topology.name(sq);
        }
    }
    out += &neutral_suffix(game, mv);
    out
}

/// A promotion that sets the new piece down where the move ends after a
/// first part that does not move (Sittuyin: the Pawn leaves, a General is
/// put on its square or one diagonally next to it), written with both
/// squares as Fairy-Stockfish does: `e5=F`, `e5f6=F`.
fn placed_promotion(game: &Game, mv: MoveRef) -> Option<String> {
    let h = mv.header;
    let (from, to) = (h.from()?, h.to()?);
    if mv.landings != [from] || h.captures > 0 {
        return None;
    }
    let placed = game
        .cells
        .info(mv.changes.iter().rfind(|c| c.slot == to.0)?.new);
    if placed.piece == h.piece || placed.piece as usize >= game.pieces.len() {
        return None;
    }
    let mut out = game.topology.name(from).to_string();
    if to != from {
        out += game.topology.name(to);
    }
    out.push('=');
    out.push(game.san_letter(placed.piece));
    Some(out)
}

/// The duck's square (`move_neutral`): `,d5` of `e4,d5`.
fn neutral_suffix(game: &Game, mv: MoveRef) -> String {
    game.placed_neutral(mv)
        .into_iter()
        .map(|sq| format!(",{}", game.topology.name(sq)))
        .collect()
}

/// What tells the piece moving from `from` apart from the other pieces of
/// the same letter that have a legal move to `to` (bringing in the same
/// piece, in gating games): nothing, its file, its rank, or its square.
fn disambiguation(game: &Game, list: &MoveList, index: usize, from: Square, to: Square) -> String {
    let mv = list.get(index);
    let letter = game.san_letter(mv.header.piece);
    let gate = gating(game, mv).map(|(g, _)| g);
    let others: Vec<Square> = list
        .iter()
        .filter(|m| m.header.to() == Some(to) && game.san_letter(m.header.piece) == letter)
        .filter(|m| gating(game, *m).map(|(g, _)| g) == gate)
        .filter(|m| game.placed_neutral(*m) == game.placed_neutral(mv))
        .filter_map(|m| m.header.from())
        .filter(|&s| s != from)
        .collect();
    if others.is_empty() {
        String::new()
    } else if others
        .iter()
        .all(|&s| file_of(game, s) != file_of(game, from))
    {
        file_of(game, from).to_string()
    } else if others
        .iter()
        .all(|&s| rank_of(game, s) != rank_of(game, from))
    {
        rank_of(game, from).to_string()
    } else {
        game.topology.name(from).to_string()
    }
}

/// `O-O` or `O-O-O` if the move is a castling (see [`castling_rook`]):
/// the Rook on the King's right or left as the first player sees the
/// board.
pub fn castling(game: &Game, mv: MoveRef) -> Option<&'static str> {
    let king = game.topology.coords(mv.header.from()?);
    let rook = game.topology.coords(castling_rook(game, mv)?);
    Some(if rook.col > king.col { "O-O" } else { "O-O-O" })
}

/// Where the Rook stood if the move is a castling: a move of the King (a
/// royal piece, or one lettered `K` where the King is not royal) that
/// captures nothing and takes another piece of the mover's (the Rook) from
/// one square to another — or, in Chess960, leaves it where it stands and
/// only takes its has-not-moved mark. UCI's Chess960 mode writes such a
/// move as the King taking its Rook (`e1h1`).
pub fn castling_rook(game: &Game, mv: MoveRef) -> Option<Square> {
    let h = mv.header;
    let from = h.from()?;
    let kingly = game.pieces.get(h.piece as usize)?.royal || game.san_letter(h.piece) == 'K';
    if !kingly || h.captures > 0 {
        return None;
    }
    let squares = game.topology.len();
    let piece_of = |c: crate::position::Cell| {
        let info = game.cells.info(c);
        let mine = info.owner == h.player && !info.phantom && !info.is_neutral();
        (!c.is_empty() && mine).then_some(info.piece)
    };
    let on_board = || {
        mv.changes
            .iter()
            .filter(|c| (c.slot as usize) < squares && c.old != c.new)
    };
    let left =
        on_board().find(|c| c.slot != from.0 && piece_of(c.old).is_some_and(|p| p != h.piece))?;
    let rook = piece_of(left.old);
    let stays = piece_of(left.new) == rook;
    let lands = on_board().any(|c| c.slot != left.slot && piece_of(c.new) == rook);
    (stays || lands).then_some(Square(left.slot))
}

/// The piece a move brings in from the hand onto a square it leaves
/// (gating), with that square.
fn gating(game: &Game, mv: MoveRef) -> Option<(char, Square)> {
    let sq = crate::movegen::gated_squares(game, mv).into_iter().next()?;
    let cell = mv.changes.iter().find(|c| c.slot == sq.0)?.new;
    let piece = game.cells.info(cell).piece;
    ((piece as usize) < game.pieces.len()).then(|| (game.san_letter(piece), sq))
}

/// Finds the move a SAN text (or dagaz's move text) names among `list`,
/// the legal moves of `pos`.
pub fn find(
    game: &Game,
    pos: &mut Position,
    list: &MoveList,
    text: &str,
) -> Result<usize, SanError> {
    let written = texts(game, pos, list)?;
    let wanted = normalise(text);
    let same: Vec<usize> = (0..list.len())
        .filter(|&i| normalise(&written[i]) == wanted)
        .collect();
    if let [i] = same.as_slice() {
        return Ok(*i);
    }
    let loose: Vec<usize> = match Parsed::read(game, &wanted) {
        Some(parsed) => (0..list.len())
            .filter(|&i| parsed.fits(game, list, i))
            .collect(),
        None => Vec::new(),
    };
    match loose.as_slice() {
        [i] => Ok(*i),
        [] => match movetext::find(game, list, text) {
            Ok(i) => Ok(i),
            Err(MoveTextError::Illegal { .. }) => Err(SanError::Move(MoveTextError::Illegal {
                text: text.to_string(),
                legal: written,
            })),
            Err(e) => Err(e.into()),
        },
        many => Err(SanError::Move(MoveTextError::Ambiguous {
            text: text.to_string(),
            candidates: many.iter().map(|&i| written[i].clone()).collect(),
        })),
    }
}

/// Why a SAN text names no move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    #[error(transparent)]
    Move(#[from] MoveTextError),
    #[error(transparent)]
    Generation(#[from] GenError),
}

/// A SAN text without check marks and annotations, castling with `O`.
fn normalise(text: &str) -> String {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let t = t
        .strip_suffix("e.p.")
        .unwrap_or(t)
        .trim_end_matches(['+', '#']);
    let (head, gate) = t.split_once('/').map_or((t, ""), |(h, g)| (h, g));
    let head = match head {
        "0-0" => "O-O",
        "0-0-0" => "O-O-O",
        other => other,
    };
    if gate.is_empty() {
        head.to_string()
    } else {
        format!("{head}/{gate}")
    }
}

/// The parts of a SAN text, read loosely.
#[derive(Debug, Default)]
struct Parsed {
    castling: Option<String>,
    piece: Option<char>,
    from_file: Option<String>,
    from_rank: Option<String>,
    drop: bool,
    to: String,
    promotion: Option<char>,
    gate: Option<char>,
}

impl Parsed {
    fn read(game: &Game, text: &str) -> Option<Parsed> {
        let (text, gate) = match text.split_once('/') {
            Some((t, g)) => (t, g.chars().next()),
            None => (text, None),
        };
        if text == "O-O" || text == "O-O-O" {
            return Some(Parsed {
                castling: Some(text.to_string()),
                gate,
                ..Parsed::default()
            });
        }
        let mut rest = text.trim_end_matches("e.p.").trim();
        let mut promotion = None;
        if let Some(last) = rest.chars().last().filter(char::is_ascii_uppercase) {
            promotion = Some(last);
            rest = rest[..rest.len() - 1].trim_end_matches('=');
        }
        // The destination: the last digits and the fewest letters before
        // them that name a square (`Ngf3` is a Knight of the g-file to f3).
        let digits = rest.len() - rest.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let before = &rest[..rest.len() - digits];
        let letters = before.len()
            - before
                .trim_end_matches(|c: char| c.is_ascii_lowercase())
                .len();
        if digits == 0 || letters == 0 {
            return None;
        }
        let at = (1..=letters)
            .map(|k| rest.len() - digits - k)
            .find(|&at| game.topology.square(&rest[at..]).is_some())?;
        let to = rest[at..].to_string();
        let mut head = &rest[..at];
        let drop = head.ends_with(['@', '*']);
        head = head.trim_end_matches(['x', ':', '-', '@', '*']);
        let mut chars = head.chars();
        let piece = head.chars().next().filter(char::is_ascii_uppercase);
        if piece.is_some() {
            chars.next();
        }
        let from: String = chars.collect();
        let file: String = from.chars().take_while(char::is_ascii_lowercase).collect();
        let rank: String = from[file.len()..].to_string();
        if !rank.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        Some(Parsed {
            castling: None,
            piece,
            from_file: (!file.is_empty()).then_some(file),
            from_rank: (!rank.is_empty()).then_some(rank),
            drop,
            to,
            promotion,
            gate,
        })
    }

    /// Whether the move at `index` of `list` fits these parts.
    fn fits(&self, game: &Game, list: &MoveList, index: usize) -> bool {
        let mv = list.get(index);
        let h = mv.header;
        let gate = gating(game, mv).map(|(letter, _)| letter);
        if gate != self.gate {
            return false;
        }
        if let Some(side) = &self.castling {
            return castling(game, mv) == Some(side.as_str());
        }
        let Some(to) = h.to() else {
            return false;
        };
        if game.topology.name(to) != self.to || castling(game, mv).is_some() {
            return false;
        }
        let letter = game.san_letter(h.piece);
        let piece_fits = match self.piece {
            Some(p) => p == letter,
            None => is_pawn(game, h.piece),
        };
        let promotion = (h.promotion != NO_PIECE).then(|| game.san_letter(h.promotion));
        let from_fits = match h.from() {
            None => self.drop,
            Some(from) => {
                !self.drop
                    && self
                        .from_file
                        .as_deref()
                        .is_none_or(|f| f == file_of(game, from))
                    && self
                        .from_rank
                        .as_deref()
                        .is_none_or(|r| r == rank_of(game, from))
            }
        };
        piece_fits && from_fits && promotion == self.promotion
    }
}
