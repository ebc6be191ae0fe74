//! The built-in game library: game files compiled into the binary, and
//! loading a game by name or by path.

use std::path::Path;

use super::{GameError, apply_variant, load_str};
use crate::game::Game;

/// A game file that ships with dagaz.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinGame {
    pub name: &'static str,
    /// Where the file is in the repository (`games/chess.toml`).
    pub path: &'static str,
    pub source: &'static str,
}

/// The game files of `games/`, compiled in, by the names `dagaz list`
/// shows: `"chess"` is `games/chess.toml`, `in "fairy" "knightmate"` is
/// `games/fairy/knightmate.toml`, named `knightmate`.
macro_rules! library {
    ($($(in $dir:literal)? $name:literal),* $(,)?) => {
        &[$(BuiltinGame {
            name: $name,
            path: concat!("games/", $($dir, "/",)? $name, ".toml"),
            source: include_str!(concat!("../../../../games/", $($dir, "/",)? $name, ".toml")),
        }),*]
    };
}

const GAMES: &[BuiltinGame] = library![
    "chess",
    "shatranj",
    "capablanca",
    "grand",
    "jetan",
    "raumschach",
    "four-player-chess",
    "xiangqi",
    "janggi",
    "shogi",
    "chu-shogi",
    "dai-shogi",
    "wa-shogi",
    "tenjiku-shogi",
    "dai-dai-shogi",
    "taikyoku-shogi",
    "ko-shogi",
    "minishogi",
    "checkers",
    "russian-draughts",
    "international-draughts",
    "brazilian-draughts",
    "canadian-draughts",
    "pool-checkers",
    "czech-draughts",
    "spanish-draughts",
    "italian-draughts",
    "thai-draughts",
    "frisian-draughts",
    "dameo",
    "stavropol-checkers",
    "turkish-draughts",
    "fanorona",
    "kalah",
    "oware",
    "lasca",
    "bashni",
    "ultima",
    "rithmomachia",
    "tic-tac-toe",
    "connect-four",
    "gomoku",
    "breakthrough",
    "clobber",
    "hex",
    "reversi",
    "ataxx",
    "amazons",
    "connect6",
    "senterej",
    "jungle",
    // Fairy-Stockfish's variants (docs/fairy-stockfish.md).
    in "fairy" "clobber10",
    in "fairy" "duck",
    in "fairy" "flipello",
    in "fairy" "flipello10",
    in "fairy" "flipersi",
    in "fairy" "fox-and-hounds",
    in "fairy" "isolation",
    in "fairy" "isolation7x7",
    in "fairy" "jesonmor",
    in "fairy" "snailtrail",
    in "fairy" "raazuvaa",
    in "fairy" "makruk",
    in "fairy" "asean",
    in "fairy" "ai-wok",
    in "fairy" "sittuyin",
    in "fairy" "chaturanga",
    in "fairy" "shatar",
    in "fairy" "minixiangqi",
    in "fairy" "judkins",
    in "fairy" "gorogoro",
    in "fairy" "yarishogi",
    in "fairy" "okisakishogi",
    in "fairy" "checkshogi",
    in "fairy" "euroshogi",
    in "fairy" "shoshogi",
    in "fairy" "torishogi",
    in "fairy" "kinglet",
    in "fairy" "threekings",
    in "fairy" "extinction",
    in "fairy" "horde",
    in "fairy" "paradigm",
    in "fairy" "georgian",
    in "fairy" "perfect",
    in "fairy" "fairy",
    in "fairy" "legan",
    in "fairy" "dragon",
    in "fairy" "capahouse",
    in "fairy" "joust",
    in "fairy" "bughouse",
    in "fairy" "koedem",
    in "fairy" "supply",
    in "fairy" "troitzky",
    in "fairy" "wolf",
    in "fairy" "petrified",
    in "fairy" "atomar",
    in "fairy" "chigorin",
    in "fairy" "sortofalmost",
    in "fairy" "coregal",
    in "fairy" "spartan",
    in "fairy" "centaur",
    in "fairy" "chancellor",
    in "fairy" "courier",
    in "fairy" "embassy",
    in "fairy" "gardner",
    in "fairy" "gothic",
    in "fairy" "gustav3",
    in "fairy" "janus",
    in "fairy" "losalamos",
    in "fairy" "manchu",
    in "fairy" "modern",
    in "fairy" "omicron",
    in "fairy" "opulent",
    in "fairy" "shako",
    in "fairy" "tencubed",
    in "fairy" "5check",
    in "fairy" "almost",
    in "fairy" "amazon",
    in "fairy" "armageddon",
    in "fairy" "berolina",
    in "fairy" "grasshopper",
    in "fairy" "hoppelpoppel",
    in "fairy" "knightmate",
    in "fairy" "misere",
    in "fairy" "newzealand",
    in "fairy" "nightrider",
    in "fairy" "nocastle",
    in "fairy" "pawnback",
    in "fairy" "pawnsideways",
    in "fairy" "torpedo",
    in "fairy" "dobutsu",
    in "fairy" "kyotoshogi",
    in "fairy" "micro",
];

