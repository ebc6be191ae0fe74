//! Board topology: squares and their names, directions and the links they
//! make between squares, the direction sets `+` `X` `*`, player direction
//! maps and zones.
//!
//! Everything here is fixed when a game is loaded. The hot loops of move
//! generation only ever call [`Topology::step`], a table lookup.

mod grid;

pub use grid::{GridSpec, parse_grid};

use std::collections::HashMap;
use std::fmt;

/// A square of the board, an index into the topology's tables.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(pub u16);

impl Square {
    /// The square's index, for tables indexed by square.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A direction of the board, an index into the topology's direction table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Dir(pub u8);

impl Dir {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Marker in the link table for "no link from this square in this direction".
const NO_LINK: u16 = u16::MAX;

/// How a direction is defined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirKind {
    /// A displacement on the grid: (columns, rows, levels); rows grow downwards.
    Vector([i32; 3]),
    /// An explicit list of links, given as chains `a1>b2>c3`.
    Links,
}

/// One named direction.
#[derive(Clone, Debug)]
pub struct Direction {
    pub letter: char,
    pub kind: DirKind,
    /// The direction that undoes a step in this one, if the board has it.
    pub opposite: Option<Dir>,
}

/// Position of a square on the grid it was created from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Coords {
    pub col: i32,
    pub row: i32,
    pub level: i32,
}

/// What the topology knows about one square.
#[derive(Clone, Debug)]
pub struct SquareInfo {
    pub name: String,
    pub coords: Coords,
}

/// The board's squares, directions and links.
#[derive(Clone, Debug)]
pub struct Topology {
    squares: Vec<SquareInfo>,
    by_name: HashMap<String, Square>,
    /// Grid cell to square, for vector directions and display (asked
    /// during move generation: en passant squares): indexed by
    /// `(level * rows + row) * cols + col` over the grid's box, [`NO_LINK`]
    /// where the square was removed.
    by_coords: Vec<u16>,
    dirs: Vec<Direction>,
    /// `next[square * dir_count + dir]`.
    next: Vec<u16>,
    grid: GridSpec,
    orthogonal: Vec<Dir>,
    diagonal: Vec<Dir>,
    all: Vec<Dir>,
    /// Some squares have names of their own (`BoardSpec::rename`).
    renamed: bool,
}

/// How one direction is given in a game file.
#[derive(Clone, Debug)]
pub enum DirSpec {
    Vector(Vec<i32>),
    Chains(String),
}

/// Everything needed to build a topology; the game loader fills it in.
#[derive(Clone, Debug, Default)]
pub struct BoardSpec {
    pub grid: String,
    /// Directions in definition order; `None` means the eight standard ones
    /// (plus `U` and `D` on boards with levels).
    pub directions: Option<Vec<(String, DirSpec)>>,
    pub remove: Vec<String>,
    /// Overrides of the sets `+`, `X`, `*` (key is the set symbol).
    pub sets: Vec<(String, String)>,
    /// Keep only the squares of the same colour as this square (draughts
    /// boards: `"a1"` keeps the dark squares).
    pub checkered: Option<String>,
    /// `"numbers"`: after removals, name the squares 1, 2, … row by row
    /// from the top left (the numbering of draughts); `"numbers-from-bottom"`:
    /// the same from the bottom right (Spanish and Portuguese draughts).
    pub names: Option<String>,
    /// Squares given names of their own, (grid name, new name), applied
    /// after removals and numbering: boards whose squares are not named
    /// by a grid (the positions of a Zillions board).
    pub rename: Vec<(String, String)>,
}

/// What a square holds, which decides what take `^`, drop `|` and capture
/// `x` mean (`notation.md` §6). Only the default board is implemented so
/// far; the others are named so that game files and the interpreter have
/// one place to grow them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BoardKind {
    /// At most one piece per square.
    #[default]
    Default,
    /// An ordered stack per square (Lasca, Bashni).
    Stack,
    /// Counts of pieces per square (mancala).
    Heap,
}

