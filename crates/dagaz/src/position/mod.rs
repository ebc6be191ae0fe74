//! The state of a game in progress: what stands on each square, whose turn
//! it is, the history that `[l]` and `[t]` read, and the Zobrist hash.
//! Moves are applied and taken back in place ([`Position::make`],
//! [`Position::undo`]).

mod cell;
mod moves;
mod zobrist;

pub use cell::{Cell, CellInfo, CellTable, Content, NEUTRAL, NO_PIECE};
pub use moves::{Move, MoveHeader, MoveList, MoveRef};
pub use zobrist::{ep_key, phase_key, side_key, slot_key};

use crate::board::Square;

/// One move in the history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    pub player: u8,
    /// Type of the moving piece, or [`NO_PIECE`].
    pub piece: u16,
    /// Where the moving piece started (none for drops from a hand).
    pub from: Option<Square>,
    /// Where the moving piece ended.
    pub to: Option<Square>,
    /// State before the move, to take it back.
    pub hash_before: u64,
    pub clock_before: u32,
    pub fullmove_before: u32,
    pub ep_before: Option<Square>,
    pub side_before: u8,
    pub phase_before: u16,
    /// Set for entries that only describe a move made before the position
    /// was set up (the en passant field of a FEN); they cannot be undone.
    pub synthetic: bool,
    /// The types of the enemy pieces the move took, as bits (types from 63
    /// up share the last bit: any capture sets some bit).
    pub took: u64,
    /// The move gave check (games that count checks).
    pub check: bool,
}

impl Ply {
    /// A pass: a real move (not a synthetic entry) that took nothing and
    /// ended where it started, or moved nothing at all.
    pub fn is_pass(&self) -> bool {
        !self.synthetic && self.took == 0 && self.from == self.to
    }
}

/// A position: board slots, bitsets per owner and piece, side, history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Board squares first, then extra slots (once-flags).
    cells: Vec<Cell>,
    squares: usize,
    words: usize,
    players: usize,
    types: usize,
    by_piece: Vec<u64>,
    side: u8,
    hash: u64,
    clock: u32,
    fullmove: u32,
    /// The second player made the game's first move (a shogi handicap
    /// game, SFEN `w - 1`): counted in plies, the moves played are one
    /// fewer than the full moves and the side to move say.
    second_moved_first: bool,
    /// The en passant square currently folded into the hash.
    ep: Option<Square>,
    /// Where the game's turn order stands (`game::TurnOrder`); 0 in games
    /// that alternate.
    phase: u16,
    history: Vec<Ply>,
}

/// A position's bitsets per owner and piece type, borrowed apart from its
/// cells (which generation changes in place while it explores).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PieceBits<'a> {
    bits: &'a [u64],
    types: usize,
    words: usize,
}

impl<'a> PieceBits<'a> {
    /// Squares holding a piece of type `piece` owned by `owner`.
    #[inline]
    pub(crate) fn of(&self, owner: usize, piece: usize) -> &'a [u64] {
        let at = (owner * self.types + piece) * self.words;
        &self.bits[at..at + self.words]
    }
}

/// A move's effect on one slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Change {
    pub slot: u16,
    pub old: Cell,
    pub new: Cell,
}

impl Position {
    /// An empty position for a game with these dimensions.
    pub fn empty(squares: usize, extra_slots: usize, players: usize, types: usize) -> Position {
        let words = squares.div_ceil(64);
        Position {
            cells: vec![Cell::EMPTY; squares + extra_slots],
            squares,
            words,
            players,
            types,
            by_piece: vec![0; players * types * words],
            side: 0,
            hash: side_key(0),
            clock: 0,
            fullmove: 1,
            second_moved_first: false,
            ep: None,
            phase: 0,
            history: Vec::new(),
        }
    }

    #[inline]
    pub fn cell(&self, sq: Square) -> Cell {
        self.cells[sq.index()]
    }

    /// Value of any slot (squares and extra slots).
    #[inline]
    pub fn slot(&self, slot: usize) -> Cell {
        self.cells[slot]
    }

    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Mutable cells and the history together, for the move generator,
    /// which changes cells while it explores and restores them before it
    /// returns.
    pub(crate) fn split_for_generation(&mut self) -> (&mut [Cell], &[Ply], PieceBits<'_>) {
        let bits = PieceBits {
            bits: &self.by_piece,
            types: self.types,
            words: self.words,
        };
        (&mut self.cells, &self.history, bits)
    }

