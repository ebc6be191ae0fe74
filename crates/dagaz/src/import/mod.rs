//! Importers: other programs' game descriptions turned into dagaz game
//! files.
//!
//! - [`ini`]: the syntax of Fairy-Stockfish's `variants.ini`;
//! - [`fsf`]: its sections (custom variants) converted into game files,
//!   with every key that cannot be expressed reported with its line.

pub mod fsf;
pub mod ini;
