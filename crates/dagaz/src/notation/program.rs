//! The compiled form of a piece's moves: a flat array of instructions for
//! the backtracking interpreter in `movegen::vm`.
//!
//! Directions in a program are board directions: the player's direction map
//! has already been applied, so one program exists per piece and player.

use crate::board::{Dir, Square, Topology};

/// A condition on the cursor square (or on the piece in the hand).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Test {
    /// `p`
    Empty,
    /// `P`
    NotEmpty,
    /// `e`
    Enemy,
    /// `E`
    NotEnemy,
    /// `f`
    Friend,
    /// `F`
    NotFriend,
    /// `a`
    Attacked,
    /// `A`
    NotAttacked,
    /// `s`
    Protected,
    /// `S`
    NotProtected,
    /// `m`
    Moved,
    /// `M`
    NotMoved,
    /// `r`
    Visited,
    /// `R`
    NotVisited,
    /// `l`
    LastStart,
    /// `L` (extension): not `l`
    NotLastStart,
    /// `t`
    LastEnd,
    /// `T` (extension): not `t`
    NotLastEnd,
}

impl Test {
    /// The test for a check letter, if it is one (`x` and `o` are actions).
    pub fn from_code(c: char) -> Option<Test> {
        Some(match c {
            'p' => Test::Empty,
            'P' => Test::NotEmpty,
            'e' => Test::Enemy,
            'E' => Test::NotEnemy,
            'f' => Test::Friend,
            'F' => Test::NotFriend,
            'a' => Test::Attacked,
            'A' => Test::NotAttacked,
            's' => Test::Protected,
            'S' => Test::NotProtected,
            'm' => Test::Moved,
            'M' => Test::NotMoved,
            'r' => Test::Visited,
            'R' => Test::NotVisited,
            'l' => Test::LastStart,
            't' => Test::LastEnd,
            'L' => Test::NotLastStart,
            'T' => Test::NotLastEnd,
            _ => return None,
        })
    }
}

/// One instruction. `Fork`, `StepAny`, `Bind` and `Iter` create choice
/// points; the interpreter explores every choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Step the cursor; fail if there is no link.
    Step(Dir),
    /// Step in one of the directions of list `n` (a choice point).
    StepAny(u16),
    /// Choose a direction of list `list`, bind it to `var`, step in it.
    Bind {
        var: u8,
        list: u16,
    },
    /// Step along (or against, if `back`) the direction bound to `var`.
    StepVar {
        var: u8,
        back: bool,
    },
    /// Choice point: continue here, and also at the target.
    Fork(u32),
    Jump(u32),
    /// Start an optional iteration: a choice between the body (next
    /// instruction) and `exit`. With `maximal`, the exit is taken only if
    /// no iteration of the body completes from here.
    Iter {
        slot: u16,
        exit: u32,
        maximal: bool,
    },
    /// End of an iteration started by the `Iter` of `slot`: fails if the
    /// iteration changed nothing (or, with `cycles`, if the path is back
    /// where an earlier iteration started with no new effects), else
    /// records that the body completed.
    Next {
        slot: u16,
        cycles: bool,
    },
    Test(Test),
    /// `=Name`: the piece on the square is of this type.
    IsType(u16),
    /// `@zone`: the square is in this zone of the moving player.
    InZone(u16),
    /// `x`: capture the piece on the square.
    Capture,
    /// `o`: use up this once-per-game flag of the moving player.
    Once(u16),
    /// `1`..`9`: call the game's extension handler.
    Handler(u8),
    /// `^`
    Take,
    /// `|`
    Drop,
    /// Start of a `>` navigation: remember the cursor.
    NavPush,
    /// End of a navigation: return to the remembered square.
    NavPop,
    /// The board's epilogue: if the hand holds a piece, `[F]` then `|`.
    Epilogue,
    /// A successful path: record the move.
    Match {
        priority: u8,
    },
    /// Fused `(d)([p]\1)*` + epilogue + match for the directions of a
    /// list: computes the moves directly and fails. Falls through to the
    /// generic code after it if the path is not in its initial state.
    Ride {
        list: u16,
        priority: u8,
    },
    /// Fused fixed-step walk + epilogue + match (see [`Program::walks`]).
    Walk {
        walk: u16,
        priority: u8,
    },
    /// Fused hopper's line + epilogue + match (see [`Program::hops`]).
    Hop {
        hop: u16,
        priority: u8,
    },
    /// The path ends here.
    Fail,
    /// An instruction of ZRF move blocks (`notation::zrf`).
    Zrf(ZrfOp),
}

