//! The program interpreter: a backtracking stack machine that explores every
//! path through a piece's program and records each successful path as a
//! move (`notation.md` §1).
//!
//! The interpreter changes the board in place while it explores and keeps
//! an undo log; a choice point remembers the log length, and backtracking
//! rolls the log back. Nothing is allocated per path: all buffers live in
//! the [`Vm`] and are reused.

use super::attack;
use crate::board::{Dir, Square};
use crate::game::Game;
use crate::game::extension::{Branch, HandlerContext};
use crate::notation::{Op, Program, Test, WALK_HAND, WALK_MOVED, WALK_NOT_MOVED, WALK_TESTS};
use crate::position::{Cell, Change, NO_PIECE, Ply};
use crate::position::{MoveHeader, MoveList};

const NONE: u16 = u16::MAX;
const UNBOUND: u8 = u8::MAX;
/// Choice points one piece may create while generating its moves before
/// generation is abandoned with an error (protects against expressions
/// with exponentially many paths).
const BUDGET: u64 = 20_000_000;

/// Why move generation failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    #[error(
        "move generation for piece {piece} on {square} explored too many paths (more than {BUDGET} steps)"
    )]
    Budget { piece: String, square: String },
}

/// A choice point.
#[derive(Clone, Copy, Debug)]
struct Frame {
    pc: u32,
    /// For `Iter` frames: the frame of the previous iteration of the same
    /// repetition on this path (`u32::MAX` if none).
    prev: u32,
    /// Which alternative to try next at `pc` (directions, handler branches).
    alt: u8,
    maximal: bool,
    /// Set when an iteration of a maximal repetition completed.
    continued: bool,
    cursor: u16,
    log_len: u32,
    effects: u32,
}

/// An entry of the undo log: the old value of something the path changed.
#[derive(Clone, Copy, Debug)]
enum Undo {
    Cell(u16, Cell),
    Hand(Cell, bool),
    Var(u8, u8),
    Slot(u16, u32),
    NavPush,
    NavPop(u16),
    Visit(u16),
    Landing,
    MoverDrop(u16),
    From(u16),
    LtRef(u16),
    Again(bool),
    LastCapture(u16),
    Taken,
}

/// What one run of the interpreter is for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Record every move.
    Generate,
    /// Stop at the first path that captures the piece on this square
    /// (attack detection for programs the attack analysis cannot read).
    Attack(Square),
}

/// Everything one run needs to know besides the board.
pub(crate) struct Env<'a> {
    pub game: &'a Game,
    pub player: usize,
    pub history: &'a [Ply],
    pub mode: Mode,
}

/// Reusable interpreter state.
#[derive(Default)]
pub(crate) struct Vm {
    frames: Vec<Frame>,
    log: Vec<Undo>,
    vars: [u8; 10],
    slots: Vec<u32>,
    nav: Vec<u16>,
    visited: Vec<u64>,
    landings: Vec<Square>,
    branches: Vec<Branch>,
    net: Vec<Change>,
    /// Cells put aside while [`Vm::with_original`] runs.
    saved: Vec<(u16, Cell)>,
    /// Answers of `a`/`s` tests in this generation: (square, protect,
    /// excluded square) — they are asked of the position before the move,
    /// which is the same for every path.
    attack_cache: Vec<((u16, bool, u16), bool)>,
    dedup: Dedup,
    // Path registers (restored through the log).
    hand: Cell,
    hand_is_mover: bool,
    from: u16,
    mover_drop: u16,
    lt_ref: u16,
    /// A handler asked for the mover to move again.
    again: bool,
    /// The square of the latest capture of this path.
    last_capture: u16,
    /// Pieces captured by this path (stack boards).
    taken: u16,
    // Per run.
    mover_piece: u16,
    /// The board is a heap board: cells are counts, a drop puts down one.
    heap: bool,
    /// The board is a stack board: squares hold stacks (see `Game::stack_slot`).
    stack: bool,
    /// Scratch space for building a stack.
    column: Vec<Cell>,
    /// Index in the move list of this run's first move.
    run_start: usize,
    /// The moves being emitted need no deduplication (set by fused
    /// instructions of programs with `unique_targets`).
    unique: bool,
    /// Facts about the moving piece for [`Vm::emit_simple`].
    simple: Simple,
    /// Paths with the same effect but different landing squares are kept
    /// as different moves (the "duplicate captures kept" perft convention).
    pub distinct_paths: bool,
    /// With `distinct_paths`, the squares where the parts ended count too
    /// (lishogi's convention for the Lion's double moves).
    pub distinct_landings: bool,
    /// Capture-order key of the move being recorded (`distinct_paths`).
    path_key: u64,
    found: bool,
    steps: u64,
}

impl Vm {
    pub fn new() -> Self {
        Vm::default()
    }

    /// Records that `[a]` on `sq` is `hit` in this generation.
    pub fn seed_attack(&mut self, sq: Square, hit: bool) {
        self.attack_cache.push(((sq.0, false, NONE), hit));
    }

    /// Starts a new generation (a new position): forgets the moves seen
    /// for deduplication and the attack answers.
    pub fn begin(&mut self) {
        self.dedup.clear();
        self.attack_cache.clear();
    }

    /// Runs `prog` for the piece on `start` and appends its moves to `out`
    /// (or, in attack mode, returns whether the target can be captured).
    /// The board is the same as before when this returns.
    pub fn run(
        &mut self,
        env: &Env,
        cells: &mut [Cell],
        prog: &Program,
        start: Square,
        out: &mut MoveList,
    ) -> Result<bool, GenError> {
        self.run_from(env, cells, prog, start, None, out)
    }

    /// Runs a drop program: `piece` comes out of the hand slot `hand_slot`
    /// and the path starts with it in the hand on `square`.
    #[allow(clippy::too_many_arguments)]
    pub fn run_drop(
        &mut self,
        env: &Env,
        cells: &mut [Cell],
        prog: &Program,
        square: Square,
        piece: Cell,
        hand_slot: usize,
        out: &mut MoveList,
    ) -> Result<bool, GenError> {
        self.run_from(env, cells, prog, square, Some((piece, hand_slot)), out)
    }