impl BoardKind {
    /// Parses the `kind` of a `[board]`.
    pub fn parse(text: &str) -> Result<BoardKind, String> {
        match text {
            "default" => Ok(BoardKind::Default),
            "stack" => Ok(BoardKind::Stack),
            "heap" => Ok(BoardKind::Heap),
            other => Err(format!(
                "unknown board kind '{other}': use default, stack or heap"
            )),
        }
    }
}

/// A problem in a board description; `what` names the offending key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError {
    pub what: String,
    pub message: String,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.what, self.message)
    }
}

impl std::error::Error for BoardError {}

fn err(what: &str, message: impl Into<String>) -> BoardError {
    BoardError {
        what: what.to_string(),
        message: message.into(),
    }
}

/// The standard direction letters and their vectors (`notation.md` §2).
const STANDARD_DIRS: [(char, [i32; 3]); 8] = [
    ('N', [0, -1, 0]),
    ('S', [0, 1, 0]),
    ('W', [-1, 0, 0]),
    ('E', [1, 0, 0]),
    ('M', [-1, -1, 0]),
    ('O', [1, -1, 0]),
    ('R', [-1, 1, 0]),
    ('T', [1, 1, 0]),
];

impl Topology {
    /// Builds a topology from its description.
    pub fn build(spec: &BoardSpec) -> Result<Topology, BoardError> {
        let grid = parse_grid(&spec.grid).map_err(|m| err("board.grid", m))?;
        let mut topo = Topology {
            squares: Vec::new(),
            by_name: HashMap::new(),
            by_coords: Vec::new(),
            dirs: Vec::new(),
            next: Vec::new(),
            grid,
            orthogonal: Vec::new(),
            diagonal: Vec::new(),
            all: Vec::new(),
            renamed: !spec.rename.is_empty(),
        };
        topo.create_squares()?;
        for item in &spec.remove {
            let set = topo
                .parse_squares(item)
                .map_err(|m| err("board.remove", m))?;
            topo.remove_squares(&set);
        }
        if let Some(name) = &spec.checkered {
            let keep = topo
                .square(name)
                .ok_or_else(|| err("board.checkered", format!("unknown square '{name}'")))?;
            let colour = |c: Coords| (c.col + c.row + c.level).rem_euclid(2);
            let want = colour(topo.coords(keep));
            let other: Vec<Square> = topo
                .squares()
                .filter(|s| colour(topo.coords(*s)) != want)
                .collect();
            topo.remove_squares(&other);
        }
        if topo.squares.is_empty() {
            return Err(err("board.remove", "no squares are left on the board"));
        }
        match spec.names.as_deref() {
            None | Some("grid") => {}
            Some("numbers") => topo.number_squares(false),
            Some("numbers-from-bottom") => topo.number_squares(true),
            Some(other) => {
                return Err(err(
                    "board.names",
                    format!(
                        "unknown naming '{other}': use \"grid\", \"numbers\" or \"numbers-from-bottom\""
                    ),
                ));
            }
        }
        if !spec.rename.is_empty() {
            topo.rename_squares(&spec.rename)?;
        }

        if topo.squares.len() >= NO_LINK as usize {
            return Err(err("board.grid", "the board has too many squares"));
        }
        topo.create_directions(spec)?;
        topo.create_sets(spec)?;
        Ok(topo)
    }

    fn create_squares(&mut self) -> Result<(), BoardError> {
        let g = self.grid.clone();
        let count = g.cols.len() * g.rows.len() * g.levels.len().max(1);
        if count > 16_000 {
            return Err(err("board.grid", format!("{count} squares is too many")));
        }
        let levels: Vec<Option<&String>> = if g.levels.is_empty() {
            vec![None]
        } else {
            g.levels.iter().map(Some).collect()
        };
        for (l, level) in levels.iter().enumerate() {
            for (r, row) in g.rows.iter().enumerate() {
                for (c, col) in g.cols.iter().enumerate() {
                    let name = format!("{}{}{}", level.map_or("", |s| s.as_str()), col, row);
                    let coords = Coords {
                        col: c as i32,
                        row: r as i32,
                        level: l as i32,
                    };
                    self.add_square(name, coords)?;
                }
            }
        }
        Ok(())
    }