/// The instructions ZRF move blocks need beyond the notation's, run by
/// `movegen::vm::zrf` outside the interpreter's main loop. Jump targets
/// are indices into [`Program::targets`], so that an instruction stays as
/// small as the notation's (8 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZrfOp {
    /// Jump to target `target` unless condition `cond` of
    /// [`Program::conds`] holds.
    Unless { cond: u16, target: u16 },
    /// The path fails unless condition `cond` holds.
    Verify(u16),
    /// A jump back to the head of a loop (target `n`, counted against the
    /// budget).
    Loop(u16),
    /// Remember the cursor in register `r` (0: ZRF's mark, 1: its `to`).
    Mark(u8),
    /// Move the cursor to register `r`; fails if it is not set.
    Back(u8),
    /// Move the cursor to this square.
    Goto(Square),
    /// Move the cursor to where the moving piece started.
    GoFrom,
    /// Move the cursor to the start (or the end) of the last move.
    GoLast { end: bool },
    /// The piece in the hand becomes a piece of this type.
    Promote(u16),
    /// Change the piece on the cursor's square.
    Change(ZrfChange),
    /// Set a flag of the path to the value of condition `value` of
    /// [`Program::conds`] (`true`, `false` or any condition).
    SetFlag { flag: u8, value: u16 },
    /// Set a flag of the cursor's square, for this path, to the value of
    /// condition `value` (ZRF's position flags).
    SetPositionFlag { flag: u8, value: u16 },
    /// `add-copy`: a copy of the piece in hand stays on the square the
    /// move started from; fails if that square is taken or the hand empty.
    LeaveCopy,
    /// Set attribute `attr` of the moving piece (the piece in the hand) to
    /// the value of condition `value`; fails with an empty hand.
    SetAttribute { attr: u8, value: u16 },
    /// The pieces this path captured leave the board (the end of a part
    /// of a ZRF move).
    Settle,
    /// ZRF's `cascade` with no `to`: the moving piece lands on the cursor's
    /// square and the piece there becomes the moving piece; fails on an
    /// empty square.
    Swap,
    /// A part of a ZRF move ends with the piece on the cursor: the path
    /// fails if the board is as it was at an earlier stop of this move (the
    /// piece back on a square it stopped on, with no change since), so
    /// that partial moves cannot go round in circles.
    Stop,
    /// One part of the move ended: a choice between going on (the next
    /// instruction) and ending the move at `exit`, where the move ends
    /// only if going on records no move.
    Partial { exit: u16 },
    /// The start of a move of this move type (an index of
    /// `Game::move_types`, or [`UNTYPED`]): the path fails in a turn
    /// restricted to another type (`Turn::move_type`).
    MoveType(u16),
}

/// The [`ZrfOp::MoveType`] of moves without a move type (notation moves,
/// ZRF blocks without `type`): they fail in every restricted turn.
pub const UNTYPED: u16 = u16::MAX;

/// What [`ZrfOp::Change`] does to the piece on the cursor's square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZrfChange {
    /// The piece there is captured: marked, and gone when the part of
    /// the move ends (nothing happens on an empty square).
    Capture,
    /// It changes sides (two players: to the other one).
    Flip,
    /// It becomes the moving player's.
    Owner,
    /// It becomes a piece of this type, of the same owner.
    Type(u16),
    /// A piece of this type of the moving player is put there.
    Create(u16),
}

/// A condition of a ZRF block, asked without changing anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cond {
    True,
    Test(Test),
    IsType(u16),
    InZone(u16),
    /// The square holds a neutral piece.
    Neutral,
    /// The square is the one in register 0 (ZRF's `marked?`).
    Marked,
    /// The cursor is on this square.
    At(Square),
    Flag(u8),
    /// A position flag of the square (ZRF's `position-flag?`).
    PositionFlag(u8),
    /// The piece on the square has attribute `n` set (`Game::attributes`).
    Attribute(u8),
    /// The condition one step away; false where there is no link.
    Step(Dir, Box<Cond>),
    /// The condition on another square.
    Square(Square, Box<Cond>),
    /// The condition on the square of a register; false if it is unset.
    Register(u8, Box<Cond>),
    /// The condition on the square the move started from; false in a drop.
    From(Box<Cond>),
    Not(Box<Cond>),
    And(Vec<Cond>),
    Or(Vec<Cond>),
}

