//! Move blocks in the language of Zillions of Games (ZRF), compiled into
//! the same [`Program`] instructions as the notation. A game file gives
//! them as `{ zrf = "(…)" }` items of a piece's `moves` or `drops`
//! (`docs/zrf.md`); the ZRF importer writes every block so.
//!
//! A block is a list of instructions run in order from the piece's square:
//! a direction name steps (the path ends when there is no link), a square
//! name jumps there, `(verify c)` ends the path when `c` is false, `if`,
//! `while`, `mark`/`back`, `capture`, `flip`, `change-type`, `create`,
//! `set-flag`, `to` and `cascade` work as Zillions defines them. `add`
//! records a move (the piece lands on the cursor, or on the `to` square)
//! and the block goes on; `(add T …)` records one per type the piece turns
//! into. `add-partial` ends one part of the move: the same piece moves on
//! with the blocks of the given move type, and must while it can (unless
//! the game passes partial moves).
//!
//! Differences from Zillions are documented in `docs/zrf.md`: the moving
//! piece is lifted when the block starts (its square reads empty), a part
//! of a move may not repeat an earlier stop of the same move.

use std::collections::HashMap;

use super::compile::CompileContext;
use super::program::{Cond, Op, Program, Test, UNTYPED, ZrfChange, ZrfOp};
use super::sexpr::{Sexp, SexpKind};
use super::{ErrorKind, NotationError};
use crate::board::{Dir, DirMap};

/// Register numbers of [`ZrfOp::Mark`] and [`ZrfOp::Back`].
pub const MARK: u8 = 0;
pub const TO: u8 = 1;
const HERE: u8 = 2;
/// Most flags a piece's blocks may name.
const MAX_FLAGS: usize = 32;

/// One ZRF move block of a piece, parsed.
#[derive(Clone, Debug)]
pub struct ZrfBlock {
    pub block: Sexp,
    /// The block's move type (`move-type` in ZRF), if any.
    pub move_type: Option<String>,
    pub priority: u8,
    /// The block starts moves; false for blocks of a move type that
    /// only continues partial moves (one `move-priorities` leaves out).
    pub first: bool,
    /// Moves of the block's partial parts go on only while the player
    /// wants (ZRF's "pass partial"): continuing is not compulsory.
    pub pass_partial: bool,
    /// Pieces captured stay on the board, marked, until the whole move
    /// ends (Dagaz's "deferred captures"), not just until its part ends.
    pub deferred_captures: bool,
}

/// Compiles a piece's ZRF blocks (for one player) into `prog`: each block
/// behind a fork, then the entries where partial moves go on.
pub struct ZrfCompiler<'a, 'b> {
    ctx: &'a CompileContext<'b>,
    map: &'a DirMap,
    prog: &'a mut Program,
    flags: HashMap<String, u8>,
    /// Names of the position flags (a namespace of their own).
    position_flags: HashMap<String, u8>,
    /// Jumps to the continuation entry of a (piece it became, move type,
    /// priority), to patch.
    continuations: Vec<(usize, Continuation)>,
    /// Every piece's move blocks, by piece type: a piece that turns into
    /// another in the middle of a move goes on with the other's blocks.
    pieces: &'a [Vec<ZrfBlock>],
    /// The piece whose blocks are being compiled, if not the program's
    /// own (a continuation as the piece it turned into).
    current: Option<u16>,
    /// The priority of the moves the block being compiled records.
    priority: u8,
    /// A `to` is in effect at this point of the block.
    to_set: bool,
}

/// Where a partial move goes on: as the piece it turned into (`None`: the
/// same piece), with the blocks of a move type (`None`: any), at the
/// priority of the block that started the move.
type Continuation = (Option<u16>, Option<String>, u8);

fn err(span: &std::ops::Range<usize>, message: impl Into<String>) -> NotationError {
    NotationError::new(ErrorKind::Syntax, span.clone(), message, None)
}

impl<'a, 'b> ZrfCompiler<'a, 'b> {
    pub fn new(ctx: &'a CompileContext<'b>, map: &'a DirMap, prog: &'a mut Program) -> Self {
        ZrfCompiler {
            ctx,
            map,
            prog,
            flags: HashMap::new(),
            position_flags: HashMap::new(),
            continuations: Vec::new(),
            pieces: &[],
            current: None,
            priority: 0,
            to_set: false,
        }
    }