    fn add_square(&mut self, name: String, coords: Coords) -> Result<(), BoardError> {
        let sq = Square(self.squares.len() as u16);
        if self.by_name.insert(name.clone(), sq).is_some() {
            return Err(err(
                "board.grid",
                format!("two squares would both be named '{name}'"),
            ));
        }
        self.index_coords(coords, sq);
        self.squares.push(SquareInfo { name, coords });
        Ok(())
    }

    fn remove_squares(&mut self, remove: &[Square]) {
        let gone: std::collections::HashSet<Square> = remove.iter().copied().collect();
        let old = std::mem::take(&mut self.squares);
        self.by_name.clear();
        self.by_coords.fill(NO_LINK);
        for (i, info) in old.into_iter().enumerate() {
            if !gone.contains(&Square(i as u16)) {
                let sq = Square(self.squares.len() as u16);
                self.by_name.insert(info.name.clone(), sq);
                self.index_coords(info.coords, sq);
                self.squares.push(info);
            }
        }
    }

    /// Names the squares 1, 2, … in grid order, or backwards from the last.
    fn number_squares(&mut self, from_bottom: bool) {
        self.by_name.clear();
        let count = self.squares.len();
        for (i, info) in self.squares.iter_mut().enumerate() {
            info.name = if from_bottom { count - i } else { i + 1 }.to_string();
            self.by_name.insert(info.name.clone(), Square(i as u16));
        }
    }

    /// Gives the squares of `pairs` (grid name, new name) their new names,
    /// all at once (a new name may be another square's grid name).
    fn rename_squares(&mut self, pairs: &[(String, String)]) -> Result<(), BoardError> {
        let mut names: Vec<String> = self.squares.iter().map(|s| s.name.clone()).collect();
        for (old, new) in pairs {
            let sq = self
                .square(old)
                .ok_or_else(|| err("board.rename", format!("unknown square '{old}'")))?;
            let usable = !new.is_empty()
                && !new
                    .chars()
                    .any(|c| c.is_whitespace() || matches!(c, ',' | '>' | '[' | ']' | '/'));
            if !usable {
                return Err(err(
                    "board.rename",
                    format!("'{new}' cannot name a square (no spaces, ',', '>', '/' or brackets)"),
                ));
            }
            names[sq.index()] = new.clone();
        }
        let mut by_name = HashMap::new();
        for (i, name) in names.iter().enumerate() {
            if by_name.insert(name.clone(), Square(i as u16)).is_some() {
                return Err(err(
                    "board.rename",
                    format!("two squares would both be named '{name}'"),
                ));
            }
        }
        for (info, name) in self.squares.iter_mut().zip(names) {
            info.name = name;
        }
        self.by_name = by_name;
        Ok(())
    }

    /// True if some squares have names of their own (`[board.rename]`),
    /// so the grid's column and row labels name nothing.
    pub fn has_own_names(&self) -> bool {
        self.renamed
    }

    /// True if square names are plain numbers or names of their own
    /// (`[board.rename]`): move texts then need separators between squares.
    pub fn separated_names(&self) -> bool {
        self.renamed
            || self
                .squares
                .first()
                .is_some_and(|s| !s.name.is_empty() && s.name.chars().all(|c| c.is_ascii_digit()))
    }

