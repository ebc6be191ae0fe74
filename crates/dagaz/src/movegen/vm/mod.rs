//! The program interpreter: a backtracking stack machine that explores every
//! path through a piece's program and records each successful path as a
//! move (`notation.md` §1).
//!
//! The interpreter changes the board in place while it explores and keeps
//! an undo log; a choice point remembers the log length, and backtracking
//! rolls the log back. Nothing is allocated per path: all buffers live in
//! the [`Vm`] and are reused.
//!
//! - this module: the machine, its run loop, choice points and the undo log;
//! - [`checks`]: the bracket tests (`[p]`, `[e]`, `[a]`, `[l]`, …);
//! - [`effects`]: taking, dropping and capturing on each kind of board, and
//!   calls to extension handlers;
//! - [`emit`]: turning a finished path into a move (promotions, captures to
//!   hand, deduplication).

mod checks;
mod effects;
mod emit;
mod zrf;

use super::attack;
use crate::board::{Dir, Square};
use crate::game::Game;
use crate::game::extension::{Branch, HandlerContext};
use crate::notation::program::GuardTable;
use crate::notation::{NO_TYPE, Op, Program, Test, WALK_HAND, WALK_MOVED, WALK_NOT_MOVED};
use crate::position::{Cell, Change, Content, NO_PIECE, PieceBits, Ply};
use crate::position::{MoveHeader, MoveList};
use checks::LANDING_TESTS;
use emit::{Dedup, Simple};

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

/// The `alt` of an [`Op::Partial`]'s frame (its exit ignores `alt`).
const PARTIAL: u8 = u8::MAX;

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
    /// Set when an iteration of a maximal repetition completed (or, for a
    /// partial-move frame, when going on recorded a move).
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
    Mark(u8, u16),
    Flags(u32),
    PositionFlags(u16, u32),
    Promoted(u16),
    Changes(u32),
    Stopped,
}

/// `=Name`: the square holds a piece of type `t`.
#[inline(always)]
fn is_type(env: &Env, cells: &[Cell], cursor: Square, t: u16) -> bool {
    let c = cells[cursor.index()];
    !c.is_empty() && env.game.cells.info(c).piece == t
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
    /// The position's bitsets, where the board is the position's (then
    /// attack tests on the board before the move may skip their walk).
    pub bits: Option<PieceBits<'a>>,
    pub mode: Mode,
    /// The move type the turn restricts moves to (`Turn::move_type`), if
    /// it does: only ZRF blocks of that type start moves.
    pub move_type: Option<u16>,
}

