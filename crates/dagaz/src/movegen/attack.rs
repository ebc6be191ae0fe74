//! Attack detection: "could a piece of player `by` capture on this square?"
//!
//! At load time every piece program is executed symbolically, from an
//! abstract origin, to find its capturing paths. Each path becomes a walk
//! *from the target back to the origin*, with the conditions the path
//! placed on the squares it crossed; all walks of a player are merged into
//! one trie. Testing a square is then a walk of that trie over the real
//! board, the same work a hand-written mailbox generator does for rays and
//! leaps. Programs the analysis cannot read exactly (maximal repetitions,
//! handlers, `[o]`, boards whose directions are not grid vectors) fall back
//! to running the piece's program forwards.
//!
//! Inside an attacker's program, `a A s S` count as satisfied: attack
//! detection does not recurse into attacks.

use std::collections::HashMap;

use super::moves::MoveList;
use super::vm::{Env, Mode, Vm};
use crate::board::{Dir, DirKind, Square};
use crate::game::Game;
use crate::notation::{Op, Program, Test};
use crate::position::{Cell, NO_PIECE, Ply};

/// A condition on one square of an attack walk, relative to the attacker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Cond {
    Empty,
    NotEmpty,
    Enemy,
    NotEnemy,
    Friend,
    NotFriend,
    TypeIs(u16),
    Moved,
    NotMoved,
    InZone(u16),
    LastStart,
    LastEnd,
    NotLastStart,
    NotLastEnd,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    /// Piece types (below 64) that attack when found here, unconditionally.
    mask: u64,
    term_at: u32,
    term_len: u16,
    edge_at: u32,
    edge_len: u16,
    /// A compressed ray: if this square is empty, keep stepping in
    /// `ray_dir` over empty squares; the first piece met attacks if its type
    /// is in `ray_mask`. `NO_RAY` if none.
    ray_dir: u8,
    ray_mask: u64,
    /// No edges, no ray, no conditional terminals: a plain leaf.
    leaf: bool,
}

const NO_RAY: u8 = u8::MAX;

#[derive(Clone, Copy, Debug)]
struct Edge {
    /// How to test the square before stepping: one of the `EDGE_*` kinds.
    kind: u8,
    conds: u16,
    dir: Dir,
    child: u32,
}

/// The edge has no condition.
const EDGE_FREE: u8 = 0;
/// The square must be empty (rays).
const EDGE_EMPTY: u8 = 1;
/// The square must be occupied (hopper screens).
const EDGE_OCCUPIED: u8 = 2;
/// Evaluate the condition list.
const EDGE_LIST: u8 = 3;

#[derive(Clone, Copy, Debug)]
struct Terminal {
    piece: u16,
    conds: u16,
}

/// The attack trie of one player.
#[derive(Clone, Debug, Default)]
pub(crate) struct AttackTable {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    terminals: Vec<Terminal>,
    cond_lists: Vec<Vec<Cond>>,
    /// Piece types tested by running their programs forwards.
    fallback: Vec<u16>,
    /// Some condition reads the move history (`l`, `t`).
    dynamic: bool,
}

/// True if a piece of `by` could capture a piece `hypo` standing on
/// `target`. `exclude` is a square whose piece does not count (the moving
/// piece, for "protected by the mover's other pieces").
pub(crate) fn attacked(
    game: &Game,
    cells: &[Cell],
    history: &[Ply],
    target: Square,
    by: usize,
    hypo: Cell,
    exclude: Option<Square>,
) -> bool {
    let table = game.attacks.table(by, game.cells.info(hypo));
    let view = View {
        cells,
        target,
        hypo,
    };
    if table.walk(game, &view, history, by, exclude, &mut NoRecord) {
        return true;
    }
    !table.fallback.is_empty() && fallback(game, &view, history, by, exclude, &table.fallback)
}

/// Like [`attacked`] for a piece standing on `target`, recording what the
/// answer depended on (see [`ReadSet`]).
pub(crate) fn attacked_recording(
    game: &Game,
    cells: &[Cell],
    history: &[Ply],
    target: Square,
    by: usize,
    set: &mut ReadSet,
) -> bool {
    let hypo = cells[target.index()];
    let table = game.attacks.table(by, game.cells.info(hypo));
    let view = View {
        cells,
        target,
        hypo,
    };
    table.walk(game, &view, history, by, None, set)
}

/// What negative attack tests read, as bitsets over squares (up to 512).
///
/// Walks only combine conditions with "and" along a path and "or" between
/// paths, so a "not attacked" answer can only turn into "attacked" if a
/// `strict` square changes at all (screens, `=Name`, history conditions,
/// the target), a `blocked` square empties (a ray opens), a `read` square
/// gets a piece of the attacker, or a move starts or ends on a `strict`
/// square (history conditions). Squares where a compressed ray stopped are
/// kept apart in `rays`: when one of them empties, following that one ray
/// on is enough (see [`ReadSet::rays_safe`]).
#[derive(Clone, Copy, Default)]
pub(crate) struct ReadSet {
    pub read: [u64; 8],
    pub blocked: [u64; 8],
    pub strict: [u64; 8],
    /// Squares where a recorded ray stopped.
    pub ray_stops: [u64; 8],
    rays: [RayStop; 16],
    ray_count: usize,
}

/// A ray that stopped on `at`: it would go on in `dir`, attacked by the
/// pieces of `by` in `mask`.
#[derive(Clone, Copy, Default)]
struct RayStop {
    at: u16,
    dir: u8,
    by: u8,
    mask: u64,
}