/// All built-in games, by name.
pub fn builtin_games() -> &'static [BuiltinGame] {
    GAMES
}

/// `games/fairy-stockfish.tsv`: Fairy-Stockfish's variants and the games
/// that play them (with the differential test's settings).
const FAIRY_STOCKFISH: &str = include_str!("../../../../games/fairy-stockfish.tsv");

/// Fairy-Stockfish's variant names (`crazyhouse`, `3check`) with the
/// built-in game that plays each (`chess:crazyhouse`, `chess:three-check`);
/// its Chess960 modes (`atomic@960`) are left out.
pub fn fairy_stockfish_names() -> Vec<(&'static str, &'static str)> {
    FAIRY_STOCKFISH
        .lines()
        .skip(1)
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((f.next()?, f.next()?))
        })
        .filter(|(name, _)| !name.contains('@'))
        .collect()
}

/// The built-in game that plays Fairy-Stockfish's variant `name`.
pub fn fairy_stockfish_game(name: &str) -> Option<&'static str> {
    fairy_stockfish_names()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, game)| game)
}

/// The built-in games and variants an unknown name may have meant: the
/// variants of that name (`chess960` → `chess:chess960`), and the games
/// whose names contain it or it theirs.
fn suggestions(name: &str) -> String {
    let name = name.to_ascii_lowercase();
    let variant = name.rsplit(':').next().unwrap_or(&name);
    let variants = GAMES
        .iter()
        .filter(|g| g.source.contains(&format!("[variants.{variant}]")))
        .map(|g| format!("{}:{variant}", g.name));
    let games = GAMES
        .iter()
        .filter(|g| g.name.contains(&name) || name.contains(g.name))
        .map(|g| g.name.to_string());
    let found: Vec<String> = variants.chain(games).take(8).collect();
    match found.as_slice() {
        [] => String::new(),
        names => format!(" (did you mean {}?)", names.join(", ")),
    }
}

/// Loads a built-in game by name, a variant a built-in game plays by
/// Fairy-Stockfish's name (`crazyhouse`), or a game file by path (anything
/// with a `/` or ending in `.toml`). A `:variant` suffix selects one of
/// the variants the game file defines (`turkish-draughts:end`).
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
                g.path.to_string(),
                g.name.to_string(),
            ),
            None => {
                // Fairy-Stockfish's name of a variant a built-in game plays.
                if let Some(game) = variant
                    .is_none()
                    .then(|| fairy_stockfish_game(base))
                    .flatten()
                {
                    return load_game(game);
                }
                return Err(GameError::UnknownGame {
                    name: name_or_path.to_string(),
                    suggestions: suggestions(name_or_path),
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
