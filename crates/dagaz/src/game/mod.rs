//! The compiled game: players, board, piece types with their programs,
//! rules and goals. A [`Game`] is immutable once loaded and shared by
//! every position of that game.

pub(crate) mod attacks;
pub mod display;
pub mod extension;
pub mod numbers;
pub(crate) mod reach;
mod rules;
mod shuffle;

pub use rules::{
    Compare, Condition, ConfigCell, GameResult, Goal, GoalNames, Goals, Outcome, parse_goal,
};
pub use shuffle::Shuffle;

use std::fmt;
use std::sync::Arc;

use crate::board::{Dir, DirMap, Square, Topology, Zones};
use crate::notation::Program;
use crate::position::{Cell, CellTable, MoveRef, NO_PIECE, Position};
use attacks::Attacks;
use extension::{EndRule, Handler, SquareTest};

/// A player: name, the letter used for it in position strings, and how it
/// reads directions.
#[derive(Clone, Debug)]
pub struct Player {
    pub name: String,
    pub letter: char,
    pub map: DirMap,
    /// The board direction this player calls `N`, if the board has one.
    pub north: Option<crate::board::Dir>,
}

/// A piece type.
#[derive(Clone, Debug)]
pub struct PieceType {
    pub name: String,
    /// Letter in position strings (upper case; the second player's pieces
    /// are written in lower case).
    pub letter: char,
    pub value: i32,
    /// What it counts for in the capture-precedence test `value`
    /// (`capture_value`, by default `value`; below 0 it counts as 0).
    pub capture_value: i32,
    /// Losing it (or leaving it attacked, with royal safety) loses the game.
    pub royal: bool,
    /// A move of this piece restarts the no-progress clock (chess pawns).
    pub resets_clock: bool,
    /// The piece carries a "has moved" flag (it is read by some `m`/`M`).
    pub tracks_moved: bool,
    pub promotion: Option<Promotion>,
    /// One program per player.
    pub programs: Vec<Program>,
    pub description: String,
    /// Piece-square hints for the evaluation, per square, for the first
    /// player (empty if the file gives none).
    pub square_values: Vec<i32>,
    /// The same for the endgame (empty: `square_values` throughout).
    pub endgame_square_values: Vec<i32>,
    /// How the piece is written in position strings: its letter, or e.g.
    /// `+P` for a promoted shogi piece.
    pub symbol: String,
    /// Its letter in SAN records, where that is not its position letter.
    pub san: Option<char>,
    /// What the piece becomes when captured into a hand (a promoted piece
    /// goes back to its base piece).
    pub demotes_to: Option<u16>,
    /// Programs that drop the piece from its owner's hand, one per player;
    /// empty if the piece cannot be dropped.
    pub drop_programs: Vec<Program>,
    /// What the page draws for the piece, one per player.
    pub glyphs: Vec<String>,
    /// The page draws the glyph upside down.
    pub upside_down: bool,
    /// Per player: the parts a piece of this type is made of (empty for
    /// most pieces; see [`numbers`]).
    pub parts: Vec<Vec<numbers::Part>>,
    /// How many of this piece each player has on the board in every
    /// position of the game (`count`: a King, exactly one), if the game
    /// says.
    pub count: Option<(u16, u16)>,
    /// Zones (each player's own) where this piece never stands.
    pub never_in: Vec<usize>,
    /// The zone (each player's own) this piece never leaves.
    pub only_in: Option<usize>,
    /// The piece belongs to nobody: neither friend nor enemy, never
    /// captured, never moved by its own programs (walls, the duck).
    pub neutral: bool,
}

