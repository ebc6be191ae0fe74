//! Move generation: runs the piece programs of the side to move
//! ([`vm`]), then applies the game-level rules that choose among the
//! generated moves — royal safety (with [`attack`] detection), move
//! priorities and capture priority.

pub(crate) mod attack;
mod moves;
pub(crate) mod vm;

pub(crate) use attack::AttackTable;
pub use moves::{Move, MoveHeader, MoveList, MoveRef};
pub use vm::GenError;

use crate::game::Game;
use crate::position::{NO_PIECE, Position};
use vm::{Env, Mode, Vm};

/// Reusable move-generation state (buffers of the interpreter).
#[derive(Default)]
pub struct Generator {
    vm: Vm,
    bits: Vec<u64>,
    keep: Vec<bool>,
}

impl Generator {
    pub fn new() -> Generator {
        Generator::default()
    }

    /// Every move the pieces' programs allow, before game-level rules.
    pub fn pseudo_legal(&mut self, game: &Game, pos: &mut Position, out: &mut MoveList) -> Result<(), GenError> {
        out.clear();
        self.vm.begin();
        let player = pos.side();
        self.bits.clear();
        self.bits.extend_from_slice(pos.owner_bits(player));
        for w in 0..self.bits.len() {
            let mut b = self.bits[w];
            while b != 0 {
                let sq = crate::board::Square((w * 64 + b.trailing_zeros() as usize) as u16);
                b &= b - 1;
                let piece = game.cells.info(pos.cell(sq)).piece;
                if piece == NO_PIECE {
                    continue;
                }
                let prog = &game.pieces[piece as usize].programs[player];
                let (cells, history) = pos.split_for_generation();
                let env = Env {
                    game,
                    player,
                    history,
                    mode: Mode::Generate,
                };
                self.vm.run(&env, cells, prog, sq, out)?;
            }
        }
        Ok(())
    }

    /// The legal moves of the side to move.
    pub fn legal(&mut self, game: &Game, pos: &mut Position, out: &mut MoveList) -> Result<(), GenError> {
        self.pseudo_legal(game, pos, out)?;
        if game.rules.royal_safety && !game.royal_types().is_empty() {
            self.keep.clear();
            let player = pos.side();
            for i in 0..out.len() {
                let mv = out.get(i);
                game.make(pos, mv);
                self.keep.push(!game.royal_attacked(pos, player));
                game.undo(pos, mv);
            }
            let keep = &self.keep;
            out.retain_indices(|i| keep[i]);
        }
        if game.rules.capture_priority && (0..out.len()).any(|i| out.header(i).captures > 0) {
            self.keep.clear();
            self.keep.extend((0..out.len()).map(|i| out.header(i).captures > 0));
            let keep = &self.keep;
            out.retain_indices(|i| keep[i]);
        }
        if game.uses_priorities {
            let best = (0..out.len()).map(|i| out.header(i).priority).max().unwrap_or(0);
            self.keep.clear();
            self.keep.extend((0..out.len()).map(|i| out.header(i).priority == best));
            let keep = &self.keep;
            out.retain_indices(|i| keep[i]);
        }
        Ok(())
    }

    /// True if `game` can use the fast perft path: pseudo-legal generation
    /// plus a royal-safety test after each move, with no rule that
    /// compares moves with each other.
    fn streaming(game: &Game) -> bool {
        !game.rules.capture_priority && !game.uses_priorities
    }
}

/// Counts the leaf nodes of the legal move tree to `depth` plies, making
/// and taking back every move, leaves included (no bulk counting).
pub fn perft(game: &Game, pos: &mut Position, depth: u32) -> Result<u64, GenError> {
    let mut lists: Vec<MoveList> = (0..=depth).map(|_| MoveList::new()).collect();
    let mut generator = Generator::new();
    perft_at(game, pos, depth, &mut generator, &mut lists)
}

fn perft_at(game: &Game, pos: &mut Position, depth: u32, generator: &mut Generator, lists: &mut [MoveList]) -> Result<u64, GenError> {
    if depth == 0 {
        return Ok(1);
    }
    let (list, rest) = lists.split_first_mut().expect("one list per ply");
    let safety = game.rules.royal_safety && !game.royal_types().is_empty();
    let mut nodes = 0;
    if Generator::streaming(game) {
        generator.pseudo_legal(game, pos, list)?;
        let player = pos.side();
        for i in 0..list.len() {
            let mv = list.get(i);
            game.make(pos, mv);
            if !(safety && game.royal_attacked(pos, player)) {
                nodes += perft_at(game, pos, depth - 1, generator, rest)?;
            }
            game.undo(pos, mv);
        }
    } else {
        generator.legal(game, pos, list)?;
        for i in 0..list.len() {
            let mv = list.get(i);
            game.make(pos, mv);
            nodes += perft_at(game, pos, depth - 1, generator, rest)?;
            game.undo(pos, mv);
        }
    }
    Ok(nodes)
}

/// Perft split by first move: each legal move with its subtree count.
pub fn divide(game: &Game, pos: &mut Position, depth: u32) -> Result<Vec<(Move, u64)>, GenError> {
    let mut generator = Generator::new();
    let mut list = MoveList::new();
    generator.legal(game, pos, &mut list)?;
    let mut out = Vec::new();
    for mv in list.to_vec() {
        game.make(pos, mv.as_ref());
        let n = perft(game, pos, depth.saturating_sub(1))?;
        game.undo(pos, mv.as_ref());
        out.push((mv, n));
    }
    Ok(out)
}