impl Env<'_> {
    /// Whether `prog` may have moves in this turn: a turn restricted to a
    /// move type has none of a program without ZRF blocks (its moves
    /// have no type).
    #[inline]
    fn allows(&self, prog: &Program) -> bool {
        self.move_type.is_none() || prog.zrf
    }
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
    /// This run drops a piece from a hand (it lands unmoved unless the
    /// rules say dropped pieces have moved).
    from_hand: bool,
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
    /// ZRF registers (`mark`, `to`, a scratch one): squares or `NONE`.
    marks: [u16; 3],
    /// ZRF flags set by the path.
    flags: u32,
    /// ZRF position flags set by the path: (square, flag bits); squares
    /// not listed have none.
    square_flags: Vec<(u16, u32)>,
    /// The type the piece in hand was turned into by `Promote`, or `NONE`.
    promoted: u16,
    /// Changes made by ZRF instructions (captures, flips, type changes).
    changes: u32,
    /// Where the parts of a ZRF move stopped: (square, changes then).
    stops: Vec<(u16, u32)>,
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
    /// instructions of programs with `kernel_unique`).
    unique: bool,
    /// The fused instructions running make every move of the piece (their
    /// program has `unique_targets`), so in `captures_only` mode the moves
    /// that take nothing may be counted instead of listed: no other
    /// alternative can list one of them again.
    may_count_quiet: bool,
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
    /// Simple moves that take nothing are counted in `skipped` instead of
    /// emitted (a quiescence search's generation).
    pub captures_only: bool,
    /// Moves not emitted because of `captures_only`.
    pub skipped: usize,
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
        self.run_from(env, cells, prog, start, None, out, out.len())
    }

    /// Generates the moves of the piece on `start` (a board square, not a
    /// heap): the program's kernel computed directly, then the rest of its
    /// alternatives through the interpreter. The same moves, in the same
    /// order, as [`Vm::run`] of the whole program.
    pub fn run_piece(
        &mut self,
        env: &Env,
        cells: &mut [Cell],
        prog: &Program,
        start: Square,
        out: &mut MoveList,
    ) -> Result<(), GenError> {
        if !env.allows(prog) {
            return Ok(());
        }
        let stack = env.game.board_kind == crate::board::BoardKind::Stack;
        if !prog.split || stack || !matches!(env.mode, Mode::Generate) {
            self.run_from(env, cells, prog, start, None, out, out.len())?;
            return Ok(());
        }
        let run_start = out.len();
        if !prog.kernel.is_empty() {
            self.run_kernel(env, cells, prog, start, out);
        }
        for rest in &prog.rest {
            // The rest's moves are the same piece's: duplicates are looked
            // for among the kernel's too.
            if self.guard_passes(env, cells, rest, start) {
                self.run_from(env, cells, rest, start, None, out, run_start)?;
            }
        }
        Ok(())
    }

    /// Whether `prog` may have moves for the piece on `start`, judged by
    /// its guard: the steps and tests it starts with ([`Program::guard`]),
    /// or else the ways of [`Program::guard_paths`], run as they would be
    /// after the prologue lifts the piece. False means the program has no
    /// moves here.
    fn guard_passes(
        &mut self,
        env: &Env,
        cells: &mut [Cell],
        prog: &Program,
        start: Square,
    ) -> bool {
        let piece = cells[start.index()];
        if piece.is_empty() || piece.is_marked() {
            return false;
        }
        let first = prog.guard_at as usize;
        let Some(guard) = prog.ops.get(first..first + prog.guard as usize) else {
            return true;
        };
        if let Some(table) = &prog.guard_table {
            // The ways' table, or what the straight guard reads of the
            // board's contents.
            if !self.table_passes(env, cells, table, start) {
                return false;
            }
            if guard.is_empty() || prog.guard_exact {
                return true;
            }
        } else if guard.is_empty() {
            return match &prog.guard_paths {
                Some(paths) => self.some_path_passes(env, cells, paths, start),
                None => true,
            };
        }
        self.straight_guard_passes(env, cells, guard, start)
    }

    /// Whether the straight guard `guard` (a program's first steps and
    /// tests) passes for the piece on `start`, its instructions followed.
    fn straight_guard_passes(
        &mut self,
        env: &Env,
        cells: &mut [Cell],
        guard: &[Op],
        start: Square,
    ) -> bool {
        let piece = cells[start.index()];
        self.lift_for_guard(cells, start, piece);
        let mut cursor = start;
        let mut passes = true;
        for &op in guard {
            passes = self.guard_op(env, cells, op, &mut cursor);
            if !passes {
                break;
            }
        }
        self.put_back_after_guard(cells, start, piece);
        passes
    }

    /// One step, test or saved square of a guard at `cursor` (which steps
    /// move): whether it passes. Other instructions pass.
    #[inline(always)]
    fn guard_op(&mut self, env: &Env, cells: &mut [Cell], op: Op, cursor: &mut Square) -> bool {
        match op {
            Op::Step(d) => match env.game.topology.step(*cursor, d) {
                Some(next) => {
                    *cursor = next;
                    true
                }
                None => false,
            },
            Op::Test(t) => self.test(env, cells, *cursor, t),
            Op::IsType(t) => is_type(env, cells, *cursor, t),
            Op::InZone(z) => env.game.zones.contains(z as usize, env.player, *cursor),
            Op::NavPush => {
                self.nav.push(cursor.0);
                true
            }
            Op::NavPop => {
                *cursor = Square(self.nav.pop().unwrap_or(cursor.0));
                true
            }
            _ => true,
        }
    }

    /// The state after `^` for a guard: the piece in the hand, its square
    /// empty (and in the log, so that `a` and `s` see the board as it
    /// was). The tests of a guard read nothing else of the machine's state.
    #[inline(always)]
    fn lift_for_guard(&mut self, cells: &mut [Cell], start: Square, piece: Cell) {
        self.log.clear();
        self.nav.clear();
        self.lt_ref = NONE;
        self.from = start.0;
        self.hand = piece;
        self.hand_is_mover = true;
        self.log.push(Undo::Cell(start.0, piece));
        cells[start.index()] = Cell::EMPTY;
    }

    /// Undoes [`Vm::lift_for_guard`].
    #[inline(always)]
    fn put_back_after_guard(&mut self, cells: &mut [Cell], start: Square, piece: Cell) {
        cells[start.index()] = piece;
        self.log.clear();
        self.nav.clear();
    }

    /// Whether one of the ways of a guard's table passes for the piece on
    /// `start` (the table has decided what they read of `start` itself).
    #[inline]
    fn table_passes(&self, env: &Env, cells: &[Cell], table: &GuardTable, start: Square) -> bool {
        let mut passes = true;
        for t in table.from(start) {
            let c = cells[t.square.index()];
            passes = passes
                && self.content_tests(env, c, t.tests)
                && (t.piece == NO_TYPE || is_type(env, cells, t.square, t.piece));
            if t.last {
                if passes {
                    return true;
                }
                passes = true;
            }
        }
        false
    }

    /// Whether one of a guard's ways ([`Program::guard_paths`]) passes
    /// for the piece on `start`.
    #[inline(never)]
    fn some_path_passes(
        &mut self,
        env: &Env,
        cells: &mut [Cell],
        paths: &[Vec<Op>],
        start: Square,
    ) -> bool {
        let piece = cells[start.index()];
        self.lift_for_guard(cells, start, piece);
        let passes = paths
            .iter()
            .any(|path| self.guard_path_passes(env, cells, path, start));
        self.put_back_after_guard(cells, start, piece);
        passes
    }

    /// One way of a guard from `start`: its steps and tests pass. After
    /// a capture (taken to succeed), a test of its square or of attacks is
    /// not read: what the capture changed is the interpreter's to see.
    fn guard_path_passes(
        &mut self,
        env: &Env,
        cells: &mut [Cell],
        path: &[Op],
        start: Square,
    ) -> bool {
        let mut cursor = start;
        let mut taken: [u16; 4] = [NONE; 4];
        let mut takes = 0;
        self.nav.clear();
        for &op in path {
            let passes = match op {
                // After a capture, what it changed is not read: its square,
                // and attacks (the piece taken may have been the attacker).
                Op::Test(_) | Op::IsType(_) if takes > 0 && taken[..takes].contains(&cursor.0) => {
                    true
                }
                Op::Test(
                    Test::Attacked | Test::NotAttacked | Test::Protected | Test::NotProtected,
                ) if takes > 0 => true,
                Op::Capture => match taken.get_mut(takes) {
                    Some(slot) => {
                        *slot = cursor.0;
                        takes += 1;
                        true
                    }
                    // More captures than kept: the rest of the way is
                    // not read.
                    None => return true,
                },
                op => self.guard_op(env, cells, op, &mut cursor),
            };
            if !passes {
                return false;
            }
        }
        true
    }

    /// Sets what the moves about to be emitted by the fused instructions
    /// of `prog` may skip (`unique`, `may_count_quiet`); `None` clears it
    /// once they are done.
    fn set_fused(&mut self, prog: Option<&Program>) {
        self.unique = prog.is_some_and(|p| p.kernel_unique);
        self.may_count_quiet = prog.is_some_and(|p| p.unique_targets);
    }

    /// The kernel of `prog` for the piece on `start`: the state the
    /// interpreter is in after the prologue `^` (the piece in the hand, its
    /// square empty), then each fused instruction.
    fn run_kernel(
        &mut self,
        env: &Env,
        cells: &mut [Cell],
        prog: &Program,
        start: Square,
        out: &mut MoveList,
    ) {
        self.reset_piece(env, cells, start, out.len());
        let piece = cells[start.index()];
        if piece.is_empty() || piece.is_marked() {
            return;
        }
        self.from = start.0;
        self.hand = piece;
        self.hand_is_mover = true;
        self.path_key = 0;
        cells[start.index()] = Cell::EMPTY;
        self.set_fused(Some(prog));
        for &op in &prog.kernel {
            self.fused_moves(env, cells, prog, op, start, out);
        }
        self.set_fused(None);
        cells[start.index()] = piece;
    }

    /// The moves of the fused instruction `op` of `prog` for the piece
    /// lifted from `start`.
    #[inline(always)]
    fn fused_moves(
        &mut self,
        env: &Env,
        cells: &[Cell],
        prog: &Program,
        op: Op,
        start: Square,
        out: &mut MoveList,
    ) {
        match op {
            Op::Ride { list, priority } => {
                let dirs = &prog.dir_lists[list as usize];
                self.ride(env, cells, dirs, start, priority, out);
            }
            Op::Walk { walk, priority } => {
                self.walk_op(env, cells, prog, walk, start, priority, out);
            }
            Op::Hop { hop, priority } => {
                self.hop(env, cells, prog, hop, start, priority, out);
            }
            _ => {}
        }
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
        let run_start = out.len();
        self.run_from(
            env,
            cells,
            prog,
            square,
            Some((piece, hand_slot)),
            out,
            run_start,
        )
    }

    /// Runs `prog` from `start`; moves from index `run_start` of `out` on
    /// are this piece's.
    #[allow(clippy::too_many_arguments)]
    fn run_from(
        &mut self,
        env: &Env,
        cells: &mut [Cell],
        prog: &Program,
        start: Square,
        drop: Option<(Cell, usize)>,
        out: &mut MoveList,
        run_start: usize,
    ) -> Result<bool, GenError> {
        if prog.ops.is_empty() || !env.allows(prog) {
            return Ok(false);
        }
        self.reset(env, cells, prog, start, run_start);
        if let Some((piece, slot)) = drop {
            let count = cells[slot].0;
            if count == 0 {
                return Ok(false);
            }
            self.mover_piece = env.game.cells.info(piece).piece;
            self.hand = piece;
            self.hand_is_mover = true;
            self.from_hand = true;
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
                Op::IsType(t) => is_type(env, cells, cursor, t),
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
                op @ (Op::Ride { .. } | Op::Walk { .. } | Op::Hop { .. }) => {
                    // From the path's start, the fused instruction makes
                    // the alternative's moves and the path ends; later on
                    // a path, its generic code follows.
                    if self.pristine(cursor) && matches!(env.mode, Mode::Generate) && !self.stack {
                        self.set_fused(Some(prog));
                        self.fused_moves(env, cells, prog, op, cursor, out);
                        self.set_fused(None);
                        false
                    } else {
                        true
                    }
                }
                Op::Fail => false,
                Op::Zrf(op) => match self.zrf_op(env, cells, prog, op, &mut cursor, &mut effects) {
                    zrf::Flow::Next => true,
                    zrf::Flow::Jump(target) => {
                        pc = target as usize;
                        alt = 0;
                        continue;
                    }
                    zrf::Flow::Fail => false,
                },
                Op::Match { priority } => {
                    if self.hand.is_empty() {
                        match env.mode {
                            Mode::Generate => {
                                if prog.partial {
                                    self.went_on();
                                }
                                self.record(env, cells, priority, out)
                            }
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

    /// The state the interpreter starts a run of `prog` from on `start`.
    #[inline(always)]
    fn reset(&mut self, env: &Env, cells: &[Cell], prog: &Program, start: Square, out_len: usize) {
        self.reset_piece(env, cells, start, out_len);
        self.frames.clear();
        self.vars = [UNBOUND; 10];
        self.slots.clear();
        self.slots.resize(prog.slots as usize, u32::MAX);
        self.nav.clear();
        if prog.zrf {
            self.marks = [NONE; 3];
            self.flags = 0;
            self.square_flags.clear();
            self.changes = 0;
            self.stops.clear();
        }
        self.found = false;
        self.steps = 0;
        if prog.uses_visited {
            self.visited.clear();
            self.visited.resize(env.game.topology.len().div_ceil(64), 0);
        }
    }

    /// The part of [`Vm::reset`] that the fused instructions and the moves
    /// they emit read: no piece in the hand, nothing logged, the moves from
    /// `out_len` on this run's. (The kernel starts from this alone: its
    /// instructions use no choice points, variables or slots.)
    #[inline(always)]
    fn reset_piece(&mut self, env: &Env, cells: &[Cell], start: Square, out_len: usize) {
        self.log.clear();
        self.landings.clear();
        self.hand = Cell::EMPTY;
        self.hand_is_mover = false;
        self.from_hand = false;
        self.from = NONE;
        self.mover_drop = NONE;
        self.lt_ref = NONE;
        self.again = false;
        self.last_capture = NONE;
        self.taken = 0;
        self.promoted = NONE;
        self.heap = env.game.board_kind == crate::board::BoardKind::Heap;
        self.stack = env.game.board_kind == crate::board::BoardKind::Stack;
        self.mover_piece = env.game.cells.info(cells[start.index()]).piece;
        self.run_start = out_len;
        self.set_fused(None);
        self.simple.hand = Cell::EMPTY;
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
                Some(Undo::Mark(r, old)) => self.marks[r as usize] = old,
                Some(Undo::Flags(old)) => self.flags = old,
                Some(Undo::PositionFlags(sq, old)) => self.set_position_flags(sq, old),
                Some(Undo::Promoted(old)) => self.promoted = old,
                Some(Undo::Changes(old)) => self.changes = old,
                Some(Undo::Stopped) => {
                    self.stops.pop();
                }
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
                if self.can_land(env, c) {
                    self.emit_simple(env, cells, from, next, priority, out);
                }
                if !c.is_empty() {
                    break;
                }
                sq = next;
            }
        }
    }

    /// `Hop` number `hop` of `prog` from `from`: in each direction, over
    /// empty squares to the first piece, the screen; if it passes the
    /// screen test, beyond it each empty square up to the next piece (a
    /// quiet hop), or that piece if it is an enemy that passes the
    /// landing test (a capturing hop). A marked square ends the line, as
    /// it ends a ride.
    #[allow(clippy::too_many_arguments)]
    fn hop(
        &mut self,
        env: &Env,
        cells: &[Cell],
        prog: &Program,
        hop: u16,
        from: Square,
        priority: u8,
        out: &mut MoveList,
    ) {
        let topo = &env.game.topology;
        let spec = prog.hops[hop as usize];
        let not_of = |c: Cell, t: u16| t == NO_TYPE || env.game.cells.info(c).piece != t;
        for &d in &prog.dir_lists[spec.list as usize] {
            let mut sq = from;
            let screen = loop {
                let Some(next) = topo.step(sq, d) else {
                    break None;
                };
                let c = cells[next.index()];
                if c.is_marked() || !c.is_empty() {
                    break (!c.is_marked()).then_some(next);
                }
                sq = next;
            };
            let Some(mut sq) = screen.filter(|s| not_of(cells[s.index()], spec.screen_not)) else {
                continue;
            };
            while let Some(next) = topo.step(sq, d) {
                let c = cells[next.index()];
                if c.is_marked() {
                    break;
                }
                if c.is_empty() {
                    if !spec.captures {
                        self.emit_simple(env, cells, from, next, priority, out);
                    }
                    sq = next;
                    continue;
                }
                if spec.captures && self.is_enemy(env, c) && not_of(c, spec.victim_not) {
                    self.emit_simple(env, cells, from, next, priority, out);
                }
                break;
            }
        }
    }

    /// `Walk` number `walk` of `prog` from `from`: through its table of
    /// paths where it has one, else stepping the board.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn walk_op(
        &mut self,
        env: &Env,
        cells: &[Cell],
        prog: &Program,
        walk: u16,
        from: Square,
        priority: u8,
        out: &mut MoveList,
    ) {
        let legs = &prog.walks[walk as usize];
        let Some(Some(paths)) = prog.walk_paths.get(walk as usize) else {
            return self.walk(env, cells, prog, legs, from, from, priority, out);
        };
        if let Some(&(WALK_HAND, tests)) = legs.first() {
            let moved = env.game.cells.info(self.hand).moved;
            if (tests & WALK_NOT_MOVED != 0 && moved) || (tests & WALK_MOVED != 0 && !moved) {
                return;
            }
        }
        if let [tests] = paths.tests[..] {
            // One square a path (a leaper's): its tests and the landing
            // read the square once.
            for &to in paths.squares_from(from) {
                let passing = self.passing_tests(env, cells[to.index()]);
                if tests & !passing == 0 && passing & LANDING_TESTS != 0 {
                    self.emit_simple(env, cells, from, to, priority, out);
                }
            }
            return;
        }
        for path in paths.from(from) {
            let passes = path
                .iter()
                .zip(&paths.tests)
                .all(|(sq, &tests)| self.content_tests(env, cells[sq.index()], tests));
            let to = path[path.len() - 1];
            if passes && self.can_land(env, cells[to.index()]) {
                self.emit_simple(env, cells, from, to, priority, out);
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
            if self.can_land(env, c) {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::{Generator, generation_env};

    /// Plays up to `plies` moves of the game `name` (each chosen from the
    /// legal moves by the ply number) and shows `visit` every program of
    /// every piece of the side to move (its rest too) at each position:
    /// the generation environment, the cells, the piece's square, the
    /// program and the ply.
    fn for_each_program_along_a_game(
        name: &str,
        plies: usize,
        mut visit: impl FnMut(&Env, &mut [Cell], Square, &Program, usize),
    ) {
        let game = crate::load::load_game(name).unwrap();
        let mut pos = game.initial_position();
        let (mut generator, mut list) = (Generator::new(), MoveList::new());
        for ply in 0..plies {
            let owner = pos.side();
            let (env, cells) = generation_env(&game, &mut pos, owner, None);
            for i in 0..cells.len().min(game.topology.len()) {
                let (sq, c) = (Square(i as u16), cells[i]);
                let info = game.cells.info(c);
                if c.is_empty() || info.owner as usize != owner || info.piece == NO_PIECE {
                    continue;
                }
                let moving = game.moving_type(cells, sq, owner, info.piece);
                let prog = &game.pieces[moving as usize].programs[owner];
                for rest in std::iter::once(prog).chain(&prog.rest) {
                    visit(&env, cells, sq, rest, ply);
                }
            }
            generator.legal(&game, &mut pos, &mut list).unwrap();
            if list.is_empty() {
                break;
            }
            let mv = list.get(ply * 7919 % list.len()).to_owned();
            game.make(&mut pos, mv.as_ref());
        }
    }

    /// A guard's table passes where its ways pass: every piece of the
    /// side to move, at every position of a game played through each
    /// game that has such tables.
    #[test]
    fn guard_tables_agree_with_their_ways() {
        for name in [
            "checkers",
            "russian-draughts",
            "international-draughts",
            "frisian-draughts",
            "thai-draughts",
        ] {
            let mut vm = Vm::new();
            let mut compared = [0, 0];
            for_each_program_along_a_game(name, 120, |env, cells, sq, prog, ply| {
                let (Some(table), Some(ways), 0) =
                    (&prog.guard_table, &prog.guard_paths, prog.guard)
                else {
                    return;
                };
                let by_table = vm.table_passes(env, cells, table, sq);
                let by_ways = vm.some_path_passes(env, cells, ways, sq);
                assert_eq!(by_table, by_ways, "{name} ply {ply} {sq:?}");
                compared[usize::from(by_ways)] += 1;
            });
            // Both answers were seen.
            assert!(compared[0] > 0 && compared[1] > 0, "{name}: {compared:?}");
        }
    }

    /// A straight guard's table passes wherever the guard passes (and
    /// only there, where it is exact): every piece of the side to move,
    /// along a game of each game whose programs have such tables.
    #[test]
    fn guard_prefilters_pass_where_their_guards_pass() {
        // Guards that failed, guards that passed, tables looser than
        // their guards.
        let mut seen = [0, 0, 0];
        for name in ["chess", "xiangqi", "grand"] {
            let mut vm = Vm::new();
            for_each_program_along_a_game(name, 160, |env, cells, sq, prog, ply| {
                let (Some(table), true) = (&prog.guard_table, prog.guard > 0) else {
                    return;
                };
                let at = prog.guard_at as usize;
                let guard = &prog.ops[at..at + prog.guard as usize];
                vm.begin();
                let by_guard = vm.straight_guard_passes(env, cells, guard, sq);
                let by_table = vm.table_passes(env, cells, table, sq);
                assert!(by_table || !by_guard, "{name} ply {ply} {sq:?}");
                if prog.guard_exact {
                    assert_eq!(by_table, by_guard, "{name} ply {ply} {sq:?}");
                }
                seen[usize::from(by_guard)] += 1;
                seen[2] += usize::from(by_table && !by_guard);
            });
        }
        assert!(seen.iter().all(|n| *n > 0), "{seen:?}");
    }
}
