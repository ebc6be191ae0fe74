//! Where an attack table's attackers can stand, whatever the board holds.
//!
//! For every target square, [`Reach`] lists the piece types whose attack
//! walks can end somewhere, each with the squares where such a piece
//! would have to stand. It is built by walking the table's trie from the
//! target with every condition on a square's content taken as met (rays
//! run to the board's edge, screens are assumed where needed), and zone
//! conditions, which never change, as they are. So it over-approximates
//! the real walk: if no piece of `by` of a listed type stands on its
//! squares, the square is not attacked and the walk need not run. In the
//! opening of most games the royal pieces are out of every enemy piece's
//! reach, and most positions of a game need no walk at all.

use super::Game;
use super::attacks::{AttackTable, EDGE_LIST, EDGE_ZONE, EDGE_ZONE_EMPTY, NO_HOP, NO_RAY};
use crate::board::{Dir, Square};

/// The largest reach kept, in 64-bit words (8 MB): beyond it (boards of
/// thousands of squares with hundreds of piece types) every test walks.
const MAX_WORDS: usize = 1 << 20;

/// Where the attackers of one table can stand, per target square.
#[derive(Clone, Debug, Default)]
pub(crate) struct Reach {
    /// 64-bit words per bitset over the board's squares.
    words: usize,
    /// Per target square, where its entries start in `entries` (one more
    /// than there are squares: the end of the last).
    starts: Vec<u32>,
    /// A piece type, and where its bitset starts in `bits`.
    entries: Vec<(u16, u32)>,
    /// Per target square, where the union of its entries' bitsets starts.
    unions: Vec<u32>,
    bits: Vec<u64>,
}

impl Reach {
    /// The reach of `table`'s attackers (player `by`'s pieces) on `game`'s
    /// board; `None` if it would be too large to keep.
    pub(crate) fn of(table: &AttackTable, game: &Game, by: usize) -> Option<Reach> {
        let squares = game.topology.len();
        let types = game.pieces.len();
        let words = squares.div_ceil(64);
        let mut reach = Reach {
            words,
            ..Reach::default()
        };
        if table.nodes.is_empty() {
            reach.starts = vec![0; squares + 1];
            reach.unions = vec![0; squares];
            reach.bits = vec![0; words];
            return Some(reach);
        }
        let mut scratch = Scratch {
            words,
            bits: vec![0; types * words],
            touched: Vec::new(),
        };
        for target in game.topology.squares() {
            reach.starts.push(reach.entries.len() as u32);
            scratch.walk(table, game, by, 0, target);
            scratch.touched.sort_unstable();
            let union_at = reach.bits.len();
            reach.bits.resize(union_at + words, 0);
            reach.unions.push(union_at as u32);
            for &t in &scratch.touched {
                let at = reach.bits.len();
                let own = &scratch.bits[t as usize * words..][..words];
                reach.bits.extend_from_slice(own);
                for (u, bits) in reach.bits[union_at..union_at + words].iter_mut().zip(own) {
                    *u |= bits;
                }
                reach.entries.push((t, at as u32));
            }
            scratch.clear();
            if reach.bits.len() > MAX_WORDS {
                return None;
            }
        }
        reach.starts.push(reach.entries.len() as u32);
        Some(reach)
    }

    /// The piece types that could attack `target`, each with the squares
    /// (bitset words) where it would stand.
    #[inline]
    pub(crate) fn attackers(&self, target: Square) -> impl Iterator<Item = (u16, &[u64])> {
        let (a, b) = (
            self.starts[target.index()] as usize,
            self.starts[target.index() + 1] as usize,
        );
        self.entries[a..b]
            .iter()
            .map(|&(t, at)| (t, &self.bits[at as usize..][..self.words]))
    }

    /// Every square from which some piece could attack `target`.
    pub(crate) fn union(&self, target: Square) -> &[u64] {
        &self.bits[self.unions[target.index()] as usize..][..self.words]
    }
}

/// One target's reach while it is walked: a bitset per piece type.
struct Scratch {
    words: usize,
    bits: Vec<u64>,
    /// The types with a bit set.
    touched: Vec<u16>,
}

impl Scratch {
    fn mark(&mut self, piece: u16, sq: Square) {
        let at = piece as usize * self.words + sq.index() / 64;
        let Some(word) = self.bits.get_mut(at) else {
            return;
        };
        if *word == 0 && !self.touched.contains(&piece) {
            self.touched.push(piece);
        }
        *word |= 1 << (sq.index() % 64);
    }

    fn mark_mask(&mut self, mask: u64, sq: Square) {
        let mut m = mask;
        while m != 0 {
            self.mark(m.trailing_zeros() as u16, sq);
            m &= m - 1;
        }
    }

    fn clear(&mut self) {
        for &t in &self.touched {
            let at = t as usize * self.words;
            self.bits[at..at + self.words].fill(0);
        }
        self.touched.clear();
    }

    /// The trie walk of `movegen::attack` from node `n` on `sq`, with every
    /// condition on content met: where each attacker type could be found.
    fn walk(&mut self, table: &AttackTable, game: &Game, by: usize, n: u32, sq: Square) {
        let node = table.nodes[n as usize];
        self.mark_mask(node.mask, sq);
        let terms = &table.terminals[node.term_at as usize..][..node.term_len as usize];
        for t in terms {
            self.mark(t.piece, sq);
        }
        if node.ray_dir != NO_RAY {
            // The first piece met on the ray attacks, or (a hopper's
            // line) one met beyond a screen: any square of the ray may
            // hold either.
            let mut mask = node.ray_mask;
            if node.hop != NO_HOP {
                mask |= table.hops[node.hop as usize].mask;
            }
            let mut at = sq;
            while let Some(next) = game.topology.step(at, Dir(node.ray_dir)) {
                self.mark_mask(mask, next);
                at = next;
            }
        }
        let edges = &table.edges[node.edge_at as usize..][..node.edge_len as usize];
        for e in edges {
            let pass = match e.kind {
                EDGE_ZONE | EDGE_ZONE_EMPTY | EDGE_LIST => table.in_zones(game, by, e.conds, sq),
                _ => true,
            };
            let Some(next) = game.topology.step(sq, e.dir).filter(|_| pass) else {
                continue;
            };
            let child = &table.nodes[e.child as usize];
            if child.leaf {
                self.mark_mask(child.mask, next);
            } else {
                self.walk(table, game, by, e.child, next);
            }
        }
    }
}
