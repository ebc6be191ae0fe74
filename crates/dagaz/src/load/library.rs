//! The built-in game library: game files compiled into the binary, and
//! loading a game by name or by path.

use std::path::Path;

use super::{GameError, apply_variant, load_str};
use crate::game::Game;

/// A game file that ships with dagaz.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinGame {
    pub name: &'static str,
    pub source: &'static str,
}

const GAMES: &[BuiltinGame] = &[
    BuiltinGame {
        name: "chess",
        source: include_str!("../../../../games/chess.toml"),
    },
    BuiltinGame {
        name: "shatranj",
        source: include_str!("../../../../games/shatranj.toml"),
    },
    BuiltinGame {
        name: "capablanca",
        source: include_str!("../../../../games/capablanca.toml"),
    },
    BuiltinGame {
        name: "grand",
        source: include_str!("../../../../games/grand.toml"),
    },
    BuiltinGame {
        name: "jetan",
        source: include_str!("../../../../games/jetan.toml"),
    },
    BuiltinGame {
        name: "raumschach",
        source: include_str!("../../../../games/raumschach.toml"),
    },
    BuiltinGame {
        name: "four-player-chess",
        source: include_str!("../../../../games/four-player-chess.toml"),
    },
    BuiltinGame {
        name: "xiangqi",
        source: include_str!("../../../../games/xiangqi.toml"),
    },
    BuiltinGame {
        name: "janggi",
        source: include_str!("../../../../games/janggi.toml"),
    },
    BuiltinGame {
        name: "shogi",
        source: include_str!("../../../../games/shogi.toml"),
    },
    BuiltinGame {
        name: "chu-shogi",
        source: include_str!("../../../../games/chu-shogi.toml"),
    },
    BuiltinGame {
        name: "ko-shogi-demo",
        source: include_str!("../../../../games/ko-shogi-demo.toml"),
    },
    BuiltinGame {
        name: "minishogi",
        source: include_str!("../../../../games/minishogi.toml"),
    },
    BuiltinGame {
        name: "checkers",
        source: include_str!("../../../../games/checkers.toml"),
    },
    BuiltinGame {
        name: "russian-draughts",
        source: include_str!("../../../../games/russian-draughts.toml"),
    },
    BuiltinGame {
        name: "international-draughts",
        source: include_str!("../../../../games/international-draughts.toml"),
    },
    BuiltinGame {
        name: "stavropol-checkers",
        source: include_str!("../../../../games/stavropol-checkers.toml"),
    },
    BuiltinGame {
        name: "turkish-draughts",
        source: include_str!("../../../../games/turkish-draughts.toml"),
    },
    BuiltinGame {
        name: "fanorona",
        source: include_str!("../../../../games/fanorona.toml"),
    },
    BuiltinGame {
        name: "kalah",
        source: include_str!("../../../../games/kalah.toml"),
    },
    BuiltinGame {
        name: "oware",
        source: include_str!("../../../../games/oware.toml"),
    },
    BuiltinGame {
        name: "lasca",
        source: include_str!("../../../../games/lasca.toml"),
    },
    BuiltinGame {
        name: "bashni",
        source: include_str!("../../../../games/bashni.toml"),
    },
    BuiltinGame {
        name: "ultima",
        source: include_str!("../../../../games/ultima.toml"),
    },
    BuiltinGame {
        name: "rithmomachia",
        source: include_str!("../../../../games/rithmomachia.toml"),
    },
];

/// All built-in games, by name.
pub fn builtin_games() -> &'static [BuiltinGame] {
    GAMES
}

/// Loads a built-in game by name, or a game file by path (anything with a
/// `/` or ending in `.toml`). A `:variant` suffix selects one of the
/// variants the game file defines (`turkish-draughts:end`).
pub fn load_game(name_or_path: &str) -> Result<Game, GameError> {
    let (base, variant) = match name_or_path.rsplit_once(':') {
        Some((b, v)) if !v.is_empty() && !v.contains('/') => (b, Some(v)),
        _ => (name_or_path, None),
    };
    let (source, file, stem) = if base.contains('/') || base.ends_with(".toml") {
        let path = Path::new(base);
        let source = std::fs::read_to_string(path).map_err(|source| GameError::Io {
            path: base.to_string(),
            source,
        })?;
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or(base)
            .to_string();
        (std::borrow::Cow::Owned(source), base.to_string(), stem)
    } else {
        match GAMES.iter().find(|g| g.name == base) {
            Some(g) => (
                std::borrow::Cow::Borrowed(g.source),
                format!("games/{}.toml", g.name),
                g.name.to_string(),
            ),
            None => {
                return Err(GameError::UnknownGame {
                    name: name_or_path.to_string(),
                    known: GAMES.iter().map(|g| g.name).collect::<Vec<_>>().join(", "),
                });
            }
        }
    };
    match variant {
        None => Ok(load_str(&source, &file, &stem)?),
        Some(v) => {
            let merged = apply_variant(&source, &file, v)?;
            let mut game = load_str(&merged, &format!("{file} (variant {v})"), &stem)?;
            game.name = format!("{}:{v}", game.name);
            Ok(game)
        }
    }
}
