//! Text forms of positions and moves: FEN ([`fen`]), SFEN ([`sfen`]), PDN
//! draughts positions ([`pdn`]), counts for heap boards ([`counts`]), and
//! the move text every front end speaks ([`movetext`]). A game's file says
//! which position form it uses; [`Game::parse_position`] and
//! [`Game::write_position`] pick it.

pub mod counts;
pub mod fen;
pub mod movetext;
pub mod pdn;
pub mod sfen;

pub use fen::FenError;

use crate::game::{Game, PositionFormat};
use crate::position::Position;

impl Game {
    /// Reads a position string in the game's format. Pieces that stand
    /// where the game's setup has them count as not having moved.
    pub fn parse_position(&self, text: &str) -> Result<Position, FenError> {
        match self.fen.format {
            PositionFormat::Fen => fen::parse(self, text, Some(self.setup())),
            PositionFormat::Pdn { man, king } => pdn::parse(self, text, man, king),
            PositionFormat::Sfen => sfen::parse(self, text),
            PositionFormat::Counts => counts::parse(self, text),
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