    /// Every piece's move blocks, by piece type, for moves that go on as
    /// another piece (`(add-partial King jump-type)`).
    pub fn with_pieces(mut self, pieces: &'a [Vec<ZrfBlock>]) -> Self {
        self.pieces = pieces;
        self
    }

    fn emit(&mut self, op: Op) -> usize {
        self.prog.ops.push(op);
        self.prog.ops.len() - 1
    }

    fn zrf(&mut self, op: ZrfOp) -> usize {
        self.emit(Op::Zrf(op))
    }

    fn pc(&self) -> u32 {
        self.prog.ops.len() as u32
    }

    fn patch(&mut self, at: usize, to: u32) {
        match &mut self.prog.ops[at] {
            Op::Fork(t) | Op::Jump(t) => *t = to,
            Op::Zrf(
                ZrfOp::Loop(i) | ZrfOp::Unless { target: i, .. } | ZrfOp::Partial { exit: i },
            ) => self.prog.targets[*i as usize] = to,
            _ => {}
        }
    }

    /// A new jump target (patched later when `to` is 0).
    fn target(&mut self, to: u32, span: &std::ops::Range<usize>) -> Result<u16, NotationError> {
        let i = u16::try_from(self.prog.targets.len())
            .map_err(|_| err(span, "the piece's blocks need more than 65 536 jumps"))?;
        self.prog.targets.push(to);
        Ok(i)
    }

    /// Compiles every block: the blocks that start a move, each an
    /// alternative behind a fork, then, for each move type that an
    /// `add-partial` names, the blocks of that type again as the entry
    /// where the move goes on. A move keeps the priority of the block
    /// that started it, so continuation entries are compiled once per
    /// (move type, priority).
    pub fn blocks(&mut self, blocks: &[ZrfBlock]) -> Result<(), NotationError> {
        self.prog.zrf = true;
        let firsts: Vec<&ZrfBlock> = blocks.iter().filter(|b| b.first).collect();
        self.fork_chain(&firsts, None)?;
        let mut entries: Vec<(Continuation, u32)> = Vec::new();
        while let Some((at, key)) = self.continuations.pop() {
            let entry = match entries.iter().find(|(k, _)| *k == key) {
                Some((_, e)) => *e,
                None => {
                    let e = self.pc();
                    entries.push((key.clone(), e));
                    let (piece, ty, prio) = &key;
                    let own = piece.and_then(|t| self.pieces.get(t as usize));
                    let chosen: Vec<&ZrfBlock> = own
                        .map_or(blocks, Vec::as_slice)
                        .iter()
                        .filter(|b| ty.is_none() || b.move_type == *ty)
                        .collect();
                    self.current = *piece;
                    self.fork_chain(&chosen, Some(*prio))?;
                    e
                }
            };
            self.patch(at, entry);
        }
        self.prog.uses_attacks |= self.prog.conds.iter().any(cond_uses_attacks);
        Ok(())
    }

    /// The blocks as alternatives, each behind a fork; with `priority`,
    /// at that priority instead of their own.
    fn fork_chain(
        &mut self,
        blocks: &[&ZrfBlock],
        priority: Option<u8>,
    ) -> Result<(), NotationError> {
        for (i, b) in blocks.iter().enumerate() {
            let fork = (i + 1 < blocks.len()).then(|| self.emit(Op::Fork(0)));
            self.to_set = false;
            self.priority = priority.unwrap_or(b.priority);
            // A move's type is its first block's: a partial move goes on
            // with the blocks its `add-partial` names, whatever the turn.
            if priority.is_none() {
                let ty = self.move_type(b)?;
                self.zrf(ZrfOp::MoveType(ty));
            }
            // The mark starts on the square the block starts from.
            self.zrf(ZrfOp::Mark(MARK));
            // A block is a list of instructions, whatever its first word.
            match b.block.list() {
                Some(items) => {
                    for item in items {
                        self.instruction(item, b)?;
                    }
                }
                None => self.instruction(&b.block, b)?,
            }
            self.emit(Op::Fail);
            if let Some(f) = fork {
                let here = self.pc();
                self.patch(f, here);
            }
        }
        if blocks.is_empty() {
            self.emit(Op::Fail);
        }
        Ok(())
    }

