//! A ZRF `board`: its grid, directions, removed squares, links, zones and
//! the players' symmetries, as the game file's `[board]`, `[zones]` and
//! player maps.

use indexmap::IndexMap;
use toml::{Table, Value};

use super::{Sources, ZrfError, s};
use crate::notation::sexpr::Sexp;

/// The board as the game file will have it.
pub(super) struct Board {
    /// Column labels (ZRF's first dimension) and row labels, top first.
    pub cols: Vec<String>,
    pub rows: Vec<String>,
    /// Squares removed (`kill-positions`).
    pub removed: Vec<String>,
    /// ZRF direction name to the game file's letter.
    pub dirs: IndexMap<String, char>,
    /// Letter to its vector, or to its link chains.
    pub dir_values: IndexMap<char, Value>,
    /// Zone (game-file name) to player name to squares.
    pub zones: IndexMap<String, IndexMap<String, Vec<String>>>,
    /// ZRF zone names to game-file zone names.
    pub zone_names: IndexMap<String, String>,
    /// Player to its symmetry pairs (ZRF names).
    pub symmetry: IndexMap<String, Vec<(String, String)>>,
}

impl Board {
    pub(super) fn square_exists(&self, name: &str) -> bool {
        !self.removed.iter().any(|r| r == name)
            && self.cols.iter().any(|c| {
                name.strip_prefix(c.as_str())
                    .is_some_and(|r| self.rows.iter().any(|x| x == r))
            })
    }

    /// The `[board]` table.
    pub(super) fn table(&self) -> Table {
        let mut t = Table::new();
        t.insert(
            "grid".into(),
            s(format!("{} x {}", self.cols.join("/"), self.rows.join("/"))),
        );
        let dirs: Table = self
            .dir_values
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        t.insert("directions".into(), Value::Table(dirs));
        if !self.removed.is_empty() {
            t.insert("remove".into(), s(self.removed.join(", ")));
        }
        t
    }

    /// A player's direction map (`"N=S S=N"`), if its symmetry changes any.
    pub(super) fn map(&self, player: &str) -> Option<String> {
        let pairs = self.symmetry.get(player)?;
        let parts: Vec<String> = pairs
            .iter()
            .filter(|(a, b)| a != b)
            .filter_map(|(a, b)| Some(format!("{}={}", self.dirs.get(a)?, self.dirs.get(b)?)))
            .collect();
        (!parts.is_empty()).then(|| parts.join(" "))
    }
}

/// Reads the `board` section.
pub(super) fn read(sources: &Sources, board: &Sexp, players: &[String]) -> Result<Board, ZrfError> {
    let (_, body) = board.head().unwrap_or_default();
    let mut b = Board {
        cols: Vec::new(),
        rows: Vec::new(),
        removed: Vec::new(),
        dirs: IndexMap::new(),
        dir_values: IndexMap::new(),
        zones: IndexMap::new(),
        zone_names: IndexMap::new(),
        symmetry: IndexMap::new(),
    };
    let mut grids = 0;
    let mut links: IndexMap<String, Vec<String>> = IndexMap::new();
    for part in body {
        let Some((h, args)) = part.head() else {
            continue;
        };
        match h.as_str() {
            "image" | "start-rectangle" => {}
            "grid" => {
                grids += 1;
                if grids > 1 {
                    return Err(ZrfError::at(
                        sources,
                        part,
                        "boards of several grids are not supported yet",
                    ));
                }
                grid(sources, part, args, &mut b)?;
            }
            "kill-positions" => b
                .removed
                .extend(args.iter().filter_map(|a| a.text().map(str::to_string))),
            "links" => {
                let Some((dir, pairs)) = args.split_first() else {
                    return Err(ZrfError::at(sources, part, "links needs a direction"));
                };
                let name = dir.text().unwrap_or("").to_string();
                for p in pairs {
                    match p.list() {
                        Some([from, to]) => links.entry(name.clone()).or_default().push(format!(
                            "{}>{}",
                            from.text().unwrap_or(""),
                            to.text().unwrap_or("")
                        )),
                        _ => return Err(ZrfError::at(sources, p, "a link is (from to)")),
                    }
                }
            }
            "symmetry" => {
                let Some((who, pairs)) = args.split_first() else {
                    return Err(ZrfError::at(sources, part, "symmetry needs a player"));
                };
                let mut list = Vec::new();
                for p in pairs {
                    match p.list() {
                        Some([a, c]) => list.push((
                            a.text().unwrap_or("").to_string(),
                            c.text().unwrap_or("").to_string(),
                        )),
                        _ => return Err(ZrfError::at(sources, p, "a symmetry pair is (dir dir)")),
                    }
                }
                b.symmetry
                    .insert(who.text().unwrap_or("").to_string(), list);
            }
            "zone" => zone(sources, part, args, players, &mut b)?,
            other => {
                return Err(ZrfError::at(
                    sources,
                    part,
                    format!("'{other}' in a board is not supported yet"),
                ));
            }
        }
    }
    if grids == 0 {
        return Err(ZrfError::at(
            sources,
            board,
            "boards without a grid (positions and links only) are not supported yet",
        ));
    }
    for (name, chains) in links {
        if b.dirs.contains_key(&name) {
            return Err(ZrfError::at(
                sources,
                board,
                format!("links that change the grid's direction '{name}' are not supported yet"),
            ));
        }
        let letter = letter_for(&name, &b.dirs).ok_or_else(|| {
            ZrfError::at(
                sources,
                board,
                "more directions than the game file's letters",
            )
        })?;
        b.dirs.insert(name, letter);
        b.dir_values.insert(letter, s(chains.join(", ")));
    }
    for (who, pairs) in &b.symmetry {
        for (a, c) in pairs {
            if !b.dirs.contains_key(a) || !b.dirs.contains_key(c) {
                return Err(ZrfError::at(
                    sources,
                    board,
                    format!(
                        "the symmetry of {who} names a direction the board does not have ({a} {c})"
                    ),
                ));
            }
        }
    }
    Ok(b)
}

