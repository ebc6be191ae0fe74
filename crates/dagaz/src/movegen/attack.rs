//! Attack detection at run time: "could a piece of player `by` capture on
//! this square?" Testing a square walks the game's attack tries
//! (`game::attacks`, built at load time) over the real board, the same
//! work a hand-written mailbox generator does for rays and leaps; piece
//! types the tries do not cover are run forwards by the interpreter.

use super::vm::{Env, Mode, Vm};
use crate::board::{Dir, Square};
use crate::game::attacks::{
    AttackTable, Cond, EDGE_EMPTY, EDGE_FREE, EDGE_OCCUPIED, EDGE_ZONE, EDGE_ZONE_EMPTY, NO_HOP,
    NO_RAY, Node,
};
use crate::game::{Game, RoyalCheck};
use crate::position::{Cell, MoveList, NO_PIECE, PieceBits, Ply, Position, squares_of};

/// `l`, `t` and their negations as attack conditions: where the moves
/// since `by` last moved started or ended.
#[cold]
fn last_move_holds(cond: Cond, history: &[Ply], by: usize, sq: Square) -> bool {
    let start = matches!(cond, Cond::LastStart | Cond::NotLastStart);
    let hit = history
        .iter()
        .rev()
        .take_while(|p| p.player as usize != by)
        .any(|p| (if start { p.from } else { p.to }) == Some(sq));
    hit == matches!(cond, Cond::LastStart | Cond::LastEnd)
}

/// True if a piece of `by` could capture a piece `hypo` standing on
/// `target`. `exclude` is a square whose piece does not count (the moving
/// piece, for "protected by the mover's other pieces").
pub(crate) fn attacked(
    game: &Game,
    cells: &[Cell],
    history: &[Ply],
    target: Square,
    by: usize,
    hypo: Cell,
    exclude: Option<Square>,
) -> bool {
    attacked_where(game, cells, history, target, by, hypo, exclude, None)
}

/// [`attacked`] in `pos`, whose pieces' bitsets say where `by`'s pieces
/// are: the tries are walked only if one of them stands within their
/// reach.
fn attacked_in(game: &Game, pos: &Position, target: Square, by: usize, hypo: Cell) -> bool {
    let (cells, history) = (pos.cells(), pos.history());
    attacked_where(
        game,
        cells,
        history,
        target,
        by,
        hypo,
        None,
        Some(pos.bits()),
    )
}

/// Whether a piece of `by` stands (by `bits`) where one of `table`'s
/// attackers could attack `target` from (true if the table has no reach).
#[inline]
fn within_reach(table: &AttackTable, bits: PieceBits, target: Square, by: usize) -> bool {
    table.reach.as_ref().is_none_or(|reach| {
        reach.attackers(target).any(|(t, squares)| {
            let bits = bits.of(by, t as usize);
            bits.iter().zip(squares).any(|(a, b)| a & b != 0)
        })
    })
}

/// [`attacked`], where `bits`, if given, are the bitsets of the board
/// `cells` (the position's, generation's changes aside): the tries are
/// walked only if a piece of `by` stands within their reach.
#[allow(clippy::too_many_arguments)]
pub(crate) fn attacked_where(
    game: &Game,
    cells: &[Cell],
    history: &[Ply],
    target: Square,
    by: usize,
    hypo: Cell,
    exclude: Option<Square>,
    bits: Option<PieceBits>,
) -> bool {
    let view = View {
        cells,
        target,
        hypo,
    };
    if game.rules.borrowed_moves.is_some() {
        // A piece's attacks depend on the piece behind it: every piece's
        // program runs forwards.
        return fallback(game, &view, history, by, exclude, None);
    }
    let table = game.attacks.table(game, by, game.cells.info(hypo));
    let reached = bits.is_none_or(|bits| within_reach(table, bits, target, by));
    if reached && table.walk(game, &view, history, by, exclude, &mut NoRecord) {
        return true;
    }
    !table.fallback.is_empty() && fallback(game, &view, history, by, exclude, Some(&table.fallback))
}