impl ReadSet {
    #[inline]
    pub fn has(set: &[u64; 8], slot: usize) -> bool {
        set.get(slot / 64)
            .is_some_and(|w| w & (1 << (slot % 64)) != 0)
    }

    /// After a move that emptied `at` (a ray stop) and changed nothing
    /// else the set cares about: true if every ray stopped at `at` still
    /// meets no attacker. `false` means "test properly".
    pub fn rays_safe(&self, game: &Game, cells: &[Cell], at: Square) -> bool {
        self.rays[..self.ray_count]
            .iter()
            .filter(|r| r.at == at.0)
            .all(|r| {
                let mut sq = at;
                while let Some(next) = game.topology.step(sq, Dir(r.dir)) {
                    let c = cells[next.index()];
                    if !c.is_empty() {
                        let info = game.cells.info(c);
                        let hit = !c.is_marked()
                            && info.owner == r.by
                            && info.piece < 64
                            && r.mask & (1u64 << info.piece) != 0;
                        return !hit;
                    }
                    sq = next;
                }
                true
            })
    }
}

/// Receives the squares an attack walk reads.
trait Recorder {
    fn read(&mut self, sq: Square);
    fn blocked(&mut self, sq: Square);
    fn blocked_ray(&mut self, sq: Square, dir: Dir, mask: u64, by: usize);
    fn strict(&mut self, sq: Square);
}

struct NoRecord;

impl Recorder for NoRecord {
    #[inline(always)]
    fn read(&mut self, _: Square) {}
    #[inline(always)]
    fn blocked(&mut self, _: Square) {}
    #[inline(always)]
    fn blocked_ray(&mut self, _: Square, _: Dir, _: u64, _: usize) {}
    #[inline(always)]
    fn strict(&mut self, _: Square) {}
}

fn set_bit(words: &mut [u64; 8], sq: Square) {
    if let Some(w) = words.get_mut(sq.index() / 64) {
        *w |= 1 << (sq.index() % 64);
    }
}

impl Recorder for ReadSet {
    #[inline]
    fn read(&mut self, sq: Square) {
        set_bit(&mut self.read, sq);
    }
    #[inline]
    fn blocked(&mut self, sq: Square) {
        set_bit(&mut self.blocked, sq);
    }
    #[inline]
    fn blocked_ray(&mut self, sq: Square, dir: Dir, mask: u64, by: usize) {
        if self.ray_count == self.rays.len() {
            set_bit(&mut self.blocked, sq);
            return;
        }
        set_bit(&mut self.ray_stops, sq);
        self.rays[self.ray_count] = RayStop {
            at: sq.0,
            dir: dir.0,
            by: by as u8,
            mask,
        };
        self.ray_count += 1;
    }
    #[inline]
    fn strict(&mut self, sq: Square) {
        set_bit(&mut self.strict, sq);
    }
}

/// What is known of the piece on the target square when a table is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// Any piece: `=Name` conditions on it are checked when walking.
    Any,
    /// A piece of this type (tables for royal pieces).
    Piece(u16),
    /// A stand-in on an empty square ("would it be attacked").
    Phantom,
}

/// All attack tables of a game: per attacker, a general table, one for
/// phantom targets, and one per royal piece type.
#[derive(Clone, Debug, Default)]
pub(crate) struct Attacks {
    any: Vec<AttackTable>,
    phantom: Vec<AttackTable>,
    /// `royal[royal index][attacker]`
    royal: Vec<Vec<AttackTable>>,
    /// Royal index of each piece type, or `u16::MAX`.
    royal_index: Vec<u16>,
    /// Attacks on royal pieces are found by walking tables alone (no
    /// fallback programs), so [`attacked_recording`] applies.
    pub(crate) local: bool,
}

impl Attacks {
    pub(crate) fn build(game: &Game) -> Attacks {
        let players = game.players.len();
        let analysed: Vec<Vec<Option<Vec<Pattern>>>> = (0..players)
            .map(|by| {
                game.pieces
                    .iter()
                    .map(|piece| {
                        let prog = piece.programs.get(by)?;
                        if game.topology.all_vectors() {
                            Analysis::run(game, prog)
                        } else {
                            None
                        }
                    })
                    .collect()
            })
            .collect();
        let geometry = Geometry::of(game);
        let table = |target: Target| -> Vec<AttackTable> {
            analysed
                .iter()
                .map(|per| AttackTable::build(per, target, &geometry))
                .collect()
        };
        let mut royal_index = vec![u16::MAX; game.pieces.len()];
        let mut royal = Vec::new();
        for (i, &t) in game.royal_types().iter().enumerate() {
            royal_index[t as usize] = i as u16;
            royal.push(table(Target::Piece(t)));
        }
        let local = royal.iter().flatten().all(|t| t.fallback.is_empty());
        Attacks {
            any: table(Target::Any),
            phantom: table(Target::Phantom),
            royal,
            royal_index,
            local,
        }
    }

    #[inline]
    fn table(&self, by: usize, target: crate::position::CellInfo) -> &AttackTable {
        if target.phantom {
            return &self.phantom[by];
        }
        match self.royal_index.get(target.piece as usize) {
            Some(&i) if i != u16::MAX => &self.royal[i as usize][by],
            _ => &self.any[by],
        }
    }

    /// Piece types whose attacks are found by running their programs.
    #[cfg(test)]
    pub(crate) fn fallback_types(&self, by: usize) -> &[u16] {
        &self.any[by].fallback
    }

    #[cfg(test)]
    pub(crate) fn node_count(&self, by: usize) -> usize {
        self.any[by].nodes.len()
    }
}

struct View<'a> {
    cells: &'a [Cell],
    target: Square,
    hypo: Cell,
}