/// What a piece may become when it ends a move in a zone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Promotion {
    pub zone: usize,
    /// What the piece may become: for every player, or (`by_player`) the
    /// union of what each may.
    pub to: Vec<u16>,
    /// Per player, where the players' choices differ (empty otherwise).
    pub by_player: Vec<Vec<u16>>,
    /// The piece may also stay as it is.
    pub optional: bool,
    /// Moves that start in the zone promote too (shogi).
    pub from_zone: bool,
    /// The piece promotes (to the first of `to`) the moment it is dropped
    /// in the zone, also between the parts of a move, and goes on as the
    /// promoted piece (Russian draughts).
    pub immediate: bool,
    /// Ending a move in this zone, the piece must promote (a shogi pawn on
    /// the last rank could never move again).
    pub forced_zone: Option<usize>,
    /// Only to a piece type its owner has fewer of on the board than in
    /// the setup (Grand chess: a pawn promotes to a captured piece).
    pub captured_only: bool,
    /// Chu shogi's rule: a move may promote when it enters the zone from
    /// outside, or captures with its start or landing square in the zone.
    pub entering_or_capturing: bool,
    /// Ending a move in this zone also allows promotion (chu shogi's pawn
    /// and lance on the last rank).
    pub also_zone: Option<usize>,
    /// A piece of this type in hand may also be dropped as any of `to`
    /// (Kyoto shogi, Fairy-Stockfish's `dropPromoted`).
    pub drops: bool,
    /// Targets a player may promote to only while it has fewer than this
    /// many of them on the board (Spartan chess: a second King at most).
    pub limits: Vec<(u16, u16)>,
    /// With `captured_only`: per player, per piece type, the setup's count.
    pub setup_counts: Vec<Vec<u16>>,
    /// A move of the piece that captures an enemy piece of one of these
    /// types promotes (to any of `to`), wherever it ends, and must (Ko
    /// shogi: a piece that takes a General promotes on the spot). Not read
    /// with `immediate`.
    pub capturing: Vec<u16>,
}

impl Promotion {
    /// What a piece of `player` may promote to.
    pub fn targets(&self, player: usize) -> &[u16] {
        self.by_player.get(player).unwrap_or(&self.to)
    }
}

/// Game-level rules that choose among the generated moves.
#[derive(Clone, Debug, Default)]
pub struct Rules {
    /// A move may not leave one of the mover's royal pieces attacked.
    pub royal_safety: bool,
    /// If any capture exists, moves without captures are illegal.
    pub capture_priority: bool,
    /// Which captures are legal when several are possible: the tests
    /// applied in order, each keeping the moves that score best (empty: any
    /// capture).
    pub maximum_capture: Vec<CaptureTest>,
    /// `x` marks pieces and removes them when the move ends.
    pub deferred_captures: bool,
    /// Players may move any piece, each as its owner would (the prologue's
    /// ownership test is off: Stavropol checkers).
    pub move_any_piece: bool,
    /// Captured pieces go to the capturer's hand (demoted), from where
    /// they can be dropped (shogi).
    pub captures_to_hand: bool,
    /// Stack boards: `x` puts the captured top piece under the stack being
    /// carried (Lasca, Bashni) instead of removing it.
    pub capture_to_bottom: bool,
    /// Drops of these pieces may not give checkmate (shogi's uchifuzume).
    pub no_drop_mate: Vec<u16>,
    pub goals: Goals,
    /// When the side to move may pass.
    pub pass: PassRule,
    /// Who moves when, if not each player in turn.
    pub turns: Option<TurnOrder>,
    /// While the side to move holds pieces in hand, it must drop one
    /// (placement chess).
    pub drops_first: bool,
    /// A move may not attack an enemy royal piece (racing kings).
    pub no_checks: bool,
    /// A drop may not attack an enemy royal piece (supply chess).
    pub no_drop_checks: bool,
    /// A piece dropped from a hand counts as having moved (it cannot
    /// castle: crazyhouse); otherwise it is dropped unmoved (placement).
    pub dropped_pieces_have_moved: bool,
    /// Every capture explodes: the capturing piece and every piece one
    /// king step from the landing square, but those of the immune types,
    /// leave the board (atomic chess). With royal safety, a move may not
    /// explode the mover's own royal piece, a move that explodes the
    /// enemy's is legal, and a royal piece next to an enemy royal piece is
    /// never attacked.
    pub captures_explode: bool,
    /// Players hold pieces in hand even if no piece drops from it (the
    /// pieces Seirawan chess brings in by gating).
    pub hands: bool,
    pub explosion_immune: Vec<u16>,
    /// With `captures_explode`: piece types no explosion removes, not even
    /// when they make the capture (atomar chess's King).
    pub explosion_proof: Vec<u16>,
    /// Piece types that burn (Tenjiku shogi's Fire Demon): after one of
    /// them moves, the enemy pieces next to where it ended are captured;
    /// any piece that ends its move next to an enemy one of them is
    /// removed instead, and then burns nothing.
    pub burning: Vec<u16>,
    /// A piece with a piece of its own side next to it in this direction
    /// (in its owner's terms: Annan shogi's `S`, behind it) moves as that
    /// piece (Annan shogi). Captures and checks follow.
    pub borrowed_moves: Option<crate::board::Dir>,
    /// When a player with several royal pieces is in check.
    pub royal_check: RoyalCheck,
    /// Every move ends by moving this neutral piece to another empty
    /// square, or putting it on any empty square while it is not on the
    /// board (duck chess's Duck).
    pub move_neutral: Option<u16>,
    /// Until the first capture every player may move at any time (phase
    /// [`FREE_PHASE`] of the position); then the players alternate, the
    /// capturer's opponent first (Ethiopian chess's werera).
    pub free_opening: bool,
    /// A piece of this type may make only so many non-capturing moves in a
    /// row while its player has pieces of other types (Frisian draughts:
    /// a king, three).
    pub consecutive_moves: Option<ConsecutiveMoves>,
    /// A move may not bring back an earlier position (Go's ko, Dagaz's
    /// `ko` option).
    pub ko: Option<Ko>,
}

