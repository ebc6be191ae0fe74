//! The names an engine protocol gives the squares, where they are not the
//! game's own: USI counts files from the right with digits and ranks from
//! the top with letters (`7g7f`) in every game, and XBoard numbers ten
//! ranks from 0 (xiangqi's `h2e2`). Both are derived from the board's
//! grid, so any game a protocol serves is translated the same way.

use std::collections::HashMap;

use dagaz::game::Game;
use dagaz::position::MoveRef;
use dagaz::session::Session;
use dagaz::text::movetext;
use dagaz::text::san::{castling, castling_rook};

/// The protocol's name of each square; empty where the protocol names
/// the squares as the game does. A client's move is read by comparing it
/// with the legal moves so written.
#[derive(Clone, Debug, Default)]
pub struct SquareNames {
    to_protocol: HashMap<String, String>,
    /// The longest of the game's names, for the scan of a move text.
    longest: usize,
}

impl SquareNames {
    /// The game's own names (UCI).
    pub fn same() -> SquareNames {
        SquareNames::default()
    }

    /// USI's names on a grid: the file from the right (`1` the rightmost
    /// from the first player's side), the rank a letter from the top (`a`
    /// the first player's far rank). A board of more than 26 ranks keeps
    /// its own names.
    pub fn usi(game: &Game) -> SquareNames {
        let grid = game.topology.grid();
        let (files, ranks) = (grid.cols.len() as i32, grid.rows.len());
        if ranks > 26 {
            return SquareNames::same();
        }
        SquareNames::from_pairs(game, |col, row| {
            let letter = char::from(b'a' + row as u8);
            format!("{}{letter}", files - col)
        })
    }

    /// XBoard's names: as the game's, but on a board of ten ranks those
    /// are numbered 0 to 9 from the first player's side.
    pub fn xboard(game: &Game) -> SquareNames {
        let grid = game.topology.grid();
        let ranks = grid.rows.len() as i32;
        if ranks != 10 {
            return SquareNames::same();
        }
        SquareNames::from_pairs(game, |col, row| {
            let file = grid.cols.get(col as usize).map_or("", String::as_str);
            format!("{file}{}", ranks - 1 - row)
        })
    }

    /// The names `name(col, row)` gives the board's squares (on the first
    /// level of the grid, rows counted from the top).
    fn from_pairs(game: &Game, name: impl Fn(i32, i32) -> String) -> SquareNames {
        let mut names = SquareNames::default();
        for sq in game.topology.squares() {
            let c = game.topology.coords(sq);
            if c.level != 0 || c.row < 0 || c.col < 0 {
                continue;
            }
            let (own, theirs) = (game.topology.name(sq).to_string(), name(c.col, c.row));
            names.longest = names.longest.max(own.len());
            names.to_protocol.insert(own, theirs);
        }
        names
    }

    /// A move text of the game with the protocol's square names.
    pub fn write(&self, text: &str) -> String {
        translate(text, &self.to_protocol, self.longest)
    }
}

/// How a protocol writes a game's moves: UCI as dagaz does, with drops
/// `N@d3`; USI with its own square names in every game and drops `P*5e`;
/// XBoard as UCI, with ten ranks numbered from 0. In UCI's Chess960
/// mode, and in XBoard's games that shuffle their setup (as
/// Fairy-Stockfish writes its `fischerandom` there), a castling is the
/// King taking its own Rook (`e1h1`). A castling is read as `O-O` or
/// `O-O-O` too (CECP's form for such games).
#[derive(Clone, Debug)]
pub struct Notation {
    names: SquareNames,
    usi: bool,
    chess960: bool,
}

impl Notation {
    pub fn uci() -> Notation {
        Notation {
            names: SquareNames::same(),
            usi: false,
            chess960: false,
        }
    }

    /// UCI in its Chess960 mode (`UCI_Chess960`, or a game that shuffles
    /// its setup, as Fairy-Stockfish writes its `fischerandom`).
    pub fn uci_chess960(on: bool) -> Notation {
        Notation {
            chess960: on,
            ..Notation::uci()
        }
    }

    pub fn usi(game: &Game) -> Notation {
        Notation {
            names: SquareNames::usi(game),
            usi: true,
            chess960: false,
        }
    }

    pub fn xboard(game: &Game) -> Notation {
        Notation {
            names: SquareNames::xboard(game),
            usi: false,
            chess960: game.shuffles(),
        }
    }

    /// A move of `game` as the protocol writes it; `text` is its dagaz
    /// move text (as the session lists it).
    pub fn write_move(&self, game: &Game, mv: MoveRef, text: &str) -> String {
        if self.chess960
            && let (Some(from), Some(rook)) = (mv.header.from(), castling_rook(game, mv))
        {
            let squares = format!("{}{}", game.topology.name(from), game.topology.name(rook));
            return self.names.write(&squares);
        }
        self.write(text)
    }

    /// A move a search found (not one of a session's list) as the
    /// protocol writes it.
    pub fn write_found(&self, game: &Game, mv: MoveRef) -> String {
        self.write_move(game, mv, &movetext::text(game, mv))
    }

    /// The legal moves of `session` as the protocol writes them, in the
    /// session's order.
    pub fn legal(&self, session: &Session) -> Vec<String> {
        let game = session.game();
        let moves = session.legal();
        session
            .legal_texts()
            .iter()
            .enumerate()
            .map(|(i, t)| self.write_move(game, moves.get(i), t))
            .collect()
    }

