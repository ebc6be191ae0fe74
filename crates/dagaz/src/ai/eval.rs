//! Evaluation: how good a position is for a player, when the search cannot
//! look to the end. The generic evaluation counts material (the `value` of
//! each piece in the game file, or an estimate from the pieces' mobility
//! when the file values none) plus the piece-square hints a game file may
//! give (`squares = { e4 = 20 }` on a piece, blended into its
//! `endgame_squares` as the material leaves the board), the pieces in
//! hand (shogi) and the numbers of numbered pieces (Rithmomachia: a piece
//! is worth its type's value plus its number), and the search adds
//! mobility.
//! Games with better knowledge implement [`Evaluator`] in Rust.

use crate::board::Square;
use crate::game::Game;
use crate::movegen::Generator;
use crate::position::{Cell, MoveList, Position, squares_of};

/// Scores positions; positive is good for `player`.
pub trait Evaluator: Send + Sync {
    fn evaluate(&self, game: &Game, pos: &Position, player: usize) -> i32;
}

/// Material and piece-square hints.
pub struct Material {
    /// What each piece type is worth: its `value`, or, in a game whose file
    /// gives no piece a value, an estimate from its mobility
    /// ([`learned_values`]).
    values: Vec<i32>,
    /// `square_values[piece][square]` for the first player; other players
    /// read the board turned half a turn (see [`Material::new`]).
    square_values: Vec<Vec<i32>>,
    /// The same for the endgame: the hints move from `square_values` to
    /// these as the material leaves the board (see [`Material::phase_of`]).
    endgame_values: Vec<Vec<i32>>,
    /// The material at the setup, when some piece has endgame hints.
    setup_material: Option<i64>,
    /// Square seen by each player: `mirror[player][square]`.
    mirror: Vec<Vec<usize>>,
}

impl Material {
    /// Builds the evaluation of `game`. The second player's hints are those
    /// of the first on the square turned half a turn about the board's
    /// centre (the symmetry of chess-like and draughts setups); with more
    /// players every player uses the table as it is.
    pub fn new(game: &Game) -> Material {
        let topo = &game.topology;
        let grid = topo.grid();
        let (cols, rows, levels) = (
            grid.cols.len() as i32,
            grid.rows.len() as i32,
            grid.levels.len().max(1) as i32,
        );
        let identity: Vec<usize> = (0..topo.len()).collect();
        let turned: Vec<usize> = topo
            .squares()
            .map(|sq| {
                let c = topo.coords(sq);
                topo.at(cols - 1 - c.col, rows - 1 - c.row, levels - 1 - c.level)
                    .map_or(sq.index(), |s| s.index())
            })
            .collect();
        let mirror = (0..game.players.len())
            .map(|p| {
                if p == 1 && game.players.len() == 2 {
                    turned.clone()
                } else {
                    identity.clone()
                }
            })
            .collect();
        let values = piece_values(game);
        let tapered = game
            .pieces
            .iter()
            .any(|p| !p.endgame_square_values.is_empty());
        let setup_material =
            tapered.then(|| material_on_board(game, &values, &game.initial_position()));
        Material {
            square_values: game
                .pieces
                .iter()
                .map(|p| match p.square_values.is_empty() {
                    // Endgame hints alone: none in the middlegame.
                    true if !p.endgame_square_values.is_empty() => vec![0; topo.len()],
                    _ => p.square_values.clone(),
                })
                .collect(),
            endgame_values: game
                .pieces
                .iter()
                .map(|p| match p.endgame_square_values.is_empty() {
                    true => p.square_values.clone(),
                    false => p.endgame_square_values.clone(),
                })
                .collect(),
            values,
            setup_material,
            mirror,
        }
    }

    /// How far the game is from its endgame, from [`PHASE_SPAN`] (all the
    /// material of the setup still on the board, or more) to 0 (none
    /// left), given the `material` on the board and in hand (royal pieces
    /// aside): the weight of the middlegame hints.
    fn phase_of(&self, material: i64) -> i64 {
        match self.setup_material {
            Some(setup) if setup > 0 => (material * PHASE_SPAN / setup).min(PHASE_SPAN),
            _ => PHASE_SPAN,
        }
    }
}

/// [`Material::phase_of`] at the setup.
const PHASE_SPAN: i64 = 256;

/// The value of every piece on the board and in hand, all players', royal
/// pieces aside.
fn material_on_board(game: &Game, values: &[i32], pos: &Position) -> i64 {
    let mut total = 0i64;
    for owner in 0..game.players.len() {
        for (t, piece) in game.pieces.iter().enumerate() {
            if !piece.royal {
                total += type_worth(game, values, pos, owner, t).1;
            }
        }
    }
    total
}

/// How many pieces of type `t` `owner` has on the board, and what they
/// and those in its hand are worth.
#[inline]
fn type_worth(game: &Game, values: &[i32], pos: &Position, owner: usize, t: usize) -> (u32, i64) {
    let on_board: u32 = pos
        .piece_bits(owner, t)
        .iter()
        .map(|w| w.count_ones())
        .sum();
    let in_hand = if game.has_hands() {
        game.in_hand(pos, owner, t as u16)
    } else {
        0
    };
    (
        on_board,
        values[t] as i64 * (on_board as i64 + in_hand as i64),
    )
}