    fn run_from(
        &mut self,
        env: &Env,
        cells: &mut [Cell],
        prog: &Program,
        start: Square,
        drop: Option<(Cell, usize)>,
        out: &mut MoveList,
    ) -> Result<bool, GenError> {
        if prog.ops.is_empty() {
            return Ok(false);
        }
        self.reset(env, cells, prog, start, out.len());
        if let Some((piece, slot)) = drop {
            let count = cells[slot].0;
            if count == 0 {
                return Ok(false);
            }
            self.mover_piece = env.game.cells.info(piece).piece;
            self.hand = piece;
            self.hand_is_mover = true;
            self.set_cell(cells, slot, Cell(count - 1));
        }
        let mut pc: usize = 0;
        let mut cursor = start;
        let mut effects: u32 = 0;
        let mut alt: u8 = 0;
        loop {
            if self.steps > BUDGET {
                self.rollback(cells, 0);
                let game = env.game;
                return Err(GenError::Budget {
                    piece: game
                        .pieces
                        .get(self.mover_piece as usize)
                        .map_or("?".into(), |p| p.name.clone()),
                    square: game.topology.name(start).to_string(),
                });
            }
            let ok = match prog.ops[pc] {
                Op::Step(d) => self.step(env, prog, &mut cursor, d),
                Op::StepAny(list) => {
                    let dirs = &prog.dir_lists[list as usize];
                    self.choose_step(env, prog, pc, alt, &mut cursor, effects, dirs, None)
                }
                Op::Bind { var, list } => {
                    let dirs = &prog.dir_lists[list as usize];
                    self.choose_step(env, prog, pc, alt, &mut cursor, effects, dirs, Some(var))
                }
                Op::StepVar { var, back } => {
                    let d = self.vars[var as usize];
                    if d == UNBOUND {
                        false
                    } else if back {
                        match env.game.topology.opposite(Dir(d)) {
                            Some(o) => self.step(env, prog, &mut cursor, o),
                            None => false,
                        }
                    } else {
                        self.step(env, prog, &mut cursor, Dir(d))
                    }
                }
                Op::Fork(target) => {
                    self.push_frame(target, 0, false, cursor, effects);
                    true
                }
                Op::Jump(target) => {
                    pc = target as usize;
                    alt = 0;
                    continue;
                }
                Op::Iter {
                    slot,
                    exit,
                    maximal,
                } => {
                    let index = self.frames.len() as u32;
                    self.push_frame(exit, 0, maximal, cursor, effects);
                    let old = std::mem::replace(&mut self.slots[slot as usize], index);
                    self.log.push(Undo::Slot(slot, old));
                    if let Some(f) = self.frames.last_mut() {
                        f.prev = old;
                    }
                    true
                }
                Op::Next { slot, cycles } => self.next_iteration(slot, cycles, cursor, effects),
                Op::Test(t) => self.test(env, cells, cursor, t),
                Op::IsType(t) => {
                    let c = cells[cursor.index()];
                    !c.is_empty() && env.game.cells.info(c).piece == t
                }
                Op::InZone(z) => env.game.zones.contains(z as usize, env.player, cursor),
                Op::Capture => {
                    let ok = self.capture(env, cells, cursor);
                    effects += ok as u32;
                    ok
                }
                Op::Once(id) => {
                    let slot = env.game.once_slot(id, env.player);
                    if cells[slot].is_empty() {
                        self.set_cell(cells, slot, Cell(1));
                        effects += 1;
                        true
                    } else {
                        false
                    }
                }
                Op::Handler(k) => {
                    match self.handler(env, cells, pc, alt, &mut cursor, effects, k) {
                        Some(n) => {
                            effects += n;
                            true
                        }
                        None => false,
                    }
                }
                Op::Take => {
                    let ok = self.take(env.game, cells, cursor);
                    effects += ok as u32;
                    ok
                }
                Op::Drop => {
                    let ok = self.drop_hand(env, cells, cursor);
                    effects += ok as u32;
                    ok
                }
                Op::NavPush => {
                    self.nav.push(cursor.0);
                    self.log.push(Undo::NavPush);
                    true
                }
                Op::NavPop => {
                    let back = self.nav.pop().unwrap_or(cursor.0);
                    self.log.push(Undo::NavPop(back));
                    cursor = Square(back);
                    true
                }
                Op::Epilogue => {
                    if self.hand.is_empty() || self.heap {
                        true
                    } else if self.is_friend(env, cells[cursor.index()]) {
                        false
                    } else {
                        let ok = self.drop_hand(env, cells, cursor);
                        effects += ok as u32;
                        ok
                    }
                }
                Op::Ride { list, priority } => {
                    if self.pristine(cursor) && matches!(env.mode, Mode::Generate) && !self.stack {
                        self.unique = prog.unique_targets;
                        self.ride(
                            env,
                            cells,
                            &prog.dir_lists[list as usize],
                            cursor,
                            priority,
                            out,
                        );
                        self.unique = false;
                        false
                    } else {
                        true
                    }
                }
                Op::Walk { walk, priority } => {
                    if self.pristine(cursor) && matches!(env.mode, Mode::Generate) && !self.stack {
                        self.unique = prog.unique_targets;
                        let legs = &prog.walks[walk as usize];
                        self.walk(env, cells, prog, legs, cursor, cursor, priority, out);
                        self.unique = false;
                        false
                    } else {
                        true
                    }
                }
                Op::Match { priority } => {
                    if self.hand.is_empty() {
                        match env.mode {
                            Mode::Generate => self.record(env, cells, priority, out),
                            Mode::Attack(target) => {
                                if self.captured(env, cells, target) {
                                    self.found = true;
                                    self.rollback(cells, 0);
                                    return Ok(true);
                                }
                            }
                        }
                    }
                    false
                }
            };
            alt = 0;
            if ok {
                pc += 1;
            } else {
                match self.backtrack(cells) {
                    Some(f) => {
                        pc = f.pc as usize;
                        alt = f.alt;
                        cursor = Square(f.cursor);
                        effects = f.effects;
                    }
                    None => {
                        self.rollback(cells, 0);
                        return Ok(self.found);
                    }
                }
            }
        }
    }