/// A walk's first leg with this list tests the moving piece (in the hand)
/// instead of stepping: bits [`WALK_NOT_MOVED`] and [`WALK_MOVED`].
pub const WALK_HAND: u16 = u16::MAX;
pub const WALK_NOT_MOVED: u8 = 1;
pub const WALK_MOVED: u8 = 2;

/// Content tests a [`Op::Walk`] leg can make on the square it reaches, in
/// bit order.
pub const WALK_TESTS: [Test; 6] = [
    Test::Empty,
    Test::NotEmpty,
    Test::Enemy,
    Test::NotEnemy,
    Test::Friend,
    Test::NotFriend,
];

/// The bits of [`WALK_TESTS`] an empty square passes (p E F).
pub const EMPTY_PASSES: u8 = 0b10_1001;

/// The paths of one walk from every square: for each path, the squares
/// its stepping legs reach that carry tests (a leg that tests the piece in
/// the hand reaches none), in the order the legs' directions are tried.
/// The last square of a path is where the piece lands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WalkPaths {
    /// Squares kept per path.
    pub legs: usize,
    /// The content tests (bits of [`WALK_TESTS`]) of each kept square.
    pub tests: Vec<u8>,
    /// Per square, where its paths start in `squares` (one more entry than
    /// squares).
    pub starts: Vec<u32>,
    pub squares: Vec<Square>,
}

impl WalkPaths {
    /// Entries a table may hold before the walk is left to step the board.
    pub const LIMIT: usize = 1 << 18;

    /// The paths from `sq`, each `legs` squares long.
    #[inline]
    pub fn from(&self, sq: Square) -> std::slice::ChunksExact<'_, Square> {
        self.squares_from(sq).chunks_exact(self.legs.max(1))
    }

    /// The squares of the paths from `sq`, one path after the other.
    #[inline]
    pub fn squares_from(&self, sq: Square) -> &[Square] {
        let (a, b) = (self.starts[sq.index()], self.starts[sq.index() + 1]);
        &self.squares[a as usize..b as usize]
    }
}

/// A guard's ways ([`Program::guard_paths`]) from every square, resolved
/// on the board: for each way, the squares it reads, the content tests
/// (bits of [`WALK_TESTS`]) each must pass and the type it must hold, if
/// the way tests one. What the ways read of the
/// start square (empty once the piece is lifted) and of squares they
/// captured on (taken to succeed) is decided here, not at each node;
/// ways that step off the board or fail on the start square are left
/// out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GuardTable {
    /// Per square, where its ways start in `tests` (one more entry than
    /// squares).
    pub starts: Vec<u32>,
    /// The ways, one after the other, each ending with an entry whose
    /// `last` is set.
    pub tests: Vec<GuardTest>,
}

/// One square a guard's way reads ([`GuardTable`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GuardTest {
    pub square: Square,
    /// Bits of [`WALK_TESTS`] the square must all pass (none: the way
    /// passes, whatever stands there).
    pub tests: u8,
    /// The square must hold a piece of this type ([`NO_TYPE`]: any
    /// content that passes `tests`).
    pub piece: u16,
    /// The last square of its way.
    pub last: bool,
}

impl GuardTable {
    /// The ways from `sq`.
    #[inline]
    pub fn from(&self, sq: Square) -> &[GuardTest] {
        let (a, b) = (self.starts[sq.index()], self.starts[sq.index() + 1]);
        &self.tests[a as usize..b as usize]
    }