/// Values for a game whose file gives none (a game imported from a ZRF
/// file; placement games): each piece that is not royal is worth 50 plus
/// 40 for each move it has, on average, alone on the board (on up to 64
/// squares spread over it): chess without its values gets 145 for a pawn
/// (its double steps and promotions count), 260 for a knight, 400 for a
/// bishop, 610 for a rook and 960 for a queen. `None` if the file
/// values some piece, and on heap boards.
pub fn learned_values(game: &Game) -> Option<Vec<i32>> {
    let unvalued = game.pieces.iter().all(|p| p.royal || p.value == 0);
    if !unvalued || game.cells.is_counts() || game.pieces.iter().all(|p| p.royal) {
        return None;
    }
    let squares: Vec<Square> = game.topology.squares().collect();
    let step = squares.len().div_ceil(64).max(1);
    let sample: Vec<Square> = squares.iter().copied().step_by(step).collect();
    let mut empty = game.initial_position();
    for sq in &squares {
        empty.set(&game.cells, sq.index(), Cell::EMPTY);
    }
    empty.set_side(0);
    let mut generator = Generator::new();
    let mut list = MoveList::new();
    let values = (0..game.pieces.len())
        .map(|t| {
            if game.pieces[t].royal || game.pieces[t].neutral {
                return 0;
            }
            let mut moves = 0usize;
            for &sq in &sample {
                let mut pos = empty.clone();
                pos.set(
                    &game.cells,
                    sq.index(),
                    game.cells.piece(t as u16, 0, false),
                );
                if generator.pseudo_legal(game, &mut pos, &mut list).is_ok() {
                    moves += list.iter().filter(|m| m.header.from() == Some(sq)).count();
                }
            }
            50 + (40 * moves / sample.len().max(1)) as i32
        })
        .collect();
    Some(values)
}

/// What each piece type is worth to [`Material`]: its `value` in the game
/// file, or, in a game whose file values no piece, the learned estimate
/// ([`learned_values`], computed once per loaded game).
pub fn piece_values(game: &Game) -> Vec<i32> {
    game.learned_values
        .get_or_init(|| learned_values(game))
        .clone()
        .unwrap_or_else(|| game.pieces.iter().map(|p| p.value).collect())
}

/// The value of the least valuable piece that is not royal (a chess or
/// shogi pawn: 100), from the file's values or the learned ones: the unit
/// of the search's pruning margins. 100 when no piece has a value.
pub fn smallest_value(game: &Game) -> i32 {
    piece_values(game)
        .iter()
        .zip(&game.pieces)
        .filter(|(v, p)| **v > 0 && !p.royal)
        .map(|(v, _)| *v)
        .min()
        .unwrap_or(100)
}

impl Material {
    /// Heap boards: pieces belong to nobody; each player counts the pieces
    /// on the squares its hints value (a mancala store), as it sees them.
    fn heap_value(&self, game: &Game, pos: &Position, owner: usize) -> i64 {
        let hints = &self.square_values[0];
        if hints.is_empty() {
            return 0;
        }
        game.topology
            .squares()
            .map(|sq| pos.cell(sq).0 as i64 * hints[self.mirror[owner][sq.index()]] as i64)
            .sum()
    }
}

impl Evaluator for Material {
    fn evaluate(&self, game: &Game, pos: &Position, player: usize) -> i32 {
        let others = game.players.len() as i64 - 1;
        let (mut score, mut middle, mut end) = (0i64, 0i64, 0i64);
        // The material for the phase, counted in the same walk.
        let mut material = 0i64;
        for owner in 0..game.players.len() {
            let weight = if owner == player { others } else { -1 };
            let mut own = 0i64;
            if game.cells.is_counts() {
                own += self.heap_value(game, pos, owner);
            }
            for t in 0..game.pieces.len() {
                let (count, worth) = type_worth(game, &self.values, pos, owner, t);
                own += worth;
                if !game.pieces[t].royal {
                    material += worth;
                }
                let hints = &self.square_values[t];
                if (!hints.is_empty() || game.numbered()) && count > 0 {
                    let late = &self.endgame_values[t];
                    for sq in squares_of(pos.piece_bits(owner, t)) {
                        let seen = self.mirror[owner][sq.index()];
                        if let (Some(hint), Some(late)) = (hints.get(seen), late.get(seen)) {
                            middle += weight * *hint as i64;
                            end += weight * *late as i64;
                        }
                        if game.numbered() {
                            own += game.piece_number(pos.cell(sq)) as i64;
                        }
                    }
                }
            }
            score += weight * own;
        }
        let phase = self.phase_of(material);
        score += (middle * phase + end * (PHASE_SPAN - phase)) / PHASE_SPAN;
        score.clamp(-(1 << 28), 1 << 28) as i32
    }
}
