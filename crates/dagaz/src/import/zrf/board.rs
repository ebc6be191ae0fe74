//! A ZRF `board`: its grid, directions, removed squares, links, zones and
//! the players' symmetries, as the game file's `[board]`, `[zones]` and
//! player maps.

use indexmap::IndexMap;
use toml::{Table, Value};

use super::{Sources, ZrfError, s};
use crate::notation::sexpr::Sexp;

/// Most places a board's grid may have (as the game file's grids).
const MAX_PLACES: usize = 16_000;

/// The board as the game file will have it.
pub(super) struct Board {
    /// The game file's grid: column labels and row labels, top first.
    cols: Vec<String>,
    rows: Vec<String>,
    /// Each row's cells, top first: the square's name, or `None` where the
    /// grid has no square.
    cells: Vec<Vec<Option<String>>>,
    /// Squares of the grid the game file removes.
    removed: Vec<String>,
    /// Grid names to the squares' own names (boards laid out from their
    /// positions).
    rename: IndexMap<String, String>,
    /// ZRF direction name to the game file's letter.
    pub dirs: IndexMap<String, char>,
    /// Letter to its vector, or to its link chains.
    dir_values: IndexMap<char, Value>,
    /// Zone (game-file name) to player name to squares.
    pub zones: IndexMap<String, IndexMap<String, Vec<String>>>,
    /// ZRF zone names to game-file zone names.
    pub zone_names: IndexMap<String, String>,
    /// Player to its symmetry pairs (ZRF names).
    symmetry: IndexMap<String, Vec<(String, String)>>,
    /// What was left out, with where.
    pub warnings: Vec<String>,
}

impl Board {
    pub(super) fn square_exists(&self, name: &str) -> bool {
        self.cells
            .iter()
            .flatten()
            .any(|c| c.as_deref() == Some(name))
    }

    /// The board's rows, top first, each cell a square's name or `None`.
    pub(super) fn rows(&self) -> &[Vec<Option<String>>] {
        &self.cells
    }

    /// How many squares the board has.
    pub(super) fn len(&self) -> usize {
        self.cells.iter().flatten().flatten().count()
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
        if !self.rename.is_empty() {
            let rename: Table = self
                .rename
                .iter()
                .map(|(k, v)| (k.clone(), s(v.as_str())))
                .collect();
            t.insert("rename".into(), Value::Table(rename));
        }
        t
    }

    /// A player's direction map (`"N=S S=N"`), if its symmetry changes any.
    /// ZRF's symmetry may leave directions out; the game file's map is a
    /// permutation, so directions left out take the directions nothing
    /// maps to, in order (a piece of that player never steps that way, or
    /// the symmetry would have said where).
    pub(super) fn map(&self, player: &str) -> Option<String> {
        let pairs = self.symmetry.get(player)?;
        let mut to: IndexMap<char, char> = IndexMap::new();
        for (a, b) in pairs {
            let (Some(&a), Some(&b)) = (self.dirs.get(a), self.dirs.get(b)) else {
                continue;
            };
            to.insert(a, b);
        }
        let letters: Vec<char> = self.dirs.values().copied().collect();
        let taken: Vec<char> = to.values().copied().collect();
        let mut unused = letters.iter().filter(|l| !taken.contains(l));
        for l in &letters {
            if !to.contains_key(l) {
                let target = *unused.next()?;
                to.insert(*l, target);
            }
        }
        let parts: Vec<String> = to
            .iter()
            .filter(|(a, b)| a != b)
            .map(|(a, b)| format!("{a}={b}"))
            .collect();
        (!parts.is_empty()).then(|| parts.join(" "))
    }
}

/// One `grid` of a board: where it starts, its dimensions (labels and the
/// step between them on the screen) and its directions.
struct Grid {
    start: (i64, i64),
    dims: Vec<(Vec<String>, (i64, i64))>,
    /// Direction name and its steps along each dimension.
    dirs: Vec<(String, Vec<i64>)>,
}