    fn create_directions(&mut self, spec: &BoardSpec) -> Result<(), BoardError> {
        let specs: Vec<(String, DirSpec)> = match &spec.directions {
            Some(list) => list.clone(),
            None => {
                let mut list: Vec<(String, DirSpec)> = STANDARD_DIRS
                    .iter()
                    .map(|(c, v)| (c.to_string(), DirSpec::Vector(v.to_vec())))
                    .collect();
                if self.grid.levels.len() > 1 {
                    list.push(("U".into(), DirSpec::Vector(vec![0, 0, -1])));
                    list.push(("D".into(), DirSpec::Vector(vec![0, 0, 1])));
                }
                list
            }
        };
        if specs.len() > 64 {
            return Err(err("board.directions", "at most 64 directions"));
        }
        let n = self.squares.len();
        self.next = vec![NO_LINK; n * specs.len()];
        let dir_count = specs.len();
        for (d, (name, dspec)) in specs.iter().enumerate() {
            let what = format!("board.directions.{name}");
            let letter = direction_letter(name).map_err(|m| err(&what, m))?;
            if self.dirs.iter().any(|x| x.letter == letter) {
                return Err(err(&what, format!("direction '{letter}' is defined twice")));
            }
            let kind = match dspec {
                DirSpec::Vector(v) => {
                    let v = vector3(v).map_err(|m| err(&what, m))?;
                    for s in 0..n {
                        let c = self.squares[s].coords;
                        let to = Coords {
                            col: c.col + v[0],
                            row: c.row + v[1],
                            level: c.level + v[2],
                        };
                        if let Some(t) = self.at(to.col, to.row, to.level) {
                            self.next[s * dir_count + d] = t.0;
                        }
                    }
                    DirKind::Vector(v)
                }
                DirSpec::Chains(text) => {
                    for (from, to) in self.parse_chains(text).map_err(|m| err(&what, m))? {
                        let slot = &mut self.next[from.index() * dir_count + d];
                        if *slot != NO_LINK && *slot != to.0 {
                            return Err(err(
                                &what,
                                format!(
                                    "square {} gets two different links",
                                    self.squares[from.index()].name
                                ),
                            ));
                        }
                        *slot = to.0;
                    }
                    DirKind::Links
                }
            };
            self.dirs.push(Direction {
                letter,
                kind,
                opposite: None,
            });
        }
        self.find_opposites();
        Ok(())
    }

    /// Parses `a1>b2>c3, d4>e5` into links.
    fn parse_chains(&self, text: &str) -> Result<Vec<(Square, Square)>, String> {
        let mut links = Vec::new();
        for chain in text.split(',') {
            let chain = chain.trim();
            if chain.is_empty() {
                continue;
            }
            let names: Vec<&str> = chain.split('>').map(str::trim).collect();
            if names.len() < 2 {
                return Err(format!(
                    "'{chain}' is not a chain: write squares joined by '>'"
                ));
            }
            let mut prev: Option<Square> = None;
            for name in names {
                let sq = self
                    .square(name)
                    .ok_or_else(|| format!("unknown square '{name}' in chain '{chain}'"))?;
                if let Some(p) = prev {
                    links.push((p, sq));
                }
                prev = Some(sq);
            }
        }
        Ok(links)
    }

    /// Opposites: negated vectors, or a link direction that is exactly the reverse.
    fn find_opposites(&mut self) {
        let n = self.dirs.len();
        for a in 0..n {
            for b in 0..n {
                let opposite = match (&self.dirs[a].kind, &self.dirs[b].kind) {
                    (DirKind::Vector(u), DirKind::Vector(v)) => {
                        u.iter().zip(v).all(|(x, y)| *x == -*y) && u.iter().any(|x| *x != 0)
                    }
                    _ => self.links_reversed(Dir(a as u8), Dir(b as u8)),
                };
                if opposite && self.dirs[a].opposite.is_none() {
                    self.dirs[a].opposite = Some(Dir(b as u8));
                }
            }
        }
    }

    fn links_reversed(&self, a: Dir, b: Dir) -> bool {
        let mut any = false;
        for s in 0..self.squares.len() {
            let sq = Square(s as u16);
            if let Some(t) = self.step(sq, a) {
                any = true;
                if self.step(t, b) != Some(sq) {
                    return false;
                }
            }
            if let Some(t) = self.step(sq, b)
                && self.step(t, a) != Some(sq)
            {
                return false;
            }
        }
        any
    }

