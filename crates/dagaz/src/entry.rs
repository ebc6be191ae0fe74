//! Entering a move square by square, as a person does on a board: the
//! start square, then each landing square. For a partly entered move this
//! lists the squares that may come next and the moves that are complete.
//! The web page and the terminal `play` both use it.
//!
//! A move's path is its start square (none for a drop), the landing square
//! of each part and its final square, then the square where it puts the
//! duck (`move_neutral`). Moves with the same path (approach or
//! withdrawal in Fanorona, promotion choices) are all "complete" at once;
//! the front end then asks which one is meant.

use crate::board::Square;
use crate::game::Game;
use crate::position::{MoveList, MoveRef};

/// The squares a person clicks to enter `mv`.
pub fn path(game: &Game, mv: MoveRef) -> Vec<Square> {
    let mut out: Vec<Square> = mv.header.from().into_iter().collect();
    out.extend_from_slice(mv.landings);
    out.extend(mv.header.to());
    out.extend(game.placed_neutral(mv));
    out
}

/// Where a partly entered move stands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Squares that continue some legal move, in board order.
    pub next: Vec<Square>,
    /// Indices (in the move list) of the moves whose path is exactly the
    /// squares entered so far.
    pub complete: Vec<usize>,
}

impl Progress {
    /// Nothing legal starts with the squares entered.
    pub fn is_dead_end(&self) -> bool {
        self.next.is_empty() && self.complete.is_empty()
    }
}

/// The continuations of `chosen` among `moves`.
pub fn progress(game: &Game, moves: &MoveList, chosen: &[Square]) -> Progress {
    let mut p = Progress::default();
    for (i, mv) in moves.iter().enumerate() {
        let full = path(game, mv);
        if full.len() < chosen.len() || full[..chosen.len()] != *chosen {
            continue;
        }
        match full.get(chosen.len()) {
            Some(sq) => {
                if !p.next.contains(sq) {
                    p.next.push(*sq);
                }
            }
            None => p.complete.push(i),
        }
    }
    p.next.sort();
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::load_game;
    use crate::movegen::Generator;

    #[test]
    fn fanorona_chain_square_by_square() {
        let game = load_game("fanorona").unwrap();
        let mut pos = game.parse_position("9/1s7/9/S1s6/9 w").unwrap();
        let mut list = MoveList::new();
        Generator::new().legal(&game, &mut pos, &mut list).unwrap();
        let sq = |n: &str| game.topology.square(n).unwrap();
        let start = progress(&game, &list, &[]);
        assert_eq!(start.next, vec![sq("a2")]);
        assert!(start.complete.is_empty());
        let p = progress(&game, &list, &[sq("a2"), sq("b2")]);
        assert_eq!(p.next, vec![sq("b3")]);
        assert_eq!(
            p.complete.len(),
            1,
            "stopping after the first capture is a move"
        );
        let p = progress(&game, &list, &[sq("a2"), sq("b2"), sq("b3")]);
        assert!(p.next.is_empty());
        assert_eq!(p.complete.len(), 1);
        assert!(progress(&game, &list, &[sq("a1")]).is_dead_end());
    }

    #[test]
    fn approach_and_withdrawal_share_a_path() {
        let game = load_game("fanorona").unwrap();
        let mut pos = game.initial_position();
        let mut list = MoveList::new();
        Generator::new().legal(&game, &mut pos, &mut list).unwrap();
        let sq = |n: &str| game.topology.square(n).unwrap();
        let p = progress(&game, &list, &[sq("d3"), sq("e3")]);
        assert_eq!(p.complete.len(), 2);
        assert!(p.next.is_empty());
    }
}