impl Grid {
    /// Every position: the labels' indices, its name and screen place.
    fn positions(&self) -> Vec<(Vec<usize>, String, (i64, i64))> {
        let mut out = vec![(Vec::new(), String::new(), self.start)];
        for (labels, (dx, dy)) in &self.dims {
            out = out
                .into_iter()
                .flat_map(|(idx, name, (x, y))| {
                    labels.iter().enumerate().map(move |(i, l)| {
                        let mut idx = idx.clone();
                        idx.push(i);
                        let i64_ = i as i64;
                        let at = (
                            x.saturating_add(i64_.saturating_mul(*dx)),
                            y.saturating_add(i64_.saturating_mul(*dy)),
                        );
                        (idx, format!("{name}{l}"), at)
                    })
                })
                .collect();
        }
        out
    }

    /// The position one step in direction `v` from `idx`, if any.
    fn step(&self, idx: &[usize], v: &[i64]) -> Option<Vec<usize>> {
        idx.iter()
            .zip(&self.dims)
            .enumerate()
            .map(|(k, (&i, (labels, _)))| {
                let j = (i as i64).checked_add(v.get(k).copied().unwrap_or(0))?;
                (0..labels.len() as i64).contains(&j).then_some(j as usize)
            })
            .collect()
    }
}

/// Everything a board section says, before it is laid out.
#[derive(Default)]
struct Parts {
    grids: Vec<Grid>,
    /// Positions in order: name and screen place.
    positions: IndexMap<String, (i64, i64)>,
    /// Direction to its links, from → to, in order.
    links: IndexMap<String, IndexMap<String, String>>,
    killed: Vec<String>,
    /// The links `links` gave: (direction, from, to).
    explicit: Vec<(String, String, String)>,
    /// Explicit `links` or `unlink` changed the grids' links.
    relinked: bool,
}

/// Reads the `board` section.
pub(super) fn read(sources: &Sources, board: &Sexp, players: &[String]) -> Result<Board, ZrfError> {
    let (_, body) = board.head().unwrap_or_default();
    let mut b = Board {
        cols: Vec::new(),
        rows: Vec::new(),
        cells: Vec::new(),
        removed: Vec::new(),
        rename: IndexMap::new(),
        dirs: IndexMap::new(),
        dir_values: IndexMap::new(),
        zones: IndexMap::new(),
        zone_names: IndexMap::new(),
        symmetry: IndexMap::new(),
        warnings: Vec::new(),
    };
    let mut parts = Parts::default();
    let mut zones = Vec::new();
    for part in body {
        let Some((h, args)) = part.head() else {
            continue;
        };
        match h.as_str() {
            "image" | "start-rectangle" => {}
            "grid" => {
                let g = grid(sources, part, args)?;
                let positions = g.positions();
                let names: std::collections::HashMap<&[usize], &String> = positions
                    .iter()
                    .map(|(idx, name, _)| (idx.as_slice(), name))
                    .collect();
                for (idx, name, at) in &positions {
                    parts.positions.insert(name.clone(), *at);
                    for (d, v) in &g.dirs {
                        if let Some(to) = g.step(idx, v).and_then(|to| names.get(to.as_slice())) {
                            let links = parts.links.entry(d.clone()).or_default();
                            links.insert(name.clone(), (*to).clone());
                        }
                    }
                }
                parts.grids.push(g);
            }
            "positions" => {
                for p in args {
                    let items = p.list().unwrap_or_default();
                    let name = items.first().and_then(|n| n.text());
                    let nums: Option<Vec<i64>> = items
                        .iter()
                        .skip(1)
                        .map(|x| x.text().and_then(|t| t.parse().ok()))
                        .collect();
                    match (name, nums.as_deref()) {
                        (Some(n), Some([x, y, ..])) => {
                            parts.positions.insert(n.to_string(), (*x, *y));
                        }
                        _ => {
                            return Err(ZrfError::at(
                                sources,
                                p,
                                "a position is (name x1 y1 x2 y2)",
                            ));
                        }
                    }
                }
                parts.relinked = true;
            }
            "kill-positions" => parts
                .killed
                .extend(args.iter().filter_map(|a| a.text().map(str::to_string))),
            "links" => links(sources, part, args, &mut parts)?,
            "unlink" => unlink(sources, args, &mut parts)?,
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
            "zone" => zones.push((part, args)),
            other => {
                return Err(ZrfError::at(
                    sources,
                    part,
                    format!("'{other}' in a board is not supported yet"),
                ));
            }
        }
    }
    kill(&mut parts);
    if parts.positions.is_empty() {
        return Err(ZrfError::at(sources, board, "the board has no positions"));
    }
    let simple = parts.grids.len() == 1
        && parts.grids[0].dims.len() == 2
        && !parts.relinked
        && parts.grids[0].dirs.iter().all(|(_, v)| v.len() <= 2);
    if simple {
        lay_out_grid(sources, board, &parts, &mut b)?;
    } else {
        lay_out_positions(sources, board, &parts, &mut b)?;
    }
    for (part, args) in zones {
        zone(sources, part, args, players, &mut b)?;
    }
    for (who, pairs) in b.symmetry.iter_mut() {
        for (a, c) in pairs.iter() {
            if !b.dirs.contains_key(a) || !b.dirs.contains_key(c) {
                let message = format!(
                    "warning: the symmetry of {who} names a direction the board does not have ({a} {c}); the pair is left out"
                );
                b.warnings
                    .push(ZrfError::at(sources, board, message).to_string());
            }
        }
        pairs.retain(|(a, c)| b.dirs.contains_key(a) && b.dirs.contains_key(c));
    }
    Ok(b)
}