    fn create_sets(&mut self, spec: &BoardSpec) -> Result<(), BoardError> {
        let pick =
            |letters: &str| -> Vec<Dir> { letters.chars().filter_map(|c| self.dir(c)).collect() };
        let mut orthogonal = pick("NSWE");
        let mut diagonal = pick("MORT");
        let mut all: Vec<Dir> = (0..self.dirs.len()).map(|d| Dir(d as u8)).collect();
        for (set, letters) in &spec.sets {
            let what = format!("board.sets.{set}");
            let mut dirs = Vec::new();
            for c in letters.chars().filter(|c| !c.is_whitespace()) {
                let d = self
                    .dir(c)
                    .ok_or_else(|| err(&what, format!("unknown direction '{c}'")))?;
                if !dirs.contains(&d) {
                    dirs.push(d);
                }
            }
            match set.as_str() {
                "+" => orthogonal = dirs,
                "X" => diagonal = dirs,
                "*" => all = dirs,
                other => {
                    return Err(err(
                        &what,
                        format!("unknown set '{other}': the sets are '+', 'X' and '*'"),
                    ));
                }
            }
        }
        self.orthogonal = orthogonal;
        self.diagonal = diagonal;
        self.all = all;
        Ok(())
    }

    /// Number of squares.
    #[inline]
    pub fn len(&self) -> usize {
        self.squares.len()
    }

