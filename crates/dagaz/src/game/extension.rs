//! The extension API: rules written in Rust that the notation cannot
//! express. A [`Handler`] is called from a move expression (`[1]`..`[9]`,
//! `notation.md` §9) and answers with the ways the path may go on; an
//! [`EndRule`] decides when a game is over and may forbid or add moves.
//! The game holds them as trait objects; the built-in ones and the
//! registry that names them are in `crate::handler`.

use super::{Game, GameResult};
use crate::board::Square;
use crate::position::{Cell, MoveList, NO_PIECE, Position};

/// What a handler may look at.
pub struct HandlerContext<'a> {
    pub game: &'a Game,
    /// The working board of the path (the path's own effects included).
    pub cells: &'a [Cell],
    pub cursor: Square,
    /// The piece in the hand, or [`Cell::EMPTY`].
    pub hand: Cell,
    /// The moving player.
    pub player: usize,
    /// Where the moving piece started (none for a drop from a hand).
    pub origin: Option<Square>,
    /// The square of the latest capture of this move, if any.
    pub last_capture: Option<Square>,
}

/// A piece on the board, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceOn {
    pub piece: u16,
    pub owner: usize,
}

impl HandlerContext<'_> {
    /// The number of pieces on `sq` (heap boards).
    pub fn count(&self, sq: Square) -> u16 {
        self.cells.get(sq.index()).map_or(0, |c| c.0)
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<PieceOn> {
        let c = *self.cells.get(sq.index())?;
        let info = self.game.cells.info(c);
        (!c.is_empty() && !c.is_marked() && info.piece != NO_PIECE).then_some(PieceOn {
            piece: info.piece,
            owner: info.owner as usize,
        })
    }
}

/// One way for the path to continue after a handler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Branch {
    /// Where the cursor is afterwards.
    pub cursor: Square,
    /// Squares whose pieces are captured (as by `[x]`); the branch fails if
    /// one of them is empty.
    pub captures: Vec<Square>,
    /// Squares given new contents, applied after the captures: a piece
    /// code from `game.cells`, or on heap boards the number of pieces.
    pub sets: Vec<(Square, Cell)>,
    /// The same player moves again after this move (Kalah's extra turn).
    pub again: bool,
    /// The move ends on the cursor's square (the square where the moving
    /// piece was put down becomes a landing): a move that places a piece
    /// after moving one, as Amazons' arrow, is written and entered as
    /// start, landing, arrow.
    pub ends_here: bool,
    /// A piece of this type leaves the mover's hand (the branch fails if
    /// the hand holds none): the piece a handler puts on the board from
    /// the hand (Seirawan chess's gating).
    pub from_hand: Option<u16>,
}

impl Branch {
    /// Continue on `cursor` without effects.
    pub fn stay(cursor: Square) -> Branch {
        Branch {
            cursor,
            captures: Vec::new(),
            sets: Vec::new(),
            again: false,
            ends_here: false,
            from_hand: None,
        }
    }

    /// Also captures the piece on `sq`.
    pub fn capture(mut self, sq: Square) -> Branch {
        self.captures.push(sq);
        self
    }

    /// Takes a piece of type `piece` from the mover's hand.
    pub fn from_hand(mut self, piece: u16) -> Branch {
        self.from_hand = Some(piece);
        self
    }

    /// Also puts `cell` on `sq`.
    pub fn set(mut self, sq: Square, cell: Cell) -> Branch {
        self.sets.push((sq, cell));
        self
    }

    /// The mover moves again after this move.
    pub fn again(mut self) -> Branch {
        self.again = true;
        self
    }

    /// The move ends on the cursor's square (see [`Branch::ends_here`]).
    pub fn ends_here(mut self) -> Branch {
        self.ends_here = true;
        self
    }
}

/// Rust code called from a move expression.
pub trait Handler: Send + Sync {
    /// Appends the ways the path may continue to `out` (nothing = fail).
    /// Must give the same answer for the same context.
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>);

    /// True if reading the handler as doing nothing leaves the captures of
    /// the program unchanged: it captures nothing itself, and whatever a
    /// path through it captures, the program captures without it too, or
    /// nothing (gating adds a variant of a move; castling captures
    /// nothing). Attack detection then keeps its fast tables, and never
    /// calls the handler.
    fn transparent_to_attacks(&self) -> bool {
        false
    }

    /// For a handler that only tests the cursor's square, and continues
    /// there without effects exactly when the test passes: the test, so
    /// that attack detection can read the programs that call it (and keep
    /// its fast tables, and move generation can fuse the moves that call
    /// it). `None` for every other handler. `pieces` are the game's piece
    /// names, in the order of their types.
    fn square_test(&self, pieces: &[String]) -> Option<SquareTest> {
        let _ = pieces;
        None
    }
}

/// A test of one square that a handler may stand for
/// ([`Handler::square_test`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareTest {
    /// The square holds a piece, of either side, that is not of this type
    /// (or the stand-in for "some piece" that attack questions put on an
    /// empty square, which is of no type).
    NotType(u16),
}

/// Rust code that decides when a game is over, before the goals of the
/// game file are looked at (mancala scoring, janggi's bikjang). Named in
/// the game file as `[handlers] end = "name"`.
pub trait EndRule: Send + Sync {
    /// The result if the game is over in `pos`, where the side to move has
    /// `legal_moves` legal moves; `None` lets the goals decide. Only
    /// whether the count is zero may matter: random playouts stop at the
    /// first legal move they find and pass 1 for "some".
    fn result(&self, game: &Game, pos: &Position, legal_moves: usize) -> Option<GameResult>;

    /// Whether the rule also forbids moves ([`EndRule::forbid`]).
    fn forbids_moves(&self) -> bool {
        false
    }

    /// Whether the rule restricts taking Lions (chu shogi's): positions
    /// then note in their third SFEN field where a Lion was just taken by
    /// a piece that is not a Lion.
    fn restricts_lion_trading(&self) -> bool {
        false
    }

    /// Clears `keep[i]` for the moves of `moves` (legal for royal safety)
    /// that the rule forbids in `pos`; it may make and take back moves.
    /// Janggi: when the generals face each other, the side to move must
    /// part them or pass.
    fn forbid(&self, _game: &Game, _pos: &mut Position, _moves: &MoveList, _keep: &mut [bool]) {}

    /// Whether the rule also adds moves ([`EndRule::complete`]).
    fn adds_moves(&self) -> bool {
        false
    }

    /// For a rule that forbids or adds moves: true if in `pos` it does
    /// neither (the game is not over, and neither `forbid` nor `complete`
    /// would change the legal moves), so that they may be generated
    /// pseudo-legal and tested one by one. False (the default) always
    /// lists them in full.
    fn leaves_moves(&self, _game: &Game, _pos: &Position) -> bool {
        false
    }

    /// Last word on the legal moves of `pos`: may replace them (four-player
    /// chess: a player without a King passes; a mated player resigns).
    fn complete(&self, _game: &Game, _pos: &Position, _moves: &mut MoveList) {}

    /// Whether `pos` may have the player who just moved in check (janggi:
    /// with the generals facing, a player in check may pass).
    fn allows_check_left(&self, _game: &Game, _pos: &Position) -> bool {
        false
    }
}