impl View<'_> {
    #[inline]
    fn get(&self, sq: Square) -> Cell {
        if sq == self.target {
            self.hypo
        } else {
            self.cells[sq.index()]
        }
    }
}

impl AttackTable {
    fn walk<R: Recorder>(
        &self,
        game: &Game,
        view: &View,
        history: &[Ply],
        by: usize,
        exclude: Option<Square>,
        rec: &mut R,
    ) -> bool {
        !self.nodes.is_empty() && self.visit(game, view, history, by, exclude, rec, 0, view.target)
    }

    /// Walks from trie node `n` standing on `sq`.
    #[allow(clippy::too_many_arguments)]
    fn visit<R: Recorder>(
        &self,
        game: &Game,
        view: &View,
        history: &[Ply],
        by: usize,
        exclude: Option<Square>,
        rec: &mut R,
        n: u32,
        sq: Square,
    ) -> bool {
        rec.read(sq);
        if n == 0 {
            rec.strict(sq);
        }
        let node = &self.nodes[n as usize];
        let c = view.get(sq);
        if node.term_len != 0 {
            rec.strict(sq);
        }
        if (node.mask != 0 || node.term_len != 0) && !c.is_empty() && Some(sq) != exclude {
            let info = game.cells.info(c);
            if info.owner as usize == by && info.piece != NO_PIECE && !c.is_marked() {
                if info.piece < 64 && node.mask & (1u64 << info.piece) != 0 {
                    return true;
                }
                let terms = &self.terminals[node.term_at as usize..][..node.term_len as usize];
                for t in terms {
                    if t.piece == info.piece && self.conds_hold(game, c, history, by, t.conds, sq) {
                        return true;
                    }
                }
            }
        }
        if node.ray_dir != NO_RAY {
            if c.is_empty() {
                if self.ray(
                    game,
                    view,
                    by,
                    exclude,
                    rec,
                    sq,
                    Dir(node.ray_dir),
                    node.ray_mask,
                ) {
                    return true;
                }
            } else {
                rec.blocked_ray(sq, Dir(node.ray_dir), node.ray_mask, by);
            }
        }
        let edges = &self.edges[node.edge_at as usize..][..node.edge_len as usize];
        for e in edges {
            let pass = match e.kind {
                EDGE_FREE => true,
                EDGE_EMPTY => {
                    if !c.is_empty() {
                        rec.blocked(sq);
                    }
                    c.is_empty()
                }
                EDGE_OCCUPIED => {
                    rec.strict(sq);
                    !c.is_empty()
                }
                _ => {
                    rec.strict(sq);
                    self.conds_hold(game, c, history, by, e.conds, sq)
                }
            };
            if !pass {
                continue;
            }
            let Some(next) = game.topology.step(sq, e.dir) else {
                continue;
            };
            let child = &self.nodes[e.child as usize];
            let hit = if child.leaf {
                rec.read(next);
                Some(next) != exclude && self.holds(game, view.get(next), by, child.mask)
            } else {
                self.visit(game, view, history, by, exclude, rec, e.child, next)
            };
            if hit {
                return true;
            }
        }
        false
    }

    /// True if `c` is an unmarked piece of `by` whose type is in `mask`.
    #[inline]
    fn holds(&self, game: &Game, c: Cell, by: usize, mask: u64) -> bool {
        if c.is_empty() || c.is_marked() {
            return false;
        }
        let info = game.cells.info(c);
        info.owner as usize == by && info.piece < 64 && mask & (1u64 << info.piece) != 0
    }

    /// Follows a compressed ray from `sq` (which is empty).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn ray<R: Recorder>(
        &self,
        game: &Game,
        view: &View,
        by: usize,
        exclude: Option<Square>,
        rec: &mut R,
        mut sq: Square,
        dir: Dir,
        mask: u64,
    ) -> bool {
        while let Some(next) = game.topology.step(sq, dir) {
            rec.read(next);
            let c = view.get(next);
            if !c.is_empty() {
                if Some(next) != exclude && self.holds(game, c, by, mask) {
                    return true;
                }
                rec.blocked_ray(next, dir, mask, by);
                return false;
            }
            sq = next;
        }
        false
    }

    fn conds_hold(
        &self,
        game: &Game,
        c: Cell,
        history: &[Ply],
        by: usize,
        list: u16,
        sq: Square,
    ) -> bool {
        let info = game.cells.info(c);
        let piece = !c.is_empty() && !c.is_marked();
        self.cond_lists[list as usize]
            .iter()
            .all(|cond| match *cond {
                Cond::Empty => c.is_empty(),
                Cond::NotEmpty => !c.is_empty(),
                Cond::Enemy => piece && info.owner as usize != by,
                Cond::NotEnemy => !(piece && info.owner as usize != by),
                Cond::Friend => piece && info.owner as usize == by,
                Cond::NotFriend => !(piece && info.owner as usize == by),
                Cond::TypeIs(t) => !c.is_empty() && info.piece == t,
                Cond::Moved => piece && info.piece != NO_PIECE && info.moved,
                Cond::NotMoved => piece && info.piece != NO_PIECE && !info.moved,
                Cond::InZone(z) => game.zones.contains(z as usize, by, sq),
                Cond::LastStart | Cond::LastEnd | Cond::NotLastStart | Cond::NotLastEnd => {
                    let start = matches!(cond, Cond::LastStart | Cond::NotLastStart);
                    let hit = history
                        .iter()
                        .rev()
                        .take_while(|p| p.player as usize != by)
                        .any(|p| (if start { p.from } else { p.to }) == Some(sq));
                    hit == matches!(cond, Cond::LastStart | Cond::LastEnd)
                }
            })
    }

    /// Builds a table from the analysed programs of one attacker.
    fn build(
        patterns: &[Option<Vec<Pattern>>],
        target: Target,
        geometry: &Geometry,
    ) -> AttackTable {
        let mut trie = TrieBuilder {
            geometry: geometry.clone(),
            ..Default::default()
        };
        let mut fallback = Vec::new();
        for (t, list) in patterns.iter().enumerate() {
            match list {
                Some(list) => {
                    for p in list {
                        trie.insert(p, t as u16, target);
                    }
                }
                None => fallback.push(t as u16),
            }
        }
        let mut table = trie.finish();
        table.fallback = fallback;
        table
    }
}