    /// True if the board has no squares (never the case for a built topology).
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// Iterates over all squares.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.squares.len()).map(|i| Square(i as u16))
    }

    /// The square one step from `sq` in direction `dir`, if there is a link.
    #[inline]
    pub fn step(&self, sq: Square, dir: Dir) -> Option<Square> {
        let t = self.next[sq.index() * self.dirs.len() + dir.index()];
        (t != NO_LINK).then_some(Square(t))
    }

    /// The squares one step from `sq` in any direction, each once.
    pub fn neighbours(&self, sq: Square) -> Vec<Square> {
        let mut out: Vec<Square> = Vec::with_capacity(8);
        for d in self.all_dirs() {
            if let Some(t) = self.step(sq, *d)
                && t != sq
                && !out.contains(&t)
            {
                out.push(t);
            }
        }
        out
    }

    /// The square's name, e.g. `e4`.
    pub fn name(&self, sq: Square) -> &str {
        &self.squares[sq.index()].name
    }

    /// Looks a square up by name.
    pub fn square(&self, name: &str) -> Option<Square> {
        self.by_name.get(name).copied()
    }

    /// The square at grid coordinates, if it exists.
    #[inline]
    pub fn at(&self, col: i32, row: i32, level: i32) -> Option<Square> {
        let i = self.coords_index(Coords { col, row, level })?;
        let t = *self.by_coords.get(i)?;
        (t != NO_LINK).then_some(Square(t))
    }

    /// Where `c` is kept in `by_coords`, if it lies in the grid's box.
    #[inline]
    fn coords_index(&self, c: Coords) -> Option<usize> {
        let (cols, rows) = (self.grid.cols.len() as i32, self.grid.rows.len() as i32);
        let levels = self.grid.levels.len().max(1) as i32;
        let inside = (0..cols).contains(&c.col)
            && (0..rows).contains(&c.row)
            && (0..levels).contains(&c.level);
        inside.then(|| ((c.level * rows + c.row) * cols + c.col) as usize)
    }

    /// Records that `sq` stands at `coords` (which lie in the grid's box).
    fn index_coords(&mut self, coords: Coords, sq: Square) {
        let g = &self.grid;
        let cells = g.cols.len() * g.rows.len() * g.levels.len().max(1);
        if self.by_coords.len() != cells {
            self.by_coords = vec![NO_LINK; cells];
        }
        if let Some(i) = self.coords_index(coords) {
            self.by_coords[i] = sq.0;
        }
    }

    pub fn coords(&self, sq: Square) -> Coords {
        self.squares[sq.index()].coords
    }

    /// The grid the board was made from (labels of columns, rows and levels).
    pub fn grid(&self) -> &GridSpec {
        &self.grid
    }

    pub fn dir_count(&self) -> usize {
        self.dirs.len()
    }

    pub fn direction(&self, d: Dir) -> &Direction {
        &self.dirs[d.index()]
    }

    /// Looks a direction up by its letter.
    pub fn dir(&self, letter: char) -> Option<Dir> {
        self.dirs
            .iter()
            .position(|d| d.letter == letter)
            .map(|i| Dir(i as u8))
    }

    /// The direction that undoes a step in `d`.
    pub fn opposite(&self, d: Dir) -> Option<Dir> {
        self.dirs[d.index()].opposite
    }

    /// All direction letters, in definition order.
    pub fn letters(&self) -> String {
        self.dirs.iter().map(|d| d.letter).collect()
    }

    pub fn orthogonal(&self) -> &[Dir] {
        &self.orthogonal
    }

    pub fn diagonal(&self) -> &[Dir] {
        &self.diagonal
    }

    pub fn all_dirs(&self) -> &[Dir] {
        &self.all
    }

    /// True if following any one direction from any square never comes back
    /// to a square already passed (no circular boards): a repetition that
    /// keeps stepping one way then always reaches new squares.
    pub fn acyclic(&self) -> bool {
        let n = self.squares.len();
        let mut state = vec![0u8; n];
        for d in 0..self.dirs.len() {
            state.iter_mut().for_each(|s| *s = 0);
            for start in 0..n {
                let mut path = Vec::new();
                let mut sq = Some(Square(start as u16));
                while let Some(s) = sq {
                    match state[s.index()] {
                        0 => {
                            state[s.index()] = 1;
                            path.push(s);
                            sq = self.step(s, Dir(d as u8));
                        }
                        1 => return false,
                        _ => break,
                    }
                }
                for s in path {
                    state[s.index()] = 2;
                }
            }
        }
        true
    }

    /// True when every direction is a grid vector (square identity can then
    /// be computed from displacements).
    pub fn all_vectors(&self) -> bool {
        self.dirs
            .iter()
            .all(|d| matches!(d.kind, DirKind::Vector(_)))
    }

    /// Parses a square set: names and rectangles (`a1-c3`) separated by
    /// commas or spaces.
    pub fn parse_squares(&self, text: &str) -> Result<Vec<Square>, String> {
        let mut out = Vec::new();
        for item in text.split([',', ' ', '\n', '\t']).filter(|s| !s.is_empty()) {
            let range = match self.square(item) {
                // A square's own name, even with a hyphen in it.
                Some(_) => None,
                None => item.split_once('-'),
            };
            match range {
                None => {
                    let sq = self
                        .square(item)
                        .ok_or_else(|| format!("unknown square '{item}'"))?;
                    if !out.contains(&sq) {
                        out.push(sq);
                    }
                }
                Some((a, b)) => {
                    let a = self
                        .square(a)
                        .ok_or_else(|| format!("unknown square '{a}' in '{item}'"))?;
                    let b = self
                        .square(b)
                        .ok_or_else(|| format!("unknown square '{b}' in '{item}'"))?;
                    let (ca, cb) = (self.coords(a), self.coords(b));
                    for level in ca.level.min(cb.level)..=ca.level.max(cb.level) {
                        for row in ca.row.min(cb.row)..=ca.row.max(cb.row) {
                            for col in ca.col.min(cb.col)..=ca.col.max(cb.col) {
                                if let Some(sq) = self.at(col, row, level)
                                    && !out.contains(&sq)
                                {
                                    out.push(sq);
                                }
                            }
                        }
                    }
                }
            }
        }
        Ok(out)
    }
}

fn direction_letter(name: &str) -> Result<char, String> {
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_uppercase() && c != 'X' => Ok(c),
        (Some('X'), None) => Err("'X' is reserved for the diagonal set".into()),
        _ => Err(format!(
            "direction names are one upper-case letter, not '{name}'"
        )),
    }
}

fn vector3(v: &[i32]) -> Result<[i32; 3], String> {
    match v {
        [x, y] => Ok([*x, *y, 0]),
        [x, y, z] => Ok([*x, *y, *z]),
        _ => Err(format!(
            "a vector has 2 or 3 components (columns, rows[, levels]), not {}",
            v.len()
        )),
    }
}