    /// The index of the legal move of `session` that the protocol's
    /// `text` names (or, for a castling, `O-O`/`O-O-O`, with letters or
    /// zeros).
    pub fn find(&self, session: &Session, text: &str) -> Option<usize> {
        let found = self
            .legal(session)
            .iter()
            .position(|t| t.eq_ignore_ascii_case(text));
        let side = text.replace('0', "O");
        if found.is_some() || !matches!(side.as_str(), "O-O" | "O-O-O") {
            return found;
        }
        let moves = session.legal();
        (0..moves.len()).find(|&i| castling(session.game(), moves.get(i)) == Some(side.as_str()))
    }

    /// A dagaz move text as the protocol writes it (a castling as dagaz
    /// writes it: [`Notation::write_move`] knows the Chess960 form).
    pub fn write(&self, text: &str) -> String {
        let named = self.names.write(text);
        if self.usi {
            usi_drop(&named)
        } else {
            uci_text(&named)
        }
    }
}

/// A move text as UCI and XBoard write it: a drop `n*d3` as `N@d3`, an
/// en passant capture `e5d6xd5` without the square of the pawn taken;
/// other moves as dagaz writes them (`e2e4`, `e7e8q`).
pub fn uci_text(text: &str) -> String {
    if let Some((piece, square)) = text.split_once('*')
        && piece.len() == 1
    {
        return format!("{}@{square}", piece.to_ascii_uppercase());
    }
    match text.split_once('x') {
        Some((mv, _)) if mv.len() >= 4 => mv.to_string(),
        _ => text.to_string(),
    }
}

/// A drop as USI writes it, the piece's letter in capitals (`P*5e`).
fn usi_drop(text: &str) -> String {
    match text.split_once('*') {
        Some((piece, square)) if piece.len() == 1 => {
            format!("{}*{square}", piece.to_ascii_uppercase())
        }
        _ => text.to_string(),
    }
}

/// `text` with every square name of `names` replaced, the longest name
/// first at each place; the rest (piece letters, `*`, `+`) as it is.
fn translate(text: &str, names: &HashMap<String, String>, longest: usize) -> String {
    if names.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 4);
    let mut i = 0;
    while i < text.len() {
        let found = (1..=longest.min(text.len() - i)).rev().find_map(|n| {
            text.get(i..i + n)
                .and_then(|s| names.get(s))
                .map(|t| (n, t))
        });
        match found {
            Some((n, name)) => {
                out += name;
                i += n;
            }
            None => {
                let c = text[i..].chars().next().unwrap_or(' ');
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use dagaz::load::library::load_game;

    #[test]
    fn usi_names_count_files_from_the_right_and_ranks_from_the_top() {
        let shogi = SquareNames::usi(&load_game("shogi").unwrap());
        assert_eq!(shogi.write("7g7f"), "7g7f");
        assert_eq!(shogi.write("P*5e"), "P*5e");
        let kyoto = SquareNames::usi(&load_game("kyotoshogi").unwrap());
        assert_eq!(kyoto.write("e1e2+"), "1e1d+");
        assert_eq!(kyoto.write("P*c3"), "P*3c");
        let dobutsu = SquareNames::usi(&load_game("dobutsu").unwrap());
        assert_eq!(dobutsu.write("b2b3"), "2c2b");
        let chu = SquareNames::usi(&load_game("chu-shogi").unwrap());
        assert_eq!(chu.write("12a11b"), "12a11b");
    }

    #[test]
    fn each_protocol_writes_drops_its_own_way() {
        let kyoto = load_game("kyotoshogi").unwrap();
        assert_eq!(Notation::usi(&kyoto).write("p*c3"), "P*3c");
        assert_eq!(Notation::uci().write("n*d3"), "N@d3");
        assert_eq!(Notation::uci().write("e5d6xd5"), "e5d6");
        let xiangqi = load_game("xiangqi").unwrap();
        assert_eq!(Notation::xboard(&xiangqi).write("b10c8"), "b9c7");
    }

    #[test]
    fn xboard_numbers_ten_ranks_from_zero() {
        let xiangqi = SquareNames::xboard(&load_game("xiangqi").unwrap());
        assert_eq!(xiangqi.write("h3e3"), "h2e2");
        assert_eq!(xiangqi.write("b10c8"), "b9c7");
        assert_eq!(xiangqi.write("a1a10"), "a0a9");
        let chess = SquareNames::xboard(&load_game("chess").unwrap());
        assert_eq!(chess.write("e2e4"), "e2e4");
    }

    /// XBoard writes a castling of a shuffled game as the King taking its
    /// Rook, and of chess as the King's move.
    #[test]
    fn xboard_writes_chess960_castlings_as_the_king_taking_its_rook() {
        let castlings = |game: &str, fen: &str| {
            let game = std::sync::Arc::new(load_game(game).unwrap());
            let start = game.parse_position(fen).unwrap();
            let session = Session::from_position(game.clone(), start).unwrap();
            let legal = Notation::xboard(&game).legal(&session);
            ["g1h1", "g1b1", "g1c1", "e1g1", "e1c1"]
                .into_iter()
                .filter(|t| legal.iter().any(|l| l == t))
                .collect::<Vec<_>>()
        };
        let fen960 = "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1";
        assert_eq!(castlings("chess:chess960", fen960), ["g1h1", "g1b1"]);
        let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
        assert_eq!(castlings("chess", fen), ["e1g1", "e1c1"]);
    }
}