/// Attack detection by running programs forwards on a copy of the board.
fn fallback(
    game: &Game,
    view: &View,
    history: &[Ply],
    by: usize,
    exclude: Option<Square>,
    types: &[u16],
) -> bool {
    let n = game.slot_count();
    let mut cells: Vec<Cell> = view.cells[..n].to_vec();
    cells[view.target.index()] = view.hypo;
    let mut vm = Vm::new();
    let mut sink = MoveList::new();
    let env = Env {
        game,
        player: by,
        history,
        mode: Mode::Attack(view.target),
    };
    for sq in game.topology.squares() {
        if Some(sq) == exclude || sq == view.target {
            continue;
        }
        let info = game.cells.info(cells[sq.index()]);
        if info.piece == NO_PIECE || info.owner as usize != by || !types.contains(&info.piece) {
            continue;
        }
        let prog = &game.pieces[info.piece as usize].programs[by];
        if matches!(vm.run(&env, &mut cells, prog, sq, &mut sink), Ok(true)) {
            return true;
        }
    }
    false
}

/// An attack walk: conditions to check on the current square, then a step;
/// at the end, conditions on the attacker's own square.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Pattern {
    steps: Vec<(Vec<Cond>, Dir)>,
    origin: Vec<Cond>,
}

/// Conditions on the target square, which always holds a piece that is not
/// the attacker's: drops those that are then true, or `None` if one is
/// then false (the pattern can never capture such a piece).
fn root_conditions(conds: &[Cond], target: Target) -> Option<Vec<Cond>> {
    let mut out = Vec::new();
    for c in conds {
        match (c, target) {
            (Cond::NotEmpty | Cond::Enemy | Cond::NotFriend, _) => {}
            (Cond::Empty | Cond::Friend | Cond::NotEnemy, _) => return None,
            (Cond::TypeIs(t), Target::Piece(p)) if *t == p => {}
            (Cond::TypeIs(_), Target::Piece(_) | Target::Phantom) => return None,
            (Cond::Moved | Cond::NotMoved, Target::Phantom) => return None,
            (other, _) => out.push(*other),
        }
    }
    Some(out)
}

/// The grid facts the trie needs to tell a real ray from a short chain:
/// each direction's vector and the board's extent.
#[derive(Clone, Default)]
struct Geometry {
    vectors: Vec<Option<[i32; 3]>>,
    extent: [i32; 3],
}

impl Geometry {
    fn of(game: &Game) -> Geometry {
        let topo = &game.topology;
        let g = topo.grid();
        Geometry {
            vectors: (0..topo.dir_count())
                .map(|d| match topo.direction(Dir(d as u8)).kind {
                    DirKind::Vector(v) => Some(v),
                    DirKind::Links => None,
                })
                .collect(),
            extent: [
                g.cols.len() as i32,
                g.rows.len() as i32,
                g.levels.len().max(1) as i32,
            ],
        }
    }

    /// How many steps along `d` fit from `offset` (relative to the target)
    /// while staying within the extent the analysis explored.
    fn room(&self, offset: [i32; 3], d: Dir) -> Option<usize> {
        let v = self.vectors.get(d.0 as usize).copied().flatten()?;
        if v == [0; 3] {
            return None;
        }
        let mut n = 0;
        let mut at = offset;
        loop {
            let next = [at[0] + v[0], at[1] + v[1], at[2] + v[2]];
            if (0..3).any(|i| next[i].abs() >= self.extent[i]) {
                return Some(n);
            }
            at = next;
            n += 1;
        }
    }
}

#[derive(Default)]
struct TrieBuilder {
    nodes: Vec<BuildNode>,
    cond_ids: HashMap<Vec<Cond>, u16>,
    cond_lists: Vec<Vec<Cond>>,
    geometry: Geometry,
}

#[derive(Default)]
struct BuildNode {
    terms: Vec<(u16, u16)>,
    edges: Vec<(u16, Dir, u32)>,
    /// Where the node stands relative to the target.
    offset: [i32; 3],
}

impl TrieBuilder {
    fn intern(&mut self, mut conds: Vec<Cond>) -> u16 {
        if self.cond_lists.is_empty() {
            self.cond_lists.push(Vec::new());
            self.cond_ids.insert(Vec::new(), 0);
        }
        conds.dedup();
        if let Some(&id) = self.cond_ids.get(&conds) {
            return id;
        }
        let id = self.cond_lists.len() as u16;
        self.cond_ids.insert(conds.clone(), id);
        self.cond_lists.push(conds);
        id
    }

