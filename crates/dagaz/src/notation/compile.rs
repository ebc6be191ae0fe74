//! Compilation of parsed expressions into flat [`Program`]s.
//!
//! A first pass numbers capture groups (branch reset, `notation.md` §3) and
//! checks every name against the game; a second pass emits instructions for
//! one player, reading every direction letter through that player's map.

use std::collections::HashMap;

use super::ast::{Bracket, CheckKind, DirAtom, Nav, Node, NodeKind, Span};
use super::program::{
    GuardTable, Hop, NO_TYPE, Op, Program, Test, UNTYPED, WALK_HAND, WALK_MOVED, WALK_NOT_MOVED,
    WALK_TESTS, WalkPaths, ZrfOp,
};
use super::zrf::{ZrfBlock, ZrfCompiler};
use super::{ErrorKind, NotationError};
use crate::board::{Dir, DirMap, Topology, Zones};

/// Largest program accepted (after unrolling counted repetitions).
const MAX_OPS: usize = 50_000;

/// What the compiler needs to know about the game.
pub struct CompileContext<'a> {
    pub topology: &'a Topology,
    pub pieces: &'a [String],
    pub zones: &'a Zones,
    /// The names of the pieces' attributes (ZRF blocks set and test them).
    pub attributes: &'a [String],
    /// The game's move types (`Game::move_types`): ZRF blocks check theirs
    /// by its index here.
    pub move_types: &'a [String],
    /// `handlers[k]` is true when handler `k` (1..9) is registered.
    pub handlers: [bool; 10],
    /// `not_type[k]` is `Some(t)` when handler `k` only tests the square:
    /// it holds a piece not of type `t` (`Handler::square_test`).
    pub not_type: [Option<u16>; 10],
}

/// One alternative of a piece's move list.
pub struct MoveEntry<'a> {
    pub node: &'a Node,
    pub priority: u8,
}

/// Which piece an `m`/`M` check can look at, found by [`moved_refs`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovedRef {
    /// The moving piece itself.
    Mover,
    /// A piece of this type (the check follows `=Name`).
    Piece(String),
    /// Could be any piece.
    Any,
}

/// Facts about an expression that do not depend on the player.
#[derive(Clone, Debug, Default)]
pub struct Resolved {
    /// Variable number of each capture group, by the group's span start.
    vars: HashMap<usize, u8>,
    /// Index of each `[o]` among the expression's once-flags, by span start.
    onces: HashMap<usize, u16>,
    /// Number of `[o]` checks.
    pub once_count: u16,
}

/// Checks an expression against the game and numbers its capture groups.
/// Errors here are the same for every player.
pub fn resolve(node: &Node, ctx: &CompileContext) -> Result<Resolved, NotationError> {
    let mut r = Resolver {
        ctx,
        out: Resolved::default(),
        total_groups: node.count_captures(),
        var_dirs: HashMap::new(),
        back_uses: Vec::new(),
    };
    r.node(node, &mut 0, &mut 0, true)?;
    for (var, span) in std::mem::take(&mut r.back_uses) {
        for d in r.var_dirs.get(&var).into_iter().flatten() {
            if ctx.topology.opposite(*d).is_none() {
                return Err(NotationError::new(
                    ErrorKind::NoOpposite,
                    span,
                    format!(
                        "'~{var}' needs the opposite of direction '{}', which this board does not define",
                        ctx.topology.direction(*d).letter
                    ),
                    None,
                ));
            }
        }
    }
    Ok(r.out)
}

struct Resolver<'a, 'b> {
    ctx: &'a CompileContext<'b>,
    out: Resolved,
    total_groups: usize,
    var_dirs: HashMap<u8, Vec<Dir>>,
    back_uses: Vec<(u8, Span)>,
}

impl Resolver<'_, '_> {
    /// `count` is the number of capture groups before this point on the
    /// current alternative (it numbers the groups); `bound` is the set of
    /// variables some path may have bound here (it checks the uses). In a
    /// dry run (`final_pass` false) nothing is reported or registered.
    fn node(
        &mut self,
        n: &Node,
        count: &mut u8,
        bound: &mut u16,
        final_pass: bool,
    ) -> Result<(), NotationError> {
        match &n.kind {
            NodeKind::Alt(branches) => {
                let (start, entry) = (*count, *bound);
                let (mut most, mut any) = (start, entry);
                for b in branches {
                    let (mut c, mut bd) = (start, entry);
                    self.node(b, &mut c, &mut bd, final_pass)?;
                    most = most.max(c);
                    any |= bd;
                }
                *count = most;
                *bound = any;
            }
            NodeKind::Seq(items) => {
                for item in items {
                    self.node(item, count, bound, final_pass)?;
                }
            }
            NodeKind::Step(atom) => {
                dirs_of(atom, self.ctx.topology)?;
            }
            NodeKind::Capture(atom) => {
                let dirs = dirs_of(atom, self.ctx.topology)?;
                if *count >= 9 {
                    return Err(NotationError::new(
                        ErrorKind::TooManyGroups,
                        n.span.clone(),
                        "more than nine capture groups on one alternative",
                        None,
                    ));
                }
                *count += 1;
                *bound |= 1 << *count;
                self.out.vars.insert(n.span.start, *count);
                self.var_dirs.entry(*count).or_default().extend(dirs);
            }
            NodeKind::Var { var, back } => {
                if final_pass {
                    self.var_use(*var, *back, n.span.clone(), *bound)?;
                }
            }
            NodeKind::Group(inner) => self.node(inner, count, bound, final_pass)?,
            NodeKind::Repeat { body, max, .. } => {
                if max.is_none() && !body.can_progress() {
                    return Err(NotationError::new(
                        ErrorKind::NoProgress,
                        n.span.clone(),
                        "this repetition can never end: its body neither moves nor changes anything",
                        Some("a step, '|', '^', [x], [o] or a handler inside the repetition"),
                    ));
                }
                // Later iterations see what earlier ones bound.
                let (mut c, mut first) = (*count, *bound);
                self.node(body, &mut c, &mut first, false)?;
                let (mut c, mut inner) = (*count, *bound | first);
                self.node(body, &mut c, &mut inner, final_pass)?;
                *count = (*count).max(c);
                *bound |= inner;
            }
            NodeKind::Drop | NodeKind::Take => {}
            NodeKind::Bracket(b) => self.bracket(b, *bound, final_pass)?,
        }
        Ok(())
    }

