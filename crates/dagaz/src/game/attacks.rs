//! The attack tries: how "could a piece of player `by` capture on this
//! square?" is answered, derived from the piece programs when a game is
//! loaded.
//!
//! Every piece program is executed symbolically, from an abstract origin,
//! to find its capturing paths. Each path becomes a walk *from the target
//! back to the origin*, with the conditions the path placed on the squares
//! it crossed; all walks of a player are merged into one trie. Programs the
//! analysis cannot read exactly (maximal repetitions, handlers, `[o]`,
//! boards whose directions are not grid vectors) are listed as fallbacks:
//! the runtime walk (`movegen::attack`) runs them forwards instead.
//!
//! Inside an attacker's program, `a A s S` count as satisfied: attack
//! detection does not recurse into attacks.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::Game;
use super::extension::SquareTest;
use super::reach::Reach;
use crate::board::{Dir, DirKind};
use crate::notation::{Op, Program, Test};

/// A condition on one square of an attack walk, relative to the attacker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Cond {
    Empty,
    NotEmpty,
    Enemy,
    NotEnemy,
    Friend,
    NotFriend,
    TypeIs(u16),
    /// A piece (or the phantom) that is not of this type: a handler's
    /// [`SquareTest::NotType`](crate::game::extension::SquareTest).
    NotType(u16),
    Moved,
    NotMoved,
    InZone(u16),
    LastStart,
    LastEnd,
    NotLastStart,
    NotLastEnd,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    /// Piece types (below 64) that attack when found here, unconditionally.
    pub(crate) mask: u64,
    pub(crate) term_at: u32,
    pub(crate) term_len: u16,
    pub(crate) edge_at: u32,
    pub(crate) edge_len: u16,
    /// A compressed ray: if this square is empty, keep stepping in
    /// `ray_dir` over empty squares; the first piece met attacks if its type
    /// is in `ray_mask`. `NO_RAY` if none.
    pub(crate) ray_dir: u8,
    pub(crate) ray_mask: u64,
    /// A hopper's line on the ray (a cannon's): the first piece the ray
    /// meets (or the piece on this square itself), if not an attacker and
    /// if it passes the [`Hop`]'s conditions, is a screen, and a second
    /// ray goes on beyond it in `ray_dir`, where the first piece met
    /// attacks if its type is in the hop's mask. An index into
    /// [`AttackTable::hops`] (kept apart so that a node stays 32 bytes),
    /// `NO_HOP` if none.
    pub(crate) hop: u16,
    /// No edges, no ray, no conditional terminals: a plain leaf.
    pub(crate) leaf: bool,
}

pub(crate) const NO_RAY: u8 = u8::MAX;
pub(crate) const NO_HOP: u16 = u16::MAX;

/// The screen of a hopper's line ([`Node::hop`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hop {
    /// The screen's conditions.
    pub(crate) conds: u16,
    /// Attackers met first beyond the screen.
    pub(crate) mask: u64,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge {
    /// How to test the square before stepping: one of the `EDGE_*` kinds.
    pub(crate) kind: u8,
    pub(crate) conds: u16,
    pub(crate) dir: Dir,
    pub(crate) child: u32,
}

/// The edge has no condition.
pub(crate) const EDGE_FREE: u8 = 0;
/// The square must be empty (rays).
pub(crate) const EDGE_EMPTY: u8 = 1;
/// The square must be occupied (hopper screens).
pub(crate) const EDGE_OCCUPIED: u8 = 2;
/// Evaluate the condition list.
pub(crate) const EDGE_LIST: u8 = 3;
/// Only zone conditions: the square's place decides, never its content
/// (a palace diagonal's start).
pub(crate) const EDGE_ZONE: u8 = 4;
/// Zone conditions and "empty" (a step along a palace diagonal).
pub(crate) const EDGE_ZONE_EMPTY: u8 = 5;

#[derive(Clone, Copy, Debug)]
pub(crate) struct Terminal {
    pub(crate) piece: u16,
    pub(crate) conds: u16,
}

/// The attack trie of one player.
#[derive(Clone, Debug, Default)]
pub(crate) struct AttackTable {
    pub(crate) nodes: Vec<Node>,
    pub(crate) edges: Vec<Edge>,
    pub(crate) terminals: Vec<Terminal>,
    pub(crate) cond_lists: Vec<Vec<Cond>>,
    /// The screens of the hopper's lines.
    pub(crate) hops: Vec<Hop>,
    /// Piece types tested by running their programs forwards.
    pub(crate) fallback: Vec<u16>,
    /// Some condition reads the move history (`l`, `t`).
    pub(crate) dynamic: bool,
    /// Where the attackers can stand, per target square (`None` on boards
    /// too large to keep it).
    pub(crate) reach: Option<Reach>,
}

