//! What a path does to the board: lifting the piece (`^`), putting it
//! down (`|`), capturing (`x`) — on default, stack and heap boards — and
//! the branches extension handlers answer with.

use super::*;

impl Vm {
    pub(super) fn capture(&mut self, env: &Env, cells: &mut [Cell], sq: Square) -> bool {
        let c = cells[sq.index()];
        if c.is_empty() || c.is_marked() || env.game.cells.info(c).is_neutral() {
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

    pub(super) fn take(&mut self, game: &Game, cells: &mut [Cell], sq: Square) -> bool {
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
    pub(super) fn lift_below(&mut self, game: &Game, cells: &mut [Cell], sq: Square) {
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
    pub(super) fn put_below(
        &mut self,
        game: &Game,
        cells: &mut [Cell],
        sq: Square,
        old_top: Cell,
    ) -> bool {
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
    pub(super) fn capture_top(&mut self, game: &Game, cells: &mut [Cell], sq: Square) -> bool {
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

    pub(super) fn drop_hand(&mut self, env: &Env, cells: &mut [Cell], sq: Square) -> bool {
        let there = cells[sq.index()];
        if self.hand.is_empty() || there.is_marked() {
            return false;
        }
        if !there.is_empty() && !self.heap && env.game.cells.info(there).is_neutral() {
            // Nobody's pieces are never captured.
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
    /// its type keeps one (and it was not just dropped from a hand, unless
    /// the rules say dropped pieces have moved), promoted at once if its
    /// promotion is immediate and `sq` is in the zone.
    pub(super) fn dropped(&self, env: &Env, hand: Cell, sq: Square) -> Cell {
        let game = env.game;
        let info = game.cells.info(hand);
        let Some(piece) = game.pieces.get(info.piece as usize) else {
            return hand;
        };
        if self.hand_is_mover
            && let Some(promo) = &piece.promotion
            && promo.immediate
            && game.zones.contains(promo.zone, env.player, sq)
            && let Some(&to) = promo.targets(env.player).first()
        {
            let tracks = game.pieces[to as usize].tracks_moved;
            return game.cells.piece(to, info.owner as usize, tracks);
        }
        let dropped_unmoved =
            self.from_hand && self.hand_is_mover && !game.rules.dropped_pieces_have_moved;
        if piece.tracks_moved && !dropped_unmoved {
            game.cells.with_moved(hand, true)
        } else {
            hand
        }
    }

    /// Calls extension handler `k`; applies branch `alt` of its answer and
    /// leaves a choice point for the next branch. Returns the number of
    /// effects added, or `None` if the path fails.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn handler(
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
                let hand_slot = b.from_hand.map(|t| env.game.hand_slot(env.player, t));
                ok &= hand_slot.is_none_or(|slot| cells.get(slot).is_some_and(|c| c.0 > 0));
                if ok && b.cursor.index() < squares {
                    for &(sq, cell) in &b.sets {
                        self.set_cell(cells, sq.index(), cell);
                        added += 1;
                    }
                    if let Some(slot) = hand_slot {
                        self.set_cell(cells, slot, Cell(cells[slot].0 - 1));
                        added += 1;
                    }
                    if b.again && !self.again {
                        self.log.push(Undo::Again(false));
                        self.again = true;
                    }
                    *cursor = b.cursor;
                    if b.ends_here {
                        if self.mover_drop != NONE {
                            self.landings.push(Square(self.mover_drop));
                            self.log.push(Undo::Landing);
                        }
                        self.log.push(Undo::MoverDrop(self.mover_drop));
                        self.mover_drop = cursor.0;
                    }
                    Some(added)
                } else {
                    None
                }
            }
        };
        self.branches = branches;
        result
    }
}