    /// End of an iteration: fails if the path is back at the state (square,
    /// effects) where this or an earlier iteration started.
    fn next_iteration(&mut self, slot: u16, cycles: bool, cursor: Square, effects: u32) -> bool {
        let at = self.slots[slot as usize] as usize;
        let f = self.frames[at];
        if f.cursor == cursor.0 && f.effects == effects {
            return false;
        }
        if cycles {
            let mut j = f.prev;
            while let Some(g) = self.frames.get(j as usize) {
                if g.cursor == cursor.0 && g.effects == effects {
                    return false;
                }
                j = g.prev;
            }
        }
        self.frames[at].continued = true;
        true
    }

    fn reset(&mut self, env: &Env, cells: &[Cell], prog: &Program, start: Square, out_len: usize) {
        self.frames.clear();
        self.log.clear();
        self.vars = [UNBOUND; 10];
        self.slots.clear();
        self.slots.resize(prog.slots as usize, u32::MAX);
        self.nav.clear();
        self.landings.clear();
        self.hand = Cell::EMPTY;
        self.hand_is_mover = false;
        self.from = NONE;
        self.mover_drop = NONE;
        self.lt_ref = NONE;
        self.again = false;
        self.last_capture = NONE;
        self.taken = 0;
        self.heap = env.game.board_kind == crate::board::BoardKind::Heap;
        self.stack = env.game.board_kind == crate::board::BoardKind::Stack;
        self.found = false;
        self.steps = 0;
        self.mover_piece = env.game.cells.info(cells[start.index()]).piece;
        self.run_start = out_len;
        self.unique = false;
        self.simple.hand = Cell::EMPTY;
        if prog.uses_visited {
            self.visited.clear();
            self.visited.resize(env.game.topology.len().div_ceil(64), 0);
        }
    }

    /// Pushes a choice point. Choice points are what the budget counts:
    /// every path that does not end quickly passes through them.
    #[inline]
    fn push_frame(&mut self, pc: u32, alt: u8, maximal: bool, cursor: Square, effects: u32) {
        self.steps += 1;
        self.frames.push(Frame {
            pc,
            prev: u32::MAX,
            alt,
            maximal,
            continued: false,
            cursor: cursor.0,
            log_len: self.log.len() as u32,
            effects,
        });
    }

    /// Pops choice points until one can be resumed.
    fn backtrack(&mut self, cells: &mut [Cell]) -> Option<Frame> {
        while let Some(f) = self.frames.pop() {
            self.rollback(cells, f.log_len as usize);
            if f.maximal && f.continued {
                continue;
            }
            return Some(f);
        }
        None
    }

    /// Undoes the log down to `len` entries.
    fn rollback(&mut self, cells: &mut [Cell], len: usize) {
        while self.log.len() > len {
            match self.log.pop() {
                Some(Undo::Cell(slot, old)) => cells[slot as usize] = old,
                Some(Undo::Hand(old, mover)) => {
                    self.hand = old;
                    self.hand_is_mover = mover;
                }
                Some(Undo::Var(k, old)) => self.vars[k as usize] = old,
                Some(Undo::Slot(k, old)) => self.slots[k as usize] = old,
                Some(Undo::NavPush) => {
                    self.nav.pop();
                }
                Some(Undo::NavPop(sq)) => self.nav.push(sq),
                Some(Undo::Visit(sq)) => self.visited[sq as usize / 64] &= !(1 << (sq % 64)),
                Some(Undo::Landing) => {
                    self.landings.pop();
                }
                Some(Undo::MoverDrop(old)) => self.mover_drop = old,
                Some(Undo::From(old)) => self.from = old,
                Some(Undo::LtRef(old)) => self.lt_ref = old,
                Some(Undo::Again(old)) => self.again = old,
                Some(Undo::LastCapture(old)) => self.last_capture = old,
                Some(Undo::Taken) => self.taken -= 1,
                None => break,
            }
        }
    }

    #[inline]
    fn set_cell(&mut self, cells: &mut [Cell], slot: usize, new: Cell) {
        self.log.push(Undo::Cell(slot as u16, cells[slot]));
        cells[slot] = new;
    }

    #[inline]
    fn set_hand(&mut self, hand: Cell, mover: bool) {
        self.log.push(Undo::Hand(self.hand, self.hand_is_mover));
        self.hand = hand;
        self.hand_is_mover = mover;
    }

    /// Steps the cursor. A square counts as visited once the cursor has
    /// left it carrying a piece.
    #[inline]
    fn step(&mut self, env: &Env, prog: &Program, cursor: &mut Square, d: Dir) -> bool {
        match env.game.topology.step(*cursor, d) {
            Some(next) => {
                if prog.uses_visited && !self.hand.is_empty() {
                    self.visit(*cursor);
                }
                *cursor = next;
                true
            }
            None => false,
        }
    }

    fn visit(&mut self, sq: Square) {
        let (w, bit) = (sq.index() / 64, 1u64 << (sq.index() % 64));
        if self.visited[w] & bit == 0 {
            self.visited[w] |= bit;
            self.log.push(Undo::Visit(sq.0));
        }
    }

