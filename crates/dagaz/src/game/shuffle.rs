//! Shuffled starts: games such as Chess960 begin from one of many orders
//! of the pieces of a rank, drawn anew for every game, under rules of
//! where some pieces may stand (`[setup] shuffle` in a game file).

use rand::Rng;
use rand::seq::SliceRandom;

use super::Game;
use crate::board::Square;
use crate::position::{Cell, Position};

/// How a game's setup is shuffled: the pieces on `squares` change places
/// among them, and the pieces on `mirror` (the other side's) follow the
/// same order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shuffle {
    pub squares: Vec<Square>,
    /// Squares taking the same order, the i-th following the i-th of
    /// `squares` (may be empty).
    pub mirror: Vec<Square>,
    /// Piece types whose pieces stand on squares of both colours (two
    /// Bishops); the colour of a square is the parity of its coordinates.
    pub both_colours: Vec<u16>,
    /// `(inner, outer)`: each piece of type `inner` stands between two
    /// of type `outer`, in the order the squares are listed (the King
    /// between the Rooks).
    pub between: Option<(u16, u16)>,
}

/// Orders drawn before giving up: far more than any rule set a game file
/// can state needs (Chess960's rules keep about one order in five).
const TRIES: usize = 100_000;

impl Shuffle {
    /// Whether `order` (the cells of `squares`, in their order) keeps the
    /// rules.
    pub(crate) fn allows(&self, game: &Game, order: &[Cell]) -> bool {
        let piece = |c: Cell| game.cells.info(c).piece;
        let colour = |sq: Square| {
            let c = game.topology.coords(sq);
            (c.col + c.row + c.level).rem_euclid(2)
        };
        let colours_kept = self.both_colours.iter().all(|&t| {
            let mut seen = [false; 2];
            let mut count = 0;
            for (sq, c) in self.squares.iter().zip(order) {
                if !c.is_empty() && piece(*c) == t {
                    seen[colour(*sq) as usize] = true;
                    count += 1;
                }
            }
            count < 2 || (seen[0] && seen[1])
        });
        let between_kept = self.between.is_none_or(|(inner, outer)| {
            let of = |t: u16| move |c: &Cell| !c.is_empty() && piece(*c) == t;
            order.iter().enumerate().all(|(i, c)| {
                !of(inner)(c)
                    || (order[..i].iter().any(of(outer)) && order[i + 1..].iter().any(of(outer)))
            })
        });
        colours_kept && between_kept
    }
}

impl Game {
    /// The game starts from a shuffled setup ([`Game::shuffled_start`]).
    pub fn shuffles(&self) -> bool {
        self.shuffle.is_some()
    }

    /// A start for a new game: the setup, or in a game that shuffles it
    /// (`[setup] shuffle`), one of its orders drawn at random among those
    /// the rules allow.
    pub fn shuffled_start(&self, rng: &mut impl Rng) -> Position {
        let Some(shuffle) = &self.shuffle else {
            return self.initial.clone();
        };
        let setup = |squares: &[Square]| -> Vec<Cell> {
            squares.iter().map(|s| self.initial.cell(*s)).collect()
        };
        let (first, other) = (setup(&shuffle.squares), setup(&shuffle.mirror));
        let mut order: Vec<usize> = (0..first.len()).collect();
        for _ in 0..TRIES {
            order.shuffle(rng);
            let cells: Vec<Cell> = order.iter().map(|&i| first[i]).collect();
            if !shuffle.allows(self, &cells) {
                continue;
            }
            let mut pos = self.initial.clone();
            for (sq, c) in shuffle.squares.iter().zip(&cells) {
                pos.set(&self.cells, sq.index(), *c);
            }
            for (sq, &i) in shuffle.mirror.iter().zip(&order) {
                pos.set(&self.cells, sq.index(), other[i]);
            }
            return pos;
        }
        self.initial.clone()
    }
}
