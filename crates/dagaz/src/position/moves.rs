//! Moves as values: the net changes a move makes to the position, plus what
//! people and protocols need to name it (start, landing squares of each
//! part, promotion).
//!
//! A [`MoveList`] stores many moves in three flat arrays so that generating
//! moves allocates nothing once the list has grown; [`Move`] is the owned
//! form for front ends.

use super::{Change, NO_PIECE};
use crate::board::Square;

const NONE: u16 = u16::MAX;

/// Fixed-size description of a move; its changes and landings live in the
/// owning list (or [`Move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveHeader {
    changes_at: u32,
    changes_len: u16,
    landings_at: u32,
    landings_len: u16,
    pub(crate) from: u16,
    pub(crate) to: u16,
    /// Type of the moving piece.
    pub piece: u16,
    /// The player who makes the move.
    pub player: u8,
    /// Priority of the move alternative that produced it.
    pub priority: u8,
    /// Number of enemy pieces removed or replaced.
    pub captures: u16,
    /// Type the piece promotes to, or [`NO_PIECE`].
    pub promotion: u16,
    /// XOR of the Zobrist keys of all changes.
    pub hash_delta: u64,
    /// Order of the captures along the path, when paths with the same
    /// effect are kept apart (otherwise 0).
    pub path_key: u64,
    /// Which pieces the capture took first, for the capture-precedence
    /// test `earliest:Type`: bit 63 − i is set when the i-th piece taken
    /// along the path is of that type, so that a higher rank took them
    /// earlier (0 in games without the test).
    pub earliest_mask: u64,
    /// The same player moves again after this move (Kalah's extra turn).
    pub again: bool,
    /// The move attacks a royal piece of another player. Set only in games
    /// that count checks or forbid them (`Game::watches_checks`).
    pub gives_check: bool,
    /// The move lifts the mover from `from` and puts it on `to` (its two
    /// changes), taking what stood there if `captures` is 1: what
    /// [`Position::make`](super::Position::make) needs to know of a move
    /// to make it quickly.
    pub(crate) simple: bool,
}

impl MoveHeader {
    pub(crate) fn new(piece: u16, from: Option<Square>, to: Option<Square>, priority: u8) -> Self {
        MoveHeader {
            changes_at: 0,
            changes_len: 0,
            landings_at: 0,
            landings_len: 0,
            from: from.map_or(NONE, |s| s.0),
            to: to.map_or(NONE, |s| s.0),
            piece,
            player: 0,
            priority,
            captures: 0,
            promotion: NO_PIECE,
            hash_delta: 0,
            path_key: 0,
            earliest_mask: 0,
            again: false,
            gives_check: false,
            simple: false,
        }
    }

    /// The square the moving piece started from (none for drops).
    #[inline]
    pub fn from(&self) -> Option<Square> {
        (self.from != NONE).then_some(Square(self.from))
    }

    /// The square where the moving piece ended.
    #[inline]
    pub fn to(&self) -> Option<Square> {
        (self.to != NONE).then_some(Square(self.to))
    }

    pub fn promotion(&self) -> Option<u16> {
        (self.promotion != NO_PIECE).then_some(self.promotion)
    }
}

/// A borrowed move.
#[derive(Clone, Copy, Debug)]
pub struct MoveRef<'a> {
    pub header: &'a MoveHeader,
    pub changes: &'a [Change],
    /// Landing squares of the parts before the last (`|^` boundaries).
    pub landings: &'a [Square],
}

impl MoveRef<'_> {
    /// The same move: the same changes by the same path (a move found on a
    /// copy of the position is found again in the real one's list).
    pub fn same_as(&self, other: MoveRef) -> bool {
        self.changes == other.changes && self.landings == other.landings
    }

    pub fn to_owned(&self) -> Move {
        Move {
            header: *self.header,
            changes: self.changes.to_vec(),
            landings: self.landings.to_vec(),
        }
    }
}

/// An owned move. Its changes are the ones it was generated with: a
/// header copied onto other changes may describe them wrongly
/// ([`MoveHeader`]'s `simple` flag tells `make` and `undo` what the two
/// changes of a simple move are).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub header: MoveHeader,
    pub changes: Vec<Change>,
    pub landings: Vec<Square>,
}

impl Move {
    /// A move that changes nothing: `player` passes (the search's null
    /// move).
    pub fn pass(player: usize) -> Move {
        let mut header = MoveHeader::new(super::NO_PIECE, None, None, 0);
        header.player = player as u8;
        Move {
            header,
            changes: Vec::new(),
            landings: Vec::new(),
        }
    }

    pub fn as_ref(&self) -> MoveRef<'_> {
        MoveRef {
            header: &self.header,
            changes: &self.changes,
            landings: &self.landings,
        }
    }

    pub fn from(&self) -> Option<Square> {
        self.header.from()
    }

    pub fn to(&self) -> Option<Square> {
        self.header.to()
    }
}

/// A reusable list of moves.
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    headers: Vec<MoveHeader>,
    changes: Vec<Change>,
    landings: Vec<Square>,
}

impl MoveList {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn clear(&mut self) {
        self.headers.clear();
        self.changes.clear();
        self.landings.clear();
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.headers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.headers.is_empty()
    }

    pub(crate) fn push(&mut self, mut header: MoveHeader, changes: &[Change], landings: &[Square]) {
        header.changes_at = self.changes.len() as u32;
        header.changes_len = changes.len() as u16;
        header.landings_at = self.landings.len() as u32;
        header.landings_len = landings.len() as u16;
        self.changes.extend_from_slice(changes);
        if !landings.is_empty() {
            self.landings.extend_from_slice(landings);
        }
        self.headers.push(header);
    }

    #[inline]
    pub fn get(&self, i: usize) -> MoveRef<'_> {
        let h = &self.headers[i];
        let c = h.changes_at as usize;
        let l = h.landings_at as usize;
        MoveRef {
            header: h,
            changes: &self.changes[c..c + h.changes_len as usize],
            landings: &self.landings[l..l + h.landings_len as usize],
        }
    }

    pub fn header(&self, i: usize) -> &MoveHeader {
        &self.headers[i]
    }

    pub(crate) fn header_mut(&mut self, i: usize) -> &mut MoveHeader {
        &mut self.headers[i]
    }

    pub fn iter(&self) -> impl Iterator<Item = MoveRef<'_>> {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Keeps the moves for which `keep` is true (by index), in order.
    pub fn retain_indices(&mut self, mut keep: impl FnMut(usize) -> bool) {
        let mut j = 0;
        for i in 0..self.headers.len() {
            if keep(i) {
                self.headers[j] = self.headers[i];
                j += 1;
            }
        }
        self.headers.truncate(j);
    }

    /// The index of the move [`MoveRef::same_as`] `mv`, if it is listed.
    pub fn index_of(&self, mv: MoveRef) -> Option<usize> {
        self.iter().position(|m| m.same_as(mv))
    }

    pub fn to_vec(&self) -> Vec<Move> {
        self.iter().map(|m| m.to_owned()).collect()
    }
}