    /// The index of a block's move type in the game's table, or
    /// [`UNTYPED`].
    fn move_type(&self, b: &ZrfBlock) -> Result<u16, NotationError> {
        let Some(name) = &b.move_type else {
            return Ok(UNTYPED);
        };
        self.ctx
            .move_types
            .iter()
            .position(|m| m == name)
            .and_then(|i| u16::try_from(i).ok())
            .filter(|&i| i != UNTYPED)
            .ok_or_else(|| {
                err(
                    &b.block.span,
                    format!("move type '{name}' is not the game's"),
                )
            })
    }

    /// A list of instructions (a block, or a group a macro left).
    fn sequence(&mut self, s: &Sexp, b: &ZrfBlock) -> Result<(), NotationError> {
        match &s.kind {
            SexpKind::List(items) => {
                for item in items {
                    self.instruction(item, b)?;
                }
                Ok(())
            }
            _ => Err(err(&s.span, "an instruction or a list of them")),
        }
    }

    fn instruction(&mut self, s: &Sexp, b: &ZrfBlock) -> Result<(), NotationError> {
        if let Some(word) = s.atom() {
            return self.word(word, s, b);
        }
        if let SexpKind::Str(_) = s.kind {
            return Err(err(&s.span, "a string is not an instruction"));
        }
        let Some((head, args)) = s.head() else {
            return self.sequence(s, b);
        };
        match head.as_str() {
            "verify" => {
                let c = self.cond_arg(s, args)?;
                self.zrf(ZrfOp::Verify(c));
            }
            "if" => self.branch(s, args, b)?,
            "while" => {
                let Some((c, body)) = args.split_first() else {
                    return Err(err(&s.span, "while needs a condition"));
                };
                let head = self.pc();
                let c = self.cond(c)?;
                let target = self.target(0, &s.span)?;
                let test = self.zrf(ZrfOp::Unless { cond: c, target });
                for item in body {
                    self.instruction(item, b)?;
                }
                let back = self.target(head, &s.span)?;
                self.zrf(ZrfOp::Loop(back));
                let end = self.pc();
                self.patch(test, end);
            }
            "add" | "add-copy" => self.add(s, args, false, b)?,
            "add-partial" | "add-copy-partial" => self.add(s, args, true, b)?,
            "capture" | "flip" | "change-owner" | "mark" => {
                self.at_position(s, args, |c| {
                    c.zrf(match head.as_str() {
                        "capture" => ZrfOp::Change(ZrfChange::Capture),
                        "flip" => ZrfOp::Change(ZrfChange::Flip),
                        "change-owner" => ZrfOp::Change(ZrfChange::Owner),
                        _ => ZrfOp::Mark(MARK),
                    });
                })?;
            }
            "change-type" | "create" => {
                let (piece, rest) = self.piece_arg(s, args)?;
                let change = if head == "create" {
                    ZrfChange::Create(piece)
                } else {
                    ZrfChange::Type(piece)
                };
                self.at_position(s, rest, |c| {
                    c.zrf(ZrfOp::Change(change));
                })?;
            }
            "set-flag" => {
                let [name, value] = args else {
                    return Err(err(
                        &s.span,
                        "set-flag takes a flag name and a value (true, false or a condition)",
                    ));
                };
                let flag = self.flag(name)?;
                let value = self.cond(value)?;
                self.zrf(ZrfOp::SetFlag { flag, value });
            }
            "set-position-flag" => {
                let (name, value, at) = match args {
                    [name, value] => (name, value, &args[2..]),
                    [name, value, at @ ..] => (name, value, at),
                    _ => {
                        return Err(err(
                            &s.span,
                            "set-position-flag takes a flag name, a value and perhaps a position",
                        ));
                    }
                };
                let flag = self.position_flag(name)?;
                let value = self.cond(value)?;
                self.at_position(s, at, |c| {
                    c.zrf(ZrfOp::SetPositionFlag { flag, value });
                })?;
            }
            "set-attribute" => {
                let [name, value] = args else {
                    return Err(err(
                        &s.span,
                        "set-attribute takes an attribute name and a value (true, false or a condition)",
                    ));
                };
                let attr = self.attribute(name.atom().unwrap_or("")).ok_or_else(|| {
                    err(
                        &name.span,
                        "no piece of the game has this attribute (`attribute` in a piece)",
                    )
                })?;
                let value = self.cond(value)?;
                self.zrf(ZrfOp::SetAttribute { attr, value });
            }
            "go" => {
                let [to] = args else {
                    return Err(err(
                        &s.span,
                        "go takes one place: from, to, mark, last-from or last-to",
                    ));
                };
                self.go(to)?;
            }
            "back" if args.is_empty() => {
                self.zrf(ZrfOp::Back(MARK));
            }
            "opposite" => {
                let d = self.opposite(s, args)?;
                self.emit(Op::Step(d));
            }
            "to" if args.is_empty() => self.word("to", s, b)?,
            "cascade" if args.is_empty() => self.word("cascade", s, b)?,
            // A group of instructions that starts with a word, as macros
            // leave them: `(n add)`.
            other
                if self.direction(other).is_some() || self.ctx.topology.square(other).is_some() =>
            {
                self.sequence(s, b)?
            }
            other => {
                return Err(err(
                    &s.span,
                    format!("'{other}' is not a ZRF instruction this system runs"),
                ));
            }
        }
        Ok(())
    }

