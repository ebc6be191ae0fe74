//! Importers: other programs' game descriptions turned into dagaz game
//! files.
//!
//! - [`ini`]: the syntax of Fairy-Stockfish's `variants.ini`;
//! - [`fsf`]: its sections (custom variants) converted into game files,
//!   with every key that cannot be expressed reported with its line;
//! - [`zrf`]: Zillions of Games rule files converted into game files.

pub mod fsf;
pub mod ini;
pub mod zrf;

/// Loads a game by name or path, as `load::load_game` does, and also a
/// ZRF file (`game.zrf`, or `game.zrf:2` for its second variant).
pub fn open_game(name_or_path: &str) -> Result<crate::game::Game, String> {
    let (base, index) = match name_or_path.rsplit_once(':') {
        Some((b, v)) if b.ends_with(".zrf") => match v.parse() {
            Ok(i) => (b, i),
            Err(_) => {
                return Err(format!(
                    "{name_or_path}: a ZRF variant is a number (0: the game)"
                ));
            }
        },
        _ => (name_or_path, 0),
    };
    if base.ends_with(".zrf") {
        zrf::load(std::path::Path::new(base), index)
    } else {
        crate::load::load_game(name_or_path).map_err(|e| e.to_string())
    }
}
