//! The instructions of ZRF move blocks (`notation::zrf`): conditions,
//! registers, type and owner changes, partial moves.

use super::*;
use crate::notation::{Cond, ZrfChange, ZrfOp};

/// Where the interpreter goes after a ZRF instruction.
pub(super) enum Flow {
    /// On to the next instruction.
    Next,
    /// To this instruction.
    Jump(u32),
    /// The path fails.
    Fail,
}

impl Vm {
    /// Runs one ZRF instruction. Kept out of the interpreter's loop, which
    /// runs the notation's instructions.
    #[inline(never)]
    pub(super) fn zrf_op(
        &mut self,
        env: &Env,
        cells: &mut [Cell],
        prog: &Program,
        op: ZrfOp,
        cursor: &mut Square,
        effects: &mut u32,
    ) -> Flow {
        let ok = match op {
            ZrfOp::Unless { cond, target } => {
                if !self.cond(env, cells, *cursor, &prog.conds[cond as usize]) {
                    return Flow::Jump(prog.targets[target as usize]);
                }
                true
            }
            ZrfOp::Verify(cond) => self.cond(env, cells, *cursor, &prog.conds[cond as usize]),
            ZrfOp::Loop(target) => {
                self.steps += 1;
                return Flow::Jump(prog.targets[target as usize]);
            }
            ZrfOp::Mark(r) => {
                self.set_mark(r, cursor.0);
                true
            }
            ZrfOp::Back(r) => self.goto(cursor, self.marks[r as usize]),
            ZrfOp::Goto(sq) => self.goto(cursor, sq.0),
            ZrfOp::GoFrom => self.goto(cursor, self.from),
            ZrfOp::GoLast { end } => {
                let last = env
                    .history
                    .last()
                    .and_then(|p| if end { p.to } else { p.from });
                self.goto(cursor, last.map_or(NONE, |s| s.0))
            }
            ZrfOp::Promote(t) => self.promote(env, t),
            ZrfOp::Change(change) => {
                let ok = self.change(env, cells, *cursor, change);
                if ok {
                    *effects += 1;
                    self.log.push(Undo::Changes(self.changes));
                    self.changes += 1;
                }
                ok
            }
            ZrfOp::Stop => self.stop(cursor.0),
            ZrfOp::SetFlag { flag, value } => {
                let on = self.cond(env, cells, *cursor, &prog.conds[value as usize]);
                let new = with_bit(self.flags, flag, on);
                if new != self.flags {
                    self.log.push(Undo::Flags(self.flags));
                    self.flags = new;
                }
                true
            }
            ZrfOp::SetPositionFlag { flag, value } => {
                let on = self.cond(env, cells, *cursor, &prog.conds[value as usize]);
                let old = self.position_flags(cursor.0);
                let new = with_bit(old, flag, on);
                if new != old {
                    self.log.push(Undo::PositionFlags(cursor.0, old));
                    self.set_position_flags(cursor.0, new);
                }
                true
            }
            ZrfOp::SetAttribute { attr, value } => {
                let on = self.cond(env, cells, *cursor, &prog.conds[value as usize]);
                self.set_attribute(env, attr, on)
            }
            // A drop has no start square: its copy is the piece dropped.
            ZrfOp::LeaveCopy if self.from == NONE => true,
            ZrfOp::LeaveCopy => {
                let from = self.from as usize;
                let free = cells[from].is_empty() && !self.hand.is_empty();
                if free {
                    self.set_cell(cells, from, self.hand);
                }
                free
            }
            ZrfOp::Swap => self.swap(env, cells, *cursor),
            ZrfOp::Settle => {
                self.settle(cells);
                true
            }
            ZrfOp::MoveType(t) => env.move_type.is_none_or(|only| only == t),
            ZrfOp::Partial { exit } => {
                let exit = prog.targets[exit as usize];
                self.push_frame(exit, PARTIAL, true, *cursor, *effects);
                true
            }
        };
        if ok { Flow::Next } else { Flow::Fail }
    }