    fn insert(&mut self, p: &Pattern, piece: u16, target: Target) {
        if self.nodes.is_empty() {
            self.nodes.push(BuildNode::default());
        }
        let mut n = 0usize;
        for (i, (conds, dir)) in p.steps.iter().enumerate() {
            let conds = if i == 0 {
                match root_conditions(conds, target) {
                    Some(c) => c,
                    None => return,
                }
            } else {
                conds.clone()
            };
            let c = self.intern(conds);
            let found = self.nodes[n]
                .edges
                .iter()
                .find(|(ec, ed, _)| *ec == c && ed == dir)
                .map(|e| e.2);
            n = match found {
                Some(child) => child as usize,
                None => {
                    let v = self
                        .geometry
                        .vectors
                        .get(dir.0 as usize)
                        .copied()
                        .flatten()
                        .unwrap_or([0; 3]);
                    let at = self.nodes[n].offset;
                    self.nodes.push(BuildNode {
                        offset: [at[0] + v[0], at[1] + v[1], at[2] + v[2]],
                        ..Default::default()
                    });
                    let child = self.nodes.len() - 1;
                    self.nodes[n].edges.push((c, *dir, child as u32));
                    child
                }
            };
        }
        let c = self.intern(p.origin.clone());
        if !self.nodes[n].terms.contains(&(piece, c)) {
            self.nodes[n].terms.push((piece, c));
        }
    }

    fn finish(mut self) -> AttackTable {
        if self.cond_lists.is_empty() {
            self.intern(Vec::new());
        }
        let mut t = AttackTable {
            cond_lists: std::mem::take(&mut self.cond_lists),
            ..Default::default()
        };
        t.dynamic = t.cond_lists.iter().flatten().any(|c| {
            matches!(
                c,
                Cond::LastStart | Cond::LastEnd | Cond::NotLastStart | Cond::NotLastEnd
            )
        });
        let empty = self.cond_ids.get(&vec![Cond::Empty]).copied();
        for b in &self.nodes {
            // A chain of "empty, step on" edges is a ray only if it runs
            // as far as the analysed extent allows; a shorter chain (a
            // lame leaper's one empty square) must stay a chain.
            let ray = b.edges.iter().find_map(|&(c, d, child)| {
                let empty = empty.filter(|e| *e == c)?;
                let (mask, len) = self.ray_tail(child as usize, d, empty)?;
                let room = self.geometry.room(b.offset, d)?;
                (len >= room).then_some((d, mask))
            });
            let edges: Vec<(u16, Dir, u32)> = b
                .edges
                .iter()
                .copied()
                .filter(|&(c, d, _)| !(Some(c) == empty && ray.is_some_and(|(rd, _)| rd == d)))
                .collect();
            let mut node = Node {
                mask: 0,
                term_at: t.terminals.len() as u32,
                term_len: 0,
                edge_at: t.edges.len() as u32,
                edge_len: edges.len() as u16,
                ray_dir: ray.map_or(NO_RAY, |(d, _)| d.0),
                ray_mask: ray.map_or(0, |(_, m)| m),
                leaf: false,
            };
            for &(piece, conds) in &b.terms {
                if conds == 0 && piece < 64 {
                    node.mask |= 1 << piece;
                } else {
                    t.terminals.push(Terminal { piece, conds });
                    node.term_len += 1;
                }
            }
            node.leaf = node.edge_len == 0 && node.term_len == 0 && node.ray_dir == NO_RAY;
            for &(conds, dir, child) in &edges {
                let kind = match t.cond_lists[conds as usize].as_slice() {
                    [] => EDGE_FREE,
                    [Cond::Empty] => EDGE_EMPTY,
                    [Cond::NotEmpty] => EDGE_OCCUPIED,
                    _ => EDGE_LIST,
                };
                t.edges.push(Edge {
                    kind,
                    conds,
                    dir,
                    child,
                });
            }
            t.nodes.push(node);
        }
        t
    }
}