impl Game {
    /// True if one of `player`'s royal pieces is attacked by an opponent.
    pub fn royal_attacked(&self, pos: &Position, player: usize) -> bool {
        if self.rules.captures_explode {
            return self.royal_exposed_to_blast(pos, player);
        }
        if self.rules.royal_check != RoyalCheck::Any {
            return self.royals_in_check(pos, player);
        }
        for &t in &self.royal_types {
            for sq in squares_of(pos.piece_bits(player, t as usize)) {
                let cell = pos.cell(sq);
                for by in 0..self.players.len() {
                    if by != player && attacked_in(self, pos, sq, by, cell) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// `RoyalCheck::All` and `Last`: whether `player`'s royal pieces, taken
    /// together, are in check.
    fn royals_in_check(&self, pos: &Position, player: usize) -> bool {
        let royals: Vec<Square> = self
            .royal_types
            .iter()
            .flat_map(|&t| squares_of(pos.piece_bits(player, t as usize)))
            .collect();
        let attacked = |sq: &Square| {
            (0..self.players.len())
                .any(|by| by != player && attacked_in(self, pos, *sq, by, pos.cell(*sq)))
        };
        match self.rules.royal_check {
            RoyalCheck::Last => royals.len() == 1 && attacked(&royals[0]),
            _ => !royals.is_empty() && royals.iter().all(attacked),
        }
    }

    /// Royal safety where captures explode: `player` has lost its royal
    /// piece (the move that did it is illegal), or, while every enemy keeps
    /// its own, one of `player`'s royal pieces not next to an enemy royal
    /// piece is attacked.
    fn royal_exposed_to_blast(&self, pos: &Position, player: usize) -> bool {
        let royal_squares = |p: usize| {
            self.royal_types
                .iter()
                .flat_map(move |&t| squares_of(pos.piece_bits(p, t as usize)))
                .collect::<Vec<Square>>()
        };
        let own = royal_squares(player);
        if own.is_empty() {
            return true;
        }
        let mut enemy_royals = Vec::new();
        for by in (0..self.players.len()).filter(|&by| by != player) {
            let theirs = royal_squares(by);
            if theirs.is_empty() {
                // The enemy's royal piece has exploded: the game is won.
                return false;
            }
            enemy_royals.extend(theirs);
        }
        own.into_iter().any(|sq| {
            let touching = self
                .topology
                .neighbours(sq)
                .iter()
                .any(|n| enemy_royals.contains(n));
            !touching
                && (0..self.players.len())
                    .any(|by| by != player && attacked_in(self, pos, sq, by, pos.cell(sq)))
        })
    }

    /// True if `sq` would be attacked by a player other than `player` if a
    /// piece of `player` stood there.
    pub fn square_attacked(&self, pos: &Position, sq: Square, player: usize) -> bool {
        let here = pos.cell(sq);
        let hypo = if here.is_empty() {
            self.cells.phantom(player)
        } else {
            here
        };
        (0..self.players.len()).any(|by| by != player && attacked_in(self, pos, sq, by, hypo))
    }
}

/// Like [`attacked`] for a piece standing on `target`, recording what the
/// answer depended on (see [`ReadSet`]).
///
/// Where no piece of `by` stands within the tries' reach, the answer is
/// "no" until one comes there (or the target moves): all the squares of
/// the reach are recorded as read, and the target as strict.
pub(crate) fn attacked_recording(
    game: &Game,
    pos: &Position,
    target: Square,
    by: usize,
    set: &mut ReadSet,
) -> bool {
    let hypo = pos.cell(target);
    let table = game.attacks.table(game, by, game.cells.info(hypo));
    if let Some(reach) = &table.reach
        && !within_reach(table, pos.bits(), target, by)
    {
        for (w, bits) in set.read.iter_mut().zip(reach.union(target)) {
            *w |= bits;
        }
        set.strict(target);
        return false;
    }
    let view = View {
        cells: pos.cells(),
        target,
        hypo,
    };
    table.walk(game, &view, pos.history(), by, None, set)
}

/// What negative attack tests read, as bitsets over squares (up to 512).
///
/// Walks only combine conditions with "and" along a path and "or" between
/// paths, so a "not attacked" answer can only turn into "attacked" if a
/// `strict` square changes at all (screens, `=Name`, history conditions,
/// the target), a `blocked` square empties (a ray opens), a `read` square
/// gets a piece of the attacker, or a move starts or ends on a `strict`
/// square (history conditions). Squares where a compressed ray stopped are
/// kept apart in `rays`: when one of them empties, following that one ray
/// on is enough (see [`ReadSet::rays_safe`]).
#[derive(Clone, Copy, Default)]
pub(crate) struct ReadSet {
    pub read: [u64; 8],
    pub blocked: [u64; 8],
    pub strict: [u64; 8],
    /// Squares where a recorded ray stopped.
    pub ray_stops: [u64; 8],
    rays: [RayStop; 16],
    ray_count: usize,
}

/// A ray that stopped on `at`: it would go on in `dir`, attacked by the
/// pieces of `by` in `mask`.
#[derive(Clone, Copy, Default)]
struct RayStop {
    at: u16,
    dir: u8,
    by: u8,
    mask: u64,
}

impl ReadSet {
    #[inline]
    pub fn has(set: &[u64; 8], slot: usize) -> bool {
        set.get(slot / 64)
            .is_some_and(|w| w & (1 << (slot % 64)) != 0)
    }

    /// After a move that emptied `at` (a ray stop) and changed nothing
    /// else the set cares about: true if every ray stopped at `at` still
    /// meets no attacker. `false` means "test properly".
    pub fn rays_safe(&self, game: &Game, cells: &[Cell], at: Square) -> bool {
        self.rays[..self.ray_count]
            .iter()
            .filter(|r| r.at == at.0)
            .all(|r| {
                let mut sq = at;
                while let Some(next) = game.topology.step(sq, Dir(r.dir)) {
                    let c = cells[next.index()];
                    if !c.is_empty() {
                        let info = game.cells.info(c);
                        let hit = !c.is_marked()
                            && info.owner == r.by
                            && info.piece < 64
                            && r.mask & (1u64 << info.piece) != 0;
                        return !hit;
                    }
                    sq = next;
                }
                true
            })
    }
}

/// Receives the squares an attack walk reads.
trait Recorder {
    fn read(&mut self, sq: Square);
    fn blocked(&mut self, sq: Square);
    fn blocked_ray(&mut self, sq: Square, dir: Dir, mask: u64, by: usize);
    fn strict(&mut self, sq: Square);
}

struct NoRecord;

impl Recorder for NoRecord {
    #[inline(always)]
    fn read(&mut self, _: Square) {}
    #[inline(always)]
    fn blocked(&mut self, _: Square) {}
    #[inline(always)]
    fn blocked_ray(&mut self, _: Square, _: Dir, _: u64, _: usize) {}
    #[inline(always)]
    fn strict(&mut self, _: Square) {}
}

fn set_bit(words: &mut [u64; 8], sq: Square) {
    if let Some(w) = words.get_mut(sq.index() / 64) {
        *w |= 1 << (sq.index() % 64);
    }
}

impl Recorder for ReadSet {
    #[inline]
    fn read(&mut self, sq: Square) {
        set_bit(&mut self.read, sq);
    }
    #[inline]
    fn blocked(&mut self, sq: Square) {
        set_bit(&mut self.blocked, sq);
    }
    #[inline]
    fn blocked_ray(&mut self, sq: Square, dir: Dir, mask: u64, by: usize) {
        if self.ray_count == self.rays.len() {
            set_bit(&mut self.blocked, sq);
            return;
        }
        set_bit(&mut self.ray_stops, sq);
        self.rays[self.ray_count] = RayStop {
            at: sq.0,
            dir: dir.0,
            by: by as u8,
            mask,
        };
        self.ray_count += 1;
    }
    #[inline]
    fn strict(&mut self, sq: Square) {
        set_bit(&mut self.strict, sq);
    }
}

struct View<'a> {
    cells: &'a [Cell],
    target: Square,
    hypo: Cell,
}

impl View<'_> {
    #[inline]
    fn get(&self, sq: Square) -> Cell {
        if sq == self.target {
            self.hypo
        } else {
            self.cells[sq.index()]
        }
    }
}

impl AttackTable {
    fn walk<R: Recorder>(
        &self,
        game: &Game,
        view: &View,
        history: &[Ply],
        by: usize,
        exclude: Option<Square>,
        rec: &mut R,
    ) -> bool {
        !self.nodes.is_empty() && self.visit(game, view, history, by, exclude, rec, 0, view.target)
    }

    /// Walks from trie node `n` standing on `sq`.
    #[allow(clippy::too_many_arguments)]
    fn visit<R: Recorder>(
        &self,
        game: &Game,
        view: &View,
        history: &[Ply],
        by: usize,
        exclude: Option<Square>,
        rec: &mut R,
        n: u32,
        sq: Square,
    ) -> bool {
        rec.read(sq);
        if n == 0 {
            rec.strict(sq);
        }
        let node = &self.nodes[n as usize];
        let c = view.get(sq);
        if node.term_len != 0 {
            rec.strict(sq);
        }
        if (node.mask != 0 || node.term_len != 0) && !c.is_empty() && Some(sq) != exclude {
            let info = game.cells.info(c);
            if info.owner as usize == by && info.piece != NO_PIECE && !c.is_marked() {
                if info.piece < 64 && node.mask & (1u64 << info.piece) != 0 {
                    return true;
                }
                let terms = &self.terminals[node.term_at as usize..][..node.term_len as usize];
                for t in terms {
                    if t.piece == info.piece && self.conds_hold(game, c, history, by, t.conds, sq) {
                        return true;
                    }
                }
            }
        }
        if node.ray_dir != NO_RAY && self.node_ray(game, view, history, by, exclude, rec, node, sq)
        {
            return true;
        }
        let edges = &self.edges[node.edge_at as usize..][..node.edge_len as usize];
        for e in edges {
            let pass = match e.kind {
                EDGE_FREE => true,
                EDGE_EMPTY => {
                    if !c.is_empty() {
                        rec.blocked(sq);
                    }
                    c.is_empty()
                }
                // Zones do not change: nothing to record but the content
                // the edge reads.
                EDGE_ZONE => self.in_zones(game, by, e.conds, sq),
                EDGE_ZONE_EMPTY => {
                    let inside = self.in_zones(game, by, e.conds, sq);
                    if inside && !c.is_empty() {
                        rec.blocked(sq);
                    }
                    inside && c.is_empty()
                }
                EDGE_OCCUPIED => {
                    rec.strict(sq);
                    !c.is_empty()
                }
                _ => {
                    rec.strict(sq);
                    self.conds_hold(game, c, history, by, e.conds, sq)
                }
            };
            if !pass {
                continue;
            }
            let Some(next) = game.topology.step(sq, e.dir) else {
                continue;
            };
            let child = &self.nodes[e.child as usize];
            let hit = if child.leaf {
                rec.read(next);
                Some(next) != exclude && self.holds(game, view.get(next), by, child.mask)
            } else {
                self.visit(game, view, history, by, exclude, rec, e.child, next)
            };
            if hit {
                return true;
            }
        }
        false
    }

    /// True if `c` is an unmarked piece of `by` whose type is in `mask`.
    #[inline]
    fn holds(&self, game: &Game, c: Cell, by: usize, mask: u64) -> bool {
        if c.is_empty() || c.is_marked() {
            return false;
        }
        let info = game.cells.info(c);
        info.owner as usize == by && info.piece < 64 && mask & (1u64 << info.piece) != 0
    }

    /// The compressed ray of `node`, standing on `sq`: from `sq` if it
    /// is empty; for a hopper's line, beyond it if it is a screen.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn node_ray<R: Recorder>(
        &self,
        game: &Game,
        view: &View,
        history: &[Ply],
        by: usize,
        exclude: Option<Square>,
        rec: &mut R,
        node: &Node,
        sq: Square,
    ) -> bool {
        let dir = Dir(node.ray_dir);
        let c = view.get(sq);
        if node.hop == NO_HOP {
            if c.is_empty() {
                return self.ray(game, view, by, exclude, rec, sq, dir, node.ray_mask);
            }
            rec.blocked_ray(sq, dir, node.ray_mask, by);
            return false;
        }
        // A piece that comes here may become a screen.
        rec.strict(sq);
        if c.is_empty() {
            return self.hop_ray(game, view, history, by, exclude, rec, sq, dir, node);
        }
        let hop = self.hops[node.hop as usize];
        self.conds_hold(game, c, history, by, hop.conds, sq)
            && self.ray(game, view, by, exclude, rec, sq, dir, hop.mask)
    }

    /// Follows a compressed ray from `sq` (not itself examined: empty, or
    /// a hopper's screen): the first piece met attacks if its type is in
    /// `mask`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn ray<R: Recorder>(
        &self,
        game: &Game,
        view: &View,
        by: usize,
        exclude: Option<Square>,
        rec: &mut R,
        mut sq: Square,
        dir: Dir,
        mask: u64,
    ) -> bool {
        while let Some(next) = game.topology.step(sq, dir) {
            rec.read(next);
            let c = view.get(next);
            if !c.is_empty() {
                if Some(next) != exclude && self.holds(game, c, by, mask) {
                    return true;
                }
                rec.blocked_ray(next, dir, mask, by);
                return false;
            }
            sq = next;
        }
        false
    }