impl Rules {
    /// The piece type of the capture-precedence test `earliest:Type`, if
    /// the game has one (it may have only one).
    pub fn earliest_type(&self) -> Option<u16> {
        self.maximum_capture.iter().find_map(|t| match t {
            CaptureTest::Earliest(piece) => Some(*piece),
            _ => None,
        })
    }
}

/// The limit of `Rules::consecutive_moves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConsecutiveMoves {
    pub piece: u16,
    pub most: u16,
}

/// The position phase of a free opening (`Rules::free_opening`) that has
/// not ended yet; alternation is phase 1.
pub const FREE_PHASE: u16 = 0;

/// When a player with several royal pieces is in check (its royal pieces
/// are "attacked" for royal safety, checkmate and check counting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RoyalCheck {
    /// One of them is attacked (the usual rule).
    #[default]
    Any,
    /// Every one of them is attacked (Spartan chess's duple check).
    All,
    /// It has one left, and that one is attacked: while it has two, either
    /// may be left attacked or taken (sho shogi's King and Crown Prince).
    Last,
}

/// Which earlier positions a move may not bring back ([`Rules::ko`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ko {
    /// The position the mover's own previous move left (Go's basic ko:
    /// no immediate recapture that restores it).
    Simple,
    /// Any earlier position with the same player to move (situational
    /// superko).
    Situation,
}

/// When a player may pass (a move that changes nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PassRule {
    /// Never (unless a piece's moves allow it).
    #[default]
    Never,
    /// Always, besides the other moves.
    Allowed,
    /// Only when there is no other legal move (Reversi).
    Forced,
}

/// A turn order other than each player in turn: an opening sequence, then
/// a sequence repeated to the end (Marseillais chess, Connect6). The
/// position's phase (`Position::phase`) is the index in `opening` followed
/// by `repeat`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnOrder {
    pub opening: Vec<Turn>,
    pub repeat: Vec<Turn>,
}

/// One turn of a [`TurnOrder`]: who moves, whose pieces, and which moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The player whose turn it is: the side to move, whose royal pieces
    /// royal safety protects and whose goals are asked.
    pub player: usize,
    /// The player whose pieces move (and drop from its hand), each as that
    /// player moves it: its direction map and its zones. Usually `player`.
    pub pieces: usize,
    /// Only moves of this move type (an index of [`Game::move_types`]);
    /// `None`: any move.
    pub move_type: Option<u16>,
}

impl Turn {
    /// `player` moves its own pieces, any move.
    pub fn plain(player: usize) -> Turn {
        Turn {
            player,
            pieces: player,
            move_type: None,
        }
    }
}