/// A player's direction map: which board direction each notation letter
/// means for that player (`notation.md` §7). Applied when programs are
/// compiled, never during move generation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirMap(Vec<Dir>);

impl DirMap {
    /// The identity map (the first player reads the board as it is).
    pub fn identity(topo: &Topology) -> DirMap {
        DirMap((0..topo.dir_count()).map(|d| Dir(d as u8)).collect())
    }

    /// Parses `N=S S=N O=T T=O M=R R=M`; unmentioned directions map to
    /// themselves. The result must be a permutation.
    pub fn parse(topo: &Topology, text: &str) -> Result<DirMap, String> {
        let mut map = DirMap::identity(topo);
        for item in text.split([',', ' ', '\n', '\t']).filter(|s| !s.is_empty()) {
            let (a, b) = item
                .split_once('=')
                .ok_or_else(|| format!("'{item}' is not of the form A=B"))?;
            let lookup = |s: &str| -> Result<Dir, String> {
                let mut cs = s.chars();
                match (cs.next(), cs.next()) {
                    (Some(c), None) => topo
                        .dir(c)
                        .ok_or_else(|| format!("unknown direction '{s}'")),
                    _ => Err(format!("unknown direction '{s}'")),
                }
            };
            let (a, b) = (lookup(a)?, lookup(b)?);
            map.0[a.index()] = b;
        }
        let mut seen = vec![false; map.0.len()];
        for d in &map.0 {
            if std::mem::replace(&mut seen[d.index()], true) {
                return Err(format!(
                    "two letters map to direction '{}': a map must be a permutation",
                    topo.direction(*d).letter
                ));
            }
        }
        Ok(map)
    }

    #[inline]
    pub fn apply(&self, d: Dir) -> Dir {
        self.0[d.index()]
    }
}

/// Named sets of squares per player (promotion zone, palace, home half).
#[derive(Clone, Debug, Default)]
pub struct Zones {
    names: Vec<String>,
    players: usize,
    squares: usize,
    /// `member[(zone * players + player) * squares + square]`.
    member: Vec<bool>,
}

impl Zones {
    pub fn new(players: usize, squares: usize) -> Zones {
        Zones {
            names: Vec::new(),
            players,
            squares,
            member: Vec::new(),
        }
    }

    /// Adds a zone given per player; returns its index.
    pub fn add(&mut self, name: &str, per_player: Vec<Vec<Square>>) -> usize {
        let z = self.names.len();
        self.names.push(name.to_string());
        self.member
            .resize((z + 1) * self.players * self.squares, false);
        for (p, list) in per_player.iter().enumerate() {
            for sq in list {
                self.member[(z * self.players + p) * self.squares + sq.index()] = true;
            }
        }
        z
    }

