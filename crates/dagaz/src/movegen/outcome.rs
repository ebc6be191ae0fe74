//! "Is the game over?": the one answer, used by every front end, the AI
//! and the match runner. The game's end rule (a handler) speaks first,
//! then the goals of the game file, in a fixed order.

use super::{GenError, Generator};
use crate::board::{Dir, Square};
use crate::game::{Condition, ConfigCell, Game, GameResult, Goal, Outcome};
use crate::position::{MoveList, NO_PIECE, Position, squares_of};

impl Generator {
    /// The result if the game is over in `pos`; `None` while it goes on.
    /// Generates the legal moves to find out.
    pub fn result(
        &mut self,
        game: &Game,
        pos: &mut Position,
    ) -> Result<Option<GameResult>, GenError> {
        let mut list = std::mem::take(&mut self.scratch);
        let legal = self.legal(game, pos, &mut list);
        self.scratch = list;
        let legal = legal.map(|()| self.scratch.len())?;
        self.result_given(game, pos, legal)
    }

    /// [`Generator::result`] when the side to move is known to have
    /// `legal` legal moves (the caller has just generated them; only
    /// whether there are any matters, so 1 may stand for "some").
    pub fn result_given(
        &mut self,
        game: &Game,
        pos: &mut Position,
        legal: usize,
    ) -> Result<Option<GameResult>, GenError> {
        self.result_of_goals(game, pos, legal, |_| true)
    }

    /// [`Generator::result_given`] where draws a player must claim
    /// ([`Goal::is_claimed_draw`]) do not end the game: the result an
    /// engine protocol plays on to, leaving the claim to its GUI.
    pub fn result_unclaimed(
        &mut self,
        game: &Game,
        pos: &mut Position,
        legal: usize,
    ) -> Result<Option<GameResult>, GenError> {
        self.result_of_goals(game, pos, legal, |g| !g.is_claimed_draw())
    }

    /// The result by the goals `keep` accepts (and the end rule).
    fn result_of_goals(
        &mut self,
        game: &Game,
        pos: &mut Position,
        legal: usize,
        keep: impl Fn(&Goal) -> bool,
    ) -> Result<Option<GameResult>, GenError> {
        let blocked = match game.rules.goals.needs_colour_blocked() {
            false => false,
            true => {
                let mut list = std::mem::take(&mut self.scratch);
                let own = self.own_pieces_moves(game, pos, &mut list);
                let blocked = list.is_empty();
                self.scratch = list;
                own?;
                blocked
            }
        };
        Ok(decide(game, pos, legal, blocked, keep))
    }
}

/// The result in `pos` if the game is over, where the side to move has
/// `legal_moves` legal moves, and `colour_blocked` says whether none of its
/// pieces can move at all: the end rule first, then the goals in the game
/// file's order; a side without legal moves that no goal speaks of ends the
/// game drawn.
fn decide(
    game: &Game,
    pos: &Position,
    legal_moves: usize,
    colour_blocked: bool,
    keep: impl Fn(&Goal) -> bool,
) -> Option<GameResult> {
    if let Some(result) = game
        .end_rule
        .as_ref()
        .and_then(|r| r.result(game, pos, legal_moves))
    {
        return Some(result);
    }
    if let Some(result) = immediate(game, pos, None) {
        return Some(result);
    }
    let facts = Facts {
        game,
        pos,
        legal_moves,
        colour_blocked,
    };
    for goal in game
        .rules
        .goals
        .list
        .iter()
        .filter(|g| !g.condition.immediate() && keep(g))
    {
        if let Some(player) = facts.concerned(goal) {
            return Some(facts.outcome(goal, player));
        }
    }
    (legal_moves == 0).then(|| GameResult::Draw {
        reason: "no legal moves".into(),
    })
}

/// The result of the first goal, in file order, that ends the game at once
/// ([`Condition::immediate`]) and holds in `pos`. A position decided so
/// has no legal moves. `moves` are the legal moves of `pos` if known (a
/// race needs them; they are generated otherwise).
pub(super) fn immediate(
    game: &Game,
    pos: &Position,
    moves: Option<&MoveList>,
) -> Option<GameResult> {
    let facts = Facts {
        game,
        pos,
        legal_moves: usize::MAX,
        colour_blocked: false,
    };
    for goal in game
        .rules
        .goals
        .list
        .iter()
        .filter(|g| g.condition.immediate())
    {
        if let Condition::Race { zone, pieces } = &goal.condition {
            match race(&facts, goal, *zone, pieces, moves) {
                Race::Decided(result) => return Some(result),
                Race::Answer => return None,
                Race::Nothing => continue,
            }
        }
        if let Some(p) = facts.concerned(goal) {
            return Some(facts.outcome(goal, p));
        }
    }
    None
}

