//! A fixed numbering of a game's moves and a fixed picture of its
//! positions, for learning programs (the Python package's
//! `legal_action_mask`, `push_action` and `observation`).
//!
//! **Actions.** A move is numbered by its start (a square, or for a drop
//! the piece dropped), its end square, and its rank `k` among the legal
//! moves with the same start and end (ordered by promotion, none first,
//! then by text): `action = (start × squares + end) × K + k`, with `K` =
//! [`ALTERNATIVES`]. A chess move e7e8 to a Queen is the same number in
//! every position; a Fanorona approach and withdrawal along one line are
//! `k` 0 and 1. A position with more than `K` moves between the same two
//! squares (none among the shipped games) leaves the later ones without a
//! number: they are not in the mask.
//!
//! **Observations.** Planes of `rows × levels` by `columns` numbers: one per
//! player and piece type (1 where such a piece stands; on stack boards the
//! number of that player's pieces of that type in the column), then one
//! plane per player and piece type holding the count in hand (games with
//! hands), one plane of counts (heap boards), one of piece numbers
//! (numbered pieces), and last one plane holding the player to move.

use crate::game::Game;
use crate::position::{MoveList, MoveRef, NO_PIECE, Position};
use crate::text::movetext;

/// Moves with the same start and end square that get distinct numbers.
pub const ALTERNATIVES: usize = 8;

/// The numbering of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoding {
    squares: usize,
    pieces: usize,
    players: usize,
    cols: usize,
    height: usize,
    hands: bool,
    heap: bool,
    stacks: bool,
    numbered: bool,
}

impl Encoding {
    pub fn new(game: &Game) -> Encoding {
        let grid = game.topology.grid();
        Encoding {
            squares: game.topology.len(),
            pieces: game.pieces.len(),
            players: game.players.len(),
            cols: grid.cols.len().max(1),
            height: grid.rows.len().max(1) * grid.levels.len().max(1),
            hands: game.has_hands(),
            heap: game.cells.is_counts(),
            stacks: game.stack_depth() > 0,
            numbered: game.numbered(),
        }
    }

    /// How many action numbers there are.
    pub fn num_actions(&self) -> usize {
        (self.squares + self.pieces) * self.squares * ALTERNATIVES
    }

    /// The number of each move of `list` (legal moves of one position), or
    /// `None` for a move beyond the [`ALTERNATIVES`] of its squares.
    pub fn actions(&self, game: &Game, list: &MoveList) -> Vec<Option<usize>> {
        let texts = movetext::texts(game, list);
        let key = |i: usize| -> (usize, usize) {
            let m = list.get(i);
            let start = match m.header.from() {
                Some(sq) => sq.index(),
                None => self.squares + (m.header.piece as usize).min(self.pieces - 1),
            };
            let end = m.header.to().or(m.header.from()).map_or(0, |s| s.index());
            (start, end)
        };
        let rank_of = |i: usize| -> (u32, &str) {
            let promotion = list.get(i).header.promotion().map_or(0, |p| p as u32 + 1);
            (promotion, texts[i].as_str())
        };
        (0..list.len())
            .map(|i| {
                let (start, end) = key(i);
                let k = (0..list.len())
                    .filter(|&j| key(j) == (start, end) && rank_of(j) < rank_of(i))
                    .count();
                (k < ALTERNATIVES).then(|| (start * self.squares + end) * ALTERNATIVES + k)
            })
            .collect()
    }

    /// The action number of `mv` among the legal moves `list`.
    pub fn action_of(&self, game: &Game, list: &MoveList, mv: MoveRef) -> Option<usize> {
        let i = list.index_of(mv)?;
        self.actions(game, list)[i]
    }

    /// The shape of an observation: planes, height, width.
    pub fn observation_shape(&self) -> (usize, usize, usize) {
        let mut planes = self.players * self.pieces + 1;
        if self.hands {
            planes += self.players * self.pieces;
        }
        if self.heap {
            planes += 1;
        }
        if self.numbered {
            planes += 1;
        }
        (planes, self.height, self.cols)
    }

