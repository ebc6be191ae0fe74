//! The built-in game library: game files compiled into the binary, and
//! loading a game by name or by path.

use std::path::Path;

use super::Game;
use super::load::{GameError, load_str};

/// A game file that ships with dagaz.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinGame {
    pub name: &'static str,
    pub source: &'static str,
}

const GAMES: &[BuiltinGame] = &[
    BuiltinGame {
        name: "chess",
        source: include_str!("../../games/chess.toml"),
    },
    BuiltinGame {
        name: "checkers",
        source: include_str!("../../games/checkers.toml"),
    },
    BuiltinGame {
        name: "russian-draughts",
        source: include_str!("../../games/russian-draughts.toml"),
    },
    BuiltinGame {
        name: "international-draughts",
        source: include_str!("../../games/international-draughts.toml"),
    },
    BuiltinGame {
        name: "fanorona",
        source: include_str!("../../games/fanorona.toml"),
    },
];

/// All built-in games, by name.
pub fn builtin_games() -> &'static [BuiltinGame] {
    GAMES
}

/// Loads a built-in game by name, or a game file by path (anything with a
/// `/` or ending in `.toml`).
pub fn load_game(name_or_path: &str) -> Result<Game, GameError> {
    if name_or_path.contains('/') || name_or_path.ends_with(".toml") {
        let path = Path::new(name_or_path);
        let source = std::fs::read_to_string(path).map_err(|source| GameError::Io {
            path: name_or_path.to_string(),
            source,
        })?;
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or(name_or_path);
        return Ok(load_str(&source, name_or_path, stem)?);
    }
    match GAMES.iter().find(|g| g.name == name_or_path) {
        Some(g) => Ok(load_str(
            g.source,
            &format!("games/{}.toml", g.name),
            g.name,
        )?),
        None => Err(GameError::UnknownGame {
            name: name_or_path.to_string(),
            known: GAMES.iter().map(|g| g.name).collect::<Vec<_>>().join(", "),
        }),
    }
}