impl TurnOrder {
    /// The phase after `phase`.
    pub fn next(&self, phase: u16) -> u16 {
        let (o, r) = (self.opening.len(), self.repeat.len().max(1));
        let next = phase as usize + 1;
        if next < o {
            next as u16
        } else {
            (o + (next - o) % r) as u16
        }
    }

    /// The turn at `phase`.
    pub fn turn(&self, phase: u16) -> Turn {
        let (o, r) = (self.opening.len(), self.repeat.len());
        let p = phase as usize;
        match (self.opening.get(p), r) {
            (Some(t), _) => *t,
            (None, 0) => Turn::plain(0),
            (None, _) => self.repeat[(p - o) % r],
        }
    }

    /// The player who moves at `phase`.
    pub fn player(&self, phase: u16) -> usize {
        self.turn(phase).player
    }

    /// The player of the turn before `phase`, if any turn comes before
    /// it: the first turn of the repeated part follows its last one (the
    /// opening is over by then), the game's first turn follows none.
    pub fn player_before(&self, phase: u16) -> Option<usize> {
        let (o, r) = (self.opening.len(), self.repeat.len());
        let before = match phase as usize {
            0 if o > 0 => return None,
            p if p == o => o + r.checked_sub(1)?,
            p => p - 1,
        };
        Some(self.turn(before as u16).player)
    }

    /// The first phase at which `player` moves after the opening (a
    /// position string names only the side to move), or the first of the
    /// opening if `player` moves first.
    pub fn phase_of(&self, player: usize) -> Option<u16> {
        let o = self.opening.len();
        if self.opening.first().is_some_and(|t| t.player == player) {
            return Some(0);
        }
        (0..self.repeat.len())
            .find(|&i| self.repeat[i].player == player)
            .map(|i| (o + i) as u16)
    }
}

/// The record formats of whole games (`crate::record`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// PGN; SAN moves where SAN applies, else dagaz's move text.
    Pgn,
    /// PDN: draughts games (`32-28`, `26x17`, `c3-c4`).
    Pdn,
    /// KIF: shogi games in the Japanese notation (`７六歩(77)`).
    Kif,
}

/// The form of a game's position strings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PositionFormat {
    /// FEN: rows of letters, side, castling, en passant, counters.
    #[default]
    Fen,
    /// PDN draughts positions (`W:W21,22:B1,2`) with these man and king types.
    Pdn { man: u16, king: u16 },
    /// SFEN shogi positions (`lnsgkgsnl/... b - 1`), with hands.
    Sfen,
    /// Counts of pieces per square, for heap boards (`4,4,4/4,4,4 s`).
    Counts,
}

/// One test of the capture-precedence rule (`maximum_capture`): among
/// the legal moves, only those that score best on it stay legal. Draughts
/// rule sets are lists of them: Italian's "the most pieces, then with a
/// king, then the most kings, then the kings first" is `[Pieces, By(King),
/// Most(King), Earliest(King)]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureTest {
    /// The most pieces captured.
    Pieces,
    /// The most value captured (the pieces' `capture_value`).
    Value,
    /// Made by a piece of this type.
    By(u16),
    /// The most pieces of this type captured.
    Most(u16),
    /// The pieces of this type taken earliest along the path (the first
    /// taken first, then the second, …).
    Earliest(u16),
}

/// How castling rights and the en passant field of a FEN map onto the
/// moved flags and the move history.
#[derive(Clone, Debug, Default)]
pub struct FenConfig {
    /// The form of position strings.
    pub format: PositionFormat,
    /// Letter, king square, rook square.
    pub castling: Vec<(char, Square, Square)>,
    /// Piece types whose double step sets the en passant square.
    pub en_passant: Vec<u16>,
    /// Other letters position strings may use for pieces (upper case), as
    /// Fairy-Stockfish writes them: shatranj's Alfil is its `B`.
    pub aliases: Vec<(char, u16)>,
    /// Pieces in hand in a position string are read and ignored (Fairy-
    /// Stockfish's older Ataxx kept the pieces to be placed in hand).
    pub ignore_hand: bool,
    /// The order in which SFEN writes pieces in hand, where it is not the
    /// order of the pieces in the game file (lishogi's Kyoto shogi: G T S P).
    pub hand_order: Vec<u16>,
    /// Chess960's castling letters (`KQkq` for the outermost Rooks, file
    /// letters for others), with this piece as the Rook.
    pub castling_960: Option<u16>,
}