/// What a race goal says of a position.
enum Race {
    Decided(GameResult),
    /// A player has arrived and the side to move may still arrive too.
    Answer,
    Nothing,
}

/// A race to `zone` (racing kings): every player there draws; a player
/// there wins once the other side has had its move and not arrived.
fn race(facts: &Facts, goal: &Goal, zone: usize, pieces: &[u16], moves: Option<&MoveList>) -> Race {
    let (game, pos) = (facts.game, facts.pos);
    let n = game.players.len();
    let inside = |p: usize| {
        game.topology
            .squares()
            .any(|sq| game.zones.contains(zone, p, sq) && owns(game, pos, sq, p, pieces))
    };
    let reason = goal.condition.reason(game);
    if (0..n).all(inside) {
        return Race::Decided(GameResult::Draw {
            reason: format!("all {reason}"),
        });
    }
    let side = pos.side();
    let Some(p) = (0..n).find(|&p| goal.player.is_none_or(|q| q == p) && inside(p)) else {
        return Race::Nothing;
    };
    if p != side {
        let answer = |list: &MoveList| {
            list.iter().any(|m| {
                m.header
                    .to()
                    .is_some_and(|to| game.zones.contains(zone, side, to))
                    && (pieces.is_empty() || pieces.contains(&m.header.piece))
            })
        };
        let can_answer = match moves {
            Some(list) => answer(list),
            None => {
                let mut list = MoveList::new();
                let mut copy = pos.clone();
                Generator::new().legal(game, &mut copy, &mut list).is_ok() && answer(&list)
            }
        };
        if can_answer {
            return Race::Answer;
        }
    }
    Race::Decided(facts.outcome(goal, p))
}

/// What the goals are evaluated against.
struct Facts<'a> {
    game: &'a Game,
    pos: &'a Position,
    legal_moves: usize,
    colour_blocked: bool,
}