    /// The table of `ways` on `topology`; `None` if a way reads more than
    /// steps, content and type tests, saved squares and captures.
    pub fn new(ways: &[Vec<Op>], topology: &Topology) -> Option<GuardTable> {
        let mut table = GuardTable::default();
        let mut way = Vec::new();
        for start in topology.squares() {
            table.starts.push(table.tests.len() as u32);
            for ops in ways {
                if resolve_way(ops, topology, start, &mut way)? {
                    let n = way.len();
                    way[n - 1].last = true;
                    table.tests.append(&mut way);
                }
                way.clear();
            }
        }
        table.starts.push(table.tests.len() as u32);
        Some(table)
    }

    /// A necessary condition of a straight guard (`Program::guard`): its
    /// steps, content tests and type tests worked out from every square,
    /// its other tests (attacks, the last move, whether the piece has
    /// moved, zones) left out, so that those run only where the table
    /// passes. Also says whether nothing was left out (then the table
    /// is the guard). `None` if the table would test nothing.
    pub fn prefilter(guard: &[Op], topology: &Topology) -> Option<(GuardTable, bool)> {
        let is_content = |t: &Test| WALK_TESTS.contains(t);
        let kept: Vec<Op> = guard
            .iter()
            .copied()
            .filter(|op| match op {
                Op::Test(t) => is_content(t),
                _ => matches!(op, Op::Step(_) | Op::IsType(_) | Op::NavPush | Op::NavPop),
            })
            .collect();
        let reads = |op: &Op| matches!(op, Op::Test(_) | Op::IsType(_) | Op::Step(_));
        if !kept.iter().any(reads) {
            return None;
        }
        let exact = kept.len() == guard.len();
        Some((GuardTable::new(&[kept], topology)?, exact))
    }
}

/// The squares and tests of one way of a guard from `start`, into `out`
/// (at least one entry): `Some(false)` if the way cannot pass from there,
/// `None` if it reads something other than the board's contents.
fn resolve_way(
    ops: &[Op],
    topology: &Topology,
    start: Square,
    out: &mut Vec<GuardTest>,
) -> Option<bool> {
    let mut cursor = start;
    let mut saved = Vec::new();
    let mut taken = Vec::new();
    for &op in ops {
        match op {
            Op::Step(d) => match topology.step(cursor, d) {
                Some(next) => cursor = next,
                None => return Some(false),
            },
            Op::NavPush => saved.push(cursor),
            Op::NavPop => cursor = saved.pop().unwrap_or(cursor),
            Op::Capture => taken.push(cursor),
            // After a capture, attacks are not read (as in the ways).
            Op::Test(Test::Attacked | Test::NotAttacked | Test::Protected | Test::NotProtected)
                if !taken.is_empty() => {}
            Op::Test(t) => {
                let bit = 1u8 << WALK_TESTS.iter().position(|w| *w == t)?;
                if taken.contains(&cursor) {
                    continue;
                }
                if cursor == start {
                    // The piece's own square is empty once it is lifted.
                    if bit & EMPTY_PASSES == 0 {
                        return Some(false);
                    }
                    continue;
                }
                match out.last_mut() {
                    Some(last) if last.square == cursor => last.tests |= bit,
                    _ => out.push(GuardTest {
                        square: cursor,
                        tests: bit,
                        piece: NO_TYPE,
                        last: false,
                    }),
                }
            }
            Op::IsType(t) => {
                if taken.contains(&cursor) {
                    continue;
                }
                if cursor == start {
                    // An empty square holds no type.
                    return Some(false);
                }
                match out.last_mut() {
                    Some(last) if last.square == cursor && last.piece == NO_TYPE => last.piece = t,
                    Some(last) if last.square == cursor && last.piece != t => return Some(false),
                    Some(last) if last.square == cursor => {}
                    _ => out.push(GuardTest {
                        square: cursor,
                        tests: 0,
                        piece: t,
                        last: false,
                    }),
                }
            }
            _ => return None,
        }
    }
    if out.is_empty() {
        // Nothing left to read: the way passes from here.
        out.push(GuardTest {
            square: start,
            tests: 0,
            piece: NO_TYPE,
            last: false,
        });
    }
    Some(true)
}