/// `kill-positions`: the positions leave the board, but for those an
/// explicit `links` still names: the Dagaz project keeps pieces in reserve
/// on killed positions and links them to the board (Jungle's variant).
/// Those stay, with only the links given explicitly.
fn kill(parts: &mut Parts) {
    let named = |k: &String| parts.explicit.iter().any(|(_, a, b)| a == k || b == k);
    let (kept, gone): (Vec<String>, Vec<String>) = parts.killed.iter().cloned().partition(named);
    for k in &gone {
        parts.positions.shift_remove(k);
    }
    if kept.is_empty() {
        return;
    }
    parts.relinked = true;
    for (dir, links) in parts.links.iter_mut() {
        links.retain(|a, z| {
            let touches = kept.contains(a) || kept.contains(z);
            let explicit = parts
                .explicit
                .iter()
                .any(|(d, x, y)| d == dir && x == a && y == z);
            !touches || explicit
        });
    }
    parts.killed = gone;
}

/// `(links dir (from to)…)`: links of a direction, replacing the grid's
/// link from the same position.
fn links(sources: &Sources, part: &Sexp, args: &[Sexp], parts: &mut Parts) -> Result<(), ZrfError> {
    let Some((dir, pairs)) = args.split_first() else {
        return Err(ZrfError::at(sources, part, "links needs a direction"));
    };
    let name = dir.text().unwrap_or("").to_string();
    if parts
        .grids
        .iter()
        .any(|g| g.dirs.iter().any(|(d, _)| *d == name))
    {
        parts.relinked = true;
    }
    for p in pairs {
        match p.list() {
            Some([from, to]) => {
                let (from, to) = (from.text().unwrap_or(""), to.text().unwrap_or(""));
                parts
                    .explicit
                    .push((name.clone(), from.to_string(), to.to_string()));
                parts
                    .links
                    .entry(name.clone())
                    .or_default()
                    .insert(from.to_string(), to.to_string());
            }
            _ => return Err(ZrfError::at(sources, p, "a link is (from to)")),
        }
    }
    Ok(())
}

