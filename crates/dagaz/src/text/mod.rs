//! Text forms of positions and moves: FEN ([`fen`]), SFEN ([`sfen`]), PDN
//! draughts positions ([`pdn`]), counts for heap boards ([`counts`]), the
//! move text every front end speaks ([`movetext`]), standard algebraic
//! notation for the chess family ([`san`]), and pictures of a
//! position as text ([`diagram`]) or SVG ([`svg`]). A game's file says
//! which position form it uses; [`Game::parse_position`] and
//! [`Game::write_position`] pick it.

pub mod counts;
pub mod diagram;
pub mod fen;
pub mod movetext;
pub mod pdn;
pub mod san;
pub mod sfen;
pub mod svg;

pub use fen::FenError;

use crate::game::{Game, PositionFormat};
use crate::movegen::check_position;
use crate::position::Position;

/// Reads a position string in the game's format, without the checks of
/// [`Game::parse_position`]. `setup` tells which pieces still stand where
/// they started (FEN); `None` treats every piece as unmoved.
pub fn read_position(
    game: &Game,
    text: &str,
    setup: Option<&Position>,
) -> Result<Position, FenError> {
    let mut pos = match game.fen.format {
        PositionFormat::Fen => fen::parse(game, text, setup),
        PositionFormat::Pdn { man, king } => pdn::parse(game, text, man, king),
        PositionFormat::Sfen => sfen::parse(game, text),
        PositionFormat::Counts => counts::parse(game, text),
    }?;
    // A position string names the side to move, not where the turn order
    // stands: the first phase at which that side moves.
    if let Some(order) = &game.rules.turns {
        let phase = order
            .phase_of(pos.side())
            .ok_or_else(|| fen::fail(text, "the turn order never gives this side the move"))?;
        pos.set_phase(phase);
    }
    Ok(pos)
}

impl Game {
    /// Reads a position string in the game's format, and refuses a
    /// position the game cannot reach ([`check_position`]). Pieces that
    /// stand where the game's setup has them count as not having moved.
    pub fn parse_position(&self, text: &str) -> Result<Position, FenError> {
        let pos = read_position(self, text, Some(self.setup()))?;
        check_position(self, &pos).map_err(|message| fen::fail(text, message))?;
        Ok(pos)
    }

    /// Writes a position string as Fairy-Stockfish writes it: its letters
    /// for the pieces (`[fen] aliases`), the hands in brackets, and for
    /// shogi-like games its `board[hand] w|b` form. Games it does not know
    /// are written as [`Game::write_position`] writes them.
    pub fn write_position_fsf(&self, pos: &Position) -> String {
        let native = match self.fen.format {
            PositionFormat::Sfen => sfen::write_fsf(self, pos),
            PositionFormat::Fen
                if self.piece_by_letter('*').is_none() && self.players.len() == 2 =>
            {
                fen::write_with(self, pos, true)
            }
            _ => self.write_position(pos),
        };
        if self.fen.aliases.is_empty() {
            return native;
        }
        let (board, rest) = native.split_once(' ').unwrap_or((&native, ""));
        let mapped: String = board
            .chars()
            .map(|c| match self.piece_by_letter(c) {
                Some(t) if self.pieces[t as usize].letter == c.to_ascii_uppercase() => {
                    let fsf = self.fsf_letter(t);
                    if c.is_ascii_lowercase() {
                        fsf.to_ascii_lowercase()
                    } else {
                        fsf
                    }
                }
                _ => c,
            })
            .collect();
        if rest.is_empty() {
            mapped
        } else {
            format!("{mapped} {rest}")
        }
    }

    /// Writes a position string in the game's format.
    pub fn write_position(&self, pos: &Position) -> String {
        match self.fen.format {
            PositionFormat::Fen => fen::write(self, pos),
            PositionFormat::Pdn { king, .. } => pdn::write(self, pos, king),
            PositionFormat::Sfen => sfen::write(self, pos),
            PositionFormat::Counts => counts::write(self, pos),
        }
    }
}