impl Facts<'_> {
    /// The player who moved last, other than the side to move: with a
    /// turn order, the latest player in the history who is not to move now
    /// (a player with two turns in a row has just moved and moves again;
    /// the goals speak of the other); without a history, the player of an
    /// earlier turn; else the player before the side to move.
    fn last_mover(&self) -> usize {
        let n = self.game.players.len();
        let side = self.pos.side();
        let plain = (side + n - 1) % n;
        let Some(order) = &self.game.rules.turns else {
            return plain;
        };
        let other = |p: &usize| *p != side;
        self.pos
            .history()
            .iter()
            .rev()
            .take_while(|ply| !ply.synthetic)
            .map(|ply| ply.side_before as usize)
            .find(other)
            .or_else(|| order.player_before(self.pos.phase()).filter(other))
            .unwrap_or(plain)
    }

    /// The player `goal` concerns if its condition holds, else `None`.
    fn concerned(&self, goal: &Goal) -> Option<usize> {
        let (game, pos) = (self.game, self.pos);
        let side = pos.side();
        let last = self.last_mover();
        let c = &goal.condition;
        let player = if c.about_pieces() {
            let n = game.players.len();
            (0..n)
                .map(|i| (last + i) % n)
                .find(|&p| goal.player.is_none_or(|q| q == p) && self.holds_for(c, p))?
        } else {
            let concerned = if matches!(c, Condition::Occupy { .. }) {
                side
            } else {
                last
            };
            if goal.player.is_some_and(|q| q != concerned) || !self.holds_for(c, concerned) {
                return None;
            }
            concerned
        };
        Some(player)
    }

    /// Whether condition `c` holds for `player`.
    fn holds_for(&self, c: &Condition, player: usize) -> bool {
        let (game, pos) = (self.game, self.pos);
        let side = pos.side();
        match c {
            Condition::Checkmate => self.legal_moves == 0 && game.royal_attacked(pos, side),
            Condition::Stalemate => self.legal_moves == 0 && !game.royal_attacked(pos, side),
            Condition::NoMoves => self.legal_moves == 0,
            Condition::Repetition(times) => pos.repetitions() + 1 >= *times,
            Condition::NoProgress(plies) => pos.clock() >= *plies,
            Condition::ColourBlocked => self.colour_blocked,
            Condition::BareKing => bare(game, pos, side) && !bare(game, pos, player),
            Condition::Insufficient(minor) => insufficient(game, pos, minor),
            Condition::Full => game.topology.squares().all(|sq| !pos.cell(sq).is_empty()),
            Condition::Passes(n) => {
                let h = pos.history();
                h.len() >= *n as usize && h[h.len() - *n as usize..].iter().all(|p| p.is_pass())
            }
            Condition::Checks(n) => {
                let given = pos
                    .history()
                    .iter()
                    .filter(|p| p.check && p.player as usize == player)
                    .count();
                given >= *n as usize
            }
            Condition::Line {
                length,
                exact,
                dirs,
                pieces,
            } => has_line(game, pos, player, *length as usize, *exact, dirs, pieces),
            Condition::Reach { zone, pieces }
            | Condition::Occupy { zone, pieces }
            | Condition::Race { zone, pieces } => game.topology.squares().any(|sq| {
                game.zones.contains(*zone, player, sq) && owns(game, pos, sq, player, pieces)
            }),
            Condition::ReachSafe { zone, pieces } => game.topology.squares().any(|sq| {
                game.zones.contains(*zone, player, sq)
                    && owns(game, pos, sq, player, pieces)
                    && !game.square_attacked(pos, sq, player)
            }),
            Condition::Connect { from, to, dirs } => connected(game, pos, player, *from, *to, dirs),
            Condition::Pieces {
                pieces,
                compare,
                bound,
            } => compare.holds(piece_count(pos, player, pieces), *bound),
            Condition::Total {
                pieces,
                compare,
                bound,
            } => compare.holds(total_count(game, pos, pieces), *bound),
            Condition::Config { cells, dirs } => has_config(game, pos, player, cells, dirs),
            Condition::All(parts) => parts.iter().all(|c| self.holds_for(c, player)),
        }
    }

    /// The result when `goal` holds for `player`.
    fn outcome(&self, goal: &Goal, player: usize) -> GameResult {
        let game = self.game;
        let reason = goal.condition.reason(game);
        let n = game.players.len();
        match goal.outcome {
            Outcome::Win => GameResult::Win {
                winner: player,
                reason,
            },
            Outcome::Loss => GameResult::Win {
                winner: (player + 1) % n,
                reason,
            },
            Outcome::Draw => GameResult::Draw { reason },
            Outcome::MostPieces => self.by_count(n, reason, true),
            Outcome::FewestPieces => self.by_count(n, reason, false),
        }
    }

    /// The game is over: the player with the most (or the fewest) pieces
    /// on the board wins; equal counts draw.
    fn by_count(&self, n: usize, reason: String, most: bool) -> GameResult {
        let counts: Vec<u32> = (0..n).map(|p| piece_count(self.pos, p, &[])).collect();
        let best = if most {
            counts.iter().copied().max()
        } else {
            counts.iter().copied().min()
        }
        .unwrap_or(0);
        let leaders: Vec<usize> = (0..n).filter(|p| counts[*p] == best).collect();
        let tally = counts
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join("-");
        let which = if most { "most" } else { "fewest" };
        match leaders.as_slice() {
            [winner] => GameResult::Win {
                winner: *winner,
                reason: format!("{reason}; {which} pieces, {tally}"),
            },
            _ => GameResult::Draw {
                reason: format!("{reason}; equal pieces, {tally}"),
            },
        }
    }
}

/// True if `player` has no pieces but royal ones.
fn bare(game: &Game, pos: &Position, player: usize) -> bool {
    game.pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.royal)
        .all(|(t, _)| pos.piece_bits(player, t).iter().all(|w| *w == 0))
}

/// Whether only royal pieces and at most one piece of the types `minor`
/// stand on the board, and no hand holds anything. (Plain loops that stop
/// at the first piece that decides: the search asks at every node, and
/// the counts as iterator sums cost it 1.8 % of its instructions.)
fn insufficient(game: &Game, pos: &Position, minor: &[u16]) -> bool {
    let mut minors = 0;
    for (t, piece) in game.pieces.iter().enumerate() {
        if piece.royal {
            continue;
        }
        let is_minor = minor.contains(&(t as u16));
        for p in 0..game.players.len() {
            if game.in_hand(pos, p, t as u16) > 0 {
                return false;
            }
            for &w in pos.piece_bits(p, t) {
                if w != 0 {
                    minors += w.count_ones();
                    if !is_minor || minors > 1 {
                        return false;
                    }
                }
            }
        }
    }
    true
}