    /// Whether condition `c` holds with the cursor on `at`.
    pub(super) fn cond(&mut self, env: &Env, cells: &mut [Cell], at: Square, c: &Cond) -> bool {
        let topo = &env.game.topology;
        match c {
            Cond::True => true,
            Cond::Test(t) => self.on_board(cells, at, |vm, cells| vm.test(env, cells, at, *t)),
            Cond::IsType(t) => self.on_board(cells, at, |_, cells| is_type(env, cells, at, *t)),
            Cond::InZone(z) => env.game.zones.contains(*z as usize, env.player, at),
            Cond::Neutral => {
                let cell = cells[at.index()];
                !cell.is_empty() && env.game.cells.info(cell).is_neutral()
            }
            Cond::Marked => self.marks[zrf_mark()] == at.0,
            Cond::At(sq) => *sq == at,
            Cond::Flag(f) => self.flags & (1 << f) != 0,
            Cond::Attribute(a) => self.on_board(cells, at, |_, cells| {
                let cell = cells[at.index()];
                !cell.is_empty() && env.game.cells.info(cell).number & (1 << a) != 0
            }),
            Cond::PositionFlag(f) => self.position_flags(at.0) & (1 << f) != 0,
            Cond::Step(d, inner) => match topo.step(at, *d) {
                Some(next) => self.cond(env, cells, next, inner),
                None => false,
            },
            Cond::Square(sq, inner) => self.cond(env, cells, *sq, inner),
            Cond::Register(r, inner) => match self.marks[*r as usize] {
                NONE => false,
                sq => self.cond(env, cells, Square(sq), inner),
            },
            Cond::From(inner) => match self.from {
                NONE => false,
                sq => self.cond(env, cells, Square(sq), inner),
            },
            Cond::Not(inner) => !self.cond(env, cells, at, inner),
            Cond::And(parts) => parts.iter().all(|p| self.cond(env, cells, at, p)),
            Cond::Or(parts) => parts.iter().any(|p| self.cond(env, cells, at, p)),
        }
    }

    /// Runs `test` with the moving piece back on its start square if the
    /// cursor is there and nothing else stands there: in Zillions the piece
    /// leaves its square only when the move is added, so a block that
    /// tests its own square (`(verify not-empty?)`, `friend?`) finds it.
    fn on_board(
        &mut self,
        cells: &mut [Cell],
        at: Square,
        test: impl FnOnce(&mut Self, &mut [Cell]) -> bool,
    ) -> bool {
        let i = at.index();
        let back =
            at.0 == self.from && self.hand_is_mover && !self.hand.is_empty() && cells[i].is_empty();
        if !back {
            return test(self, cells);
        }
        cells[i] = self.hand;
        let result = test(self, cells);
        cells[i] = Cell::EMPTY;
        result
    }

    /// The position flags of square `sq` set by this path.
    fn position_flags(&self, sq: u16) -> u32 {
        self.square_flags
            .iter()
            .find(|(s, _)| *s == sq)
            .map_or(0, |(_, bits)| *bits)
    }

    /// Sets the position flags of `sq` (the caller logs the old value).
    pub(super) fn set_position_flags(&mut self, sq: u16, bits: u32) {
        match self.square_flags.iter_mut().find(|(s, _)| *s == sq) {
            Some(entry) => entry.1 = bits,
            None => self.square_flags.push((sq, bits)),
        }
    }

    pub(super) fn set_mark(&mut self, r: u8, sq: u16) {
        let old = self.marks[r as usize];
        if old != sq {
            self.log.push(Undo::Mark(r, old));
            self.marks[r as usize] = sq;
        }
    }

    /// Moves the cursor to `sq`; fails for `NONE`.
    pub(super) fn goto(&mut self, cursor: &mut Square, sq: u16) -> bool {
        if sq == NONE {
            return false;
        }
        *cursor = Square(sq);
        true
    }

    /// `(add T)`: the piece in hand becomes a `T` of the same owner,
    /// keeping its attributes.
    pub(super) fn promote(&mut self, env: &Env, t: u16) -> bool {
        if self.hand.is_empty() {
            return false;
        }
        let game = env.game;
        let info = game.cells.info(self.hand);
        let tracks = game.pieces[t as usize].tracks_moved;
        let mover = self.hand_is_mover;
        let new = kept_attributes(env, t, info.owner as usize, tracks, info.number);
        self.set_hand(new, mover);
        if mover {
            self.log.push(Undo::Promoted(self.promoted));
            self.promoted = t;
        }
        true
    }

    /// `(set-attribute a v)`: the piece in hand carries attribute `attr`
    /// set to `on` where it lands.
    fn set_attribute(&mut self, env: &Env, attr: u8, on: bool) -> bool {
        if self.hand.is_empty() {
            return false;
        }
        let cells = &env.game.cells;
        let number = cells.info(self.hand).number;
        let new = cells.with_number(self.hand, with_bit(number as u32, attr, on) as u16);
        if new != self.hand {
            self.set_hand(new, self.hand_is_mover);
        }
        true
    }