/// A loaded game.
pub struct Game {
    /// Identifier (`chess`), used on the command line.
    pub name: String,
    /// Display name (`Chess`).
    pub title: String,
    /// The variants the game file defines: name and description. Load one
    /// as `game:variant`.
    pub variants: Vec<(String, String)>,
    pub description: String,
    /// The format of its records, where the game file names one (else
    /// the position format decides: `record::Format::of`).
    pub record: Option<RecordFormat>,
    /// What squares hold; decides the meaning of take, drop and capture.
    pub board_kind: crate::board::BoardKind,
    pub players: Vec<Player>,
    pub topology: Topology,
    pub zones: Zones,
    pub pieces: Vec<PieceType>,
    /// The move types the pieces' ZRF blocks name (`type`), in the order
    /// the game file first names them: turns restricted to one of them
    /// ([`Turn::move_type`]) index this list.
    pub move_types: Vec<String>,
    pub cells: CellTable,
    /// The names of the pieces' true/false attributes (ZRF's `attribute`):
    /// attribute `i` is bit `i` of a piece's cell number.
    pub attributes: Vec<String>,
    pub rules: Rules,
    pub fen: FenConfig,
    /// `[o]` flags per player.
    pub once_flags: u16,
    pub(crate) attacks: Attacks,
    /// Piece values the AI works out for a game whose file values no
    /// piece (`ai::eval::learned_values`), once per loaded game.
    pub(crate) learned_values: std::sync::OnceLock<Option<Vec<i32>>>,
    pub(crate) handlers: [Option<Arc<dyn Handler>>; 10],
    /// The test of one square that each handler stands for, if it does
    /// ([`Handler::square_test`]).
    pub(crate) square_tests: [Option<SquareTest>; 10],
    /// Decides when the game is over before the goals do (`[handlers] end`).
    pub(crate) end_rule: Option<Arc<dyn EndRule>>,
    /// The move alternatives have different priorities.
    pub(crate) uses_priorities: bool,
    pub(crate) royal_types: Vec<u16>,
    pub(crate) initial: Position,
    /// How the setup is shuffled for each new game, if it is.
    pub shuffle: Option<Shuffle>,
    /// Zobrist keys of board squares, `[square * cells.len() + code]`.
    pub(crate) keys: Vec<u64>,
    /// How front ends draw the game.
    pub display: display::Display,
    /// Most pieces a square can hold (stack boards; 1 otherwise).
    pub stack_height: usize,
    /// Pieces can be in hand (see [`Game::has_hands`]); set when the game
    /// is built, asked for every move.
    pub(crate) hands: bool,
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("name", &self.name)
            .field("players", &self.players.len())
            .field("squares", &self.topology.len())
            .field("pieces", &self.pieces.len())
            .finish()
    }
}

impl Game {
    /// The starting position from the game's setup.
    pub fn initial_position(&self) -> Position {
        self.initial.clone()
    }

    /// The game's setup, without copying it.
    pub fn setup(&self) -> &Position {
        &self.initial
    }

    /// Zobrist key of `cell` in `slot` (a table lookup for board squares).
    #[inline]
    pub fn key(&self, slot: usize, cell: crate::position::Cell) -> u64 {
        let codes = self.cells.len();
        match self.keys.get(slot * codes + cell.0 as usize) {
            Some(k) if (cell.0 as usize) < codes => *k,
            _ => crate::position::slot_key(slot, cell),
        }
    }

    /// Number of position slots: squares, once-flags per player, hands,
    /// then on stack boards the pieces under each square's top piece and
    /// under the top of the stack being carried.
    pub fn slot_count(&self) -> usize {
        self.stack_base() + self.stack_slots()
    }

    /// First slot of the stacks.
    fn stack_base(&self) -> usize {
        self.hand_base() + self.hand_slots()
    }