    /// A choice among directions: takes the first one from `alt` on that
    /// has a link, and leaves a choice point for the rest.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn choose_step(
        &mut self,
        env: &Env,
        prog: &Program,
        pc: usize,
        alt: u8,
        cursor: &mut Square,
        effects: u32,
        dirs: &[Dir],
        var: Option<u8>,
    ) -> bool {
        let topo = &env.game.topology;
        let mut i = alt as usize;
        while i < dirs.len() {
            if let Some(next) = topo.step(*cursor, dirs[i]) {
                if i + 1 < dirs.len() {
                    self.push_frame(pc as u32, (i + 1) as u8, false, *cursor, effects);
                }
                if let Some(k) = var {
                    self.log.push(Undo::Var(k, self.vars[k as usize]));
                    self.vars[k as usize] = dirs[i].0;
                }
                if prog.uses_visited && !self.hand.is_empty() {
                    self.visit(*cursor);
                }
                *cursor = next;
                return true;
            }
            i += 1;
        }
        false
    }

    #[inline]
    fn is_friend(&self, env: &Env, c: Cell) -> bool {
        !c.is_empty() && !c.is_marked() && env.game.cells.info(c).owner as usize == env.player
    }

    #[inline]
    fn is_enemy(&self, env: &Env, c: Cell) -> bool {
        !c.is_empty() && !c.is_marked() && env.game.cells.info(c).owner as usize != env.player
    }

    fn test(&mut self, env: &Env, cells: &mut [Cell], cursor: Square, t: Test) -> bool {
        let c = cells[cursor.index()];
        match t {
            Test::Empty => c.is_empty(),
            Test::NotEmpty => !c.is_empty(),
            Test::Enemy => self.is_enemy(env, c),
            Test::NotEnemy => !self.is_enemy(env, c),
            Test::Friend => self.is_friend(env, c),
            Test::NotFriend => !self.is_friend(env, c),
            Test::Attacked | Test::NotAttacked | Test::Protected | Test::NotProtected => {
                if matches!(env.mode, Mode::Attack(_)) {
                    // Attack detection does not recurse into attacks.
                    return true;
                }
                let protect = matches!(t, Test::Protected | Test::NotProtected);
                let key = (cursor.0, protect, if protect { self.from } else { NONE });
                let hit = match self.attack_cache.iter().find(|(k, _)| *k == key) {
                    Some(&(_, hit)) => hit,
                    None => {
                        let hit = self.attacked_before_move(env, cells, cursor, protect);
                        self.attack_cache.push((key, hit));
                        hit
                    }
                };
                hit == matches!(t, Test::Attacked | Test::Protected)
            }
            Test::Moved | Test::NotMoved => {
                let piece = if self.hand.is_empty() { c } else { self.hand };
                let info = env.game.cells.info(piece);
                if piece.is_empty() || info.piece == NO_PIECE {
                    false
                } else {
                    info.moved == (t == Test::Moved)
                }
            }
            Test::Visited | Test::NotVisited => {
                let seen = self
                    .visited
                    .get(cursor.index() / 64)
                    .is_some_and(|w| w & (1 << (cursor.index() % 64)) != 0);
                seen == (t == Test::Visited)
            }
            Test::LastStart | Test::LastEnd => self.last_move(env, cursor, t == Test::LastStart),
            Test::NotLastStart | Test::NotLastEnd => {
                !self.was_last_move(env, cursor, t == Test::NotLastStart)
            }
        }
    }

    /// `a`/`s`: evaluated on the position as it was when the move started.
    fn attacked_before_move(
        &mut self,
        env: &Env,
        cells: &mut [Cell],
        sq: Square,
        protect: bool,
    ) -> bool {
        let game = env.game;
        let (player, from, history) = (env.player, self.from, env.history);
        self.with_original(cells, |cells| {
            let here = cells[sq.index()];
            if protect {
                let hypo = if here.is_empty() {
                    game.cells.phantom((player + 1) % game.players.len())
                } else {
                    here
                };
                let exclude = (from != NONE).then_some(Square(from));
                attack::attacked(game, cells, history, sq, player, hypo, exclude)
            } else {
                let hypo = if here.is_empty() {
                    game.cells.phantom(player)
                } else {
                    here
                };
                (0..game.players.len()).any(|by| {
                    by != player && attack::attacked(game, cells, history, sq, by, hypo, None)
                })
            }
        })
    }

    /// Runs `f` on the board as it was before the current path changed it,
    /// then puts the path's changes back.
    fn with_original<R>(&mut self, cells: &mut [Cell], f: impl FnOnce(&[Cell]) -> R) -> R {
        let mark = self.saved.len();
        for u in self.log.iter().rev() {
            if let Undo::Cell(slot, old) = *u {
                self.saved.push((slot, cells[slot as usize]));
                cells[slot as usize] = old;
            }
        }
        let result = f(cells);
        while self.saved.len() > mark {
            if let Some((slot, value)) = self.saved.pop() {
                cells[slot as usize] = value;
            }
        }
        result
    }

    /// `l`/`t`: the start or end of the previous part, or of an opponent's
    /// move made since the mover's own last move.
    fn last_move(&mut self, env: &Env, cursor: Square, start: bool) -> bool {
        let part = self.landings.len();
        if part >= 1 {
            let sq = if start {
                if part >= 2 {
                    self.landings[part - 2].0
                } else {
                    self.from
                }
            } else {
                self.landings[part - 1].0
            };
            return sq == cursor.0;
        }
        let pick = |p: &Ply| if start { p.from } else { p.to };
        if self.lt_ref != NONE {
            return env.history.get(self.lt_ref as usize).and_then(pick) == Some(cursor);
        }
        for (i, p) in env.history.iter().enumerate().rev() {
            if p.player as usize == env.player {
                break;
            }
            if pick(p) == Some(cursor) {
                self.log.push(Undo::LtRef(self.lt_ref));
                self.lt_ref = i as u16;
                return true;
            }
        }
        false
    }

    /// `L`/`T`: like [`Vm::last_move`] without fixing which move is meant.
    fn was_last_move(&self, env: &Env, cursor: Square, start: bool) -> bool {
        let part = self.landings.len();
        if part >= 1 {
            let sq = match (start, part) {
                (true, 1) => self.from,
                (true, _) => self.landings[part - 2].0,
                (false, _) => self.landings[part - 1].0,
            };
            return sq == cursor.0;
        }
        let pick = |p: &Ply| if start { p.from } else { p.to };
        if self.lt_ref != NONE {
            return env.history.get(self.lt_ref as usize).and_then(pick) == Some(cursor);
        }
        env.history
            .iter()
            .rev()
            .take_while(|p| p.player as usize != env.player)
            .any(|p| pick(p) == Some(cursor))
    }

    fn capture(&mut self, env: &Env, cells: &mut [Cell], sq: Square) -> bool {
        let c = cells[sq.index()];
        if c.is_empty() || c.is_marked() {
            return false;
        }
        if self.last_capture != sq.0 {
            self.log.push(Undo::LastCapture(self.last_capture));
            self.last_capture = sq.0;
        }
        if self.stack {
            // The square keeps a piece when the stack had more than one, so
            // captures are counted here rather than from the changes.
            self.log.push(Undo::Taken);
            self.taken += 1;
            return self.capture_top(env.game, cells, sq);
        }
        let new = if env.game.rules.deferred_captures {
            c.marked()
        } else {
            Cell::EMPTY
        };
        self.set_cell(cells, sq.index(), new);
        true
    }

    fn take(&mut self, game: &Game, cells: &mut [Cell], sq: Square) -> bool {
        let c = cells[sq.index()];
        if !self.hand.is_empty() || c.is_empty() || c.is_marked() {
            return false;
        }
        let mover = if self.from == NONE {
            self.log.push(Undo::From(self.from));
            self.from = sq.0;
            true
        } else if self.mover_drop == sq.0 {
            // `|^` on the same square: a new part of the same move.
            self.landings.push(sq);
            self.log.push(Undo::Landing);
            true
        } else {
            false
        };
        self.set_hand(c, mover);
        self.set_cell(cells, sq.index(), Cell::EMPTY);
        if self.stack {
            self.lift_below(game, cells, sq);
        }
        true
    }

    /// Stack boards, `^`: the pieces under the top of `sq` go with it, into
    /// the carried stack.
    fn lift_below(&mut self, game: &Game, cells: &mut [Cell], sq: Square) {
        for d in 0..game.stack_depth() {
            let from = game.stack_slot(sq, d);
            let c = cells[from];
            if c.is_empty() {
                break;
            }
            self.set_cell(cells, game.carried_slot(d), c);
            self.set_cell(cells, from, Cell::EMPTY);
        }
    }

    /// Stack boards, `|`: the carried stack's lower pieces go on `sq`
    /// above what stood there (whose top was `old_top`). Fails if the
    /// stack would be higher than the board allows.
    fn put_below(&mut self, game: &Game, cells: &mut [Cell], sq: Square, old_top: Cell) -> bool {
        let depth = game.stack_depth();
        let mut column = std::mem::take(&mut self.column);
        column.clear();
        column.extend(
            (0..depth)
                .map(|d| cells[game.carried_slot(d)])
                .take_while(|c| !c.is_empty()),
        );
        if !old_top.is_empty() {
            column.push(old_top);
            column.extend(
                (0..depth)
                    .map(|d| cells[game.stack_slot(sq, d)])
                    .take_while(|c| !c.is_empty()),
            );
        }
        let fits = column.len() <= depth;
        if fits {
            for d in 0..depth {
                let carried = game.carried_slot(d);
                if !cells[carried].is_empty() {
                    self.set_cell(cells, carried, Cell::EMPTY);
                }
                let want = column.get(d).copied().unwrap_or(Cell::EMPTY);
                let slot = game.stack_slot(sq, d);
                if cells[slot] != want {
                    self.set_cell(cells, slot, want);
                }
            }
        }
        self.column = column;
        fits
    }

    /// Stack boards, `x`: the top piece of `sq` leaves; the one under it
    /// becomes the top. With `capture_to_bottom` the captured piece goes
    /// under the carried stack.
    fn capture_top(&mut self, game: &Game, cells: &mut [Cell], sq: Square) -> bool {
        let depth = game.stack_depth();
        let removed = cells[sq.index()];
        let bottom = if game.rules.capture_to_bottom && !self.hand.is_empty() {
            match (0..depth).find(|d| cells[game.carried_slot(*d)].is_empty()) {
                Some(d) => Some(game.carried_slot(d)),
                None => return false,
            }
        } else {
            None
        };
        let mut above = sq.index();
        for d in 0..depth {
            let slot = game.stack_slot(sq, d);
            let c = cells[slot];
            self.set_cell(cells, above, c);
            if c.is_empty() {
                break;
            }
            above = slot;
            if d + 1 == depth {
                self.set_cell(cells, slot, Cell::EMPTY);
            }
        }
        if depth == 0 {
            self.set_cell(cells, sq.index(), Cell::EMPTY);
        }
        if let Some(slot) = bottom {
            self.set_cell(cells, slot, removed);
        }
        true
    }

    fn drop_hand(&mut self, env: &Env, cells: &mut [Cell], sq: Square) -> bool {
        let there = cells[sq.index()];
        if self.hand.is_empty() || there.is_marked() {
            return false;
        }
        if self.heap {
            // Heap boards: one piece from the hand.
            self.set_cell(cells, sq.index(), Cell(there.0 + 1));
            if self.hand_is_mover {
                self.log.push(Undo::MoverDrop(self.mover_drop));
                self.mover_drop = sq.0;
            }
            let mover = self.hand_is_mover;
            self.set_hand(Cell(self.hand.0 - 1), mover);
            return true;
        }
        if self.stack && !self.put_below(env.game, cells, sq, there) {
            return false;
        }
        let new = self.dropped(env, self.hand, sq);
        self.set_cell(cells, sq.index(), new);
        if self.hand_is_mover {
            self.log.push(Undo::MoverDrop(self.mover_drop));
            self.mover_drop = sq.0;
        }
        self.set_hand(Cell::EMPTY, false);
        true
    }

    /// The piece `hand` as it lands on `sq`: with its has-moved flag set if
    /// its type keeps one, promoted at once if its promotion is immediate
    /// and `sq` is in the zone.
    fn dropped(&self, env: &Env, hand: Cell, sq: Square) -> Cell {
        let game = env.game;
        let info = game.cells.info(hand);
        let Some(piece) = game.pieces.get(info.piece as usize) else {
            return hand;
        };
        if self.hand_is_mover
            && let Some(promo) = &piece.promotion
            && promo.immediate
            && game.zones.contains(promo.zone, env.player, sq)
            && let Some(&to) = promo.to.first()
        {
            let tracks = game.pieces[to as usize].tracks_moved;
            return game.cells.piece(to, info.owner as usize, tracks);
        }
        if piece.tracks_moved {
            game.cells.with_moved(hand, true)
        } else {
            hand
        }
    }

    /// Calls extension handler `k`; applies branch `alt` of its answer and
    /// leaves a choice point for the next branch. Returns the number of
    /// effects added, or `None` if the path fails.
    #[allow(clippy::too_many_arguments)]
    fn handler(
        &mut self,
        env: &Env,
        cells: &mut [Cell],
        pc: usize,
        alt: u8,
        cursor: &mut Square,
        effects: u32,
        k: u8,
    ) -> Option<u32> {
        let handler = env.game.handler(k)?;
        let mut branches = std::mem::take(&mut self.branches);
        branches.clear();
        handler.call(
            &HandlerContext {
                game: env.game,
                cells,
                cursor: *cursor,
                hand: self.hand,
                player: env.player,
                origin: (self.from != NONE).then_some(Square(self.from)),
                last_capture: (self.last_capture != NONE).then_some(Square(self.last_capture)),
            },
            &mut branches,
        );
        let result = match branches.get(alt as usize) {
            None => None,
            Some(b) => {
                if alt as usize + 1 < branches.len().min(255) {
                    self.push_frame(pc as u32, alt + 1, false, *cursor, effects);
                }
                let mut added = 0;
                let mut ok = true;
                for sq in &b.captures {
                    if sq.index() < env.game.topology.len() && self.capture(env, cells, *sq) {
                        added += 1;
                    } else {
                        ok = false;
                        break;
                    }
                }
                let squares = env.game.topology.len();
                ok &= b.sets.iter().all(|(sq, _)| sq.index() < squares);
                if ok && b.cursor.index() < squares {
                    for &(sq, cell) in &b.sets {
                        self.set_cell(cells, sq.index(), cell);
                        added += 1;
                    }
                    if b.again && !self.again {
                        self.log.push(Undo::Again(false));
                        self.again = true;
                    }
                    *cursor = b.cursor;
                    Some(added)
                } else {
                    None
                }
            }
        };
        self.branches = branches;
        result
    }

    /// True when the path has only lifted the moving piece from `cursor`:
    /// the fused instructions may then compute their moves directly.
    #[inline]
    fn pristine(&self, cursor: Square) -> bool {
        self.from == cursor.0
            && self.hand_is_mover
            && self.landings.is_empty()
            && self.log.len() == 3
            && matches!(self.log[2], Undo::Cell(s, _) if s == cursor.0)
    }

    /// `Ride`: the slide `(d)([p]\1)*` plus the epilogue, for each `d`.
    fn ride(
        &mut self,
        env: &Env,
        cells: &[Cell],
        dirs: &[Dir],
        from: Square,
        priority: u8,
        out: &mut MoveList,
    ) {
        let topo = &env.game.topology;
        for &d in dirs {
            let mut sq = from;
            while let Some(next) = topo.step(sq, d) {
                let c = cells[next.index()];
                if c.is_marked() {
                    break;
                }
                if !self.is_friend(env, c) {
                    self.emit_simple(env, cells, from, next, priority, out);
                }
                if !c.is_empty() {
                    break;
                }
                sq = next;
            }
        }
    }

    /// `Walk`: a fixed sequence of steps (each a choice of directions),
    /// with content tests on the squares reached, plus the epilogue.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &mut self,
        env: &Env,
        cells: &[Cell],
        prog: &Program,
        legs: &[(u16, u8)],
        from: Square,
        at: Square,
        priority: u8,
        out: &mut MoveList,
    ) {
        let Some((&(list, tests), rest)) = legs.split_first() else {
            let c = cells[at.index()];
            if !c.is_marked() && !self.is_friend(env, c) {
                self.emit_simple(env, cells, from, at, priority, out);
            }
            return;
        };
        if list == WALK_HAND {
            let moved = env.game.cells.info(self.hand).moved;
            if (tests & WALK_NOT_MOVED != 0 && moved) || (tests & WALK_MOVED != 0 && !moved) {
                return;
            }
            return self.walk(env, cells, prog, rest, from, at, priority, out);
        }
        for &d in &prog.dir_lists[list as usize] {
            if let Some(next) = env.game.topology.step(at, d)
                && self.content_tests(env, cells[next.index()], tests)
            {
                self.walk(env, cells, prog, rest, from, next, priority, out);
            }
        }
    }

    /// The tests of a [`Walk`](Op::Walk) leg, as a bit set of [`WALK_TESTS`].
    fn content_tests(&self, env: &Env, c: Cell, tests: u8) -> bool {
        tests == 0
            || WALK_TESTS.iter().enumerate().all(|(i, t)| {
                tests & (1 << i) == 0
                    || match t {
                        Test::Empty => c.is_empty(),
                        Test::NotEmpty => !c.is_empty(),
                        Test::Enemy => self.is_enemy(env, c),
                        Test::NotEnemy => !self.is_enemy(env, c),
                        Test::Friend => self.is_friend(env, c),
                        _ => !self.is_friend(env, c),
                    }
            })
    }

    /// Emits the move that lifts the moving piece from `from` and drops it
    /// on `to` (what `record` would find for such a path).
    fn emit_simple(
        &mut self,
        env: &Env,
        cells: &[Cell],
        from: Square,
        to: Square,
        priority: u8,
        out: &mut MoveList,
    ) {
        let game = env.game;
        if self.simple.hand != self.hand {
            self.prepare_simple(game);
        }
        let old = cells[to.index()];
        let promotes = self.simple.promotes
            && game.pieces[self.mover_piece as usize]
                .promotion
                .as_ref()
                .is_some_and(|p| {
                    // May promote: the general way decides exactly.
                    let from_counts = p.from_zone || p.entering_or_capturing;
                    game.zones.contains(p.zone, env.player, to)
                        || (from_counts && game.zones.contains(p.zone, env.player, from))
                        || p.also_zone
                            .is_some_and(|z| game.zones.contains(z, env.player, to))
                });
        let to_hand = game.rules.captures_to_hand && self.is_enemy(env, old);
        if from == to || promotes || to_hand {
            // Rare cases go the general way.
            self.net.clear();
            let dropped = self.dropped(env, self.hand, to);
            if from == to {
                if dropped != self.hand {
                    self.net.push(Change {
                        slot: from.0,
                        old: self.hand,
                        new: dropped,
                    });
                }
            } else {
                let lift = Change {
                    slot: from.0,
                    old: self.hand,
                    new: Cell::EMPTY,
                };
                let land = Change {
                    slot: to.0,
                    old,
                    new: dropped,
                };
                let pair = if from < to {
                    [lift, land]
                } else {
                    [land, lift]
                };
                self.net.extend_from_slice(&pair);
            }
            let captured = u16::from(self.is_enemy(env, old) && from != to);
            self.finish_move(
                env,
                cells,
                Some(from),
                Some(to),
                priority,
                Some(captured),
                out,
            );
            return;
        }
        let lift = Change {
            slot: from.0,
            old: self.hand,
            new: Cell::EMPTY,
        };
        let land = Change {
            slot: to.0,
            old,
            new: self.simple.dropped,
        };
        let pair = if from < to {
            [lift, land]
        } else {
            [land, lift]
        };
        let mut header = MoveHeader::new(self.mover_piece, Some(from), Some(to), priority);
        header.player = env.player as u8;
        header.captures = u16::from(self.is_enemy(env, old));
        header.hash_delta = self.simple.lift_key
            ^ game.key(to.index(), old)
            ^ game.key(to.index(), self.simple.dropped);
        if !self.unique
            && let Some(i) = self.duplicate(header.hash_delta, header.from(), &pair, out)
        {
            let h = out.header_mut(i);
            h.priority = h.priority.max(header.priority);
            return;
        }
        out.push(header, &pair, &[]);
    }

    /// Caches what [`Vm::emit_simple`] needs to know about the piece in the
    /// hand.
    fn prepare_simple(&mut self, game: &Game) {
        let info = game.cells.info(self.hand);
        let piece = game.pieces.get(info.piece as usize);
        self.simple = Simple {
            hand: self.hand,
            dropped: if piece.is_some_and(|p| p.tracks_moved) {
                game.cells.with_moved(self.hand, true)
            } else {
                self.hand
            },
            promotes: piece.is_some_and(|p| p.promotion.is_some()),
            lift_key: game.key(self.from as usize, self.hand),
        };
    }

    /// Attack mode: did this path remove or replace the piece on `target`?
    fn captured(&self, env: &Env, cells: &[Cell], target: Square) -> bool {
        let now = cells[target.index()];
        let _ = env;
        self.log.iter().any(|u| match u {
            Undo::Cell(slot, old) => *slot == target.0 && !old.is_empty() && *old != now,
            _ => false,
        })
    }

    /// Turns the current successful path into a move (or several, when the
    /// piece may promote) and appends it unless an identical move exists.
    fn record(&mut self, env: &Env, cells: &[Cell], priority: u8, out: &mut MoveList) {
        self.net.clear();
        for u in &self.log {
            if let Undo::Cell(slot, old) = *u
                && !self.net.iter().any(|c| c.slot == slot)
            {
                self.net.push(Change {
                    slot,
                    old,
                    new: Cell::EMPTY,
                });
            }
        }
        for c in self.net.iter_mut() {
            let now = cells[c.slot as usize];
            c.new = if now.is_marked() { Cell::EMPTY } else { now };
        }
        self.net.retain(|c| c.old != c.new);
        self.net.sort_unstable_by_key(|c| c.slot);
        self.path_key = if self.distinct_paths {
            self.capture_order(env, cells)
        } else {
            0
        };
        let from = (self.from != NONE).then_some(Square(self.from));
        // A sowing move is named by its pit alone.
        let to = (self.mover_drop != NONE && !self.heap).then_some(Square(self.mover_drop));
        self.finish_move(env, cells, from, to, priority, None, out);
        self.path_key = 0;
    }

    /// A key of the order in which the path captured enemy pieces (and of its
    /// landing squares, with `distinct_landings`), for
    /// telling paths with the same effect apart (`distinct_paths`).
    fn capture_order(&self, env: &Env, cells: &[Cell]) -> u64 {
        let mut key = 0xcbf2_9ce4_8422_2325u64;
        for u in &self.log {
            if let Undo::Cell(slot, old) = *u
                && (slot as usize) < env.game.topology.len()
                && !old.is_empty()
                && !old.is_marked()
                && env.game.cells.info(old).owner as usize != env.player
                && cells[slot as usize] != old
            {
                key = (key ^ slot as u64).wrapping_mul(0x100_0000_01b3);
            }
        }
        // The squares where the parts ended (a Lion's midpoint).
        for sq in self.landings.iter().filter(|_| self.distinct_landings) {
            key = (key ^ (0x1_0000 | sq.0 as u64)).wrapping_mul(0x100_0000_01b3);
        }
        key
    }

    /// Puts the enemy pieces the move captures into the mover's hand, as
    /// their base pieces: adds the hand changes to `self.net`.
    fn captured_to_hand(&mut self, env: &Env, cells: &[Cell]) {
        let game = env.game;
        let squares = game.topology.len();
        let mut gained: Vec<u16> = Vec::new();
        for c in &self.net {
            if (c.slot as usize) < squares && !c.old.is_empty() {
                let o = game.cells.info(c.old);
                if o.owner as usize != env.player
                    && game.cells.info(c.new) != o
                    && o.piece != NO_PIECE
                {
                    let base = game.pieces[o.piece as usize].demotes_to.unwrap_or(o.piece);
                    gained.push(base);
                }
            }
        }
        for base in gained {
            let slot = game.hand_slot(env.player, base) as u16;
            match self.net.iter_mut().find(|c| c.slot == slot) {
                Some(c) => c.new = Cell(c.new.0 + 1),
                None => {
                    let old = cells[slot as usize];
                    self.net.push(Change {
                        slot,
                        old,
                        new: Cell(old.0 + 1),
                    });
                }
            }
        }
        self.net.retain(|c| c.old != c.new);
        self.net.sort_unstable_by_key(|c| c.slot);
    }

    /// Enemy pieces removed or replaced by the changes in `self.net`.
    fn count_captures(&self, env: &Env) -> u16 {
        if self.stack {
            return self.taken;
        }
        let game = env.game;
        let squares = game.topology.len();
        let mut captures = 0u16;
        for c in &self.net {
            if (c.slot as usize) < squares && !c.old.is_empty() {
                let o = game.cells.info(c.old);
                if o.owner as usize != env.player && game.cells.info(c.new) != o {
                    captures += 1;
                }
            }
        }
        captures
    }

    /// The move whose changes are in `self.net`: counts captures, expands
    /// promotions, and emits it.
    #[allow(clippy::too_many_arguments)]
    fn finish_move(
        &mut self,
        env: &Env,
        cells: &[Cell],
        from: Option<Square>,
        to: Option<Square>,
        priority: u8,
        captures: Option<u16>,
        out: &mut MoveList,
    ) {
        let game = env.game;
        let captures = captures.unwrap_or_else(|| self.count_captures(env));
        if game.rules.captures_to_hand && captures > 0 {
            self.captured_to_hand(env, cells);
        }
        let mut header = MoveHeader::new(self.mover_piece, from, to, priority);
        header.player = env.player as u8;
        header.again = self.again;
        header.captures = captures;
        header.path_key = self.path_key;

        let promotion = game
            .pieces
            .get(self.mover_piece as usize)
            .and_then(|p| p.promotion.as_ref());
        // A piece dropped from a hand does not promote.
        if let (Some(promo), Some(to_sq), Some(_)) = (promotion, to, from)
            && !promo.immediate
        {
            let in_zone = |sq: Square| game.zones.contains(promo.zone, env.player, sq);
            let from_in = from.is_some_and(in_zone);
            let enters = if promo.entering_or_capturing {
                (in_zone(to_sq) && !from_in)
                    || (captures > 0 && (in_zone(to_sq) || from_in))
                    || promo
                        .also_zone
                        .is_some_and(|z| game.zones.contains(z, env.player, to_sq))
            } else {
                in_zone(to_sq) || (promo.from_zone && from_in)
            };
            if enters {
                let forced = promo
                    .forced_zone
                    .is_some_and(|z| game.zones.contains(z, env.player, to_sq));
                if promo.optional && !forced {
                    self.emit(game, header, out);
                }
                let Some(at) = self.net.iter().position(|c| c.slot == to_sq.0) else {
                    return;
                };
                let original = self.net[at].new;
                for &target in &promo.to {
                    if promo.captured_only && !lost_one(game, cells, promo, env.player, target) {
                        continue;
                    }
                    let moved = game.pieces[target as usize].tracks_moved;
                    self.net[at].new = game.cells.piece(target, env.player, moved);
                    let mut h = header;
                    h.promotion = target;
                    self.emit(game, h, out);
                }
                self.net[at].new = original;
                return;
            }
        }
        self.emit(game, header, out);
    }

    fn emit(&mut self, game: &Game, mut header: MoveHeader, out: &mut MoveList) {
        let mut delta = 0u64;
        for c in &self.net {
            delta ^= game.key(c.slot as usize, c.old) ^ game.key(c.slot as usize, c.new);
        }
        header.hash_delta = delta;
        if self.unique {
            out.push(header, &self.net, &self.landings);
            return;
        }
        let net = std::mem::take(&mut self.net);
        let dup = self.duplicate(delta, header.from(), &net, out);
        self.net = net;
        if let Some(i) = dup {
            // The same move from another alternative: keep the higher priority.
            let h = out.header_mut(i);
            h.priority = h.priority.max(header.priority);
            return;
        }
        out.push(header, &self.net, &self.landings);
    }

    /// An identical move generated before. A move that takes its piece off
    /// its start square can only equal moves of the same piece, which are
    /// the ones of this run; others (the piece comes back) are looked up in
    /// the whole generation.
    fn duplicate(
        &mut self,
        delta: u64,
        from: Option<Square>,
        changes: &[Change],
        out: &MoveList,
    ) -> Option<usize> {
        let lifts = from.is_some_and(|f| changes.iter().any(|c| c.slot == f.0 && c.new.is_empty()));
        let same = |i: usize| {
            let m = out.get(i);
            m.header.hash_delta == delta
                && m.changes == changes
                && (!self.distinct_paths || m.header.path_key == self.path_key)
        };
        if lifts {
            return (self.run_start..out.len()).find(|&i| same(i));
        }
        if self.distinct_paths {
            return (0..out.len()).find(|&i| same(i));
        }
        let found = self.dedup.seen(delta, changes, out);
        if found.is_none() {
            self.dedup.insert(delta, out.len() as u32);
        }
        found
    }
}