/// `(unlink …)`: `(a b)` removes the link from a to b, `(a dir)` the link
/// from a in that direction, a position alone every link from or to it.
fn unlink(sources: &Sources, args: &[Sexp], parts: &mut Parts) -> Result<(), ZrfError> {
    parts.relinked = true;
    for a in args {
        match (a.text(), a.list()) {
            (Some(p), _) => {
                for links in parts.links.values_mut() {
                    links.retain(|from, to| from != p && to != p);
                }
            }
            (None, Some([x, y])) => {
                let (x, y) = (x.text().unwrap_or(""), y.text().unwrap_or(""));
                if let Some(links) = parts.links.get_mut(y) {
                    links.shift_remove(x);
                } else {
                    for links in parts.links.values_mut() {
                        if links.get(x).is_some_and(|to| to == y) {
                            links.shift_remove(x);
                        }
                    }
                }
            }
            _ => {
                return Err(ZrfError::at(
                    sources,
                    a,
                    "unlink takes positions or (from to) pairs",
                ));
            }
        }
    }
    Ok(())
}

/// A board of one plain grid: the game file's grid with the same labels,
/// directions as vectors, links of other directions as chains.
fn lay_out_grid(
    sources: &Sources,
    board: &Sexp,
    parts: &Parts,
    b: &mut Board,
) -> Result<(), ZrfError> {
    let g = &parts.grids[0];
    b.cols = g.dims[0].0.clone();
    b.rows = g.dims[1].0.clone();
    b.cells = b
        .rows
        .iter()
        .map(|r| {
            b.cols
                .iter()
                .map(|c| {
                    let name = format!("{c}{r}");
                    parts.positions.contains_key(&name).then_some(name)
                })
                .collect()
        })
        .collect();
    b.removed = parts
        .killed
        .iter()
        .filter(|k| !parts.positions.contains_key(*k))
        .cloned()
        .collect();
    for (name, v) in &g.dirs {
        let letter = new_letter(sources, board, name, &b.dirs)?;
        b.dirs.insert(name.clone(), letter);
        let mut v = v.clone();
        v.resize(2, 0);
        b.dir_values.insert(
            letter,
            Value::Array(v.into_iter().map(Value::Integer).collect()),
        );
    }
    for (name, links) in &parts.links {
        if b.dirs.contains_key(name) {
            continue;
        }
        let letter = new_letter(sources, board, name, &b.dirs)?;
        b.dirs.insert(name.clone(), letter);
        b.dir_values.insert(letter, s(chains(parts, links)));
    }
    Ok(())
}

