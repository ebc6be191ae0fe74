//! What a square holds, as a small integer, and the table that decodes it.
//!
//! A cell is 0 (empty) or the code of a (piece type, owner, number,
//! has-moved) combination. The number is 0 except in games whose pieces
//! carry one (Rithmomachia's values; see [`CellTable::numbered`]). The move generator sets the top bit on pieces captured
//! under the deferred-capture rule while a move is being built; positions
//! never hold marked cells.

/// Contents of one board slot.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Cell(pub u16);

/// "No piece type" in [`CellInfo::piece`].
pub const NO_PIECE: u16 = u16::MAX;

/// The owner of a neutral piece ([`CellTable::with_neutral`]): nobody's.
pub const NEUTRAL: u8 = u8::MAX - 1;

impl Cell {
    pub const EMPTY: Cell = Cell(0);
    /// Bit set on a piece captured by a deferred capture.
    pub const MARK: u16 = 0x8000;

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub fn is_marked(self) -> bool {
        self.0 & Cell::MARK != 0
    }

    #[inline]
    pub fn marked(self) -> Cell {
        Cell(self.0 | Cell::MARK)
    }

    #[inline]
    pub fn unmarked(self) -> Cell {
        Cell(self.0 & !Cell::MARK)
    }
}

/// What a cell is to one player ([`CellTable::content`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Content {
    Empty,
    Friend,
    Enemy,
    /// A marked piece (taken under deferred capture) or a neutral one.
    Other,
}

/// Decoded cell.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CellInfo {
    /// Piece type, or [`NO_PIECE`] for an empty cell and for phantoms.
    pub piece: u16,
    /// Owner; meaningless for empty cells.
    pub owner: u8,
    pub moved: bool,
    /// The piece's number (0 unless the game's pieces carry numbers).
    pub number: u16,
    /// A stand-in enemy used when asking "would this square be attacked if
    /// an enemy stood here".
    pub phantom: bool,
}

impl CellInfo {
    /// A piece that belongs to nobody (a wall, the duck): neither friend
    /// nor enemy to anyone, never captured.
    #[inline]
    pub fn is_neutral(&self) -> bool {
        self.owner == NEUTRAL
    }
}

/// Encodes and decodes cells for one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellTable {
    players: usize,
    types: usize,
    /// Numbers a piece may carry: 0..numbers (1 when pieces carry none).
    numbers: usize,
    table: Vec<CellInfo>,
    /// Per code: `owner * types + piece`, the position's bitset row of the
    /// piece, or [`NO_ROW`] for empty cells, phantoms and neutral pieces.
    rows: Vec<u32>,
    /// Cells are counts of pieces (heap boards), not piece codes.
    counts: bool,
    /// Per piece type: it is neutral (empty if no type is).
    neutral: Vec<bool>,
    /// Per player, then per code: what the cell is to that player
    /// ([`Content`]), read by the move generator's content tests at every
    /// square it looks at (empty for counts).
    contents: Vec<Content>,
    /// Per piece type: the number a new piece carries (its attributes'
    /// values; empty: 0 for every type).
    defaults: Vec<u16>,
}

/// [`CellTable::row`] of a cell in no bitset.
const NO_ROW: u32 = u32::MAX;

/// What every cell of a heap board decodes to: no piece, no owner.
const COUNT: CellInfo = CellInfo {
    piece: NO_PIECE,
    owner: u8::MAX,
    moved: false,
    number: 0,
    phantom: false,
};

impl CellTable {
    pub fn new(players: usize, types: usize) -> CellTable {
        CellTable::numbered(players, types, 1)
    }