    /// Pieces a stack can hold under its top piece.
    #[inline]
    pub fn stack_depth(&self) -> usize {
        self.stack_height.saturating_sub(1)
    }

    fn stack_slots(&self) -> usize {
        (self.topology.len() + 1) * self.stack_depth()
    }

    /// Slot of the piece `depth` places under the top of `sq`'s stack
    /// (0: right under it). Stack boards only.
    #[inline]
    pub fn stack_slot(&self, sq: Square, depth: usize) -> usize {
        self.stack_base() + sq.index() * self.stack_depth() + depth
    }

    /// Slot of the piece `depth` places under the top of the carried stack.
    #[inline]
    pub fn carried_slot(&self, depth: usize) -> usize {
        self.stack_base() + self.topology.len() * self.stack_depth() + depth
    }

    /// The pieces under the top of `sq`, from the top down (stack boards).
    pub fn below<'p>(&self, pos: &'p Position, sq: Square) -> impl Iterator<Item = Cell> + 'p {
        let start = self.stack_base() + sq.index() * self.stack_depth();
        let depth = self.stack_depth();
        pos.cells()[start..start + depth]
            .iter()
            .copied()
            .take_while(|c| !c.is_empty())
    }

    /// First slot of the hands.
    fn hand_base(&self) -> usize {
        self.topology.len() + self.once_flags as usize * self.players.len()
    }

    /// Number of hand slots (one per player and piece type, if the game has
    /// hands).
    fn hand_slots(&self) -> usize {
        if self.has_hands() {
            self.players.len() * self.pieces.len()
        } else {
            0
        }
    }

    /// True if pieces can be held in hands.
    #[inline]
    pub fn has_hands(&self) -> bool {
        self.hands
    }

    /// Whether the rules and pieces put pieces in hand: what
    /// [`Game::has_hands`] answers once the game is built.
    pub(crate) fn computes_hands(&self) -> bool {
        self.rules.captures_to_hand
            || self.rules.hands
            || self.pieces.iter().any(|p| !p.drop_programs.is_empty())
    }

    /// Slot holding the number of `piece` in `player`'s hand.
    #[inline]
    pub fn hand_slot(&self, player: usize, piece: u16) -> usize {
        self.hand_base() + player * self.pieces.len() + piece as usize
    }

    /// How many `piece` `player` holds in hand.
    pub fn in_hand(&self, pos: &Position, player: usize, piece: u16) -> u16 {
        if self.has_hands() {
            pos.slot(self.hand_slot(player, piece)).0
        } else {
            0
        }
    }

    /// Slot of once-flag `id` of `player`.
    #[inline]
    pub fn once_slot(&self, id: u16, player: usize) -> usize {
        self.topology.len() + id as usize * self.players.len() + player
    }

    pub(crate) fn handler(&self, k: u8) -> Option<&Arc<dyn Handler>> {
        self.handlers.get(k as usize)?.as_ref()
    }

    /// The player who moves after `side`.
    pub fn next_player(&self, side: usize) -> usize {
        if side + 1 >= self.players.len() {
            0
        } else {
            side + 1
        }
    }

    pub fn piece_by_name(&self, name: &str) -> Option<u16> {
        self.pieces
            .iter()
            .position(|p| p.name == name)
            .map(|i| i as u16)
    }

    /// The piece type a letter (either case) stands for: its own letter,
    /// or an alias of `[fen] aliases`.
    pub fn piece_by_letter(&self, letter: char) -> Option<u16> {
        let up = letter.to_ascii_uppercase();
        if up.is_ascii_digit() {
            return None;
        }
        self.pieces
            .iter()
            .position(|p| p.letter == up && p.symbol.len() == 1)
            .or_else(|| self.pieces.iter().position(|p| p.letter == up))
            .map(|i| i as u16)
            .or_else(|| {
                self.fen
                    .aliases
                    .iter()
                    .find(|(c, _)| *c == up)
                    .map(|(_, t)| *t)
            })
    }

    /// The piece type written with this symbol (`+P`, `Q~`), upper or lower
    /// case.
    pub fn piece_by_symbol(&self, symbol: &str) -> Option<u16> {
        let up = symbol.to_ascii_uppercase();
        self.pieces
            .iter()
            .position(|p| p.symbol.to_ascii_uppercase() == up)
            .map(|i| i as u16)
    }

    /// The letter Fairy-Stockfish uses for a piece type (an alias if the
    /// game has one, else its own letter), upper case.
    pub fn fsf_letter(&self, piece: u16) -> char {
        self.fen
            .aliases
            .iter()
            .find(|(_, t)| *t == piece)
            .map_or_else(|| self.pieces[piece as usize].letter, |(c, _)| *c)
    }

    /// The letter of a piece type in SAN records: the game file's `san`,
    /// else Fairy-Stockfish's letter.
    pub fn san_letter(&self, piece: u16) -> char {
        self.pieces[piece as usize]
            .san
            .unwrap_or_else(|| self.fsf_letter(piece))
    }

    /// Plays `mv` (generated in `pos`) on `pos`.
    pub fn make(&self, pos: &mut Position, mv: MoveRef) {
        let h = mv.header;
        let resets = h.captures > 0
            || self
                .pieces
                .get(h.piece as usize)
                .is_some_and(|p| p.resets_clock);
        let ep = self.en_passant_square(pos.side(), mv);
        let next = match (&self.rules.turns, h.again) {
            _ if self.in_free_phase(pos) => {
                let mover = h.player as usize;
                let phase = if h.captures > 0 { 1 } else { FREE_PHASE };
                (self.next_player(mover), phase)
            }
            (_, true) => (pos.side(), pos.phase()),
            (None, false) => (self.next_player(pos.side()), pos.phase()),
            (Some(order), false) => {
                let phase = order.next(pos.phase());
                (order.player(phase), phase)
            }
        };
        pos.make(&self.cells, mv, next, resets, ep);
    }

    /// The turn being played in `pos`: from the turn order if the game
    /// has one (and it gives `pos`'s side the move at its phase), else the
    /// side to move, with its own pieces and any move.
    pub fn turn(&self, pos: &Position) -> Turn {
        let side = pos.side();
        match &self.rules.turns {
            Some(order) if !self.in_free_phase(pos) => {
                let turn = order.turn(pos.phase());
                if turn.player == side {
                    turn
                } else {
                    Turn::plain(side)
                }
            }
            _ => Turn::plain(side),
        }
    }

    /// Takes back `mv`, the last move made on `pos`.
    pub fn undo(&self, pos: &mut Position, mv: MoveRef) {
        pos.undo(&self.cells, mv);
    }

    /// The square passed over by a double step of an en passant piece:
    /// two steps along one line (forward, or a Berolina pawn's diagonal).
    fn en_passant_square(&self, _side: usize, mv: MoveRef) -> Option<Square> {
        // Almost every game names one type (or none): compared in place,
        // since this runs at every move made.
        let piece = mv.header.piece;
        let double_steps = match self.fen.en_passant.as_slice() {
            [] => false,
            [one] => *one == piece,
            many => many.contains(&piece),
        };
        if !double_steps {
            return None;
        }
        let (from, to) = (mv.header.from()?, mv.header.to()?);
        let (a, b) = (self.topology.coords(from), self.topology.coords(to));
        let d = [b.col - a.col, b.row - a.row, b.level - a.level];
        if d.iter().any(|x| x % 2 != 0 || x.abs() > 2) || d == [0, 0, 0] {
            return None;
        }
        self.topology
            .at(a.col + d[0] / 2, a.row + d[1] / 2, a.level + d[2] / 2)
    }

    /// Whether every player may move now (a free opening that no capture
    /// has ended yet).
    #[inline]
    pub fn in_free_phase(&self, pos: &Position) -> bool {
        self.rules.free_opening && pos.phase() == FREE_PHASE
    }

    /// Builds now the attack tables that are otherwise built the first
    /// time a test asks for them (seconds in the largest games): a timed
    /// search calls this before its clock starts, an engine protocol when
    /// the GUI waits for it (`isready`).
    pub fn prepare_attacks(&self) {
        self.attacks.build_all(self);
    }

    /// The title with the variant loaded, if one was (`Chess (chess960)`).
    pub fn full_title(&self) -> String {
        match self.name.split_once(':') {
            Some((_, variant)) => format!("{} ({variant})", self.title),
            None => self.title.clone(),
        }
    }

    /// Whether the moves' `gives_check` must be known: some goal counts
    /// checks, or the rules forbid them.
    pub fn watches_checks(&self) -> bool {
        self.rules.no_checks || self.rules.no_drop_checks || self.rules.goals.counts_checks()
    }

    /// True if `player` has a royal piece on the board.
    pub fn has_royal(&self, pos: &Position, player: usize) -> bool {
        self.royal_types
            .iter()
            .any(|&t| pos.piece_bits(player, t as usize).iter().any(|w| *w != 0))
    }

    /// Squares whose enemy pieces `mv` removes or replaces. An enemy piece
    /// that becomes the mover's off the move's path (Reversi's flipped
    /// discs) is converted, not captured.
    pub fn captured_squares(&self, mv: MoveRef) -> Vec<Square> {
        let squares = self.topology.len();
        let owner = mv.header.player;
        let on_path = |sq: u16| {
            mv.header.from().is_some_and(|s| s.0 == sq)
                || mv.header.to().is_some_and(|s| s.0 == sq)
                || mv.landings.iter().any(|s| s.0 == sq)
        };
        mv.changes
            .iter()
            .filter(|c| (c.slot as usize) < squares && !c.old.is_empty())
            .filter(|c| {
                let old = self.cells.info(c.old);
                let new = self.cells.info(c.new);
                let converted = !c.new.is_empty() && new.owner == owner && !on_path(c.slot);
                // The same piece, only its has-moved flag changed (`aim:`).
                let same = !c.new.is_empty() && self.cells.with_moved(c.new, old.moved) == c.old;
                // Still its owner's, of another type: demoted, not taken
                // (Ko shogi's Thunderclap turning back into a Drum). On a
                // stack board the new top may be another piece of the
                // same owner: the old top was taken.
                let changed = self.board_kind == crate::board::BoardKind::Default
                    && !c.new.is_empty()
                    && new.owner == old.owner
                    && new.piece != old.piece;
                old.owner != owner
                    && !old.is_neutral()
                    && new != old
                    && !converted
                    && !same
                    && !changed
            })
            .map(|c| Square(c.slot))
            .collect()
    }

    /// The square where a move puts the neutral piece of `move_neutral`
    /// (the duck): written after the move (`e2e4,d5`) and entered after
    /// its last square.
    pub fn placed_neutral(&self, mv: MoveRef) -> Vec<Square> {
        let Some(piece) = self.rules.move_neutral else {
            return Vec::new();
        };
        let neutral = self.cells.piece(piece, 0, false);
        let squares = self.topology.len();
        mv.changes
            .iter()
            .filter(|c| (c.slot as usize) < squares && c.new == neutral && c.old != neutral)
            .map(|c| Square(c.slot))
            .collect()
    }

    /// The type whose moves the piece of `owner` on `sq` makes: its own,
    /// or with `Rules::borrowed_moves` the type of the piece of its side
    /// standing next to it in that direction.
    #[inline]
    pub fn moving_type(&self, cells: &[Cell], sq: Square, owner: usize, piece: u16) -> u16 {
        match self.rules.borrowed_moves {
            None => piece,
            Some(dir) => self.borrowed_type(cells, sq, owner, piece, dir),
        }
    }

    /// [`Game::moving_type`] in a game whose pieces borrow the moves of
    /// the friend beside them in direction `dir`.
    fn borrowed_type(&self, cells: &[Cell], sq: Square, owner: usize, piece: u16, dir: Dir) -> u16 {
        let lender = self
            .topology
            .step(sq, self.players[owner].map.apply(dir))
            .map(|s| cells[s.index()])
            .filter(|c| !c.is_empty() && !c.is_marked())
            .map(|c| self.cells.info(c))
            .filter(|info| info.owner as usize == owner && info.piece != NO_PIECE);
        lender.map_or(piece, |info| info.piece)
    }

    /// Piece types that are royal.
    pub fn royal_types(&self) -> &[u16] {
        &self.royal_types
    }
}
