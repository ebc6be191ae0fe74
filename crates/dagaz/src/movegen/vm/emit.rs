//! A finished path becomes a move: its net changes read from the undo
//! log, promotions expanded, captures sent to hand, and the move
//! deduplicated against the moves already found.

use super::*;

impl Vm {
    /// Emits the move that lifts the moving piece from `from` and drops it
    /// on `to` (what `record` would find for such a path).
    pub(super) fn emit_simple(
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
        let takes = self.is_enemy(env, old);
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
                        || (takes && p.capturing.contains(&game.cells.info(old).piece))
                });
        let to_hand = (game.rules.captures_to_hand || game.rules.captures_explode) && takes;
        if from == to || promotes || to_hand || !game.rules.burning.is_empty() {
            // Rare cases go the general way.
            return self.emit_general(env, cells, from, to, old, takes, priority, out);
        }
        // A quiescence search's generation counts the moves that take
        // nothing instead of listing them (only where no duplicate can
        // come, so that the count is exact).
        if self.captures_only
            && self.may_count_quiet
            && !takes
            && matches!(env.mode, Mode::Generate)
        {
            self.skipped += 1;
            return;
        }
        let pair = lift_and_land(from, to, self.hand, old, self.simple.dropped);
        let mut header = MoveHeader::new(self.mover_piece, Some(from), Some(to), priority);
        header.player = env.player as u8;
        header.captures = u16::from(takes);
        header.simple = true;
        if header.captures > 0 && game.rules.earliest_type() == Some(game.cells.info(old).piece) {
            // The one piece taken is of the `earliest:` type: taken first.
            header.earliest_mask = 1 << 63;
        }
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

    /// [`Vm::emit_simple`]'s rare cases (a move in place, a promotion,
    /// a capture to hand, burning) the general way, out of the common
    /// path's code.
    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn emit_general(
        &mut self,
        env: &Env,
        cells: &[Cell],
        from: Square,
        to: Square,
        old: Cell,
        takes: bool,
        priority: u8,
        out: &mut MoveList,
    ) {
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
            let pair = lift_and_land(from, to, self.hand, old, dropped);
            self.net.extend_from_slice(&pair);
        }
        let captured = u16::from(takes && from != to);
        self.finish_move(
            env,
            cells,
            Some(from),
            Some(to),
            priority,
            Some(captured),
            out,
        );
    }

    /// Caches what [`Vm::emit_simple`] needs to know about the piece in the
    /// hand.
    pub(super) fn prepare_simple(&mut self, game: &Game) {
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
    pub(super) fn captured(&self, env: &Env, cells: &[Cell], target: Square) -> bool {
        let now = cells[target.index()];
        let _ = env;
        self.log.iter().any(|u| match u {
            Undo::Cell(slot, old) => *slot == target.0 && !old.is_empty() && *old != now,
            _ => false,
        })
    }

    /// Turns the current successful path into a move (or several, when the
    /// piece may promote) and appends it unless an identical move exists.
    pub(super) fn record(&mut self, env: &Env, cells: &[Cell], priority: u8, out: &mut MoveList) {
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
    pub(super) fn capture_order(&self, env: &Env, cells: &[Cell]) -> u64 {
        let mut key = 0xcbf2_9ce4_8422_2325u64;
        for (slot, _) in self.captured_in_order(env, cells) {
            key = (key ^ slot as u64).wrapping_mul(0x100_0000_01b3);
        }
        // The squares where the parts ended (a Lion's midpoint).
        for sq in self.landings.iter().filter(|_| self.distinct_landings) {
            key = (key ^ (0x1_0000 | sq.0 as u64)).wrapping_mul(0x100_0000_01b3);
        }
        key
    }

    /// The move's `earliest_mask`: where along the path it took the pieces
    /// of the type of the game's `earliest:Type` capture test.
    fn earliest_mask(&self, env: &Env, cells: &[Cell]) -> u64 {
        let Some(wanted) = env.game.rules.earliest_type() else {
            return 0;
        };
        self.captured_in_order(env, cells)
            .take(64)
            .enumerate()
            .filter(|(_, (_, old))| env.game.cells.info(*old).piece == wanted)
            .fold(0, |rank, (i, _)| rank | 1 << (63 - i))
    }

    /// The enemy pieces the path took, in the order it took them: their
    /// squares and what stood there.
    fn captured_in_order<'a>(
        &'a self,
        env: &'a Env,
        cells: &'a [Cell],
    ) -> impl Iterator<Item = (u16, Cell)> + 'a {
        self.log.iter().filter_map(move |u| match *u {
            Undo::Cell(slot, old)
                if (slot as usize) < env.game.topology.len()
                    && !old.is_empty()
                    && !old.is_marked()
                    && env.game.cells.info(old).owner as usize != env.player
                    && cells[slot as usize] != old =>
            {
                Some((slot, old))
            }
            _ => None,
        })
    }

    /// Puts the enemy pieces the move captures into the mover's hand, as
    /// their base pieces: adds the hand changes to `self.net`.
    pub(super) fn captured_to_hand(&mut self, env: &Env, cells: &[Cell]) {
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
    pub(super) fn count_captures(&self, env: &Env) -> u16 {
        if self.stack {
            return self.taken;
        }
        let game = env.game;
        let squares = game.topology.len();
        let mut captures = 0u16;
        for c in &self.net {
            if (c.slot as usize) < squares && !c.old.is_empty() {
                let (o, n) = (game.cells.info(c.old), game.cells.info(c.new));
                // Not a capture: the same piece with another has-moved flag.
                let flagged = !c.new.is_empty() && game.cells.with_moved(c.new, o.moved) == c.old;
                if o.owner as usize != env.player && !o.is_neutral() && n != o && !flagged {
                    captures += 1;
                }
            }
        }
        captures
    }

    /// The move whose changes are in `self.net`: counts captures, expands
    /// promotions, and emits it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn finish_move(
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
        // Burning follows a move on the board, not a drop.
        let burn_changed = from.is_some() && to.is_some_and(|to| self.burn(env, cells, to));
        // A piece burned where it ended does not promote.
        let mover_burned = burn_changed
            && to.is_some_and(|t| !self.net.iter().any(|c| c.slot == t.0 && !c.new.is_empty()));
        let captures = match captures {
            Some(n) if !burn_changed => n,
            _ => self.count_captures(env),
        };
        if game.rules.captures_to_hand && captures > 0 {
            self.captured_to_hand(env, cells);
        }
        let exploded = game.rules.captures_explode && captures > 0 && to.is_some();
        if let (true, Some(to)) = (exploded, to) {
            self.explode(env, cells, to);
        }
        let mut header = MoveHeader::new(self.mover_piece, from, to, priority);
        header.player = env.player as u8;
        header.again = self.again;
        header.captures = captures;
        header.path_key = self.path_key;
        header.earliest_mask = self.earliest_mask(env, cells);
        if self.promoted != NONE {
            header.promotion = self.promoted;
        }

        let promotion = game
            .pieces
            .get(self.mover_piece as usize)
            .and_then(|p| p.promotion.as_ref());
        // A piece dropped from a hand does not promote.
        if let (Some(promo), Some(to_sq), Some(_)) = (promotion, to, from)
            && !promo.immediate
            && !mover_burned
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
            // Taking a piece of a listed type promotes, wherever, and must.
            let by_capture =
                captures > 0 && !promo.capturing.is_empty() && self.takes(env, &promo.capturing);
            let enters = enters || by_capture;
            if enters && exploded {
                // The promoted piece explodes at once: the choices leave the
                // same position, and are still different moves.
                for &target in promo.targets(env.player) {
                    let mut h = header;
                    h.promotion = target;
                    self.emit_distinct(game, h, out);
                }
                return;
            }
            if enters {
                let forced = promo
                    .forced_zone
                    .is_some_and(|z| game.zones.contains(z, env.player, to_sq));
                if promo.optional && !forced && !by_capture {
                    self.emit(game, header, out);
                }
                if from == Some(to_sq) && !self.net.iter().any(|c| c.slot == to_sq.0) {
                    // A capture without moving (igui): the piece promotes
                    // where it stands.
                    let here = cells[to_sq.index()];
                    self.net.push(Change {
                        slot: to_sq.0,
                        old: here,
                        new: here,
                    });
                    self.net.sort_unstable_by_key(|c| c.slot);
                }
                let Some(at) = self.net.iter().position(|c| c.slot == to_sq.0) else {
                    return;
                };
                let original = self.net[at].new;
                for &target in promo.targets(env.player) {
                    if promo.captured_only && !lost_one(game, cells, promo, env.player, target) {
                        continue;
                    }
                    if !under_limit(game, cells, promo, env.player, target) {
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
        if exploded || mover_burned {
            // Moves that leave the same position from different squares
            // (every square where a piece burns) are still different moves.
            self.emit_distinct(game, header, out);
        } else {
            self.emit(game, header, out);
        }
    }

    /// Whether the changes in `self.net` take an enemy piece of one of
    /// these types (remove it, or put one of the mover's pieces there).
    fn takes(&self, env: &Env, types: &[u16]) -> bool {
        let game = env.game;
        self.net.iter().any(|c| {
            let (o, n) = (game.cells.info(c.old), game.cells.info(c.new));
            (c.slot as usize) < game.topology.len()
                && !c.old.is_empty()
                && o.piece != NO_PIECE
                && o.owner as usize != env.player
                && types.contains(&o.piece)
                && (c.new.is_empty() || n.owner as usize == env.player)
        })
    }

    /// The burning of `Rules::burning` at the end of a move that ended on
    /// `to`: a piece next to an enemy burning piece is removed (and burns
    /// nothing); otherwise a burning piece removes the enemy pieces next to
    /// it. The piece's type before promotion decides (a piece promoting to
    /// a burning one does not burn on that move). Returns whether the move
    /// changed.
    fn burn(&mut self, env: &Env, cells: &[Cell], to: Square) -> bool {
        let game = env.game;
        if game.rules.burning.is_empty() {
            return false;
        }
        let standing = |cell: Cell| !cell.is_empty() && !cell.is_marked();
        let enemy = |cell: Cell| {
            let info = game.cells.info(cell);
            standing(cell) && info.owner as usize != env.player && !info.is_neutral()
        };
        let burner = |cell: Cell| {
            standing(cell) && game.rules.burning.contains(&game.cells.info(cell).piece)
        };
        let after = |sq: Square| self.after_move(cells, sq);
        let around = game.topology.neighbours(to);
        let victims: Vec<Square> = if around.iter().any(|&n| enemy(after(n)) && burner(after(n))) {
            vec![to]
        } else if burner(after(to)) {
            around.into_iter().filter(|&n| enemy(after(n))).collect()
        } else {
            Vec::new()
        };
        for &sq in &victims {
            self.clear_square(cells, sq);
        }
        self.tidy_net();
        !victims.is_empty()
    }

    /// Adds to `self.net` the explosion of a capture landing on `at`: the
    /// capturing piece and every piece one king step away, but those of the
    /// immune types, leave the board; pieces of the proof types stay even
    /// when they capture.
    fn explode(&mut self, env: &Env, cells: &[Cell], at: Square) {
        let game = env.game;
        let of = |cell: Cell, types: &[u16]| {
            let info = game.cells.info(cell);
            info.piece != NO_PIECE && types.contains(&info.piece)
        };
        let proof = |cell: Cell| of(cell, &game.rules.explosion_proof);
        let immune = |cell: Cell| of(cell, &game.rules.explosion_immune) || proof(cell);
        let mut blast = vec![at];
        blast.extend(game.topology.neighbours(at));
        for (i, sq) in blast.into_iter().enumerate() {
            let now = self.after_move(cells, sq);
            let goes = if i == 0 {
                !proof(now)
            } else {
                !now.is_empty() && !immune(now)
            };
            if goes {
                self.clear_square(cells, sq);
            }
        }
        self.tidy_net();
    }

    /// What stands on `sq` after the move in `self.net`, over the path's
    /// board `cells`.
    fn after_move(&self, cells: &[Cell], sq: Square) -> Cell {
        self.net
            .iter()
            .find(|c| c.slot == sq.0)
            .map_or(cells[sq.index()], |c| c.new)
    }

    /// Makes the move in `self.net` leave `sq` empty.
    fn clear_square(&mut self, cells: &[Cell], sq: Square) {
        match self.net.iter_mut().find(|c| c.slot == sq.0) {
            Some(c) => c.new = Cell::EMPTY,
            None => self.net.push(Change {
                slot: sq.0,
                old: cells[sq.index()],
                new: Cell::EMPTY,
            }),
        }
    }

    /// Drops the changes that change nothing and puts the rest in slot
    /// order (the form moves are compared in).
    fn tidy_net(&mut self) {
        self.net.retain(|c| c.old != c.new);
        self.net.sort_unstable_by_key(|c| c.slot);
    }

    /// Emits an exploding capture. Different captures may leave the same
    /// position (the Kings of atomic chess explode whichever is taken) and
    /// are still different moves: only a move with the same start, landing
    /// and promotion is the same move.
    fn emit_distinct(&mut self, game: &Game, mut header: MoveHeader, out: &mut MoveList) {
        header.hash_delta = self.net.iter().fold(0, |d, c| {
            d ^ game.key(c.slot as usize, c.old) ^ game.key(c.slot as usize, c.new)
        });
        let same = |i: usize| {
            let m = out.get(i);
            m.header.from() == header.from()
                && m.header.to() == header.to()
                && m.header.promotion == header.promotion
                && m.changes == &self.net[..]
        };
        if !(self.run_start..out.len()).any(same) {
            out.push(header, &self.net, &self.landings);
        }
    }

    pub(super) fn emit(&mut self, game: &Game, mut header: MoveHeader, out: &mut MoveList) {
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
            if out.header(i).earliest_mask != header.earliest_mask {
                // The same effect, the pieces taken in another order (Italian
                // draughts): a move of its own, with its own path, unless
                // that order was seen; the `earliest:` test chooses.
                let seen = (0..out.len()).any(|j| {
                    let m = out.get(j);
                    m.header.earliest_mask == header.earliest_mask
                        && m.header.hash_delta == delta
                        && m.changes == &self.net[..]
                });
                if !seen {
                    out.push(header, &self.net, &self.landings);
                }
                return;
            }
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
    pub(super) fn duplicate(
        &mut self,
        delta: u64,
        from: Option<Square>,
        changes: &[Change],
        out: &MoveList,
    ) -> Option<usize> {
        let lifts = from.is_some_and(|f| changes.iter().any(|c| c.slot == f.0 && c.new.is_empty()));
        if lifts || self.distinct_paths {
            let first = if lifts { self.run_start } else { 0 };
            let key = self.distinct_paths.then_some(self.path_key);
            // The header first: most moves differ in their hash delta.
            return (first..out.len()).find(|&i| {
                let h = out.header(i);
                h.hash_delta == delta
                    && key.is_none_or(|k| h.path_key == k)
                    && out.get(i).changes == changes
            });
        }
        let found = self.dedup.seen(delta, changes, out);
        if found.is_none() {
            self.dedup.insert(delta, out.len() as u32);
        }
        found
    }
}

/// The changes of `mover` lifted from `from` (left empty) and put on `to`
/// as `dropped` over `old`, in the order of their squares.
#[inline(always)]
fn lift_and_land(from: Square, to: Square, mover: Cell, old: Cell, dropped: Cell) -> [Change; 2] {
    let lift = Change {
        slot: from.0,
        old: mover,
        new: Cell::EMPTY,
    };
    let land = Change {
        slot: to.0,
        old,
        new: dropped,
    };
    if from < to {
        [lift, land]
    } else {
        [land, lift]
    }
}

/// What [`Vm::emit_simple`] needs about the piece in the hand.
#[derive(Clone, Copy, Default)]
pub(super) struct Simple {
    /// The hand these facts are about.
    pub(super) hand: Cell,
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
pub(super) struct Dedup {
    /// Open addressing: (delta, move index, stamp).
    table: Vec<(u64, u32, u32)>,
    stamp: u32,
    used: usize,
}

impl Dedup {
    pub(super) fn clear(&mut self) {
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
    on_board(game, cells, player, target) < had as usize
}

/// Whether the promotion's `limits` allow one more `target` of `player`.
fn under_limit(
    game: &Game,
    cells: &[Cell],
    promo: &crate::game::Promotion,
    player: usize,
    target: u16,
) -> bool {
    promo
        .limits
        .iter()
        .find(|(t, _)| *t == target)
        .is_none_or(|&(_, most)| on_board(game, cells, player, target) < most as usize)
}

/// How many pieces of type `piece` `player` has on the board.
fn on_board(game: &Game, cells: &[Cell], player: usize, piece: u16) -> usize {
    game.topology
        .squares()
        .filter(|sq| {
            let c = cells[sq.index()];
            let info = game.cells.info(c);
            !c.is_empty() && info.piece == piece && info.owner as usize == player
        })
        .count()
}