    /// The table of a game whose pieces carry a number below `numbers`.
    /// Codes must stay below [`Cell::MARK`]: see [`CellTable::fits`].
    pub fn numbered(players: usize, types: usize, numbers: usize) -> CellTable {
        let numbers = numbers.max(1);
        let mut table = vec![CellInfo {
            piece: NO_PIECE,
            owner: 0,
            moved: false,
            number: 0,
            phantom: false,
        }];
        for piece in 0..types {
            for owner in 0..players {
                for number in 0..numbers {
                    for moved in [false, true] {
                        table.push(CellInfo {
                            piece: piece as u16,
                            owner: owner as u8,
                            moved,
                            number: number as u16,
                            phantom: false,
                        });
                    }
                }
            }
        }
        for owner in 0..players {
            table.push(CellInfo {
                piece: NO_PIECE,
                owner: owner as u8,
                moved: false,
                number: 0,
                phantom: true,
            });
        }
        let rows = table
            .iter()
            .map(|i| {
                if i.piece == NO_PIECE {
                    NO_ROW
                } else {
                    i.owner as u32 * types as u32 + i.piece as u32
                }
            })
            .collect();
        CellTable {
            players,
            types,
            numbers,
            table,
            rows,
            counts: false,
            neutral: Vec::new(),
            contents: Vec::new(),
            defaults: Vec::new(),
        }
        .with_contents()
    }

    /// Fills in [`CellTable::contents`] from the decoded cells.
    fn with_contents(mut self) -> CellTable {
        self.contents = (0..self.players)
            .flat_map(|player| self.table.iter().map(move |info| (player, info)))
            .enumerate()
            .map(|(code, (player, info))| match code % self.table.len() {
                0 => Content::Empty,
                _ if info.owner as usize == player => Content::Friend,
                _ if info.is_neutral() => Content::Other,
                _ => Content::Enemy,
            })
            .collect();
        self
    }

    /// What `c` is to `player`: empty, a piece (or phantom) of the
    /// player's, an enemy piece (or another player's phantom), or
    /// something else (a marked or neutral piece). Cells that are counts
    /// are enemies when not empty; a code beyond the table (which no
    /// board square holds; a hand's count may) is something else.
    #[inline(always)]
    pub fn content(&self, player: usize, c: Cell) -> Content {
        if c.is_empty() {
            return Content::Empty;
        }
        if c.is_marked() {
            return Content::Other;
        }
        let at = player * self.table.len() + c.0 as usize;
        match self.contents.get(at) {
            Some(&content) if (c.0 as usize) < self.table.len() => content,
            _ if self.counts => Content::Enemy,
            _ => Content::Other,
        }
    }

    /// The same table in which the pieces of the types marked in `neutral`
    /// belong to nobody: they decode with the owner [`NEUTRAL`], never
    /// "moved", are in no player's bitsets, and [`CellTable::piece`] gives
    /// one code for each such type whatever owner it is asked for.
    pub fn with_neutral(mut self, neutral: Vec<bool>) -> CellTable {
        if !neutral.iter().any(|n| *n) || self.counts {
            return self;
        }
        for (code, info) in self.table.iter_mut().enumerate() {
            if info.piece != NO_PIECE && neutral.get(info.piece as usize) == Some(&true) {
                info.owner = NEUTRAL;
                info.moved = false;
                self.rows[code] = NO_ROW;
            }
        }
        self.neutral = neutral;
        self.with_contents()
    }

    /// The same table in which [`CellTable::piece`] gives a piece of type
    /// `t` the number `defaults[t]` (the values of its attributes when it
    /// is set up, dropped or created).
    pub fn with_defaults(mut self, defaults: Vec<u16>) -> CellTable {
        if defaults.iter().any(|d| *d != 0) && !self.counts {
            self.defaults = defaults;
        }
        self
    }

    /// True if pieces of type `piece` belong to nobody.
    #[inline]
    pub fn is_neutral_type(&self, piece: u16) -> bool {
        self.neutral.get(piece as usize) == Some(&true)
    }

    /// Whether a game of this size has cell codes for every combination.
    pub fn fits(players: usize, types: usize, numbers: usize) -> bool {
        players * types * numbers.max(1) * 2 + players < Cell::MARK as usize
    }

    /// The largest number a piece can carry, plus one.
    pub fn numbers(&self) -> usize {
        self.numbers
    }

    /// The table of a heap board, where a cell is the number of pieces on
    /// its square: every cell decodes to "no piece, nobody's".
    pub fn counts(players: usize, types: usize) -> CellTable {
        CellTable {
            counts: true,
            // Counts have no owners: no bitset rows.
            rows: Vec::new(),
            contents: Vec::new(),
            ..CellTable::new(players, types)
        }
    }

    /// True for heap boards (see [`CellTable::counts`]).
    #[inline]
    pub fn is_counts(&self) -> bool {
        self.counts
    }