/// What [`Vm::emit_simple`] needs about the piece in the hand.
#[derive(Clone, Copy, Default)]
struct Simple {
    /// The hand these facts are about.
    hand: Cell,
    /// The piece as it is dropped (with its has-moved flag set if kept).
    dropped: Cell,
    promotes: bool,
    /// Key of the piece on its start square.
    lift_key: u64,
}

/// Remembers the moves generated so far by their hash delta, so a second
/// path with the same net effect is not recorded twice. Entries of earlier
/// generations are told apart by a stamp, so clearing is free.
#[derive(Default)]
struct Dedup {
    /// Open addressing: (delta, move index, stamp).
    table: Vec<(u64, u32, u32)>,
    stamp: u32,
    used: usize,
}

impl Dedup {
    fn clear(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.table.iter_mut().for_each(|e| e.2 = 0);
            self.stamp = 1;
        }
        self.used = 0;
    }

    /// The index of an identical move already generated.
    fn seen(&self, delta: u64, net: &[Change], out: &MoveList) -> Option<usize> {
        if self.table.is_empty() {
            return None;
        }
        let mask = self.table.len() - 1;
        let mut i = (delta as usize) & mask;
        loop {
            let (k, v, stamp) = self.table[i];
            if stamp != self.stamp {
                return None;
            }
            if k == delta && (v as usize) < out.len() && out.get(v as usize).changes == net {
                return Some(v as usize);
            }
            i = (i + 1) & mask;
        }
    }

    fn insert(&mut self, delta: u64, index: u32) {
        if (self.used + 1) * 2 > self.table.len() {
            self.grow();
        }
        let mask = self.table.len() - 1;
        let mut i = (delta as usize) & mask;
        while self.table[i].2 == self.stamp {
            i = (i + 1) & mask;
        }
        self.table[i] = (delta, index, self.stamp);
        self.used += 1;
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.table);
        let stamp = self.stamp.max(1);
        self.table = vec![(0, 0, 0); (old.len() * 2).max(128)];
        self.stamp = stamp;
        self.used = 0;
        for (k, v, s) in old {
            if s == stamp {
                self.insert(k, v);
            }
        }
    }
}

/// Whether `player` has fewer pieces of type `target` on the board than
/// the setup had (a `captured_only` promotion may then choose it).
fn lost_one(
    game: &Game,
    cells: &[Cell],
    promo: &crate::game::Promotion,
    player: usize,
    target: u16,
) -> bool {
    let had = promo
        .setup_counts
        .get(player)
        .and_then(|row| row.get(target as usize))
        .copied()
        .unwrap_or(0);
    let now = game
        .topology
        .squares()
        .filter(|sq| {
            let c = cells[sq.index()];
            let info = game.cells.info(c);
            !c.is_empty() && info.piece == target && info.owner as usize == player
        })
        .count();
    now < had as usize
}