    /// Follows the hopper's line of `node` from `sq` (which is empty): the
    /// first piece met attacks if its type is in the node's `ray_mask`;
    /// otherwise, if it passes the screen's conditions, a ray with the
    /// attackers beyond (the hop's mask) goes on from it. Every square before
    /// the screen is strict: a piece that comes there may become a screen.
    #[allow(clippy::too_many_arguments)]
    fn hop_ray<R: Recorder>(
        &self,
        game: &Game,
        view: &View,
        history: &[Ply],
        by: usize,
        exclude: Option<Square>,
        rec: &mut R,
        mut sq: Square,
        dir: Dir,
        node: &Node,
    ) -> bool {
        while let Some(next) = game.topology.step(sq, dir) {
            rec.read(next);
            rec.strict(next);
            let c = view.get(next);
            if !c.is_empty() {
                if Some(next) != exclude && self.holds(game, c, by, node.ray_mask) {
                    return true;
                }
                let hop = self.hops[node.hop as usize];
                return self.conds_hold(game, c, history, by, hop.conds, next)
                    && self.ray(game, view, by, exclude, rec, next, dir, hop.mask);
            }
            sq = next;
        }
        false
    }

    #[inline]
    fn conds_hold(
        &self,
        game: &Game,
        c: Cell,
        history: &[Ply],
        by: usize,
        list: u16,
        sq: Square,
    ) -> bool {
        let piece = !c.is_empty() && !c.is_marked();
        let info = || game.cells.info(c);
        for cond in &self.cond_lists[list as usize] {
            let holds = match *cond {
                Cond::Empty => c.is_empty(),
                Cond::NotEmpty => !c.is_empty(),
                Cond::Enemy => piece && info().owner as usize != by,
                Cond::NotEnemy => !(piece && info().owner as usize != by),
                Cond::Friend => piece && info().owner as usize == by,
                Cond::NotFriend => !(piece && info().owner as usize == by),
                Cond::TypeIs(t) => !c.is_empty() && info().piece == t,
                Cond::NotType(t) => {
                    !c.is_empty() && {
                        let i = info();
                        i.phantom || i.piece != t
                    }
                }
                Cond::Moved => piece && info().piece != NO_PIECE && info().moved,
                Cond::NotMoved => piece && info().piece != NO_PIECE && !info().moved,
                Cond::InZone(z) => game.zones.contains(z as usize, by, sq),
                _ => last_move_holds(*cond, history, by, sq),
            };
            if !holds {
                return false;
            }
        }
        true
    }
}