/// A hopper's line (a cannon's), `(d)([p]\1)*[S]\1([p]\1)*[L]`: over
/// empty squares to the first piece, which must pass the screen test
/// `S`, then beyond it either every empty square (`L` is `p`) or the
/// first piece, if it is an enemy that passes the landing test (`L` is
/// `e`, with a square test or not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hop {
    /// The directions, an index into [`Program::dir_lists`].
    pub list: u16,
    /// The screen is not of this type ([`NO_TYPE`]: any piece is).
    pub screen_not: u16,
    /// The hop captures the first piece beyond the screen, instead of
    /// landing on each empty square.
    pub captures: bool,
    /// The piece taken is not of this type ([`NO_TYPE`]: any enemy is).
    pub victim_not: u16,
}

/// No type excluded ([`Hop`]).
pub const NO_TYPE: u16 = u16::MAX;

impl Op {
    /// A fused instruction: computes its alternative's moves directly
    /// (`Ride`, `Walk`, `Hop`).
    pub fn is_fused(&self) -> bool {
        matches!(self, Op::Ride { .. } | Op::Walk { .. } | Op::Hop { .. })
    }
}

/// A compiled piece program for one player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    pub ops: Vec<Op>,
    /// Direction lists referenced by `StepAny` and `Bind`.
    pub dir_lists: Vec<Vec<Dir>>,
    /// Walks of `Op::Walk`: legs of (direction list, tests bit set).
    pub walks: Vec<Vec<(u16, u8)>>,
    /// Per walk, its paths from every square worked out in advance (none
    /// where the table would be large): the kernel reads them instead of
    /// stepping through the board's links.
    pub walk_paths: Vec<Option<WalkPaths>>,
    /// The hoppers' lines of `Op::Hop`.
    pub hops: Vec<Hop>,
    /// Number of `Iter` slots.
    pub slots: u16,
    /// The program reads `r`/`R`, so the interpreter keeps a visited set.
    pub uses_visited: bool,
    /// The program has ZRF blocks: the interpreter resets their registers,
    /// flags and stops for each run. Only such a program checks the move
    /// type of a restricted turn ([`ZrfOp::MoveType`]); any other has no
    /// move in such a turn.
    pub zrf: bool,
    /// The program reads `a A s S`.
    pub uses_attacks: bool,
    /// Every alternative is a fused instruction and no two of them (nor two
    /// paths of one) can reach the same square: the moves need no
    /// deduplication.
    pub unique_targets: bool,
    /// The fused instructions all belong to leading alternatives, and no
    /// two of them (nor two paths of one) can reach the same square: their
    /// moves need no deduplication. The alternatives after them run later
    /// and look for duplicates among all the moves of the piece.
    pub kernel_unique: bool,
    /// Generation from the board runs the kernel and the programs of
    /// `rest` instead of `ops` (attack detection runs `ops`).
    pub split: bool,
    /// The fused instructions (`Ride`, `Walk`) of the leading alternatives
    /// that fused: generation computes their moves directly, without the
    /// interpreter.
    pub kernel: Vec<Op>,
    /// The alternatives after the kernel, each a program of its own, in
    /// order.
    pub rest: Vec<Program>,
    /// The number of instructions after the prologue that only step and
    /// test (no choice, no effect): the guard that can rule the program
    /// out before the interpreter starts.
    pub guard: u32,
    /// Where there is no such guard: the ways through the instructions
    /// the program begins with (from `guard_at`), each a straight list of
    /// steps, content tests, saved squares and captures
    /// ([`Program::guard_paths`], a draughts capture's first jump in each
    /// direction). Generation runs the program only where one of them
    /// passes; `None`: no guard of this kind.
    pub guard_paths: Option<Vec<Vec<Op>>>,
    /// The ways of `guard_paths` worked out from every square, where
    /// they only step and make content and type tests ([`GuardTable`]): read
    /// instead of following the ways' instructions. For a straight
    /// guard, its steps, content and type tests worked out so
    /// ([`GuardTable::prefilter`]): read first, the guard's instructions
    /// followed only where it passes and `guard_exact` is false.
    pub guard_table: Option<GuardTable>,
    /// `guard_table` is all of the straight guard (it left no test out).
    pub guard_exact: bool,
    /// Where the guard's instructions start (after the prologue and a
    pub guard_at: u32,
    /// Jump targets of ZRF instructions ([`ZrfOp::Unless`],
    /// [`ZrfOp::Loop`], [`ZrfOp::Partial`]).
    pub targets: Vec<u32>,
    /// Conditions of ZRF blocks ([`ZrfOp::Unless`], [`ZrfOp::Verify`]).
    pub conds: Vec<Cond>,
    /// The program has [`ZrfOp::Partial`] instructions.
    pub partial: bool,
}
/// The most ways a guard follows, and the most instructions on one.
const GUARD_PATHS: usize = 16;
const GUARD_LENGTH: usize = 24;