    /// `flip`, `change-owner`, `change-type`, `create` on `at`.
    pub(super) fn change(
        &mut self,
        env: &Env,
        cells: &mut [Cell],
        at: Square,
        change: ZrfChange,
    ) -> bool {
        let game = env.game;
        let here = cells[at.index()];
        if let ZrfChange::Capture = change {
            return self.mark_captured(env, cells, at);
        }
        if here.is_marked() || (here.is_empty() && !matches!(change, ZrfChange::Create(_))) {
            return false;
        }
        let info = game.cells.info(here);
        let players = game.players.len();
        let new = match change {
            ZrfChange::Flip => {
                if info.is_neutral() {
                    return false;
                }
                let owner = (info.owner as usize + 1) % players;
                game.cells
                    .numbered_piece(info.piece, owner, info.moved, info.number)
            }
            ZrfChange::Owner => {
                game.cells
                    .numbered_piece(info.piece, env.player, info.moved, info.number)
            }
            ZrfChange::Type(t) => {
                let tracks = game.pieces[t as usize].tracks_moved;
                let moved = tracks && info.moved;
                kept_attributes(env, t, info.owner as usize, moved, info.number)
            }
            ZrfChange::Create(t) => game.cells.piece(t, env.player, false),
            ZrfChange::Capture => return false,
        };
        if new == here {
            return true;
        }
        self.set_cell(cells, at.index(), new);
        true
    }

    /// ZRF's `capture`: the piece on `at` is marked (it still blocks and
    /// reads as a piece until the part of the move ends); nothing happens
    /// on an empty square or one already captured. Nobody's pieces are
    /// never captured.
    fn mark_captured(&mut self, env: &Env, cells: &mut [Cell], at: Square) -> bool {
        let here = cells[at.index()];
        if here.is_empty() || here.is_marked() {
            return true;
        }
        if env.game.cells.info(here).is_neutral() {
            return false;
        }
        if self.last_capture != at.0 {
            self.log.push(Undo::LastCapture(self.last_capture));
            self.last_capture = at.0;
        }
        self.set_cell(cells, at.index(), here.marked());
        true
    }

    /// The end of a part: the pieces the path captured leave the board.
    fn settle(&mut self, cells: &mut [Cell]) {
        let mut i = 0;
        while i < self.log.len() {
            if let Undo::Cell(slot, _) = self.log[i]
                && cells[slot as usize].is_marked()
            {
                self.set_cell(cells, slot as usize, Cell::EMPTY);
            }
            i += 1;
        }
    }

    /// `cascade` with no `to`: the piece in hand lands on `at` and the piece
    /// there is picked up in its place.
    fn swap(&mut self, env: &Env, cells: &mut [Cell], at: Square) -> bool {
        let there = cells[at.index()];
        let blocked = there.is_empty()
            || there.is_marked()
            || self.hand.is_empty()
            || env.game.cells.info(there).is_neutral();
        if blocked || self.heap || self.stack {
            return false;
        }
        let landed = self.dropped(env, self.hand, at);
        if self.hand_is_mover {
            self.log.push(Undo::MoverDrop(self.mover_drop));
            self.mover_drop = at.0;
        }
        self.set_cell(cells, at.index(), landed);
        self.set_hand(there, false);
        true
    }

    /// The end of a part on `sq`: fails if the board repeats an earlier
    /// stop of the move (the start square counts, before any change).
    fn stop(&mut self, sq: u16) -> bool {
        let again =
            (sq == self.from && self.changes == 0) || self.stops.contains(&(sq, self.changes));
        if again {
            return false;
        }
        self.stops.push((sq, self.changes));
        self.log.push(Undo::Stopped);
        true
    }

    /// A move was recorded below every partial-move frame on the stack:
    /// none of them may end its move there.
    pub(super) fn went_on(&mut self) {
        for f in self
            .frames
            .iter_mut()
            .filter(|f| f.alt == PARTIAL && f.maximal)
        {
            f.continued = true;
        }
    }
}

/// A piece of type `t`: with the attributes `number` holds in a game with
/// attributes, else as the type is created.
fn kept_attributes(env: &Env, t: u16, owner: usize, moved: bool, number: u16) -> Cell {
    let cells = &env.game.cells;
    match env.game.attributes.is_empty() {
        true => cells.piece(t, owner, moved),
        false => cells.numbered_piece(t, owner, moved, number),
    }
}

/// `bits` with bit `flag` set to `on`.
fn with_bit(bits: u32, flag: u8, on: bool) -> u32 {
    if on {
        bits | 1 << flag
    } else {
        bits & !(1 << flag)
    }
}

fn zrf_mark() -> usize {
    crate::notation::zrf::MARK as usize
}