/// Attack detection by running programs forwards on a copy of the board.
fn fallback(
    game: &Game,
    view: &View,
    history: &[Ply],
    by: usize,
    exclude: Option<Square>,
    types: Option<&[u16]>,
) -> bool {
    let n = game.slot_count();
    let mut cells: Vec<Cell> = view.cells[..n].to_vec();
    cells[view.target.index()] = view.hypo;
    let mut vm = Vm::new();
    let mut sink = MoveList::new();
    let env = Env {
        game,
        player: by,
        history,
        bits: None,
        mode: Mode::Attack(view.target),
        move_type: None,
    };
    for sq in game.topology.squares() {
        if Some(sq) == exclude || sq == view.target {
            continue;
        }
        let info = game.cells.info(cells[sq.index()]);
        if info.piece == NO_PIECE
            || info.owner as usize != by
            || types.is_some_and(|t| !t.contains(&info.piece))
        {
            continue;
        }
        let moving = game.moving_type(&cells, sq, by, info.piece);
        let prog = &game.pieces[moving as usize].programs[by];
        if matches!(vm.run(&env, &mut cells, prog, sq, &mut sink), Ok(true)) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::{NO_HOP, View, attacked, attacked_in, fallback, within_reach};
    use crate::board::Square;
    use crate::load::load_game;
    use crate::movegen::Generator;
    use crate::position::MoveList;

    /// The tries answer exactly as running every piece's program forwards
    /// would, on every square of positions from random games (pieces and
    /// empty squares with a phantom enemy on them). Lame leapers (the
    /// xiangqi horse and elephant) once broke this: a one-square chain was
    /// taken for a ray.
    #[test]
    fn tries_agree_with_running_the_programs() {
        let mut rng = StdRng::seed_from_u64(7);
        for name in [
            "chess",
            "xiangqi",
            "janggi",
            "shogi",
            "capablanca",
            "grand",
            "shatranj",
        ] {
            let game = load_game(name).unwrap();
            let squares = game.topology.len();
            let mut generator = Generator::new();
            let mut list = MoveList::new();
            for _game in 0..6 {
                let mut pos = game.initial_position();
                for _ply in 0..60 {
                    let cells = pos.cells().to_vec();
                    for sq in game.topology.squares() {
                        for by in 0..game.players.len() {
                            let c = cells[sq.index()];
                            let info = game.cells.info(c);
                            let hypo = if c.is_empty() {
                                game.cells.phantom(1 - by)
                            } else if info.owner as usize != by {
                                c
                            } else {
                                continue;
                            };
                            let view = View {
                                cells: &cells,
                                target: sq,
                                hypo,
                            };
                            // Also with a square whose piece does not
                            // count as an attacker.
                            let other = Square(rng.random_range(0..squares) as u16);
                            for exclude in [None, Some(other).filter(|s| *s != sq)] {
                                let fast =
                                    attacked(&game, &cells, pos.history(), sq, by, hypo, exclude);
                                let slow = fallback(&game, &view, pos.history(), by, exclude, None);
                                if exclude.is_none() {
                                    // The position's bitsets and the tries' reach agree.
                                    let within = attacked_in(&game, &pos, sq, by, hypo);
                                    assert_eq!(
                                        within,
                                        slow,
                                        "{name}: reach of {}",
                                        game.topology.name(sq)
                                    );
                                }
                                assert_eq!(
                                    fast,
                                    slow,
                                    "{name}: {} attacked by player {by} (not counting {:?}) in {}",
                                    game.topology.name(sq),
                                    exclude.map(|s| game.topology.name(s)),
                                    game.write_position(&pos)
                                );
                            }
                        }
                    }
                    generator.legal(&game, &mut pos, &mut list).unwrap();
                    if list.is_empty() {
                        break;
                    }
                    let mv = list.get(rng.random_range(0..list.len()));
                    game.make(&mut pos, mv);
                }
            }
        }
    }

    /// In chess's opening position no piece stands where it could ever
    /// attack a king, so no attack walk runs; in the fool's mate the
    /// Queen on h4 reaches e1 (along an empty diagonal or not).
    #[test]
    fn kings_start_out_of_every_piece_reach() {
        let game = load_game("chess").unwrap();
        let king = game.piece_by_name("King").unwrap();
        let reached = |pos: &crate::position::Position, player: usize| {
            let sq = crate::position::squares_of(pos.piece_bits(player, king as usize))
                .next()
                .unwrap();
            let table = game
                .attacks
                .table(&game, 1 - player, game.cells.info(pos.cell(sq)));
            within_reach(table, pos.bits(), sq, 1 - player)
        };
        let start = game.initial_position();
        assert!(!reached(&start, 0) && !reached(&start, 1));
        let mate = game
            .parse_position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
            .unwrap();
        assert!(reached(&mate, 0) && game.royal_attacked(&mate, 0));
        assert!(!reached(&mate, 1));
    }

    /// The cannons' lines (xiangqi, janggi) are folded into rays with a
    /// screen, not left as a node per square.
    #[test]
    fn cannon_lines_are_folded() {
        for name in ["xiangqi", "janggi"] {
            let game = load_game(name).unwrap();
            let general = (0..game.pieces.len() as u16)
                .find(|t| game.pieces[*t as usize].royal)
                .unwrap();
            let royal = game.cells.info(game.cells.piece(general, 0, false));
            let table = game.attacks.table(&game, 1, royal);
            let folded = table.nodes.iter().filter(|n| n.hop != NO_HOP).count();
            assert!(folded >= 4, "{name}: {folded} hopper lines");
        }
    }

    /// The janggi cannon's `not_piece:Cannon` handler stands for a test of
    /// the square, so the tables read its program: no piece of janggi is
    /// left to run forwards.
    #[test]
    fn janggi_cannons_are_read_by_the_tables() {
        let game = load_game("janggi").unwrap();
        for by in 0..2 {
            assert!(game.attacks.fallback_types(&game, by).is_empty());
        }
        assert!(game.attacks.local(&game));
    }

    #[test]
    fn chess_tables_are_small_and_complete() {
        let game = load_game("chess").unwrap();
        for by in 0..2 {
            assert!(game.attacks.fallback_types(&game, by).is_empty());
            let king = game.piece_by_name("King").unwrap();
            let royal = game.attacks.table(
                &game,
                by,
                game.cells.info(game.cells.piece(king, 1 - by, false)),
            );
            eprintln!(
                "any {} nodes, royal {} nodes {} edges, dynamic {}",
                game.attacks.node_count(&game, by),
                royal.nodes.len(),
                royal.edges.len(),
                royal.dynamic
            );
            let root = royal.nodes[0];
            for e in &royal.edges[root.edge_at as usize..][..root.edge_len as usize] {
                eprintln!(
                    "root edge kind {} dir {:?} conds {:?}",
                    e.kind, e.dir, royal.cond_lists[e.conds as usize]
                );
            }
        }
    }
}