impl TrieBuilder {
    /// If node `n` and all its descendants form a plain chain in `dir`
    /// (each has the same unconditional attackers and only an "empty" edge
    /// on in `dir`), the attackers' mask and the chain's length in nodes.
    fn ray_tail(&self, n: usize, dir: Dir, empty: u16) -> Option<(u64, usize)> {
        let b = &self.nodes[n];
        if b.terms.iter().any(|&(p, c)| c != 0 || p >= 64) {
            return None;
        }
        let mask = b.terms.iter().fold(0u64, |m, &(p, _)| m | 1 << p);
        match b.edges.as_slice() {
            [] => Some((mask, 1)),
            [(c, d, child)] if *c == empty && *d == dir => {
                match self.ray_tail(*child as usize, dir, empty) {
                    Some((m, len)) if m == mask => Some((mask, len + 1)),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// What the symbolic execution knows about a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Know {
    /// Untouched by the path: the real board decides; `empty`/`occupied`
    /// record what runtime conditions already demand.
    Orig { empty: bool, occupied: bool },
    /// The path removed what was there.
    Emptied,
    /// The path dropped one of its own pieces here (type if known).
    Own,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hand {
    Empty,
    Mover,
    Other,
}

type Id = [i32; 3];

/// One path of the symbolic execution.
#[derive(Clone, Debug)]
struct State {
    pc: usize,
    /// `dirs[i]` leads from point `i` to point `i + 1`.
    dirs: Vec<Dir>,
    ids: Vec<Id>,
    conds: Vec<Vec<Cond>>,
    know: Vec<(Id, Know)>,
    hand: Hand,
    mover_drop: Option<Id>,
    landings: Vec<Id>,
    from: Option<Id>,
    vars: [Option<Dir>; 10],
    slots: Vec<(Id, u32)>,
    nav: Vec<usize>,
    captures: Vec<usize>,
    visited: Vec<Id>,
    effects: u32,
}

/// Symbolic execution of one program.
struct Analysis<'a> {
    game: &'a Game,
    prog: &'a Program,
    extent: [i32; 3],
    max_steps: usize,
    budget: usize,
    patterns: Vec<Pattern>,
    failed: bool,
}

impl<'a> Analysis<'a> {
    /// The program's capture patterns, or `None` if it cannot be analysed.
    fn run(game: &'a Game, prog: &'a Program) -> Option<Vec<Pattern>> {
        if prog.ops.iter().any(|op| {
            matches!(
                op,
                Op::Once(_) | Op::Handler(_) | Op::Iter { maximal: true, .. }
            )
        }) {
            return None;
        }
        let g = game.topology.grid();
        let extent = [
            g.cols.len() as i32,
            g.rows.len() as i32,
            g.levels.len().max(1) as i32,
        ];
        let mut a = Analysis {
            game,
            prog,
            extent,
            max_steps: 2 * (extent[0].max(extent[1]).max(extent[2]) as usize) + 8,
            budget: 200_000,
            patterns: Vec::new(),
            failed: false,
        };
        let start = State {
            pc: 0,
            dirs: Vec::new(),
            ids: vec![[0; 3]],
            conds: vec![Vec::new()],
            know: vec![(
                [0; 3],
                Know::Orig {
                    empty: false,
                    occupied: true,
                },
            )],
            hand: Hand::Empty,
            mover_drop: None,
            landings: Vec::new(),
            from: None,
            vars: [None; 10],
            slots: vec![([0; 3], 0); prog.slots as usize],
            nav: Vec::new(),
            captures: Vec::new(),
            visited: Vec::new(),
            effects: 0,
        };
        a.explore(start);
        if a.failed {
            None
        } else {
            let mut seen = std::collections::HashSet::new();
            let out: Vec<Pattern> = a
                .patterns
                .into_iter()
                .filter(|p| seen.insert(p.clone()))
                .collect();
            Some(out)
        }
    }

    fn vector(&self, d: Dir) -> Option<[i32; 3]> {
        match self.game.topology.direction(d).kind {
            DirKind::Vector(v) => Some(v),
            DirKind::Links => None,
        }
    }

    /// Moves the cursor; `false` if the path is dead.
    fn step(&mut self, s: &mut State, d: Dir) -> bool {
        let Some(v) = self.vector(d) else {
            self.failed = true;
            return false;
        };
        let cur = *s.ids.last().unwrap_or(&[0; 3]);
        let id = [cur[0] + v[0], cur[1] + v[1], cur[2] + v[2]];
        if (0..3).any(|i| id[i].abs() >= self.extent[i]) {
            return false;
        }
        if s.dirs.len() >= self.max_steps {
            self.failed = true;
            return false;
        }
        if s.hand != Hand::Empty && !s.visited.contains(&cur) {
            s.visited.push(cur);
        }
        s.dirs.push(d);
        s.ids.push(id);
        s.conds.push(Vec::new());
        true
    }

    fn cursor(s: &State) -> Id {
        *s.ids.last().unwrap_or(&[0; 3])
    }

    fn know(s: &State, id: Id) -> Know {
        s.know.iter().rev().find(|(k, _)| *k == id).map_or(
            Know::Orig {
                empty: false,
                occupied: false,
            },
            |(_, k)| *k,
        )
    }

    fn set_know(s: &mut State, id: Id, k: Know) {
        match s.know.iter_mut().find(|(i, _)| *i == id) {
            Some(e) => e.1 = k,
            None => s.know.push((id, k)),
        }
    }

    fn add_cond(s: &mut State, point: usize, c: Cond) {
        if !s.conds[point].contains(&c) {
            s.conds[point].push(c);
        }
    }

    fn explore(&mut self, mut s: State) {
        loop {
            if self.failed {
                return;
            }
            if self.budget == 0 {
                self.failed = true;
                return;
            }
            self.budget -= 1;
            let Some(&op) = self.prog.ops.get(s.pc) else {
                return;
            };
            let alive = match op {
                Op::Step(d) => self.step(&mut s, d),
                Op::StepAny(list) | Op::Bind { list, .. } => {
                    let var = match op {
                        Op::Bind { var, .. } => Some(var),
                        _ => None,
                    };
                    let dirs = self.prog.dir_lists[list as usize].clone();
                    for d in dirs {
                        let mut b = s.clone();
                        if let Some(k) = var {
                            b.vars[k as usize] = Some(d);
                        }
                        if self.step(&mut b, d) {
                            b.pc += 1;
                            self.explore(b);
                        }
                    }
                    return;
                }
                Op::StepVar { var, back } => match s.vars[var as usize] {
                    None => false,
                    Some(d) => {
                        let d = if back {
                            self.game.topology.opposite(d)
                        } else {
                            Some(d)
                        };
                        match d {
                            Some(d) => self.step(&mut s, d),
                            None => false,
                        }
                    }
                },
                Op::Fork(target) => {
                    let mut b = s.clone();
                    b.pc = target as usize;
                    self.explore(b);
                    true
                }
                Op::Jump(target) => {
                    s.pc = target as usize;
                    continue;
                }
                Op::Iter { slot, exit, .. } => {
                    let mut b = s.clone();
                    b.pc = exit as usize;
                    self.explore(b);
                    s.slots[slot as usize] = (Self::cursor(&s), s.effects);
                    true
                }
                Op::Next { slot, .. } => s.slots[slot as usize] != (Self::cursor(&s), s.effects),
                Op::Test(t) => self.test(&mut s, t),
                Op::IsType(t) => {
                    let id = Self::cursor(&s);
                    match Self::know(&s, id) {
                        Know::Orig { empty: true, .. } | Know::Emptied => false,
                        Know::Orig { .. } => {
                            let p = s.ids.len() - 1;
                            Self::add_cond(&mut s, p, Cond::TypeIs(t));
                            true
                        }
                        Know::Own => {
                            self.failed = true;
                            false
                        }
                    }
                }
                Op::InZone(z) => {
                    let p = s.ids.len() - 1;
                    Self::add_cond(&mut s, p, Cond::InZone(z));
                    true
                }
                Op::Capture => {
                    let id = Self::cursor(&s);
                    match Self::know(&s, id) {
                        Know::Orig { empty: true, .. } | Know::Emptied => false,
                        Know::Orig { .. } => {
                            s.captures.push(s.ids.len() - 1);
                            Self::set_know(&mut s, id, Know::Emptied);
                            s.effects += 1;
                            true
                        }
                        Know::Own => {
                            Self::set_know(&mut s, id, Know::Emptied);
                            s.effects += 1;
                            true
                        }
                    }
                }
                Op::Once(_) | Op::Handler(_) => {
                    self.failed = true;
                    false
                }
                Op::Take => self.take(&mut s),
                Op::Drop => self.drop_hand(&mut s),
                Op::NavPush => {
                    s.nav.push(s.ids.len() - 1);
                    true
                }
                // Fused instructions are followed by their generic code.
                Op::Ride { .. } | Op::Walk { .. } => true,
                Op::NavPop => self.nav_pop(&mut s),
                Op::Epilogue => {
                    if s.hand == Hand::Empty {
                        true
                    } else {
                        self.test(&mut s, Test::NotFriend) && self.drop_hand(&mut s)
                    }
                }
                Op::Match { .. } => {
                    if s.hand == Hand::Empty {
                        self.record(&s);
                    }
                    return;
                }
            };
            if !alive {
                return;
            }
            s.pc += 1;
        }
    }

    fn nav_pop(&mut self, s: &mut State) -> bool {
        let Some(back_to) = s.nav.pop() else {
            return true;
        };
        let excursion: Vec<Dir> = s.dirs[back_to..].to_vec();
        for d in excursion.into_iter().rev() {
            let Some(o) = self.game.topology.opposite(d) else {
                self.failed = true;
                return false;
            };
            if !self.step(s, o) {
                return false;
            }
        }
        true
    }

    fn take(&mut self, s: &mut State) -> bool {
        if s.hand != Hand::Empty {
            return false;
        }
        let id = Self::cursor(s);
        let point = s.ids.len() - 1;
        if s.from.is_none() {
            s.from = Some(id);
            s.hand = Hand::Mover;
            Self::set_know(s, id, Know::Emptied);
            s.effects += 1;
            return true;
        }
        match Self::know(s, id) {
            Know::Orig { empty: true, .. } | Know::Emptied => return false,
            Know::Orig { .. } => {
                Self::add_cond(s, point, Cond::NotEmpty);
                s.hand = Hand::Other;
            }
            Know::Own => {
                if s.mover_drop == Some(id) {
                    s.landings.push(id);
                    s.hand = Hand::Mover;
                } else {
                    s.hand = Hand::Other;
                }
            }
        }
        Self::set_know(s, id, Know::Emptied);
        s.effects += 1;
        true
    }

    fn drop_hand(&mut self, s: &mut State) -> bool {
        if s.hand == Hand::Empty {
            return false;
        }
        let id = Self::cursor(s);
        if let Know::Orig { empty: false, .. } = Self::know(s, id) {
            s.captures.push(s.ids.len() - 1);
        }
        if s.hand == Hand::Mover {
            s.mover_drop = Some(id);
        }
        Self::set_know(s, id, Know::Own);
        s.hand = Hand::Empty;
        s.effects += 1;
        true
    }

    fn test(&mut self, s: &mut State, t: Test) -> bool {
        let id = Self::cursor(s);
        let point = s.ids.len() - 1;
        let know = Self::know(s, id);
        match t {
            Test::Attacked | Test::NotAttacked | Test::Protected | Test::NotProtected => true,
            Test::Visited | Test::NotVisited => s.visited.contains(&id) == (t == Test::Visited),
            Test::LastStart | Test::LastEnd | Test::NotLastStart | Test::NotLastEnd => {
                let negated = matches!(t, Test::NotLastStart | Test::NotLastEnd);
                let start_kind = matches!(t, Test::LastStart | Test::NotLastStart);
                if let Some(&end) = s.landings.last() {
                    let start = if s.landings.len() >= 2 {
                        Some(s.landings[s.landings.len() - 2])
                    } else {
                        s.from
                    };
                    let want = if start_kind { start } else { Some(end) };
                    (want == Some(id)) != negated
                } else {
                    let c = match (start_kind, negated) {
                        (true, false) => Cond::LastStart,
                        (false, false) => Cond::LastEnd,
                        (true, true) => Cond::NotLastStart,
                        (false, true) => Cond::NotLastEnd,
                    };
                    Self::add_cond(s, point, c);
                    true
                }
            }
            Test::Moved | Test::NotMoved => {
                let c = if t == Test::Moved {
                    Cond::Moved
                } else {
                    Cond::NotMoved
                };
                match (s.hand, know) {
                    (Hand::Mover, _) => {
                        Self::add_cond(s, 0, c);
                        true
                    }
                    (Hand::Other, _) | (Hand::Empty, Know::Own) => {
                        self.failed = true;
                        false
                    }
                    (Hand::Empty, Know::Emptied)
                    | (Hand::Empty, Know::Orig { empty: true, .. }) => false,
                    (Hand::Empty, Know::Orig { .. }) => {
                        Self::add_cond(s, point, c);
                        Self::set_know(
                            s,
                            id,
                            Know::Orig {
                                empty: false,
                                occupied: true,
                            },
                        );
                        true
                    }
                }
            }
            _ => self.content_test(s, t, id, point, know),
        }
    }

    /// Tests of what stands on the square: `p P e E f F`.
    fn content_test(&mut self, s: &mut State, t: Test, id: Id, point: usize, know: Know) -> bool {
        match know {
            Know::Emptied => matches!(t, Test::Empty | Test::NotEnemy | Test::NotFriend),
            Know::Own => matches!(t, Test::NotEmpty | Test::Friend | Test::NotEnemy),
            Know::Orig { empty, occupied } => {
                let (cond, now_empty, now_occupied) = match t {
                    Test::Empty => (Cond::Empty, true, occupied),
                    Test::NotEmpty => (Cond::NotEmpty, empty, true),
                    Test::Enemy => (Cond::Enemy, empty, true),
                    Test::Friend => (Cond::Friend, empty, true),
                    Test::NotEnemy => (Cond::NotEnemy, empty, occupied),
                    Test::NotFriend => (Cond::NotFriend, empty, occupied),
                    _ => return true,
                };
                if now_empty && now_occupied {
                    return false;
                }
                Self::add_cond(s, point, cond);
                Self::set_know(
                    s,
                    id,
                    Know::Orig {
                        empty: now_empty,
                        occupied: now_occupied,
                    },
                );
                true
            }
        }
    }

    /// Turns each capture of the finished path into a pattern.
    fn record(&mut self, s: &State) {
        for &k in &s.captures {
            if k == 0 {
                continue;
            }
            match self.pattern(s, k) {
                Some(p) => self.patterns.push(p),
                None => {
                    self.failed = true;
                    return;
                }
            }
        }
        if self.patterns.len() > 100_000 {
            self.failed = true;
        }
    }

    fn pattern(&self, s: &State, k: usize) -> Option<Pattern> {
        let topo = &self.game.topology;
        let n = s.dirs.len();
        let mut emitted = vec![false; n + 1];
        let mut take = |i: usize| -> Vec<Cond> {
            if std::mem::replace(&mut emitted[i], true) {
                Vec::new()
            } else {
                s.conds[i].clone()
            }
        };
        let mut steps = Vec::new();
        let later = (k + 1..=n).any(|i| !s.conds[i].is_empty());
        if later {
            for i in k..n {
                steps.push((take(i), s.dirs[i]));
            }
            for i in (1..=n).rev() {
                steps.push((take(i), topo.opposite(s.dirs[i - 1])?));
            }
        } else {
            for i in (1..=k).rev() {
                steps.push((take(i), topo.opposite(s.dirs[i - 1])?));
            }
        }
        let origin = take(0);
        Some(Pattern { steps, origin })
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::{View, attacked, fallback};
    use crate::game::load_game;
    use crate::movegen::{Generator, MoveList};

    /// The tries answer exactly as running every piece's program forwards
    /// would, on every square of positions from random games (pieces and
    /// empty squares with a phantom enemy on them). Lame leapers (the
    /// xiangqi horse and elephant) once broke this: a one-square chain was
    /// taken for a ray.
    #[test]
    fn tries_agree_with_running_the_programs() {
        let mut rng = StdRng::seed_from_u64(7);
        for name in [
            "chess",
            "xiangqi",
            "janggi",
            "shogi",
            "capablanca",
            "grand",
            "shatranj",
        ] {
            let game = load_game(name).unwrap();
            let all: Vec<u16> = (0..game.pieces.len() as u16).collect();
            let mut generator = Generator::new();
            let mut list = MoveList::new();
            for _game in 0..6 {
                let mut pos = game.initial_position();
                for _ply in 0..60 {
                    let cells = pos.cells().to_vec();
                    for sq in game.topology.squares() {
                        for by in 0..game.players.len() {
                            let c = cells[sq.index()];
                            let info = game.cells.info(c);
                            let hypo = if c.is_empty() {
                                game.cells.phantom(1 - by)
                            } else if info.owner as usize != by {
                                c
                            } else {
                                continue;
                            };
                            let view = View {
                                cells: &cells,
                                target: sq,
                                hypo,
                            };
                            let fast = attacked(&game, &cells, pos.history(), sq, by, hypo, None);
                            let slow = fallback(&game, &view, pos.history(), by, None, &all);
                            assert_eq!(
                                fast,
                                slow,
                                "{name}: {} attacked by player {by} in {}",
                                game.topology.name(sq),
                                game.write_position(&pos)
                            );
                        }
                    }
                    generator.legal(&game, &mut pos, &mut list).unwrap();
                    if list.is_empty() {
                        break;
                    }
                    let mv = list.get(rng.random_range(0..list.len()));
                    game.make(&mut pos, mv);
                }
            }
        }
    }

    #[test]
    fn chess_tables_are_small_and_complete() {
        let game = load_game("chess").unwrap();
        for by in 0..2 {
            assert!(game.attacks.fallback_types(by).is_empty());
            let royal = &game.attacks.royal[0][by];
            eprintln!(
                "any {} nodes, royal {} nodes {} edges, dynamic {}",
                game.attacks.node_count(by),
                royal.nodes.len(),
                royal.edges.len(),
                royal.dynamic
            );
            let root = royal.nodes[0];
            for e in &royal.edges[root.edge_at as usize..][..root.edge_len as usize] {
                eprintln!(
                    "root edge kind {} dir {:?} conds {:?}",
                    e.kind, e.dir, royal.cond_lists[e.conds as usize]
                );
            }
        }
    }
}
