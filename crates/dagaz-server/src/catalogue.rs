//! The games the server offers: the built-in library and, if asked, the
//! game files of one folder. Games are loaded once and shared.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use dagaz::game::Game;
use dagaz::load::{builtin_games, load_game};

/// One game of the catalogue.
#[derive(Clone, Debug)]
pub struct Entry {
    pub name: String,
    pub title: String,
    pub description: String,
    pub players: Vec<String>,
    /// Name and description of each variant (`name:variant`).
    pub variants: Vec<(String, String)>,
    /// The game file, for games that are not built in.
    path: Option<PathBuf>,
}

/// The games on offer, and the loaded ones.
pub struct Catalogue {
    entries: Vec<Entry>,
    loaded: Mutex<HashMap<String, Arc<Game>>>,
}

impl Catalogue {
    /// The built-in games and the game files of `dir` (`*.toml`, and Zillions
    /// rules files, `*.zrf`, converted). A file that does
    /// not load stops the server with its diagnostics: the person who put
    /// it there wants to know.
    pub fn new(dir: Option<&Path>) -> Result<Catalogue, String> {
        let mut catalogue = Catalogue {
            entries: Vec::new(),
            loaded: Mutex::new(HashMap::new()),
        };
        for g in builtin_games() {
            let game = load_game(g.name).map_err(|e| e.to_string())?;
            catalogue.add(game, None);
        }
        if let Some(dir) = dir {
            for path in game_files(dir)? {
                let text = path.to_string_lossy().to_string();
                let game = dagaz::import::open_game(&text)?;
                // Each variant loads too: a broken one stops the server
                // now, not a player later.
                for (variant, _) in &game.variants {
                    dagaz::import::open_game(&format!("{text}:{variant}"))?;
                }
                if catalogue.entry(&game.name).is_some() {
                    return Err(format!(
                        "{text}: a game named '{}' is already offered",
                        game.name
                    ));
                }
                catalogue.add(game, Some(path));
            }
        }
        Ok(catalogue)
    }

    fn add(&mut self, game: Game, path: Option<PathBuf>) {
        self.entries.push(Entry {
            name: game.name.clone(),
            title: game.title.clone(),
            description: game.description.clone(),
            players: game.players.iter().map(|p| p.name.clone()).collect(),
            variants: game.variants.clone(),
            path,
        });
        self.cache().insert(game.name.clone(), Arc::new(game));
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Game>>> {
        self.loaded.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// A game by name, or `name:variant`.
    pub fn game(&self, name: &str) -> Result<Arc<Game>, String> {
        if let Some(game) = self.cache().get(name) {
            return Ok(game.clone());
        }
        let (base, variant) = name.split_once(':').unwrap_or((name, ""));
        let entry = self.entry(base).ok_or_else(|| {
            let known: Vec<&str> = self.entries.iter().map(|e| e.name.as_str()).collect();
            format!("unknown game '{name}'; the games are: {}", known.join(", "))
        })?;
        if !entry.variants.iter().any(|(v, _)| v == variant) {
            return Err(format!("the game '{base}' has no variant '{variant}'"));
        }
        let source = match &entry.path {
            Some(p) => format!("{}:{variant}", p.display()),
            None => name.to_string(),
        };
        let game = Arc::new(dagaz::import::open_game(&source)?);
        self.cache().insert(name.to_string(), game.clone());
        Ok(game)
    }
}

/// The `*.toml` files of a folder, in name order.
fn game_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let read = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = read
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml" || x == "zrf"))
        .collect();
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_games_and_variants() {
        let c = Catalogue::new(None).unwrap();
        assert!(c.entries().iter().any(|e| e.name == "chess"));
        assert_eq!(c.game("chess").unwrap().name, "chess");
        assert!(c.game("turkish-draughts:nonsense").is_err());
        let e = c.game("../etc/passwd").unwrap_err();
        assert!(e.contains("unknown game"), "{e}");
        assert!(c.game("/tmp/x.toml").is_err());
    }

    /// A game file of `--games` whose variant does not load stops the
    /// server at the start, naming the file and the variant.
    #[test]
    fn a_broken_variant_in_the_games_folder_is_refused() {
        let dir = std::env::temp_dir().join(format!("dagaz-catalogue-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let chess = builtin_games().iter().find(|g| g.name == "chess").unwrap();
        let text = format!(
            "{}\n[variants.broken]\ndescription = \"x\"\n[variants.broken.pieces.Knight]\nmoves = [\"N[p\"]\n",
            chess
                .source
                .replace("name = \"chess\"", "name = \"mychess\"")
        );
        std::fs::write(dir.join("mychess.toml"), text).unwrap();
        let e = Catalogue::new(Some(&dir)).err();
        std::fs::remove_dir_all(&dir).unwrap();
        let e = e.expect("refused");
        assert!(e.contains("broken") && e.contains("unclosed '['"), "{e}");
    }
}