    /// The bitset row (`owner * types + piece`) of a piece.
    #[inline]
    pub fn row(&self, c: Cell) -> Option<usize> {
        match self.rows.get(c.unmarked().0 as usize) {
            Some(&row) if row != NO_ROW => Some(row as usize),
            _ => None,
        }
    }

    #[inline]
    pub fn piece(&self, piece: u16, owner: usize, moved: bool) -> Cell {
        let number = self.defaults.get(piece as usize).copied().unwrap_or(0);
        self.numbered_piece(piece, owner, moved, number)
    }

    /// A piece carrying `number` (which must be below [`CellTable::numbers`]).
    #[inline]
    pub fn numbered_piece(&self, piece: u16, owner: usize, moved: bool, number: u16) -> Cell {
        let (owner, moved) = if self.is_neutral_type(piece) {
            (0, false)
        } else {
            (owner, moved)
        };
        let kind = (piece as usize * self.players + owner) * self.numbers + number as usize;
        Cell((1 + kind * 2 + moved as usize) as u16)
    }

    /// A phantom piece of `owner` (see [`CellInfo::phantom`]).
    pub fn phantom(&self, owner: usize) -> Cell {
        Cell((1 + self.types * self.players * self.numbers * 2 + owner) as u16)
    }

    /// Decodes a cell (the deferred-capture mark is ignored).
    #[inline(always)]
    pub fn info(&self, c: Cell) -> CellInfo {
        if self.counts {
            return COUNT;
        }
        self.table
            .get(c.unmarked().0 as usize)
            .copied()
            .unwrap_or(self.table[0])
    }

    /// True if the cell holds a real piece or a phantom.
    #[inline]
    pub fn occupied(&self, c: Cell) -> bool {
        !c.is_empty()
    }

    /// The same piece with its has-moved flag set to `moved`.
    pub fn with_moved(&self, c: Cell, moved: bool) -> Cell {
        let i = self.info(c);
        if i.piece == NO_PIECE || i.is_neutral() {
            c
        } else {
            self.numbered_piece(i.piece, i.owner as usize, moved, i.number)
        }
    }

    /// The same piece carrying `number` instead.
    pub fn with_number(&self, c: Cell, number: u16) -> Cell {
        let i = self.info(c);
        if i.piece == NO_PIECE || i.is_neutral() || number as usize >= self.numbers {
            c
        } else {
            self.numbered_piece(i.piece, i.owner as usize, i.moved, number)
        }
    }

    /// Number of distinct codes (for tables indexed by cell).
    pub fn len(&self) -> usize {
        self.table.len()
    }

    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let t = CellTable::new(2, 6);
        for piece in 0..6u16 {
            for owner in 0..2 {
                for moved in [false, true] {
                    let c = t.piece(piece, owner, moved);
                    let i = t.info(c);
                    assert_eq!((i.piece, i.owner as usize, i.moved), (piece, owner, moved));
                    assert_eq!(t.info(c.marked()), i);
                }
            }
        }
        let t = CellTable::numbered(2, 4, 362);
        let c = t.numbered_piece(3, 1, false, 361);
        let i = t.info(c);
        assert_eq!((i.piece, i.owner, i.number, i.moved), (3, 1, 361, false));
        assert_eq!(t.info(t.with_moved(c, true)).number, 361);
        assert_eq!(t.info(t.with_number(c, 7)).number, 7);
        let p = t.info(t.phantom(1));
        assert!(p.phantom && p.owner == 1 && p.piece == NO_PIECE);
        assert_eq!(t.info(Cell::EMPTY).piece, NO_PIECE);
    }

    #[test]
    fn neutral_pieces_belong_to_nobody() {
        let t = CellTable::new(2, 3).with_neutral(vec![false, false, true]);
        let duck = t.piece(2, 1, true);
        assert_eq!(duck, t.piece(2, 0, false));
        let i = t.info(duck);
        assert!(i.is_neutral() && !i.moved && i.piece == 2);
        assert_eq!(t.row(duck), None);
        assert_eq!(t.with_moved(duck, true), duck);
        assert_eq!(t.info(t.piece(1, 1, true)).owner, 1);
    }
}