/// Links between live positions as the game file's chains.
fn chains(parts: &Parts, links: &IndexMap<String, String>) -> String {
    links
        .iter()
        .filter(|(a, z)| parts.positions.contains_key(*a) && parts.positions.contains_key(*z))
        .map(|(a, z)| format!("{a}>{z}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Any other board: the positions laid out on a grid of their screen
/// places (one column per distinct left edge, one row per distinct top
/// edge), each square renamed to its position's name, every direction as
/// link chains.
fn lay_out_positions(
    sources: &Sources,
    board: &Sexp,
    parts: &Parts,
    b: &mut Board,
) -> Result<(), ZrfError> {
    let mut xs: Vec<i64> = parts.positions.values().map(|p| p.0).collect();
    let mut ys: Vec<i64> = parts.positions.values().map(|p| p.1).collect();
    xs.sort_unstable();
    xs.dedup();
    ys.sort_unstable();
    ys.dedup();
    if xs.len().saturating_mul(ys.len()) > MAX_PLACES {
        return Err(ZrfError::at(
            sources,
            board,
            format!(
                "the positions spread over {} x {} places: more than {MAX_PLACES}",
                xs.len(),
                ys.len()
            ),
        ));
    }
    let mut cells: Vec<Vec<Option<String>>> = vec![vec![None; xs.len()]; ys.len()];
    for (name, (x, y)) in &parts.positions {
        let r = ys.binary_search(y).unwrap_or(0);
        let mut c = xs.binary_search(x).unwrap_or(0);
        // Positions on the same place go to the next free cell of the row.
        while cells[r].get(c).is_some_and(|cell| cell.is_some()) {
            c += 1;
        }
        if c >= cells[r].len() {
            for row in cells.iter_mut() {
                row.resize(c + 1, None);
            }
        }
        cells[r][c] = Some(name.clone());
    }
    let width = cells[0].len();
    if width * cells.len() > MAX_PLACES {
        return Err(ZrfError::at(
            sources,
            board,
            format!(
                "the positions spread over {width} x {} places: too many",
                cells.len()
            ),
        ));
    }
    b.cols = (0..width).map(|c| format!("c{c}")).collect();
    b.rows = (0..cells.len()).map(|r| format!("r{r}")).collect();
    for (r, row) in cells.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let grid_name = format!("{}{}", b.cols[c], b.rows[r]);
            match cell {
                Some(name) => {
                    b.rename.insert(grid_name, name.clone());
                }
                None => b.removed.push(grid_name),
            }
        }
    }
    b.cells = cells;
    for (name, links) in &parts.links {
        let letter = new_letter(sources, board, name, &b.dirs)?;
        b.dirs.insert(name.clone(), letter);
        b.dir_values.insert(letter, s(chains(parts, links)));
    }
    Ok(())
}

fn new_letter(
    sources: &Sources,
    board: &Sexp,
    name: &str,
    dirs: &IndexMap<String, char>,
) -> Result<char, ZrfError> {
    letter_for(name, dirs).ok_or_else(|| {
        ZrfError::at(
            sources,
            board,
            "more directions than the game file's letters (25)",
        )
    })
}

fn grid(sources: &Sources, form: &Sexp, args: &[Sexp]) -> Result<Grid, ZrfError> {
    let mut g = Grid {
        start: (0, 0),
        dims: Vec::new(),
        dirs: Vec::new(),
    };
    let number = |x: &Sexp| x.text().and_then(|t| t.parse::<i64>().ok());
    for part in args {
        let Some((h, items)) = part.head() else {
            continue;
        };
        match h.as_str() {
            "start-rectangle" => {
                if let [x, y, ..] = items {
                    g.start = (number(x).unwrap_or(0), number(y).unwrap_or(0));
                }
            }
            "dimensions" => {
                for d in items {
                    let dim = d.list().and_then(|l| match l {
                        [labels, step] => {
                            let labels: Vec<String> =
                                labels.text()?.split('/').map(str::to_string).collect();
                            let step = match step.list()? {
                                [dx, dy] => (number(dx)?, number(dy)?),
                                _ => return None,
                            };
                            Some((labels, step))
                        }
                        _ => None,
                    });
                    match dim {
                        Some(dim) => g.dims.push(dim),
                        None => {
                            return Err(ZrfError::at(
                                sources,
                                d,
                                "a dimension is (\"a/b/c\" (dx dy))",
                            ));
                        }
                    }
                }
            }
            "directions" => {
                for d in items {
                    let Some((name, v)) = d.list().and_then(|l| l.split_first()) else {
                        return Err(ZrfError::at(sources, d, "a direction is (name dx dy)"));
                    };
                    let name = name.text().unwrap_or("").to_string();
                    let vector: Vec<i64> =
                        v.iter().map(number).collect::<Option<_>>().ok_or_else(|| {
                            ZrfError::at(sources, d, "a direction's steps are numbers")
                        })?;
                    g.dirs.push((name, vector));
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
    if g.dims.is_empty() {
        return Err(ZrfError::at(sources, form, "the grid has no dimensions"));
    }
    let count = g
        .dims
        .iter()
        .try_fold(1usize, |n, (labels, _)| n.checked_mul(labels.len()))
        .filter(|n| *n <= MAX_PLACES);
    if count.is_none() {
        return Err(ZrfError::at(
            sources,
            form,
            format!("the grid has more than {MAX_PLACES} positions"),
        ));
    }
    if let Some((name, _)) = g.dirs.iter().find(|(_, v)| v.len() > g.dims.len()) {
        return Err(ZrfError::at(
            sources,
            form,
            format!("direction '{name}' has more steps than the grid has dimensions"),
        ));
    }
    Ok(g)
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
    // Positions the board killed are left out.
    squares.retain(|sq| b.square_exists(sq));
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
