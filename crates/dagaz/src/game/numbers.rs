//! Numbered pieces: games whose pieces carry a number (Rithmomachia's
//! values), and pieces made of parts (Rithmomachia's pyramids).
//!
//! A game turns numbers on with `[board] piece_numbers = N`: every piece
//! then carries a number below `N`, kept in its cell and moved with it.
//! A piece type with `parts` (one list per player, written as tokens like
//! `S36`) carries instead a bit set of the parts it still holds; its value
//! is the sum of those parts' numbers.
//!
//! In position strings, a numbered piece is its letter and number (`R16`,
//! `t9`); a piece with parts is its letter alone when it holds all of them,
//! or its letter and the numbers of the parts it holds (`P36+25+9`).

use super::Game;
use crate::position::{Cell, NO_PIECE};

/// One part of a piece made of parts: a piece type and its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub piece: u16,
    pub number: u16,
}

/// A number token that does not fit the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NumberError(pub String);

impl Game {
    /// Whether pieces carry numbers (`[board] piece_numbers`). The cell
    /// numbers of a game with attributes hold the attributes' bits
    /// instead: they are no values.
    pub fn numbered(&self) -> bool {
        self.cells.numbers() > 1 && self.attributes.is_empty()
    }

    /// The parts a piece of this cell holds, or `None` if its type has no
    /// parts (for its owner).
    pub fn parts_held(&self, cell: Cell) -> Option<Vec<Part>> {
        let info = self.cells.info(cell);
        if info.piece == NO_PIECE {
            return None;
        }
        let all = self.pieces[info.piece as usize]
            .parts
            .get(info.owner as usize)?;
        if all.is_empty() {
            return None;
        }
        Some(
            all.iter()
                .enumerate()
                .filter(|(i, _)| info.number & (1 << i) != 0)
                .map(|(_, p)| *p)
                .collect(),
        )
    }

    /// The value of a numbered piece: its number, or the sum of the parts
    /// it holds.
    pub fn piece_number(&self, cell: Cell) -> u32 {
        match self.parts_held(cell) {
            Some(parts) => parts.iter().map(|p| p.number as u32).sum(),
            None => self.cells.info(cell).number as u32,
        }
    }

    /// The number as written after the letter: `16`, or for a piece with
    /// parts nothing (all held) or `36+25+9`.
    pub fn number_text(&self, cell: Cell) -> String {
        let info = self.cells.info(cell);
        match self.parts_held(cell) {
            None => info.number.to_string(),
            Some(held) => {
                let all = &self.pieces[info.piece as usize].parts[info.owner as usize];
                if held.len() == all.len() {
                    String::new()
                } else {
                    let numbers: Vec<String> = held.iter().map(|p| p.number.to_string()).collect();
                    numbers.join("+")
                }
            }
        }
    }

    /// The number to store for a piece written with `text` after its letter.
    pub fn parse_number(&self, piece: u16, owner: usize, text: &str) -> Result<u16, NumberError> {
        let name = &self.pieces[piece as usize].name;
        let parts = self.pieces[piece as usize]
            .parts
            .get(owner)
            .filter(|p| !p.is_empty());
        let tokens: Vec<&str> = if text.is_empty() {
            Vec::new()
        } else {
            text.split('+').collect()
        };
        let numbers = tokens
            .into_iter()
            .map(|t| {
                t.parse::<u16>()
                    .map_err(|_| NumberError(format!("'{t}' is not a number (piece {name})")))
            })
            .collect::<Result<Vec<u16>, _>>()?;
        match parts {
            None => match numbers[..] {
                [n] if (n as usize) < self.cells.numbers() => Ok(n),
                [n] => Err(NumberError(format!(
                    "{name} {n}: numbers go up to {}",
                    self.cells.numbers() - 1
                ))),
                _ => Err(NumberError(format!("{name} needs one number, as in R16"))),
            },
            Some(all) if numbers.is_empty() => Ok(((1u32 << all.len()) - 1) as u16),
            Some(all) => {
                let mut held = 0u16;
                for n in numbers {
                    let free = (0..all.len()).find(|i| all[*i].number == n && held & (1 << i) == 0);
                    match free {
                        Some(i) => held |= 1 << i,
                        None => {
                            return Err(NumberError(format!("{name} has no part {n}")));
                        }
                    }
                }
                Ok(held)
            }
        }
    }
}