    fn var_use(
        &mut self,
        var: u8,
        back: bool,
        span: Span,
        bound: u16,
    ) -> Result<(), NotationError> {
        if var as usize > self.total_groups {
            return Err(NotationError::new(
                ErrorKind::TooFewGroups,
                span,
                format!(
                    "variable {var} is used but the expression has only {} capture group{}",
                    self.total_groups,
                    if self.total_groups == 1 { "" } else { "s" }
                ),
                Some("a capture group such as (+) before the variable is used"),
            ));
        }
        if bound & (1 << var) == 0 {
            return Err(NotationError::new(
                ErrorKind::UnboundVariable,
                span,
                format!("variable {var} is not bound on any path that reaches this point"),
                Some("a capture group earlier on the same alternative"),
            ));
        }
        if back {
            self.back_uses.push((var, span));
        }
        Ok(())
    }

    fn bracket(&mut self, b: &Bracket, bound: u16, final_pass: bool) -> Result<(), NotationError> {
        if !final_pass {
            return Ok(());
        }
        for step in &b.nav {
            match step {
                Nav::Dir(c, span) => {
                    dir_letter(*c, span.clone(), self.ctx.topology)?;
                }
                Nav::Var { var, back, span } => self.var_use(*var, *back, span.clone(), bound)?,
            }
        }
        for check in &b.checks {
            match &check.kind {
                CheckKind::Code('o') => {
                    let id = self.out.once_count;
                    self.out.onces.insert(check.span.start, id);
                    self.out.once_count += 1;
                }
                CheckKind::Code(_) => {}
                CheckKind::Piece(name) => {
                    if !self.ctx.pieces.iter().any(|p| p == name) {
                        return Err(NotationError::new(
                            ErrorKind::UnknownPiece,
                            check.span.clone(),
                            format!("unknown piece '{name}'"),
                            Some(&format!(
                                "one of the game's pieces: {}",
                                self.ctx.pieces.join(", ")
                            )),
                        ));
                    }
                }
                CheckKind::Zone(name) => {
                    if self.ctx.zones.find(name).is_none() {
                        let known = self.ctx.zones.names().join(", ");
                        return Err(NotationError::new(
                            ErrorKind::UnknownZone,
                            check.span.clone(),
                            format!("unknown zone '{name}'"),
                            Some(&if known.is_empty() {
                                "a zone defined in [zones] (this game defines none)".to_string()
                            } else {
                                format!("one of the game's zones: {known}")
                            }),
                        ));
                    }
                }
                CheckKind::Handler(k) => {
                    if !self.ctx.handlers[*k as usize] {
                        return Err(NotationError::new(
                            ErrorKind::UnknownHandler,
                            check.span.clone(),
                            format!("handler {k} is not registered by this game"),
                            Some("a handler named in the game's [handlers] table"),
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Appends to `out` every path that steps from `at` through `lists` (one
/// direction of each), each as the squares it reaches.
fn extend_paths(
    topo: &Topology,
    lists: &[&[Dir]],
    at: crate::board::Square,
    path: &mut Vec<crate::board::Square>,
    out: &mut Vec<crate::board::Square>,
) {
    let Some((dirs, rest)) = lists.split_first() else {
        out.extend_from_slice(path);
        return;
    };
    for &d in *dirs {
        if let Some(next) = topo.step(at, d) {
            path.push(next);
            extend_paths(topo, rest, next, path, out);
            path.pop();
        }
    }
}

fn dir_letter(c: char, span: Span, topo: &Topology) -> Result<Dir, NotationError> {
    topo.dir(c).ok_or_else(|| {
        NotationError::new(
            ErrorKind::UnknownDirection,
            span,
            format!("unknown direction letter '{c}'"),
            Some(&format!(
                "a direction of this board: {}",
                spaced(&topo.letters())
            )),
        )
    })
}

fn spaced(letters: &str) -> String {
    letters
        .chars()
        .map(String::from)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The board directions (before any player map) of a direction atom.
fn dirs_of(atom: &DirAtom, topo: &Topology) -> Result<Vec<Dir>, NotationError> {
    Ok(match atom {
        DirAtom::Letters(letters) => {
            let mut out = Vec::new();
            for (c, at) in letters {
                let d = dir_letter(*c, *at..*at + 1, topo)?;
                if !out.contains(&d) {
                    out.push(d);
                }
            }
            out
        }
        DirAtom::Orthogonal => topo.orthogonal().to_vec(),
        DirAtom::Diagonal => topo.diagonal().to_vec(),
        DirAtom::All => topo.all_dirs().to_vec(),
    })
}

/// Builds one player's program for a piece from its move alternatives.
pub struct ProgramBuilder<'a, 'b> {
    ctx: &'a CompileContext<'b>,
    /// The player the program is for (zones differ by player).
    player: usize,
    map: &'a DirMap,
    prog: Program,
    /// The piece's ZRF move blocks, compiled after its expressions.
    zrf: &'a [ZrfBlock],
    /// Every piece's ZRF move blocks, by piece type.
    zrf_pieces: &'a [Vec<ZrfBlock>],
}

impl<'a, 'b> ProgramBuilder<'a, 'b> {
    /// A builder of `player`'s programs, whose directions `map` turns.
    pub fn new(ctx: &'a CompileContext<'b>, player: usize, map: &'a DirMap) -> Self {
        ProgramBuilder {
            ctx,
            player,
            map,
            prog: Program::default(),
            zrf: &[],
            zrf_pieces: &[],
        }
    }

    /// The piece's ZRF move blocks, compiled as alternatives after its
    /// expressions (`notation::zrf`), and every piece's move blocks (by
    /// piece type), for moves that go on as another piece.
    pub fn with_zrf(mut self, blocks: &'a [ZrfBlock], pieces: &'a [Vec<ZrfBlock>]) -> Self {
        self.zrf = blocks;
        self.zrf_pieces = pieces;
        self
    }

    /// Compiles a piece's moves: the prologue `^`, then each alternative
    /// followed by the epilogue and a match at its priority. `once_base`
    /// gives each alternative's first once-flag id.
    pub fn piece(
        mut self,
        entries: &[(MoveEntry, &Resolved, u16)],
        prologue_take: bool,
    ) -> Result<Program, NotationError> {
        if entries.is_empty() && self.zrf.is_empty() {
            return Ok(self.prog);
        }
        if prologue_take {
            self.emit(Op::Take);
        }
        if !self.zrf.is_empty() {
            return self.with_blocks(entries);
        }
        // Top-level alternatives of an entry become entries of their own,
        // so that each can be fused.
        let mut flat: Vec<(&Node, &Resolved, u16, u8)> = Vec::new();
        for (entry, resolved, once_base) in entries {
            match &entry.node.kind {
                NodeKind::Alt(branches) => flat.extend(
                    branches
                        .iter()
                        .map(|b| (b, *resolved, *once_base, entry.priority)),
                ),
                _ => flat.push((entry.node, *resolved, *once_base, entry.priority)),
            }
        }
        let fused = self.alternatives(&flat)?;
        self.mark_unique(fused, flat.len());
        // The leading alternatives that fused run without the interpreter
        // when moves are generated from the board; the rest, if any, as a
        // program of their own.
        let leading = self
            .prog
            .ops
            .iter()
            .filter(|op| op.is_fused())
            .take(fused)
            .copied()
            .collect::<Vec<Op>>();
        // Split generation pays where a kernel runs without the
        // interpreter and every alternative after it can be ruled out by
        // the tests it starts with. Otherwise the interpreter runs the
        // whole program once: that costs less than a run per alternative
        // (letting one alternative without a guard run alone saved 1.3 %
        // of four-player chess's instructions and cost 1.2 % of
        // draughts').
        if fused > 0 {
            let rest = flat[fused..]
                .iter()
                .map(|alt| {
                    ProgramBuilder::new(self.ctx, self.player, self.map)
                        .finish(std::slice::from_ref(alt), prologue_take)
                })
                .collect::<Result<Vec<Program>, NotationError>>()?;
            if rest.iter().all(Program::has_guard) {
                self.prog.rest = rest;
                self.prog.split = true;
                self.prog.kernel = leading;
            }
        }
        Ok(self.prog)
    }

    /// A piece with ZRF blocks: its expressions as alternatives, then the
    /// blocks; nothing fused, the interpreter runs it all.
    fn with_blocks(
        mut self,
        entries: &[(MoveEntry, &Resolved, u16)],
    ) -> Result<Program, NotationError> {
        let flat: Vec<(&Node, &Resolved, u16, u8)> = entries
            .iter()
            .map(|(e, r, b)| (e.node, *r, *b, e.priority))
            .collect();
        if !flat.is_empty() {
            let fork = self.emit(Op::Fork(0));
            // The expressions have no move type.
            self.emit(Op::Zrf(ZrfOp::MoveType(UNTYPED)));
            for (node, resolved, once_base, priority) in &flat {
                let next = self.emit(Op::Fork(0));
                self.node(node, resolved, *once_base)?;
                self.emit(Op::Epilogue);
                self.emit(Op::Match {
                    priority: *priority,
                });
                self.patch(next);
            }
            self.emit(Op::Fail);
            self.patch(fork);
        }
        let (blocks, pieces) = (self.zrf, self.zrf_pieces);
        ZrfCompiler::new(self.ctx, self.map, &mut self.prog)
            .with_pieces(pieces)
            .blocks(blocks)?;
        Ok(self.prog)
    }

    /// Compiles `flat` as a whole program (the prologue, the
    /// alternatives) with no kernel of its own.
    fn finish(
        mut self,
        flat: &[(&Node, &Resolved, u16, u8)],
        prologue_take: bool,
    ) -> Result<Program, NotationError> {
        if prologue_take {
            self.emit(Op::Take);
        }
        let mut start = self.prog.ops.len();
        let fused = self.alternatives(flat)?;
        self.mark_unique(fused, flat.len());
        // A lone alternative that fused starts with its fused instruction;
        // its guard is in the generic code that follows.
        if flat.len() == 1 && fused == 1 {
            start += 1;
        }
        self.prog.guard_at = start as u32;
        self.prog.guard = self.prog.ops[start..]
            .iter()
            .take_while(|op| match op {
                Op::Test(t) => !matches!(t, Test::Visited | Test::NotVisited),
                _ => matches!(
                    op,
                    Op::Step(_) | Op::IsType(_) | Op::InZone(_) | Op::NavPush | Op::NavPop
                ),
            })
            .count() as u32;
        if self.prog.guard == 0 {
            self.prog.guard_paths = self.prog.guard_paths();
            self.prog.guard_table = self
                .prog
                .guard_paths
                .as_ref()
                .and_then(|ways| GuardTable::new(ways, self.ctx.topology));
        } else {
            let guard = &self.prog.ops[start..start + self.prog.guard as usize];
            if let Some((table, exact)) = GuardTable::prefilter(guard, self.ctx.topology) {
                self.prog.guard_table = Some(table);
                self.prog.guard_exact = exact;
            }
        }
        Ok(self.prog)
    }

    /// Emits the alternatives, each behind a fork, each followed by the
    /// epilogue and a match at its priority. Returns how many of the
    /// leading alternatives fused (see [`ProgramBuilder::fuse`]).
    fn alternatives(
        &mut self,
        flat: &[(&Node, &Resolved, u16, u8)],
    ) -> Result<usize, NotationError> {
        let mut leading_fused = 0;
        for (i, &(node, resolved, once_base, priority)) in flat.iter().enumerate() {
            let fork = (i + 1 < flat.len()).then(|| self.emit(Op::Fork(0)));
            let before = self.prog.ops.len();
            self.fuse(node, resolved, priority)?;
            if self.prog.ops.len() > before && leading_fused == i {
                leading_fused += 1;
            }
            self.node(node, resolved, once_base)?;
            self.emit(Op::Epilogue);
            self.emit(Op::Match { priority });
            if let Some(f) = fork {
                self.patch(f);
            }
        }
        Ok(leading_fused)
    }

    /// Sets `kernel_unique` and `unique_targets`: `leading` of the
    /// program's `alternatives` are fused, at their head.
    fn mark_unique(&mut self, leading: usize, alternatives: usize) {
        let fused = self.prog.ops.iter().filter(|op| op.is_fused()).count();
        let disjoint = fused == leading && self.fused_targets_disjoint();
        self.prog.kernel_unique = fused > 0 && disjoint;
        self.prog.unique_targets = disjoint && leading == alternatives;
    }

    /// True if the fused instructions of the program can never reach the
    /// same square twice: all displacements of all walks are distinct, and
    /// none lies on a slide's ray; slides have pairwise non-parallel
    /// directions. Only on boards whose directions are vectors.
    fn fused_targets_disjoint(&self) -> bool {
        let topo = self.ctx.topology;
        if !topo.all_vectors() || !self.prog.hops.is_empty() {
            return false;
        }
        let vector = |d: Dir| match topo.direction(d).kind {
            crate::board::DirKind::Vector(v) => v,
            crate::board::DirKind::Links => [0; 3],
        };
        let mut rays: Vec<[i32; 3]> = Vec::new();
        let mut points: Vec<[i32; 3]> = Vec::new();
        for op in &self.prog.ops {
            match *op {
                Op::Ride { list, .. } => rays.extend(
                    self.prog.dir_lists[list as usize]
                        .iter()
                        .map(|d| vector(*d)),
                ),
                Op::Walk { walk, .. } => {
                    let mut sums = vec![[0i32; 3]];
                    for &(list, _) in &self.prog.walks[walk as usize] {
                        if list == WALK_HAND {
                            continue;
                        }
                        let dirs = &self.prog.dir_lists[list as usize];
                        sums = sums
                            .iter()
                            .flat_map(|s| dirs.iter().map(move |d| (s, *d)))
                            .map(|(s, d)| {
                                let v = vector(d);
                                [s[0] + v[0], s[1] + v[1], s[2] + v[2]]
                            })
                            .collect();
                        if sums.len() > 4096 {
                            return false;
                        }
                    }
                    points.extend(sums);
                }
                _ => {}
            }
        }
        let parallel = |a: [i32; 3], b: [i32; 3]| {
            let cross = [
                a[1] * b[2] - a[2] * b[1],
                a[2] * b[0] - a[0] * b[2],
                a[0] * b[1] - a[1] * b[0],
            ];
            cross == [0; 3] && (0..3).map(|i| a[i] * b[i]).sum::<i32>() > 0
        };
        let mut seen = std::collections::HashSet::new();
        points.iter().all(|p| *p != [0; 3] && seen.insert(*p))
            && rays.iter().enumerate().all(|(i, a)| {
                *a != [0; 3]
                    && rays[..i].iter().all(|b| !parallel(*a, *b))
                    && points.iter().all(|p| !parallel(*a, *p))
            })
    }

    /// Emits a fused instruction for the common shapes of a whole move
    /// alternative: a slide `(d)([p]\1)*`, or a walk of fixed steps with
    /// content tests (`N,OM`, `OM[e]`, `*`). The generic code follows it.
    fn fuse(&mut self, n: &Node, r: &Resolved, priority: u8) -> Result<(), NotationError> {
        if let Some((atom, screen, landing)) = hop_line(n, r) {
            if self.ctx.topology.acyclic()
                && let Some(mut hop) = self.hop_tests(screen, landing)
            {
                let dirs = self.mapped(dirs_of(atom, self.ctx.topology)?);
                hop.list = self.list(dirs);
                self.prog.hops.push(hop);
                let hop = (self.prog.hops.len() - 1) as u16;
                self.emit(Op::Hop { hop, priority });
            }
            return Ok(());
        }
        if let Some(atom) = slide(n, r) {
            if self.ctx.topology.acyclic() {
                let dirs = self.mapped(dirs_of(atom, self.ctx.topology)?);
                let list = self.list(dirs);
                self.emit(Op::Ride { list, priority });
            }
            return Ok(());
        }
        let mut items: Vec<&Node> = Vec::new();
        if !flatten_fixed(n, &mut items) {
            return Ok(());
        }
        let mut legs: Vec<(Vec<Dir>, u8)> = Vec::new();
        let mut hand_tests = 0u8;
        // Zones the start square (index 0) and each leg's square (index
        // i + 1) must be in: they never change, so the table of paths
        // leaves out the paths that fail them.
        let mut zones: Vec<Vec<u16>> = vec![Vec::new()];
        for item in items {
            match &item.kind {
                NodeKind::Step(atom) => {
                    legs.push((self.mapped(dirs_of(atom, self.ctx.topology)?), 0));
                    zones.push(Vec::new());
                }
                NodeKind::Bracket(b) if b.nav.is_empty() && legs.is_empty() => {
                    // Before the first step the hand holds the moving piece.
                    for check in &b.checks {
                        match &check.kind {
                            CheckKind::Code('M') => hand_tests |= WALK_NOT_MOVED,
                            CheckKind::Code('m') => hand_tests |= WALK_MOVED,
                            CheckKind::Zone(name) => zones[0].push(self.zone(name)),
                            _ => return Ok(()),
                        }
                    }
                }
                NodeKind::Bracket(b) if b.nav.is_empty() => {
                    for check in &b.checks {
                        if let CheckKind::Zone(name) = &check.kind {
                            let z = self.zone(name);
                            zones.last_mut().expect("a leg's zones").push(z);
                            continue;
                        }
                        let bit = match &check.kind {
                            CheckKind::Code(c) => Test::from_code(*c)
                                .and_then(|t| WALK_TESTS.iter().position(|w| *w == t)),
                            _ => None,
                        };
                        match (bit, legs.last_mut()) {
                            (Some(bit), Some(leg)) => leg.1 |= 1 << bit,
                            _ => return Ok(()),
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
        if legs.is_empty() || legs.len() > 4 {
            return Ok(());
        }
        let mut legs: Vec<(u16, u8)> = legs
            .into_iter()
            .map(|(dirs, tests)| (self.list(dirs), tests))
            .collect();
        if hand_tests != 0 {
            legs.insert(0, (WALK_HAND, hand_tests));
        }
        let paths = self.walk_paths(&legs, &zones);
        if paths.is_none() && zones.iter().any(|z| !z.is_empty()) {
            // Stepping the board would not test the zones.
            return Ok(());
        }
        self.prog.walks.push(legs);
        self.prog.walk_paths.push(paths);
        let walk = (self.prog.walks.len() - 1) as u16;
        self.emit(Op::Walk { walk, priority });
        Ok(())
    }

    /// The tests of a hopper's line (its directions left to the caller):
    /// the screen must be tested to hold a piece (`P`, or a handler that
    /// tests for a piece not of a type); the landing must be `[p]`, or
    /// `[e]` with such a handler or not. `None` for any other tests.
    fn hop_tests(&self, screen: &Bracket, landing: &Bracket) -> Option<Hop> {
        let mut hop = Hop {
            list: 0,
            screen_not: NO_TYPE,
            captures: false,
            victim_not: NO_TYPE,
        };
        for check in &screen.checks {
            match check.kind {
                CheckKind::Code('P') => {}
                CheckKind::Handler(k) if hop.screen_not == NO_TYPE => {
                    hop.screen_not = self.ctx.not_type[k as usize]?;
                }
                _ => return None,
            }
        }
        let codes: Vec<&CheckKind> = landing.checks.iter().map(|c| &c.kind).collect();
        match codes.as_slice() {
            [CheckKind::Code('p')] => {}
            [CheckKind::Code('e')] => hop.captures = true,
            [CheckKind::Code('e'), CheckKind::Handler(k)]
            | [CheckKind::Handler(k), CheckKind::Code('e')] => {
                hop.captures = true;
                hop.victim_not = self.ctx.not_type[*k as usize]?;
            }
            _ => return None,
        }
        (!screen.checks.is_empty()).then_some(hop)
    }

    /// The index of the zone `name` (checked to exist when resolved).
    fn zone(&self, name: &str) -> u16 {
        self.ctx.zones.find(name).unwrap_or(0) as u16
    }

    /// Every path of a walk from every square, if the table stays under
    /// [`WalkPaths::LIMIT`] entries. `zones[0]` are the zones the start
    /// square must be in, `zones[i]` those of the square the i-th
    /// stepping leg reaches: paths that leave them are not listed.
    fn walk_paths(&self, legs: &[(u16, u8)], zones: &[Vec<u16>]) -> Option<WalkPaths> {
        let topo = self.ctx.topology;
        let steps: Vec<(&[Dir], u8)> = legs
            .iter()
            .filter(|(list, _)| *list != WALK_HAND)
            .map(|(list, tests)| (self.prog.dir_lists[*list as usize].as_slice(), *tests))
            .collect();
        let lists: Vec<&[Dir]> = steps.iter().map(|(dirs, _)| *dirs).collect();
        // Squares without tests need not be kept, but for the landing one.
        let kept: Vec<usize> = (0..steps.len())
            .filter(|&i| steps[i].1 != 0 || i + 1 == steps.len())
            .collect();
        let mut table = WalkPaths {
            legs: kept.len(),
            tests: kept.iter().map(|&i| steps[i].1).collect(),
            starts: Vec::with_capacity(topo.len() + 1),
            squares: Vec::new(),
        };
        let mut path = Vec::with_capacity(lists.len());
        let mut all = Vec::new();
        let inside = |i: usize, sq: crate::board::Square| {
            zones[i]
                .iter()
                .all(|&z| self.ctx.zones.contains(z as usize, self.player, sq))
        };
        for sq in topo.squares() {
            table.starts.push(table.squares.len() as u32);
            all.clear();
            if inside(0, sq) {
                extend_paths(topo, &lists, sq, &mut path, &mut all);
            }
            for full in all.chunks_exact(lists.len()) {
                if full.iter().enumerate().all(|(i, &at)| inside(i + 1, at)) {
                    table.squares.extend(kept.iter().map(|&i| full[i]));
                }
            }
            if table.squares.len() > WalkPaths::LIMIT {
                return None;
            }
        }
        table.starts.push(table.squares.len() as u32);
        Some(table)
    }

    fn emit(&mut self, op: Op) -> usize {
        self.prog.ops.push(op);
        self.prog.ops.len() - 1
    }

    fn pc(&self) -> u32 {
        self.prog.ops.len() as u32
    }

    /// Points the jump at `at` to the current end of the program.
    fn patch(&mut self, at: usize) {
        let here = self.pc();
        match &mut self.prog.ops[at] {
            Op::Fork(t) | Op::Jump(t) => *t = here,
            Op::Iter { exit, .. } => *exit = here,
            _ => {}
        }
    }

    fn mapped(&self, dirs: Vec<Dir>) -> Vec<Dir> {
        dirs.into_iter().map(|d| self.map.apply(d)).collect()
    }

    fn list(&mut self, dirs: Vec<Dir>) -> u16 {
        if let Some(i) = self.prog.dir_lists.iter().position(|l| *l == dirs) {
            return i as u16;
        }
        self.prog.dir_lists.push(dirs);
        (self.prog.dir_lists.len() - 1) as u16
    }

    fn node(&mut self, n: &Node, r: &Resolved, once_base: u16) -> Result<(), NotationError> {
        if self.prog.ops.len() > MAX_OPS {
            return Err(NotationError::new(
                ErrorKind::TooLarge,
                n.span.clone(),
                format!("the compiled expression exceeds {MAX_OPS} instructions"),
                Some("smaller repetition counts"),
            ));
        }
        match &n.kind {
            NodeKind::Alt(branches) => {
                let mut ends = Vec::new();
                for (i, b) in branches.iter().enumerate() {
                    let last = i + 1 == branches.len();
                    let fork = (!last).then(|| self.emit(Op::Fork(0)));
                    self.node(b, r, once_base)?;
                    if let Some(f) = fork {
                        ends.push(self.emit(Op::Jump(0)));
                        self.patch(f);
                    }
                }
                for e in ends {
                    self.patch(e);
                }
            }
            NodeKind::Seq(items) => {
                for item in items {
                    self.node(item, r, once_base)?;
                }
            }
            NodeKind::Step(atom) => {
                let dirs = self.mapped(dirs_of(atom, self.ctx.topology)?);
                match dirs[..] {
                    [d] => self.emit(Op::Step(d)),
                    _ => {
                        let l = self.list(dirs);
                        self.emit(Op::StepAny(l))
                    }
                };
            }
            NodeKind::Capture(atom) => {
                let dirs = self.mapped(dirs_of(atom, self.ctx.topology)?);
                let var = r.vars.get(&n.span.start).copied().unwrap_or(1);
                let list = self.list(dirs);
                self.emit(Op::Bind { var, list });
            }
            NodeKind::Var { var, back } => {
                self.emit(Op::StepVar {
                    var: *var,
                    back: *back,
                });
            }
            NodeKind::Group(inner) => self.node(inner, r, once_base)?,
            NodeKind::Repeat {
                body,
                min,
                max,
                maximal,
            } => self.repeat(body, *min, *max, *maximal, r, once_base)?,
            NodeKind::Drop => {
                self.emit(Op::Drop);
            }
            NodeKind::Take => {
                self.emit(Op::Take);
            }
            NodeKind::Bracket(b) => self.bracket(b, r, once_base)?,
        }
        Ok(())
    }

    fn repeat(
        &mut self,
        body: &Node,
        min: u32,
        max: Option<u32>,
        maximal: bool,
        r: &Resolved,
        once_base: u16,
    ) -> Result<(), NotationError> {
        for _ in 0..min {
            self.node(body, r, once_base)?;
        }
        match max {
            None => {
                let slot = self.new_slot();
                let head = self.emit(Op::Iter {
                    slot,
                    exit: 0,
                    maximal,
                });
                self.node(body, r, once_base)?;
                let cycles = self.may_cycle(body);
                self.emit(Op::Next { slot, cycles });
                self.emit(Op::Jump(head as u32));
                self.patch(head);
            }
            Some(max) => {
                let mut iters = Vec::new();
                for _ in min..max {
                    let slot = self.new_slot();
                    iters.push((
                        self.emit(Op::Iter {
                            slot,
                            exit: 0,
                            maximal,
                        }),
                        slot,
                    ));
                    self.node(body, r, once_base)?;
                }
                let cycles = self.may_cycle(body);
                for (at, slot) in iters.into_iter().rev() {
                    self.emit(Op::Next { slot, cycles });
                    self.patch(at);
                }
            }
        }
        Ok(())
    }

    /// False when repeating `body` can never bring the path back to a
    /// square it started an iteration on: the body only steps forward along
    /// one variable bound outside it, and the board has no circles.
    fn may_cycle(&self, body: &Node) -> bool {
        let mut var = None;
        !(self.ctx.topology.acyclic() && ray_like(body, &mut var) && var.is_some())
    }

    fn new_slot(&mut self) -> u16 {
        self.prog.slots += 1;
        self.prog.slots - 1
    }

    fn bracket(&mut self, b: &Bracket, r: &Resolved, once_base: u16) -> Result<(), NotationError> {
        if !b.nav.is_empty() {
            self.emit(Op::NavPush);
            for step in &b.nav {
                match step {
                    Nav::Dir(c, span) => {
                        let d = self
                            .map
                            .apply(dir_letter(*c, span.clone(), self.ctx.topology)?);
                        self.emit(Op::Step(d));
                    }
                    Nav::Var { var, back, .. } => {
                        self.emit(Op::StepVar {
                            var: *var,
                            back: *back,
                        });
                    }
                }
            }
        }
        for check in &b.checks {
            let op = match &check.kind {
                CheckKind::Code('x') => Op::Capture,
                CheckKind::Code('o') => {
                    Op::Once(once_base + r.onces.get(&check.span.start).copied().unwrap_or(0))
                }
                CheckKind::Code(c) => {
                    let test = Test::from_code(*c).ok_or_else(|| {
                        NotationError::new(
                            ErrorKind::UnknownCheck,
                            check.span.clone(),
                            format!("unknown check '{c}'"),
                            None,
                        )
                    })?;
                    match test {
                        Test::Attacked
                        | Test::NotAttacked
                        | Test::Protected
                        | Test::NotProtected => self.prog.uses_attacks = true,
                        Test::Visited | Test::NotVisited => self.prog.uses_visited = true,
                        _ => {}
                    }
                    Op::Test(test)
                }
                CheckKind::Piece(name) => {
                    let t = self.ctx.pieces.iter().position(|p| p == name).unwrap_or(0);
                    Op::IsType(t as u16)
                }
                CheckKind::Zone(name) => Op::InZone(self.ctx.zones.find(name).unwrap_or(0) as u16),
                CheckKind::Handler(k) => Op::Handler(*k),
            };
            self.emit(op);
        }
        if !b.nav.is_empty() {
            self.emit(Op::NavPop);
        }
        Ok(())
    }
}

/// Lists the items of `n` in order, expanding groups and repetitions with
/// a fixed small count; false if `n` has other structure.
fn flatten_fixed<'n>(n: &'n Node, out: &mut Vec<&'n Node>) -> bool {
    match &n.kind {
        NodeKind::Seq(items) => items.iter().all(|i| flatten_fixed(i, out)),
        NodeKind::Group(inner) => flatten_fixed(inner, out),
        NodeKind::Repeat { body, min, max, .. } if Some(*min) == *max && *min <= 4 => {
            (0..*min).all(|_| flatten_fixed(body, out))
        }
        NodeKind::Step(_) | NodeKind::Bracket(_) => {
            out.push(n);
            true
        }
        _ => false,
    }
}

/// If `n` is exactly `(dirs)([p]\k)*` with `k` that group's variable, the
/// group's directions.
fn slide<'n>(n: &'n Node, r: &Resolved) -> Option<&'n DirAtom> {
    let NodeKind::Seq(items) = &n.kind else {
        return None;
    };
    let [first, run] = items.as_slice() else {
        return None;
    };
    let (atom, var) = bound_step(first, r)?;
    empty_run(run, var).then_some(atom)
}

/// If `n` is a hopper's line `(dirs)([p]\k)*[S]\k([p]\k)*[L]`, with `k`
/// that group's variable: the group's directions and the brackets `S`
/// (the screen's tests) and `L` (the landing's).
fn hop_line<'n>(n: &'n Node, r: &Resolved) -> Option<(&'n DirAtom, &'n Bracket, &'n Bracket)> {
    let NodeKind::Seq(items) = &n.kind else {
        return None;
    };
    let [first, run, screen, step, beyond, landing] = items.as_slice() else {
        return None;
    };
    let (atom, var) = bound_step(first, r)?;
    let along = matches!(step.kind, NodeKind::Var { var: k, back: false } if k == var);
    match (&screen.kind, &landing.kind) {
        (NodeKind::Bracket(s), NodeKind::Bracket(l))
            if along
                && s.nav.is_empty()
                && l.nav.is_empty()
                && empty_run(run, var)
                && empty_run(beyond, var) =>
        {
            Some((atom, s, l))
        }
        _ => None,
    }
}

/// If `n` is a group `(dirs)`: its directions and its variable.
fn bound_step<'n>(n: &'n Node, r: &Resolved) -> Option<(&'n DirAtom, u8)> {
    let NodeKind::Capture(atom) = &n.kind else {
        return None;
    };
    Some((atom, *r.vars.get(&n.span.start)?))
}

/// True if `n` is `([p]\k)*` with `k` = `var`: steps along the variable
/// over empty squares, as many as there are.
fn empty_run(n: &Node, var: u8) -> bool {
    let NodeKind::Repeat {
        body,
        min: 0,
        max: None,
        maximal: false,
    } = &n.kind
    else {
        return false;
    };
    let body = match &body.kind {
        NodeKind::Group(inner) => inner,
        _ => body,
    };
    let NodeKind::Seq(parts) = &body.kind else {
        return false;
    };
    match parts.as_slice() {
        [check, step] => {
            let empty = matches!(&check.kind, NodeKind::Bracket(b)
                if b.nav.is_empty() && matches!(b.checks.as_slice(), [c] if c.kind == CheckKind::Code('p')));
            let along = matches!(step.kind, NodeKind::Var { var: k, back: false } if k == var);
            empty && along
        }
        _ => false,
    }
}

/// True if every cursor move in `n` is a forward step along the same
/// variable (recorded in `var`) and no variable is bound inside.
fn ray_like(n: &Node, var: &mut Option<u8>) -> bool {
    match &n.kind {
        NodeKind::Step(_) | NodeKind::Capture(_) => false,
        NodeKind::Var { var: k, back } => !*back && *var.get_or_insert(*k) == *k,
        NodeKind::Alt(v) | NodeKind::Seq(v) => v.iter().all(|c| ray_like(c, var)),
        NodeKind::Group(b) => ray_like(b, var),
        NodeKind::Repeat { body, .. } => ray_like(body, var),
        NodeKind::Drop | NodeKind::Take | NodeKind::Bracket(_) => true,
    }
}

/// What an `m`/`M` check may look at, for deciding which piece types need a
/// "has moved" flag. Follows whether the hand holds the moving piece, is
/// empty, or holds some other piece, through the expression.
pub fn moved_refs(node: &Node) -> Vec<MovedRef> {
    let mut out = Vec::new();
    hand_flow(node, HandState::MOVER, &mut out);
    out
}

/// Set of possible hand contents.
#[derive(Clone, Copy, PartialEq, Eq)]
struct HandState(u8);

impl HandState {
    const MOVER: HandState = HandState(1);
    const EMPTY: HandState = HandState(2);
    const OTHER: HandState = HandState(4);

    fn has(self, o: HandState) -> bool {
        self.0 & o.0 != 0
    }

    fn union(self, o: HandState) -> HandState {
        HandState(self.0 | o.0)
    }
}

fn hand_flow(n: &Node, state: HandState, out: &mut Vec<MovedRef>) -> HandState {
    match &n.kind {
        NodeKind::Alt(branches) => branches
            .iter()
            .fold(HandState(0), |acc, b| acc.union(hand_flow(b, state, out))),
        NodeKind::Seq(items) => items.iter().fold(state, |s, i| hand_flow(i, s, out)),
        NodeKind::Group(inner) => hand_flow(inner, state, out),
        NodeKind::Repeat { body, .. } => {
            let mut s = state;
            loop {
                let next = s.union(hand_flow(body, s, out));
                if next == s {
                    return s;
                }
                s = next;
            }
        }
        NodeKind::Drop => HandState::EMPTY,
        NodeKind::Take => HandState::MOVER.union(HandState::OTHER),
        NodeKind::Bracket(b) => {
            let mut last_type: Option<&str> = None;
            for c in &b.checks {
                match &c.kind {
                    CheckKind::Piece(name) => last_type = Some(name),
                    CheckKind::Code('m' | 'M') => {
                        if state.has(HandState::MOVER) {
                            push_unique(out, MovedRef::Mover);
                        }
                        if state.has(HandState::OTHER) {
                            push_unique(out, MovedRef::Any);
                        }
                        if state.has(HandState::EMPTY) {
                            push_unique(
                                out,
                                last_type.map_or(MovedRef::Any, |t| MovedRef::Piece(t.to_string())),
                            );
                        }
                    }
                    _ => {}
                }
            }
            state
        }
        NodeKind::Step(_) | NodeKind::Capture(_) | NodeKind::Var { .. } => state,
    }
}

fn push_unique(out: &mut Vec<MovedRef>, r: MovedRef) {
    if !out.contains(&r) {
        out.push(r);
    }
}