    /// An instruction written as a single word.
    fn word(&mut self, word: &str, s: &Sexp, b: &ZrfBlock) -> Result<(), NotationError> {
        match word.to_ascii_lowercase().as_str() {
            "add" | "add-copy" => return self.add(s, &[], false, b),
            "add-partial" | "add-copy-partial" => return self.add(s, &[], true, b),
            "capture" => {
                self.zrf(ZrfOp::Change(ZrfChange::Capture));
            }
            "flip" => {
                self.zrf(ZrfOp::Change(ZrfChange::Flip));
            }
            "change-owner" => {
                self.zrf(ZrfOp::Change(ZrfChange::Owner));
            }
            "mark" => {
                self.zrf(ZrfOp::Mark(MARK));
            }
            "back" => {
                self.zrf(ZrfOp::Back(MARK));
            }
            "to" => {
                self.zrf(ZrfOp::Mark(TO));
                self.to_set = true;
            }
            "from" => {
                self.zrf(ZrfOp::GoFrom);
            }
            // The piece in hand lands on the `to` square, or here; the
            // piece here is the one that moves on.
            "cascade" if self.to_set => {
                self.zrf(ZrfOp::Mark(HERE));
                self.zrf(ZrfOp::Back(TO));
                self.emit(Op::Drop);
                self.zrf(ZrfOp::Back(HERE));
                self.emit(Op::Take);
                self.to_set = false;
            }
            "cascade" => {
                self.zrf(ZrfOp::Swap);
            }
            _ => {
                if let Some(d) = self.direction(word) {
                    self.emit(Op::Step(d));
                } else if let Some(sq) = self.ctx.topology.square(word) {
                    self.zrf(ZrfOp::Goto(sq));
                } else {
                    return Err(err(
                        &s.span,
                        format!("'{word}' is neither an instruction, a direction nor a square"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// `add`, `(add T …)`, `add-partial`, `(add-partial type)`, and the
    /// `add-copy` forms, which leave a copy of the piece where it started.
    fn add(
        &mut self,
        s: &Sexp,
        args: &[Sexp],
        partial: bool,
        b: &ZrfBlock,
    ) -> Result<(), NotationError> {
        let mut types = Vec::new();
        let mut move_type = b.move_type.clone();
        // `(add-partial King jump-type)`: the piece turns into a King and
        // the move goes on with the blocks of jump-type; a name that is
        // no piece's is the move type.
        for a in args {
            let Some(name) = a.atom() else {
                return Err(err(&a.span, "add takes piece names"));
            };
            if partial && !self.ctx.pieces.iter().any(|p| p == name) {
                move_type = Some(name.to_string());
            } else {
                types.push(self.piece(a)?);
            }
        }
        let choices: Vec<Option<u16>> = if types.is_empty() {
            vec![None]
        } else {
            types.into_iter().map(Some).collect()
        };
        let word = s
            .atom()
            .map(str::to_ascii_lowercase)
            .or_else(|| s.head().map(|(h, _)| h))
            .unwrap_or_default();
        let copy = word.starts_with("add-copy");
        let skip = self.emit(Op::Fork(0));
        for (k, ty) in choices.iter().enumerate() {
            let next = (k + 1 < choices.len()).then(|| self.emit(Op::Fork(0)));
            if copy {
                self.zrf(ZrfOp::LeaveCopy);
            }
            if self.to_set {
                self.zrf(ZrfOp::Back(TO));
            }
            if let Some(t) = ty {
                self.zrf(ZrfOp::Promote(*t));
            }
            self.emit(Op::Drop);
            if partial {
                self.zrf(ZrfOp::Stop);
                if !b.deferred_captures {
                    self.zrf(ZrfOp::Settle);
                }
                let stop = if b.pass_partial {
                    self.emit(Op::Fork(0))
                } else {
                    self.prog.partial = true;
                    let exit = self.target(0, &s.span)?;
                    self.zrf(ZrfOp::Partial { exit })
                };
                self.emit(Op::Take);
                let jump = self.emit(Op::Jump(0));
                self.continuations.push((
                    jump,
                    (ty.or(self.current), move_type.clone(), self.priority),
                ));
                let here = self.pc();
                self.patch(stop, here);
            }
            self.emit(Op::Match {
                priority: self.priority,
            });
            if let Some(n) = next {
                let here = self.pc();
                self.patch(n, here);
            }
        }
        let here = self.pc();
        self.patch(skip, here);
        Ok(())
    }

    /// `(if c then… [else else…])`.
    fn branch(&mut self, s: &Sexp, args: &[Sexp], b: &ZrfBlock) -> Result<(), NotationError> {
        let Some((c, rest)) = args.split_first() else {
            return Err(err(&s.span, "if needs a condition"));
        };
        let c = self.cond(c)?;
        let split = rest.iter().position(|x| x.is("else"));
        let (then, otherwise) = match split {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        let target = self.target(0, &s.span)?;
        let test = self.zrf(ZrfOp::Unless { cond: c, target });
        let to_before = self.to_set;
        for item in then {
            self.instruction(item, b)?;
        }
        let to_then = self.to_set;
        self.to_set = to_before;
        if otherwise.is_empty() {
            let end = self.pc();
            self.patch(test, end);
        } else {
            let skip = self.emit(Op::Jump(0));
            let at = self.pc();
            self.patch(test, at);
            for item in otherwise {
                self.instruction(item, b)?;
            }
            let end = self.pc();
            self.patch(skip, end);
        }
        self.to_set |= to_then;
        Ok(())
    }

    /// Runs `inner` at the position named by `args` (none: the cursor),
    /// then comes back.
    fn at_position(
        &mut self,
        s: &Sexp,
        args: &[Sexp],
        inner: impl FnOnce(&mut Self),
    ) -> Result<(), NotationError> {
        match args {
            [] => inner(self),
            [pos] => {
                self.zrf(ZrfOp::Mark(HERE));
                self.go(pos)?;
                inner(self);
                self.zrf(ZrfOp::Back(HERE));
            }
            _ => return Err(err(&s.span, "one position at most")),
        }
        Ok(())
    }

    /// Moves the cursor to a position: a direction, a square, `from`,
    /// `to`, `mark`, `last-from`, `last-to`, `(opposite d)`.
    fn go(&mut self, to: &Sexp) -> Result<(), NotationError> {
        if let Some((h, args)) = to.head()
            && h == "opposite"
        {
            let d = self.opposite(to, args)?;
            self.emit(Op::Step(d));
            return Ok(());
        }
        let Some(word) = to.atom() else {
            return Err(err(&to.span, "a position: a direction or a square name"));
        };
        match word.to_ascii_lowercase().as_str() {
            "from" => self.zrf(ZrfOp::GoFrom),
            "to" => self.zrf(ZrfOp::Back(TO)),
            "mark" => self.zrf(ZrfOp::Back(MARK)),
            "last-from" => self.zrf(ZrfOp::GoLast { end: false }),
            "last-to" => self.zrf(ZrfOp::GoLast { end: true }),
            _ => match self.direction(word) {
                Some(d) => self.emit(Op::Step(d)),
                None => match self.ctx.topology.square(word) {
                    Some(sq) => self.zrf(ZrfOp::Goto(sq)),
                    None => {
                        return Err(err(
                            &to.span,
                            format!("'{word}' is neither a direction nor a square"),
                        ));
                    }
                },
            },
        };
        Ok(())
    }

    fn opposite(&self, s: &Sexp, args: &[Sexp]) -> Result<Dir, NotationError> {
        let [d] = args else {
            return Err(err(&s.span, "opposite takes one direction"));
        };
        let name = d.atom().unwrap_or("");
        let dir = self
            .direction(name)
            .ok_or_else(|| err(&d.span, format!("'{name}' is not a direction")))?;
        self.ctx
            .topology
            .opposite(dir)
            .ok_or_else(|| err(&d.span, format!("direction '{name}' has no opposite")))
    }

    /// A board direction by name, through the player's map.
    fn direction(&self, name: &str) -> Option<Dir> {
        let mut chars = name.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return None;
        };
        self.ctx.topology.dir(c).map(|d| self.map.apply(d))
    }

    /// The number of the attribute called `name`, if a piece has it.
    fn attribute(&self, name: &str) -> Option<u8> {
        self.ctx
            .attributes
            .iter()
            .position(|a| a.eq_ignore_ascii_case(name))
            .map(|i| i as u8)
    }

    fn piece(&self, s: &Sexp) -> Result<u16, NotationError> {
        let name = s.atom().unwrap_or("");
        self.ctx
            .pieces
            .iter()
            .position(|p| p == name)
            .map(|i| i as u16)
            .ok_or_else(|| {
                NotationError::new(
                    ErrorKind::UnknownPiece,
                    s.span.clone(),
                    format!("no piece is named '{name}'"),
                    None,
                )
            })
    }

    /// `(change-type T [pos])`, `(create T [pos])`: the type, and the rest.
    fn piece_arg<'s>(
        &self,
        s: &Sexp,
        args: &'s [Sexp],
    ) -> Result<(u16, &'s [Sexp]), NotationError> {
        match args.split_first() {
            Some((t, rest)) => Ok((self.piece(t)?, rest)),
            None => Err(err(&s.span, "a piece name is missing")),
        }
    }

    fn flag(&mut self, s: &Sexp) -> Result<u8, NotationError> {
        flag_number(&mut self.flags, s)
    }

    fn position_flag(&mut self, s: &Sexp) -> Result<u8, NotationError> {
        flag_number(&mut self.position_flags, s)
    }

    /// `(verify c)`: its one condition.
    fn cond_arg(&mut self, s: &Sexp, args: &[Sexp]) -> Result<u16, NotationError> {
        match args {
            [c] => self.cond(c),
            _ => Err(err(&s.span, "one condition")),
        }
    }

    /// Compiles a condition and stores it in the program.
    fn cond(&mut self, s: &Sexp) -> Result<u16, NotationError> {
        let c = self.condition(s)?;
        let at = match self.prog.conds.iter().position(|x| *x == c) {
            Some(i) => i,
            None => {
                self.prog.conds.push(c);
                self.prog.conds.len() - 1
            }
        };
        u16::try_from(at).map_err(|_| {
            err(
                &s.span,
                "the piece's blocks need more than 65 536 conditions",
            )
        })
    }

    fn condition(&mut self, s: &Sexp) -> Result<Cond, NotationError> {
        if let Some(word) = s.atom() {
            return self.predicate(word, &[], s);
        }
        let Some((head, args)) = s.head() else {
            return Err(err(&s.span, "a condition"));
        };
        match head.as_str() {
            "and" | "or" => {
                let parts = args
                    .iter()
                    .map(|a| self.condition(a))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(if head == "and" {
                    Cond::And(parts)
                } else {
                    Cond::Or(parts)
                })
            }
            "not" => match args {
                [a] => Ok(Cond::Not(Box::new(self.condition(a)?))),
                _ => Err(err(&s.span, "not takes one condition")),
            },
            _ => self.predicate(&head, args, s),
        }
    }

    /// A predicate with its arguments: `empty?`, `(piece? T)`,
    /// `(empty? n)`, `(not-in-zone? z a1)`, …
    fn predicate(&mut self, word: &str, args: &[Sexp], s: &Sexp) -> Result<Cond, NotationError> {
        let lower = word.to_ascii_lowercase();
        let (negated, name) = match lower.strip_prefix("not-") {
            Some(rest) if rest.ends_with('?') || self.attribute(rest).is_some() => (true, rest),
            _ => (false, lower.as_str()),
        };
        let (base, rest) = match name {
            "true" => (Cond::True, args),
            "false" => (Cond::Not(Box::new(Cond::True)), args),
            "empty?" => (Cond::Test(Test::Empty), args),
            "friend?" => (Cond::Test(Test::Friend), args),
            "enemy?" => (Cond::Test(Test::Enemy), args),
            "attacked?" => (Cond::Test(Test::Attacked), args),
            "defended?" => (Cond::Test(Test::Protected), args),
            "last-from?" => (Cond::Test(Test::LastStart), args),
            "last-to?" => (Cond::Test(Test::LastEnd), args),
            "neutral?" => (Cond::Neutral, args),
            "on-board?" => (Cond::True, args),
            "marked?" => (Cond::Marked, args),
            "piece?" | "in-zone?" | "flag?" | "position-flag?" | "position?" => {
                let Some((what, rest)) = args.split_first() else {
                    return Err(err(&s.span, format!("{name} needs a name")));
                };
                let c = match name {
                    "piece?" => Cond::IsType(self.piece(what)?),
                    "in-zone?" => {
                        let z = what.atom().unwrap_or("");
                        let zone = self.ctx.zones.find(z).ok_or_else(|| {
                            NotationError::new(
                                ErrorKind::UnknownZone,
                                what.span.clone(),
                                format!("no zone is named '{z}'"),
                                None,
                            )
                        })?;
                        Cond::InZone(zone as u16)
                    }
                    "flag?" => Cond::Flag(self.flag(what)?),
                    "position-flag?" => Cond::PositionFlag(self.position_flag(what)?),
                    _ => {
                        let p = what.atom().unwrap_or("");
                        let sq = self
                            .ctx
                            .topology
                            .square(p)
                            .ok_or_else(|| err(&what.span, format!("'{p}' is not a square")))?;
                        Cond::At(sq)
                    }
                };
                (c, rest)
            }
            _ => match self.attribute(name) {
                Some(a) => (Cond::Attribute(a), args),
                None => {
                    return Err(err(
                        &s.span,
                        format!("'{word}' is not a ZRF condition this system reads"),
                    ));
                }
            },
        };
        let placed = match rest {
            [] => base,
            [pos] => self.placed(pos, base)?,
            _ => return Err(err(&s.span, "one position at most")),
        };
        Ok(if negated {
            Cond::Not(Box::new(placed))
        } else {
            placed
        })
    }

    /// `c` asked at a position instead of the cursor.
    fn placed(&mut self, pos: &Sexp, c: Cond) -> Result<Cond, NotationError> {
        let inner = Box::new(c);
        if let Some((h, args)) = pos.head()
            && h == "opposite"
        {
            return Ok(Cond::Step(self.opposite(pos, args)?, inner));
        }
        let word = pos.atom().unwrap_or("");
        Ok(match word.to_ascii_lowercase().as_str() {
            "mark" => Cond::Register(MARK, inner),
            "to" => Cond::Register(TO, inner),
            "from" => Cond::From(inner),
            _ => match self.direction(word) {
                Some(d) => Cond::Step(d, inner),
                None => match self.ctx.topology.square(word) {
                    Some(sq) => Cond::Square(sq, inner),
                    None => {
                        return Err(err(
                            &pos.span,
                            format!("'{word}' is neither a direction nor a square"),
                        ));
                    }
                },
            },
        })
    }
}

/// The number of the flag named by `s` in `names`, given the next free
/// one if it is new.
fn flag_number(names: &mut HashMap<String, u8>, s: &Sexp) -> Result<u8, NotationError> {
    let name = s
        .atom()
        .ok_or_else(|| err(&s.span, "a flag name"))?
        .to_string();
    let n = names.len();
    if n >= MAX_FLAGS && !names.contains_key(&name) {
        return Err(err(&s.span, format!("more than {MAX_FLAGS} flags")));
    }
    Ok(*names.entry(name).or_insert(n as u8))
}

fn cond_uses_attacks(c: &Cond) -> bool {
    match c {
        Cond::Test(t) => matches!(
            t,
            Test::Attacked | Test::NotAttacked | Test::Protected | Test::NotProtected
        ),
        Cond::Not(c)
        | Cond::Step(_, c)
        | Cond::Square(_, c)
        | Cond::Register(_, c)
        | Cond::From(c) => cond_uses_attacks(c),
        Cond::And(cs) | Cond::Or(cs) => cs.iter().any(cond_uses_attacks),
        _ => false,
    }
}