fn grid(sources: &Sources, form: &Sexp, args: &[Sexp], b: &mut Board) -> Result<(), ZrfError> {
    for part in args {
        let Some((h, items)) = part.head() else {
            continue;
        };
        match h.as_str() {
            "start-rectangle" => {}
            "dimensions" => {
                let labels: Vec<Vec<String>> = items
                    .iter()
                    .map(|d| {
                        let text = d.list().and_then(|l| l.first()).and_then(|t| t.text());
                        text.map(|t| t.split('/').map(str::to_string).collect())
                    })
                    .collect::<Option<_>>()
                    .ok_or_else(|| {
                        ZrfError::at(sources, part, "a dimension is (\"a/b/c\" (dx dy))")
                    })?;
                match <[Vec<String>; 2]>::try_from(labels) {
                    Ok([cols, rows]) => {
                        b.cols = cols;
                        b.rows = rows;
                    }
                    Err(l) => {
                        return Err(ZrfError::at(
                            sources,
                            part,
                            format!(
                                "grids of {} dimensions are not supported yet (two are)",
                                l.len()
                            ),
                        ));
                    }
                }
            }
            "directions" => {
                for d in items {
                    let Some((name, v)) = d.list().and_then(|l| l.split_first()) else {
                        return Err(ZrfError::at(sources, d, "a direction is (name dx dy)"));
                    };
                    let name = name.text().unwrap_or("").to_string();
                    let vector: Vec<i64> = v
                        .iter()
                        .map(|x| x.text().and_then(|t| t.parse().ok()))
                        .collect::<Option<_>>()
                        .ok_or_else(|| {
                            ZrfError::at(sources, d, "a direction's steps are numbers")
                        })?;
                    let mut vector = vector;
                    vector.resize(2, 0);
                    if vector.len() > 2 {
                        return Err(ZrfError::at(
                            sources,
                            d,
                            "directions of more than two dimensions",
                        ));
                    }
                    let letter = letter_for(&name, &b.dirs).ok_or_else(|| {
                        ZrfError::at(sources, d, "more directions than the game file's letters")
                    })?;
                    b.dirs.insert(name, letter);
                    b.dir_values.insert(
                        letter,
                        Value::Array(vector.into_iter().map(Value::Integer).collect()),
                    );
                }
            }
            other => {
                return Err(ZrfError::at(
                    sources,
                    part,
                    format!("'{other}' in a grid is not supported yet"),
                ));
            }
        }
    }
    if b.cols.is_empty() {
        return Err(ZrfError::at(sources, form, "the grid has no dimensions"));
    }
    Ok(())
}

fn zone(
    sources: &Sources,
    form: &Sexp,
    args: &[Sexp],
    players: &[String],
    b: &mut Board,
) -> Result<(), ZrfError> {
    let mut name = None;
    let mut who: Vec<String> = Vec::new();
    let mut squares: Vec<String> = Vec::new();
    for a in args {
        match a.head() {
            Some((h, items)) if h == "name" => name = items.first().and_then(|n| n.text()),
            Some((h, items)) if h == "players" => {
                who = items
                    .iter()
                    .filter_map(|p| p.text().map(str::to_string))
                    .collect()
            }
            Some((h, items)) if h == "positions" => {
                squares = items
                    .iter()
                    .filter_map(|p| p.text().map(str::to_string))
                    .collect()
            }
            _ => {}
        }
    }
    let Some(name) = name else {
        return Err(ZrfError::at(sources, form, "a zone needs a name"));
    };
    if let Some(p) = who.iter().find(|p| !players.contains(p)) {
        return Err(ZrfError::at(
            sources,
            form,
            format!("'{p}' is not a player"),
        ));
    }
    let fixed = zone_name(name, &b.zone_names);
    b.zone_names.insert(name.to_string(), fixed.clone());
    let entry = b.zones.entry(fixed).or_default();
    for p in who {
        entry.entry(p).or_default().extend(squares.iter().cloned());
    }
    Ok(())
}

/// A game-file zone name for a ZRF one: letters, digits and `_`.
pub(super) fn zone_name(name: &str, taken: &IndexMap<String, String>) -> String {
    if let Some(n) = taken.get(name) {
        return n.clone();
    }
    let mut fixed: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    while taken.values().any(|v| *v == fixed) {
        fixed.push('_');
    }
    fixed
}

/// The letter for a direction: its own initial for n, s, e, w; otherwise
/// the first free letter of its name, then of the alphabet (never `X`).
fn letter_for(name: &str, taken: &IndexMap<String, char>) -> Option<char> {
    if let Some(&l) = taken.get(name) {
        return Some(l);
    }
    let free = |c: char| c != 'X' && c.is_ascii_uppercase() && !taken.values().any(|&l| l == c);
    let preferred = match name {
        "n" => Some('N'),
        "s" => Some('S'),
        "e" => Some('E'),
        "w" => Some('W'),
        "ne" => Some('R'),
        "nw" => Some('L'),
        "se" => Some('T'),
        "sw" => Some('Q'),
        _ => None,
    };
    preferred
        .into_iter()
        .chain(name.chars().map(|c| c.to_ascii_uppercase()))
        .chain('A'..='Z')
        .find(|&c| free(c))
}