    /// The pieces' bitsets.
    #[inline]
    pub(crate) fn bits(&self) -> PieceBits<'_> {
        PieceBits {
            bits: &self.by_piece,
            types: self.types,
            words: self.words,
        }
    }

    pub fn square_count(&self) -> usize {
        self.squares
    }

    /// Puts a piece on a square (or empties it), keeping bitsets and hash.
    pub fn set(&mut self, table: &CellTable, slot: usize, new: Cell) {
        let old = self.cells[slot];
        self.write(table, slot, old, new);
        self.hash ^= slot_key(slot, old) ^ slot_key(slot, new);
    }

    #[inline(always)]
    fn write(&mut self, table: &CellTable, slot: usize, old: Cell, new: Cell) {
        self.cells[slot] = new;
        if slot >= self.squares {
            return;
        }
        let (w, bit) = (slot / 64, 1u64 << (slot % 64));
        let words = self.words;
        // An empty cell has no row: not looked up.
        if !old.is_empty()
            && let Some(row) = table.row(old)
        {
            self.by_piece[row * words + w] &= !bit;
        }
        if !new.is_empty()
            && let Some(row) = table.row(new)
        {
            self.by_piece[row * words + w] |= bit;
        }
    }

    /// Squares holding a piece of `owner`, as bitset words, written into
    /// `out`: the union of the owner's bitsets per type (kept apart from
    /// them, it would cost every move two more writes and undo two more).
    pub fn owner_bits(&self, owner: usize, out: &mut Vec<u64>) {
        out.clear();
        out.resize(self.words, 0);
        for row in self.owner_rows(owner).chunks_exact(self.words) {
            for (o, w) in out.iter_mut().zip(row) {
                *o |= w;
            }
        }
    }

    /// How many pieces `owner` has on the board.
    pub fn owner_count(&self, owner: usize) -> u32 {
        self.owner_rows(owner).iter().map(|w| w.count_ones()).sum()
    }

    /// The bitsets of all of `owner`'s piece types, one after the other.
    fn owner_rows(&self, owner: usize) -> &[u64] {
        let start = owner * self.types * self.words;
        &self.by_piece[start..start + self.types * self.words]
    }

    /// Squares holding a piece of type `piece` owned by `owner`.
    #[inline]
    pub fn piece_bits(&self, owner: usize, piece: usize) -> &[u64] {
        self.bits().of(owner, piece)
    }

    /// Player to move.
    #[inline]
    pub fn side(&self) -> usize {
        self.side as usize
    }

    pub fn set_side(&mut self, side: usize) {
        self.hash ^= side_key(self.side as usize) ^ side_key(side);
        self.side = side as u8;
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Plies since the last capture or clock-resetting move.
    pub fn clock(&self) -> u32 {
        self.clock
    }

    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    pub fn set_counters(&mut self, clock: u32, fullmove: u32) {
        self.clock = clock;
        self.fullmove = fullmove.max(1);
    }

    /// The plies played before this position, as SFEN counts them (its
    /// move number less one), from the full moves and the side to move
    /// (in a game of two players).
    pub fn plies_played(&self) -> u32 {
        let plies = (self.fullmove.max(1) - 1) * 2 + self.side as u32;
        plies - (self.second_moved_first && plies > 0) as u32
    }

    /// Sets the full moves and whether the second player moved first from
    /// the plies played before this position (SFEN's move number less
    /// one), for the side to move already set.
    pub fn set_plies_played(&mut self, plies: u32) {
        let side = self.side as u32;
        self.second_moved_first = (plies + side) % 2 == 1;
        self.fullmove = (plies + self.second_moved_first as u32 - side) / 2 + 1;
    }

    pub fn history(&self) -> &[Ply] {
        &self.history
    }

    /// Number of moves that can be taken back.
    pub fn undoable(&self) -> usize {
        self.history.iter().filter(|p| !p.synthetic).count()
    }

    pub fn ep(&self) -> Option<Square> {
        self.ep
    }

    /// Where the game's turn order stands (0 in games that alternate).
    pub fn phase(&self) -> u16 {
        self.phase
    }

    /// Sets the turn-order phase (reading a position string).
    pub fn set_phase(&mut self, phase: u16) {
        self.hash ^= phase_key(self.phase) ^ phase_key(phase);
        self.phase = phase;
    }

    /// Records a move made before this position was set up (FEN import).
    pub fn push_synthetic(
        &mut self,
        player: usize,
        piece: u16,
        from: Option<Square>,
        to: Option<Square>,
        ep: Option<Square>,
    ) {
        self.history.push(Ply {
            player: player as u8,
            piece,
            from,
            to,
            hash_before: self.hash,
            clock_before: self.clock,
            fullmove_before: self.fullmove,
            ep_before: self.ep,
            side_before: self.side,
            phase_before: self.phase,
            synthetic: true,
            took: 0,
            check: false,
        });
        self.set_ep(ep);
    }

    /// Records a check given by `player` before this position was set up
    /// (a position string's check counts).
    pub fn push_check_note(&mut self, player: usize) {
        self.push_synthetic(player, NO_PIECE, None, None, self.ep);
        if let Some(p) = self.history.last_mut() {
            p.check = true;
            // Not a position that can repeat.
            p.hash_before = 0;
        }
    }

    /// Records that the player who moved last took pieces of the types in
    /// `took` on `sq` (chu shogi's last Lion capture, from a position string).
    pub fn push_capture_note(&mut self, player: usize, sq: Square, took: u64) {
        self.push_synthetic(player, NO_PIECE, None, Some(sq), None);
        if let Some(p) = self.history.last_mut() {
            p.took = took;
        }
    }

    fn set_ep(&mut self, ep: Option<Square>) {
        if let Some(sq) = self.ep {
            self.hash ^= ep_key(sq);
        }
        if let Some(sq) = ep {
            self.hash ^= ep_key(sq);
        }
        self.ep = ep;
    }

    /// Applies a move. `next` is the player who moves next (at turn-order
    /// phase `next_phase`); `resets_clock` says whether the halfmove clock
    /// restarts; `ep` is the new en passant square folded into the hash.
    #[inline]
    pub fn make(
        &mut self,
        table: &CellTable,
        mv: MoveRef,
        (next, next_phase): (usize, u16),
        resets_clock: bool,
        ep: Option<Square>,
    ) {
        if let Some((lift, land)) = Self::simple_pair(mv) {
            return self.make_simple(
                table,
                mv.header,
                lift,
                land,
                (next, next_phase),
                resets_clock,
                ep,
            );
        }
        self.make_general(table, mv, (next, next_phase), resets_clock, ep);
    }

    /// [`Position::make`] of any move, change by change (out of line:
    /// the simple moves' path stays small where it is inlined).
    #[inline(never)]
    fn make_general(
        &mut self,
        table: &CellTable,
        mv: MoveRef,
        (next, next_phase): (usize, u16),
        resets_clock: bool,
        ep: Option<Square>,
    ) {
        let ply = self.ply_before(mv.header, self.taken_types(table, mv));
        for c in mv.changes {
            self.write(table, c.slot as usize, c.old, c.new);
        }
        self.history.push(ply);
        self.finish_make(mv.header.hash_delta, (next, next_phase), resets_clock, ep);
    }

    /// The history entry of the move `h`, about to be made, that takes
    /// the piece types `took`: what undoing it restores.
    #[inline(always)]
    fn ply_before(&self, h: &MoveHeader, took: u64) -> Ply {
        Ply {
            player: self.side,
            piece: h.piece,
            from: h.from(),
            to: h.to(),
            hash_before: self.hash,
            clock_before: self.clock,
            fullmove_before: self.fullmove,
            ep_before: self.ep,
            side_before: self.side,
            phase_before: self.phase,
            synthetic: false,
            took,
            check: h.gives_check,
        }
    }

    /// A simple move's two changes ([`MoveHeader::simple`]): the lift
    /// from its start and the landing on its end, in that order.
    #[inline(always)]
    fn simple_pair(mv: MoveRef) -> Option<(Change, Change)> {
        match *mv.changes {
            [a, b] if mv.header.simple => Some(if a.slot == mv.header.from {
                (a, b)
            } else {
                (b, a)
            }),
            _ => None,
        }
    }

    /// [`Position::make`] of a simple move: the piece lifted from one
    /// square and put on another, as the same piece (its bitset row is the
    /// same at both ends), taking what stood there.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn make_simple(
        &mut self,
        table: &CellTable,
        h: &MoveHeader,
        lift: Change,
        land: Change,
        next: (usize, u16),
        resets_clock: bool,
        ep: Option<Square>,
    ) {
        let read_both = || self.taken_type(table, &lift) | self.taken_type(table, &land);
        let took = match (h.player == self.side, h.captures) {
            (false, _) => read_both(),
            (true, 0) => 0,
            (true, _) => self.taken_type(table, &land),
        };
        debug_assert_eq!(
            took,
            read_both(),
            "a simple move takes what stood where it lands"
        );
        let ply = self.ply_before(h, took);
        self.history.push(ply);
        self.move_bits(table, lift, land, true);
        self.cells[lift.slot as usize] = lift.new;
        self.cells[land.slot as usize] = land.new;
        self.finish_make(h.hash_delta, next, resets_clock, ep);
    }

    /// The bitsets' part of a simple move (`forward`) or of its undo: the
    /// mover's bit goes from one end to the other, and what it took on
    /// the landing square leaves (or comes back).
    #[inline(always)]
    fn move_bits(&mut self, table: &CellTable, lift: Change, land: Change, forward: bool) {
        debug_assert!(
            table.row(lift.old) == table.row(land.new) && lift.new.is_empty(),
            "a simple move keeps its piece's row and empties its start"
        );
        let words = self.words;
        let (from, to) = (lift.slot as usize, land.slot as usize);
        debug_assert!(
            from < self.squares && to < self.squares,
            "simple moves stay on the board"
        );
        if let Some(row) = table.row(lift.old) {
            self.by_piece[row * words + from / 64] ^= 1 << (from % 64);
            self.by_piece[row * words + to / 64] ^= 1 << (to % 64);
        }
        if !land.old.is_empty()
            && let Some(row) = table.row(land.old)
        {
            let bit = 1u64 << (to % 64);
            let word = &mut self.by_piece[row * words + to / 64];
            *word = if forward { *word & !bit } else { *word | bit };
        }
    }

    /// What every move does after its changes: the hash takes the move's
    /// delta, the clock, the move number, the side, the phase and the en
    /// passant square move on.
    #[inline(always)]
    fn finish_make(
        &mut self,
        hash_delta: u64,
        (next, next_phase): (usize, u16),
        resets_clock: bool,
        ep: Option<Square>,
    ) {
        self.hash ^= hash_delta;
        self.clock = if resets_clock { 0 } else { self.clock + 1 };
        if next <= self.side as usize {
            self.fullmove += 1;
        }
        self.hash ^= side_key(self.side as usize) ^ side_key(next);
        self.side = next as u8;
        if next_phase != self.phase {
            self.hash ^= phase_key(self.phase) ^ phase_key(next_phase);
            self.phase = next_phase;
        }
        self.set_ep(ep);
    }

    /// The types (below 64) of the enemy pieces `mv`, a move of the side
    /// to move about to be made, removes or replaces with the mover's
    /// own, as bits.
    fn taken_types(&self, table: &CellTable, mv: MoveRef) -> u64 {
        mv.changes
            .iter()
            .map(|c| self.taken_type(table, c))
            .fold(0, |t, b| t | b)
    }

    /// The type (below 64) of the enemy piece change `c` (of a move of the
    /// side to move) removes or replaces with the mover's own, as a bit.
    #[inline]
    fn taken_type(&self, table: &CellTable, c: &Change) -> u64 {
        if c.old.is_empty() || c.slot as usize >= self.squares {
            return 0;
        }
        let old = table.info(c.old);
        if old.piece == NO_PIECE || old.owner == self.side || old.is_neutral() {
            return 0;
        }
        if c.new.is_empty() || table.info(c.new).owner == self.side {
            1 << old.piece.min(63)
        } else {
            0
        }
    }

    /// Takes back `mv`, which must be the last move made.
    pub fn undo(&mut self, table: &CellTable, mv: MoveRef) {
        let Some(ply) = self.history.pop() else {
            return;
        };
        if let Some((lift, land)) = Self::simple_pair(mv) {
            self.move_bits(table, lift, land, false);
            self.cells[lift.slot as usize] = lift.old;
            self.cells[land.slot as usize] = land.old;
        } else {
            for c in mv.changes.iter().rev() {
                self.write(table, c.slot as usize, c.new, c.old);
            }
        }
        self.hash = ply.hash_before;
        self.clock = ply.clock_before;
        self.fullmove = ply.fullmove_before;
        self.ep = ply.ep_before;
        self.side = ply.side_before;
        self.phase = ply.phase_before;
    }

    /// The hash computed from scratch; equals [`Position::hash`] when the
    /// incremental updates are right.
    pub fn recompute_hash(&self) -> u64 {
        let mut h = side_key(self.side as usize);
        for (slot, c) in self.cells.iter().enumerate() {
            h ^= slot_key(slot, *c);
        }
        if let Some(sq) = self.ep {
            h ^= ep_key(sq);
        }
        h ^ phase_key(self.phase)
    }

    /// How many earlier positions (within the reversible stretch since the
    /// last clock reset) had the same hash as this one.
    pub fn repetitions(&self) -> u32 {
        let window = (self.clock as usize).min(self.history.len());
        self.history[self.history.len() - window..]
            .iter()
            .filter(|p| p.hash_before == self.hash)
            .count() as u32
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.players
    }
}

/// Iterates over the set bits of bitset words as squares.
pub fn squares_of(words: &[u64]) -> impl Iterator<Item = Square> + '_ {
    words.iter().enumerate().flat_map(|(w, &bits)| {
        let mut b = bits;
        std::iter::from_fn(move || {
            if b == 0 {
                return None;
            }
            let i = b.trailing_zeros();
            b &= b - 1;
            Some(Square((w * 64 + i as usize) as u16))
        })
    })
}