impl Program {
    /// Whether generation can rule the program out by its guard.
    pub fn has_guard(&self) -> bool {
        self.guard > 0 || self.guard_paths.is_some()
    }

    /// The ways through the instructions from `guard_at` on, each up to
    /// the first instruction that is not a step, a content test, a choice
    /// of direction (one way per direction), a fork (one way per branch),
    /// a saved square or a capture: each way as a straight list of steps
    /// (a bound direction resolved), tests, saved squares and captures.
    /// A way that cannot pass (a step by a direction not yet bound) is
    /// left out. `None` if some way has nothing that can fail (the guard
    /// would always pass), or the ways are too many or too long.
    pub fn guard_paths(&self) -> Option<Vec<Vec<Op>>> {
        let mut paths = Vec::new();
        let way = Way {
            pc: self.guard_at as usize,
            ops: Vec::new(),
            vars: [u8::MAX; 10],
            can_fail: false,
        };
        self.follow(way, &mut paths)?;
        Some(paths)
    }

    /// Follows one way (see [`Program::guard_paths`]) and its branches;
    /// `None` as there.
    fn follow(&self, mut way: Way, paths: &mut Vec<Vec<Op>>) -> Option<()> {
        loop {
            if way.ops.len() > GUARD_LENGTH {
                return None;
            }
            let op = self.ops.get(way.pc).copied();
            match op {
                Some(Op::Test(Test::Visited | Test::NotVisited)) | None => return way.end(paths),
                Some(op @ (Op::Step(_) | Op::Test(_) | Op::IsType(_) | Op::InZone(_))) => {
                    way.ops.push(op);
                    way.can_fail = true;
                }
                Some(op @ (Op::NavPush | Op::NavPop | Op::Capture)) => way.ops.push(op),
                Some(Op::StepVar { var, back }) => {
                    let d = *way.vars.get(var as usize)?;
                    if d == u8::MAX {
                        // Unbound: this way fails here.
                        return Some(());
                    }
                    if back {
                        // The way back is the board's to say: the guard
                        // ends here.
                        return way.end(paths);
                    }
                    way.ops.push(Op::Step(Dir(d)));
                    way.can_fail = true;
                }
                Some(Op::StepAny(list) | Op::Bind { list, .. }) => {
                    for &d in self.dir_lists.get(list as usize)? {
                        let mut branch = way.clone();
                        if let Some(Op::Bind { var, .. }) = op {
                            *branch.vars.get_mut(var as usize)? = d.0;
                        }
                        branch.ops.push(Op::Step(d));
                        branch.can_fail = true;
                        branch.pc += 1;
                        self.follow(branch, paths)?;
                    }
                    return Some(());
                }
                Some(Op::Fork(target)) => {
                    let mut other = way.clone();
                    other.pc = target as usize;
                    way.pc += 1;
                    self.follow(way, paths)?;
                    return self.follow(other, paths);
                }
                Some(_) => return way.end(paths),
            }
            way.pc += 1;
        }
    }
}

/// One way through a guard being followed ([`Program::follow`]).
#[derive(Clone)]
struct Way {
    pc: usize,
    ops: Vec<Op>,
    /// The direction bound to each variable, or `u8::MAX`.
    vars: [u8; 10],
    /// Something on the way can fail.
    can_fail: bool,
}

impl Way {
    /// The way ends here: kept, unless nothing on it can fail.
    fn end(self, paths: &mut Vec<Vec<Op>>) -> Option<()> {
        if !self.can_fail || paths.len() >= GUARD_PATHS {
            return None;
        }
        paths.push(self.ops);
        Some(())
    }
}

#[cfg(test)]
mod tests {
    /// The interpreter's instructions stay small: the ZRF ones too.
    #[test]
    fn an_instruction_is_eight_bytes() {
        assert_eq!(std::mem::size_of::<super::Op>(), 8);
    }
}