    pub fn find(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    #[inline]
    pub fn contains(&self, zone: usize, player: usize, sq: Square) -> bool {
        self.member[(zone * self.players + player) * self.squares + sq.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> Topology {
        Topology::build(&BoardSpec {
            grid: "a-h x 8-1".into(),
            ..Default::default()
        })
        .unwrap()
    }

    #[test]
    fn grid_names_and_steps() {
        let t = chess();
        assert_eq!(t.len(), 64);
        let e4 = t.square("e4").unwrap();
        let n = t.dir('N').unwrap();
        let o = t.dir('O').unwrap();
        assert_eq!(t.name(t.step(e4, n).unwrap()), "e5");
        assert_eq!(t.name(t.step(e4, o).unwrap()), "f5");
        assert_eq!(t.step(t.square("h8").unwrap(), n), None);
        assert_eq!(t.opposite(n), t.dir('S'));
        assert_eq!(t.name(Square(0)), "a8");
    }

    #[test]
    fn large_grids_have_long_names() {
        let t = Topology::build(&BoardSpec {
            grid: "a-ad x 12-1".into(),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(t.len(), 30 * 12);
        let sq = t.square("ab10").unwrap();
        assert_eq!(t.name(t.step(sq, t.dir('E').unwrap()).unwrap()), "ac10");
        assert!(t.square("z12").is_some());
    }

    #[test]
    fn link_chains_and_their_opposites() {
        let t = Topology::build(&BoardSpec {
            grid: "a-c x 3-1".into(),
            directions: Some(vec![
                ("O".into(), DirSpec::Chains("a1>b2>c3".into())),
                ("R".into(), DirSpec::Chains("c3>b2>a1".into())),
                ("N".into(), DirSpec::Vector(vec![0, -1])),
            ]),
            ..Default::default()
        })
        .unwrap();
        let o = t.dir('O').unwrap();
        let a1 = t.square("a1").unwrap();
        assert_eq!(t.name(t.step(a1, o).unwrap()), "b2");
        assert_eq!(t.step(t.square("a2").unwrap(), o), None);
        assert_eq!(t.opposite(o), t.dir('R'));
        assert_eq!(t.opposite(t.dir('N').unwrap()), None);
    }

    #[test]
    fn removed_squares_break_links() {
        let t = Topology::build(&BoardSpec {
            grid: "a-c x 3-1".into(),
            remove: vec!["b2".into()],
            ..Default::default()
        })
        .unwrap();
        assert_eq!(t.len(), 8);
        assert!(t.square("b2").is_none());
        let a2 = t.square("a2").unwrap();
        assert_eq!(t.step(a2, t.dir('E').unwrap()), None);
    }

    #[test]
    fn squares_take_names_of_their_own() {
        let spec = |pairs: &[(&str, &str)]| BoardSpec {
            grid: "a-c x 1".into(),
            directions: Some(vec![("E".into(), DirSpec::Chains("home>mid-way".into()))]),
            rename: pairs
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            ..Default::default()
        };
        // Names are swapped all at once; links and sets use the new names.
        let t = Topology::build(&spec(&[("a1", "home"), ("b1", "mid-way"), ("c1", "b1")])).unwrap();
        let home = t.square("home").unwrap();
        assert_eq!(
            t.name(t.step(home, t.dir('E').unwrap()).unwrap()),
            "mid-way"
        );
        assert_eq!(t.parse_squares("mid-way, b1").unwrap().len(), 2);
        assert!(t.square("a1").is_none());
        let e = Topology::build(&spec(&[("a1", "home"), ("b1", "home")])).unwrap_err();
        assert!(e.message.contains("both be named 'home'"), "{e}");
        let e = Topology::build(&spec(&[("a1", "a b")])).unwrap_err();
        assert!(e.message.contains("cannot name a square"), "{e}");
    }

    #[test]
    fn bad_boards_are_refused() {
        let bad = |spec: BoardSpec| Topology::build(&spec).unwrap_err();
        assert!(
            bad(BoardSpec {
                grid: "a-h".into(),
                ..Default::default()
            })
            .message
            .contains("x")
        );
        let e = bad(BoardSpec {
            grid: "a-c x 3-1".into(),
            directions: Some(vec![("O".into(), DirSpec::Chains("a1>z9".into()))]),
            ..Default::default()
        });
        assert!(e.message.contains("z9"), "{e}");
        let e = bad(BoardSpec {
            grid: "a-c x 3-1".into(),
            directions: Some(vec![("X".into(), DirSpec::Vector(vec![1, 1]))]),
            ..Default::default()
        });
        assert!(e.message.contains("reserved"), "{e}");
    }

    #[test]
    fn maps_must_be_permutations() {
        let t = chess();
        let m = DirMap::parse(&t, "N=S S=N").unwrap();
        assert_eq!(m.apply(t.dir('N').unwrap()), t.dir('S').unwrap());
        assert_eq!(m.apply(t.dir('E').unwrap()), t.dir('E').unwrap());
        assert!(DirMap::parse(&t, "N=S").is_err());
        assert!(DirMap::parse(&t, "N=Q").is_err());
    }

    #[test]
    fn square_sets() {
        let t = chess();
        assert_eq!(t.parse_squares("a8-h8").unwrap().len(), 8);
        assert_eq!(t.parse_squares("a1-c3, h8").unwrap().len(), 10);
        assert!(t.parse_squares("a9").is_err());
    }
}