/// What is known of the piece on the target square when a table is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// Any piece: `=Name` conditions on it are checked when walking.
    Any,
    /// A piece of this type (tables for royal pieces).
    Piece(u16),
    /// A stand-in on an empty square ("would it be attacked").
    Phantom,
}

/// All attack tables of a game: per attacker, a general table, one for
/// phantom targets, and one per royal piece type. The programs are
/// analysed, and each table built, the first time one is asked for: a game
/// that never asks (Taikyoku shogi has no check rule) does not pay for
/// them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Attacks {
    analysed: OnceLock<Analysed>,
    any: Vec<OnceLock<AttackTable>>,
    phantom: Vec<OnceLock<AttackTable>>,
    /// `royal[royal index][attacker]`
    royal: Vec<Vec<OnceLock<AttackTable>>>,
    /// Royal index of each piece type, or `u16::MAX`.
    royal_index: Vec<u16>,
}

/// The capturing walks of every program, from which the tables are built.
#[derive(Clone, Debug)]
struct Analysed {
    /// `patterns[attacker][piece type]`, `None` for a program run forwards
    /// instead.
    patterns: Vec<Vec<Option<Vec<Pattern>>>>,
    geometry: Geometry,
    /// Attacks on royal pieces are found by walking tables alone (no
    /// fallback programs), so [`attacked_recording`] applies.
    local: bool,
}

impl Attacks {
    /// The empty tables of `game`, to be filled when asked for.
    pub(crate) fn new(game: &Game) -> Attacks {
        let players = game.players.len();
        let unbuilt = || (0..players).map(|_| OnceLock::new()).collect::<Vec<_>>();
        let mut royal_index = vec![u16::MAX; game.pieces.len()];
        for (i, &t) in game.royal_types().iter().enumerate() {
            royal_index[t as usize] = i as u16;
        }
        Attacks {
            analysed: OnceLock::new(),
            any: unbuilt(),
            phantom: unbuilt(),
            royal: game.royal_types().iter().map(|_| unbuilt()).collect(),
            royal_index,
        }
    }

    fn analysed(&self, game: &Game) -> &Analysed {
        self.analysed.get_or_init(|| {
            let patterns: Vec<Vec<Option<Vec<Pattern>>>> = (0..game.players.len())
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
            // A table's fallbacks are the programs the analysis could not
            // read, whatever the target.
            let local =
                game.royal_types().is_empty() || patterns.iter().flatten().all(Option::is_some);
            Analysed {
                patterns,
                geometry: Geometry::of(game),
                local,
            }
        })
    }

    /// Attacks on royal pieces are found by walking the tables alone.
    pub(crate) fn local(&self, game: &Game) -> bool {
        self.analysed(game).local
    }

    #[inline]
    pub(crate) fn table(
        &self,
        game: &Game,
        by: usize,
        target: crate::position::CellInfo,
    ) -> &AttackTable {
        let (lock, kind) = if target.phantom {
            (&self.phantom[by], Target::Phantom)
        } else {
            match self.royal_index.get(target.piece as usize) {
                Some(&i) if i != u16::MAX => {
                    (&self.royal[i as usize][by], Target::Piece(target.piece))
                }
                _ => (&self.any[by], Target::Any),
            }
        };
        lock.get_or_init(|| {
            let a = self.analysed(game);
            let mut table = AttackTable::build(&a.patterns[by], kind, &a.geometry);
            table.reach = Reach::of(&table, game, by);
            table
        })
    }

    /// Builds now every table a search asks for (the general one and the
    /// royal pieces' of each attacker), which would otherwise be built the
    /// first time each is asked for: in the largest games that takes
    /// seconds, which a timed search should not spend.
    pub(crate) fn build_all(&self, game: &Game) {
        for by in 0..self.any.len() {
            self.table(game, by, any_piece());
            for &royal in game.royal_types() {
                let target = crate::position::CellInfo {
                    piece: royal,
                    ..any_piece()
                };
                self.table(game, by, target);
            }
        }
    }