    /// The observation of `pos`, planes after one another, row by row.
    pub fn observation(&self, game: &Game, pos: &Position) -> Vec<f32> {
        let (planes, height, width) = self.observation_shape();
        let area = height * width;
        let mut out = vec![0f32; planes * area];
        let grid_rows = game.topology.grid().rows.len().max(1);
        let place = |sq| {
            let c = game.topology.coords(sq);
            (c.level as usize * grid_rows + c.row as usize) * width + c.col as usize
        };
        let mut next = self.players * self.pieces;
        let (hands_at, heap_at, numbers_at) = {
            let hands_at = next;
            if self.hands {
                next += self.players * self.pieces;
            }
            let heap_at = next;
            if self.heap {
                next += 1;
            }
            let numbers_at = next;
            (hands_at, heap_at, numbers_at)
        };
        let side_at = planes - 1;
        for sq in game.topology.squares() {
            let at = place(sq);
            if at >= area {
                continue;
            }
            let cell = pos.cell(sq);
            if self.heap {
                out[heap_at * area + at] = cell.0 as f32;
                continue;
            }
            let info = game.cells.info(cell);
            if cell.is_empty() || info.piece == NO_PIECE || info.phantom || info.is_neutral() {
                continue;
            }
            let plane = |owner: usize, piece: u16| owner * self.pieces + piece as usize;
            out[plane(info.owner as usize, info.piece) * area + at] += 1.0;
            if self.stacks {
                for below in game.below(pos, sq) {
                    let b = game.cells.info(below);
                    if b.piece != NO_PIECE && !b.is_neutral() {
                        out[plane(b.owner as usize, b.piece) * area + at] += 1.0;
                    }
                }
            }
            if self.numbered {
                out[numbers_at * area + at] = game.piece_number(cell) as f32;
            }
        }
        if self.hands {
            for p in 0..self.players {
                for t in 0..self.pieces {
                    let n = game.in_hand(pos, p, t as u16) as f32;
                    let plane = hands_at + p * self.pieces + t;
                    out[plane * area..(plane + 1) * area].fill(n);
                }
            }
        }
        out[side_at * area..].fill(pos.side() as f32);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::load_game;
    use crate::movegen::Generator;

    fn legal(game: &Game, fen: &str) -> (Position, MoveList) {
        let mut pos = game.parse_position(fen).unwrap();
        let mut list = MoveList::new();
        Generator::new().legal(game, &mut pos, &mut list).unwrap();
        (pos, list)
    }

    #[test]
    fn every_legal_move_has_its_own_number_and_numbers_are_stable() {
        let chess = load_game("chess").unwrap();
        let e = Encoding::new(&chess);
        assert_eq!(e.num_actions(), (64 + 6) * 64 * ALTERNATIVES);
        let (_, list) = legal(&chess, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        let actions: Vec<usize> = e
            .actions(&chess, &list)
            .into_iter()
            .map(Option::unwrap)
            .collect();
        let mut unique = actions.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), actions.len());
        // b7b8 to a Queen is the same number with other pieces about.
        let (_, other) = legal(&chess, "4k3/1P6/8/8/8/8/PPP5/R3K3 w - - 0 1");
        let queen = |list: &MoveList| {
            let texts = movetext::texts(&chess, list);
            let i = texts.iter().position(|t| t == "b7b8q").unwrap();
            e.actions(&chess, list)[i].unwrap()
        };
        assert_eq!(queen(&list), queen(&other));
        // Fanorona's approach and withdrawal along one line differ.
        let fanorona = load_game("fanorona").unwrap();
        let mut pos = fanorona.initial_position();
        let mut list = MoveList::new();
        Generator::new()
            .legal(&fanorona, &mut pos, &mut list)
            .unwrap();
        let f = Encoding::new(&fanorona);
        let numbers: Vec<usize> = f
            .actions(&fanorona, &list)
            .into_iter()
            .map(Option::unwrap)
            .collect();
        let mut unique = numbers.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), numbers.len());
    }

    #[test]
    fn observations_show_pieces_hands_and_the_side_to_move() {
        let shogi = load_game("shogi").unwrap();
        let e = Encoding::new(&shogi);
        let (planes, h, w) = e.observation_shape();
        assert_eq!((planes, h, w), (2 * 14 + 2 * 14 + 1, 9, 9));
        let board = "lnsgk1snl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w G 1";
        let pos = shogi.parse_position(board).unwrap();
        let obs = e.observation(&shogi, &pos);
        assert_eq!(obs.len(), planes * h * w);
        let area = h * w;
        let total: f32 = obs[..2 * 14 * area].iter().sum();
        assert_eq!(total, 39.0, "39 pieces on the board");
        let gold = shogi.piece_by_name("Gold").unwrap() as usize;
        assert_eq!(obs[(2 * 14 + gold) * area], 1.0, "Black holds a Gold");
        assert!(
            obs[(planes - 1) * area..].iter().all(|v| *v == 1.0),
            "White to move"
        );
    }
}