/// Whether `sq` holds a piece of `player` of one of `pieces` (empty: any).
fn owns(game: &Game, pos: &Position, sq: Square, player: usize, pieces: &[u16]) -> bool {
    let cell = pos.cell(sq);
    let info = game.cells.info(cell);
    !cell.is_empty()
        && info.piece != NO_PIECE
        && !info.phantom
        && info.owner as usize == player
        && (pieces.is_empty() || pieces.contains(&info.piece))
}

/// How many pieces of `pieces` (empty: any) `player` has on the board.
fn piece_count(pos: &Position, player: usize, pieces: &[u16]) -> u32 {
    if pieces.is_empty() {
        return pos.owner_count(player);
    }
    pieces
        .iter()
        .map(|t| squares_of(pos.piece_bits(player, *t as usize)).count() as u32)
        .sum()
}

/// The pieces on the board, whoever owns them, of `pieces` (empty: all).
fn total_count(game: &Game, pos: &Position, pieces: &[u16]) -> u32 {
    game.topology
        .squares()
        .filter(|sq| {
            let cell = pos.cell(*sq);
            let piece = game.cells.info(cell).piece;
            !cell.is_empty() && piece != NO_PIECE && (pieces.is_empty() || pieces.contains(&piece))
        })
        .count() as u32
}

/// Whether the pattern `cells` (with `dirs` between them, in `player`'s
/// directions) stands on the board from some square.
fn has_config(
    game: &Game,
    pos: &Position,
    player: usize,
    cells: &[ConfigCell],
    dirs: &[Dir],
) -> bool {
    let map = &game.players[player].map;
    let fits = |sq: Square, cell: &ConfigCell| match cell {
        ConfigCell::Empty => pos.cell(sq).is_empty(),
        ConfigCell::Own(pieces) => owns(game, pos, sq, player, pieces),
    };
    game.topology.squares().any(|start| {
        let mut at = start;
        for (i, cell) in cells.iter().enumerate() {
            if i > 0 {
                match game.topology.step(at, map.apply(dirs[i - 1])) {
                    Some(next) => at = next,
                    None => return false,
                }
            }
            if !fits(at, cell) {
                return false;
            }
        }
        true
    })
}

/// Whether `player` has `length` (or with `exact`, exactly `length`)
/// pieces in a row along one of `dirs`. A run is counted from its first
/// square, so each run is measured once per direction.
fn has_line(
    game: &Game,
    pos: &Position,
    player: usize,
    length: usize,
    exact: bool,
    dirs: &[Dir],
    pieces: &[u16],
) -> bool {
    let topo = &game.topology;
    let mine = |sq: Square| owns(game, pos, sq, player, pieces);
    let squares = (0..game.pieces.len()).flat_map(|t| squares_of(pos.piece_bits(player, t)));
    for sq in squares {
        if !mine(sq) {
            continue;
        }
        for &d in dirs {
            let back = topo.opposite(d).and_then(|o| topo.step(sq, o));
            if back.is_some_and(mine) {
                continue;
            }
            let mut run = 1;
            let mut at = sq;
            while let Some(next) = topo.step(at, d).filter(|s| mine(*s)) {
                run += 1;
                at = next;
                if run > length && !exact {
                    break;
                }
            }
            if run == length || (!exact && run > length) {
                return true;
            }
        }
    }
    false
}

/// Whether a chain of `player`'s pieces, each one step along `dirs` from
/// the next, links a square of zone `from` to one of zone `to`.
fn connected(
    game: &Game,
    pos: &Position,
    player: usize,
    from: usize,
    to: usize,
    dirs: &[Dir],
) -> bool {
    let topo = &game.topology;
    let mine = |sq: Square| owns(game, pos, sq, player, &[]);
    let mut seen = vec![false; topo.len()];
    let mut stack: Vec<Square> = topo
        .squares()
        .filter(|sq| game.zones.contains(from, player, *sq) && mine(*sq))
        .collect();
    for sq in &stack {
        seen[sq.index()] = true;
    }
    while let Some(sq) = stack.pop() {
        if game.zones.contains(to, player, sq) {
            return true;
        }
        for &d in dirs {
            if let Some(next) = topo.step(sq, d)
                && !seen[next.index()]
                && mine(next)
            {
                seen[next.index()] = true;
                stack.push(next);
            }
        }
    }
    false
}