    /// Piece types whose attacks are found by running their programs.
    #[cfg(test)]
    pub(crate) fn fallback_types(&self, game: &Game, by: usize) -> &[u16] {
        &self.table(game, by, any_piece()).fallback
    }

    #[cfg(test)]
    pub(crate) fn node_count(&self, game: &Game, by: usize) -> usize {
        self.table(game, by, any_piece()).nodes.len()
    }
}

/// A target that is no royal piece: the general table's.
fn any_piece() -> crate::position::CellInfo {
    crate::position::CellInfo {
        piece: crate::position::NO_PIECE,
        owner: 0,
        moved: false,
        number: 0,
        phantom: false,
    }
}

impl AttackTable {
    /// Whether `sq` is in every zone of the condition list `list` (its
    /// other conditions are not looked at).
    #[inline]
    pub(crate) fn in_zones(
        &self,
        game: &Game,
        by: usize,
        list: u16,
        sq: crate::board::Square,
    ) -> bool {
        self.cond_lists[list as usize].iter().all(|c| match *c {
            Cond::InZone(z) => game.zones.contains(z as usize, by, sq),
            _ => true,
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
            (Cond::NotType(t), Target::Piece(p)) if *t == p => return None,
            (Cond::NotType(_), Target::Piece(_) | Target::Phantom) => {}
            (Cond::Moved | Cond::NotMoved, Target::Phantom) => return None,
            (other, _) => out.push(*other),
        }
    }
    Some(out)
}

/// The grid facts the trie needs to tell a real ray from a short chain:
/// each direction's vector and the board's extent.
#[derive(Clone, Debug, Default)]
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
            let hop = match (ray, empty) {
                (None, Some(empty)) if t.hops.len() < NO_HOP as usize => {
                    self.hop_line(b, empty, &t.cond_lists)
                }
                _ => None,
            };
            let ray = ray.or(hop.map(|h| (h.dir, h.mask)));
            let edges: Vec<(u16, Dir, u32)> = b
                .edges
                .iter()
                .copied()
                .filter(|&(c, d, _)| !(Some(c) == empty && ray.is_some_and(|(rd, _)| rd == d)))
                .filter(|&(c, d, _)| !hop.is_some_and(|h| h.dir == d && h.conds == c))
                .collect();
            let mut node = Node {
                mask: 0,
                term_at: t.terminals.len() as u32,
                term_len: 0,
                edge_at: t.edges.len() as u32,
                edge_len: edges.len() as u16,
                ray_dir: ray.map_or(NO_RAY, |(d, _)| d.0),
                ray_mask: ray.map_or(0, |(_, m)| m),
                hop: hop.map_or(NO_HOP, |h| {
                    t.hops.push(Hop {
                        conds: h.conds,
                        mask: h.hop_mask,
                    });
                    (t.hops.len() - 1) as u16
                }),
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
                    list if list.iter().all(|c| matches!(c, Cond::InZone(_))) => EDGE_ZONE,
                    list if list.contains(&Cond::Empty)
                        && list
                            .iter()
                            .all(|c| matches!(c, Cond::InZone(_) | Cond::Empty)) =>
                    {
                        EDGE_ZONE_EMPTY
                    }
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

/// Whether `conds` can hold only on a square with a piece: only then is
/// a hopper's screen the first piece on its line, as the folded walk
/// assumes (an empty square that passed them could screen too).
fn needs_piece(conds: &[Cond]) -> bool {
    !conds.contains(&Cond::Empty)
        && conds.iter().any(|c| {
            matches!(
                c,
                Cond::NotEmpty
                    | Cond::Enemy
                    | Cond::Friend
                    | Cond::TypeIs(_)
                    | Cond::NotType(_)
                    | Cond::Moved
                    | Cond::NotMoved
            )
        })
}

/// A hopper's line found by [`TrieBuilder::hop_line`].
#[derive(Clone, Copy)]
struct HopLine {
    dir: Dir,
    /// Attackers met first on the line (a chariot).
    mask: u64,
    /// The screen's conditions.
    conds: u16,
    /// Attackers met first beyond the screen (a cannon).
    hop_mask: u64,
}

impl TrieBuilder {
    /// If node `b` starts a hopper's line in some direction: an "empty"
    /// edge on to a chain ([`TrieBuilder::hop_tail`]) and an edge with
    /// the screen's conditions to a plain ray, both running as far as the
    /// analysed extent allows, so that the whole line can be walked as a
    /// ray with a screen.
    fn hop_line(&self, b: &BuildNode, empty: u16, cond_lists: &[Vec<Cond>]) -> Option<HopLine> {
        b.edges.iter().find_map(|&(c, d, child)| {
            if c != empty {
                return None;
            }
            let mut screens = b
                .edges
                .iter()
                .filter(|&&(sc, sd, _)| sd == d && sc != empty);
            let (conds, _, beyond) = *screens.next()?;
            if screens.next().is_some() || !needs_piece(&cond_lists[conds as usize]) {
                return None;
            }
            let room = self.geometry.room(b.offset, d)?;
            let (hop_mask, len) = self.ray_tail(beyond as usize, d, empty)?;
            let (mask, tail_hop, tail_len) = self.hop_tail(child as usize, d, empty, conds)?;
            let same_hop = tail_hop.is_none_or(|m| m == hop_mask);
            (len >= room && tail_len >= room && same_hop).then_some(HopLine {
                dir: d,
                mask,
                conds,
                hop_mask,
            })
        })
    }

    /// If node `n` and all its descendants along `dir` form a hopper's
    /// line: each has the same unconditional attackers, an "empty" edge on
    /// in `dir` and an edge with the screen's conditions `hop` to a plain
    /// ray in `dir` (both may be missing only where the extent ends), the
    /// rays all with the same attackers. Returns the attackers, the rays'
    /// attackers (`None` if no node has room for one) and the length in
    /// nodes.
    fn hop_tail(
        &self,
        n: usize,
        dir: Dir,
        empty: u16,
        hop: u16,
    ) -> Option<(u64, Option<u64>, usize)> {
        let b = &self.nodes[n];
        if b.terms.iter().any(|&(p, c)| c != 0 || p >= 64) {
            return None;
        }
        let mask = b.terms.iter().fold(0u64, |m, &(p, _)| m | 1 << p);
        let room = self.geometry.room(b.offset, dir)?;
        let (mut next, mut screen) = (None, None);
        for &(c, d, child) in &b.edges {
            match (d == dir, c) {
                (true, c) if c == empty && next.is_none() => next = Some(child as usize),
                (true, c) if c == hop && screen.is_none() => screen = Some(child as usize),
                _ => return None,
            }
        }
        let hop_mask = match screen {
            Some(p) => {
                let (m, len) = self.ray_tail(p, dir, empty)?;
                (len >= room).then_some(Some(m))?
            }
            None if room == 0 => None,
            None => return None,
        };
        let Some(next) = next else {
            return (room == 0).then_some((mask, hop_mask, 1));
        };
        let (m, tail_hop, len) = self.hop_tail(next, dir, empty, hop)?;
        let joined = match (hop_mask, tail_hop) {
            (Some(a), Some(b)) if a != b => return None,
            (a, b) => a.or(b),
        };
        (m == mask).then_some((mask, joined, len + 1))
    }

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
        let opaque_handler = |k: u8| {
            let transparent = game.handler(k).is_some_and(|h| h.transparent_to_attacks());
            !transparent && game.square_tests[k as usize].is_none()
        };
        if prog.ops.iter().any(|op| match op {
            Op::Handler(k) => opaque_handler(*k),
            Op::Once(_) | Op::Iter { maximal: true, .. } => true,
            _ => false,
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
                Op::IsType(t) => self.type_test(&mut s, Cond::TypeIs(t)),
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
                // A handler that tests the square is that test; one that
                // leaves attacks alone (gating) does nothing here; `run` let
                // no other handler through.
                Op::Handler(k) => match self.game.square_tests[k as usize] {
                    Some(SquareTest::NotType(t)) => self.type_test(&mut s, Cond::NotType(t)),
                    None => true,
                },
                Op::Fail => false,
                // ZRF blocks are not analysed: their attacks are found by
                // running them.
                Op::Once(_) | Op::Zrf(_) => {
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
                Op::Ride { .. } | Op::Walk { .. } | Op::Hop { .. } => true,
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

    /// `=Name` (or a handler's test of the type): only an original piece
    /// can pass; the condition goes on the cursor's point.
    fn type_test(&mut self, s: &mut State, cond: Cond) -> bool {
        let id = Self::cursor(s);
        match Self::know(s, id) {
            Know::Orig { empty: true, .. } | Know::Emptied => false,
            Know::Orig { .. } => {
                let p = s.ids.len() - 1;
                Self::add_cond(s, p, cond);
                true
            }
            Know::Own => {
                self.failed = true;
                false
            }
        }
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
