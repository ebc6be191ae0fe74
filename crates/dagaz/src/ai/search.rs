//! Alpha-beta search with iterative deepening, a transposition table on the
//! Zobrist hash, move ordering (table move, captures by victim value,
//! killers, history), principal-variation search (every move after the
//! first tried with a null window first), aspiration windows at the root,
//! late-move reductions of quiet moves, a check extension, null-move
//! pruning, reverse futility, futility and late-move pruning near the
//! leaves, and quiescence on captures (with delta pruning). Where the
//! game allows it, moves are generated pseudo-legal and tested for
//! legality only when the search makes them.
//!
//! Scores are always from the point of view of the player who is to move at
//! the root ("paranoid" search): that player maximises, every other player
//! minimises. With two players this is plain minimax; with more it is the
//! paranoid generalisation.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::eval::{Evaluator, Material, smallest_value};
use super::table::{Bound, Entry, Table};
use super::{Choice, Control, Limit};
use crate::game::{Game, GameResult};
use crate::movegen::{CheckTest, GenError, Generator};
use crate::position::Position;
use crate::position::{CellInfo, Move, MoveList, MoveRef};

/// Score of a won game (minus the plies to reach it).
pub const WIN: i32 = 1_000_000;
const INF: i32 = i32::MAX / 2;

/// The most nodes searched between two looks at the limits.
const MAX_CHECK_EVERY: u64 = 1024;
/// Plies of quiescence search beyond the nominal depth.
const QUIESCENCE_PLIES: usize = 12;
/// Weight of one move more than the other side has (mobility).
const MOBILITY: i32 = 2;
/// Late-move reductions: quiet moves after this many in the ordered list,
/// at this depth or more, are first searched shallower, by more the
/// deeper the node and the later the move ([`late_move_reduction`]).
const LMR_AFTER: usize = 3;
const LMR_DEPTH: u32 = 3;
/// Half the width of the window an iteration from depth 5 is first
/// searched in, around the last iteration's score (under a third of a
/// chess pawn, 100). Measured at depth 9 on three chess middlegames: 4.3 M
/// nodes in all with 30 to 35, 8.2 M without a window.
const ASPIRATION: i32 = 30;
/// Delta pruning's margin: a capture at a quiescence node is searched only
/// if the victims' value plus this could lift the static score to the
/// bound (two chess pawns: mobility and hints move the score too).
const DELTA: i32 = 200;
/// The most threads one search uses.
const MAX_THREADS: usize = 64;
/// Null-move pruning searches this many plies shallower, and one more for
/// every six plies of depth. (Eight chess middlegames to depth 9: 2.16 M
/// nodes in all with 2, and one more from depth 7; 1.64 M with this.)
const NULL_R: u32 = 3;
/// Pruning near the leaves (in the games null moves are used in, at
/// null-window nodes up to this depth, not in check): reverse futility,
/// futility and late-move pruning. (The eight middlegames to depth 9:
/// 1.64 M nodes with 3, 1.43 M with 4, but 4 played no better.)
const PRUNE_DEPTH: u32 = 3;
/// Reverse futility: a node whose static score beats the bound by this
/// many hundredths of the least piece's value per ply of depth is cut.
const REVERSE_FUTILITY: i32 = 100;
/// Futility: at a node whose static score plus this many hundredths of the
/// least piece's value per ply of depth cannot reach the bound, quiet
/// moves after the first are not searched (unless they give check).
const FUTILITY: i32 = 150;
/// History scores (how often a quiet move from one square to another
/// caused a cut-off, weighted by depth squared) stay within ± this.
const HISTORY_LIMIT: i32 = 1 << 14;

/// How many plies shallower the `n`-th move (from 0) of a node of
/// `depth` is first searched when it is reduced: about ln(depth)·ln(n)/2
/// (the usual logarithmic shape), at least one, and never into the
/// quiescence search. (Measured on eight chess middlegames, nodes to depth
/// 9 in all: 3.12 M with one ply, two from the ninth move; 1.95 M with
/// this; a ply less on the principal variation, 4.14 M.)
fn late_move_reduction(depth: u32, n: usize) -> u32 {
    let r = (0.5 + (depth as f64).ln() * (n as f64).ln() / 2.0) as u32;
    r.clamp(1, depth - 2)
}

/// Where a node of the search stands.
#[derive(Clone, Copy)]
struct Node {
    depth: u32,
    ply: usize,
    in_check: bool,
    /// The move that led here was a null move.
    after_null: bool,
}

/// The best root move (score, index), how many root moves were searched,
/// and the window they were searched in.
type RootResult = ((i32, usize), usize, (i32, i32));

/// What a search tells about each completed iteration.
type Report<'g> = Box<dyn FnMut(&Choice) + 'g>;

/// One search (for one move); keeps its tables between iterations.
pub struct Searcher<'g> {
    game: &'g Game,
    limit: Limit,
    eval: Arc<dyn Evaluator>,
    generator: Generator,
    lists: Vec<MoveList>,
    /// The number of moves of the side to move at each ply of the line
    /// being searched (for the mobility term of [`Searcher::static_score`]).
    mobility: Vec<usize>,
    tt: Arc<Table>,
    /// A helper thread of a multithreaded search: it fills the shared
    /// table; its own results are not used.
    helper: bool,
    /// The depth of the first iteration.
    first_depth: u32,
    killers: Vec<[u64; 2]>,
    history: Vec<i32>,
    nodes: u64,
    deadline: Option<Instant>,
    max_nodes: Option<u64>,
    /// The limits are looked at when `nodes` reaches this count.
    check_at: u64,
    /// Nodes between two looks at the limits: about a millisecond's worth
    /// (1 to [`MAX_CHECK_EVERY`]; a node of the largest shogi variants
    /// takes milliseconds, one of chess a microsecond).
    check_every: u64,
    /// When the limits were last looked at.
    checked: Option<Instant>,
    control: Control,
    stopped: bool,
    root: usize,
    progress: Option<Report<'g>>,
    /// Whether a side to move can be in check (the game has royal pieces
    /// that must not be left attacked): checks are extended and never
    /// reduced.
    checks: bool,
    /// Whether null-move pruning is used: in two-player games whose
    /// royal pieces must not be left attacked (the chess, shogi and
    /// xiangqi families), where zugzwang is rare.
    null_moves: bool,
    /// The least piece's value ([`smallest_value`]): the unit of the
    /// pruning margins. Taken from the material values even when the
    /// search has an evaluator of its own, which should score on the same
    /// scale.
    unit: i32,
}

impl<'g> Searcher<'g> {
    /// A searcher with the game's generic evaluation.
    pub fn new(game: &'g Game, limit: Limit) -> Searcher<'g> {
        Self::with_evaluator(game, limit, Arc::new(Material::new(game)))
    }

    /// A searcher with a game-specific evaluation.
    pub fn with_evaluator(game: &'g Game, limit: Limit, eval: Arc<dyn Evaluator>) -> Searcher<'g> {
        let squares = game.topology.len();
        Searcher {
            game,
            limit,
            eval,
            generator: Generator::new(),
            lists: Vec::new(),
            mobility: Vec::new(),
            tt: Arc::new(Table::new()),
            helper: false,
            first_depth: 1,
            killers: Vec::new(),
            history: vec![0; (squares + 1) * (squares + 1)],
            nodes: 0,
            deadline: None,
            max_nodes: None,
            check_at: 0,
            check_every: 1,
            checked: None,
            control: Control::unbounded(),
            stopped: false,
            root: 0,
            progress: None,
            checks: !game.royal_types().is_empty() && game.rules.royal_safety,
            null_moves: !game.royal_types().is_empty()
                && game.rules.royal_safety
                && game.players.len() == 2,
            unit: smallest_value(game),
        }
    }

    /// The same searcher, within `control`'s bounds.
    pub fn with_control(mut self, control: Control) -> Searcher<'g> {
        self.control = control;
        self
    }

    /// The same searcher, telling `report` what each completed iteration
    /// found (an engine protocol's `info` lines).
    pub fn with_progress(mut self, report: impl FnMut(&Choice) + 'g) -> Searcher<'g> {
        self.progress = Some(Box::new(report));
        self
    }

    /// The best move found within the limit; `None` without legal moves.
    /// With [`Control::threads`] above one, helper threads search the same
    /// position at the same time, sharing the transposition table ("lazy
    /// SMP"): what they store orders and cuts this thread's search.
    pub fn best(&mut self, pos: &mut Position) -> Result<Option<Choice>, GenError> {
        let helpers = self.control.threads.clamp(1, MAX_THREADS) - 1;
        if helpers == 0 || self.helper {
            return self.iterate(pos);
        }
        let done = Arc::new(AtomicBool::new(false));
        let (game, limit, eval, tt) = (self.game, self.limit, self.eval.clone(), self.tt.clone());
        let control = Control {
            stop: done.clone(),
            threads: 1,
            ..self.control.clone()
        };
        std::thread::scope(|scope| {
            let threads: Vec<_> = (0..helpers)
                .map(|k| {
                    let (eval, tt, control) = (eval.clone(), tt.clone(), control.clone());
                    let mut pos = pos.clone();
                    scope.spawn(move || {
                        let mut helper = Searcher::with_evaluator(game, limit, eval);
                        helper.tt = tt;
                        helper.helper = true;
                        helper.control = control;
                        // Every other helper one iteration ahead.
                        helper.first_depth = 1 + (k % 2 == 0) as u32;
                        let _ = helper.iterate(&mut pos);
                        helper.nodes
                    })
                })
                .collect();
            let found = self.iterate(pos);
            done.store(true, Ordering::Relaxed);
            let nodes: u64 = threads.into_iter().map(|t| t.join().unwrap_or(0)).sum();
            found.map(|c| {
                c.map(|mut c| {
                    c.nodes += nodes;
                    c
                })
            })
        })
    }

    /// Iterative deepening on this thread.
    fn iterate(&mut self, pos: &mut Position) -> Result<Option<Choice>, GenError> {
        // Built once per game, not on the search's time.
        self.game.prepare_attacks();
        let started = Instant::now();
        self.root = pos.side();
        self.nodes = 0;
        (self.check_at, self.check_every, self.checked) = (0, 1, None);
        self.stopped = false;
        self.deadline = self.control.deadline(started, self.limit);
        self.max_nodes = self.control.node_budget(self.limit);
        let own_depth = match self.limit {
            Limit::Depth(d) => d,
            _ => 64,
        };
        let max_depth = own_depth
            .min(self.control.max_depth.unwrap_or(u32::MAX))
            .max(1);
        let mut root_moves = MoveList::new();
        self.generator
            .moves_of_side(self.game, pos, &mut root_moves)?;
        if root_moves.is_empty() {
            return Ok(None);
        }
        let moves = self.allowed_at_root(root_moves.to_vec());
        self.note_mobility(0, moves.len());
        let mut best: (i32, usize) = (0, 0);
        let mut completed = 0;
        for depth in self.first_depth.min(max_depth)..=max_depth {
            let (found, searched, window) = self.aspiration_search(pos, &moves, depth, best)?;
            if self.stopped {
                // An iteration cut short still counts if it searched the
                // last iteration's best move (its best is as deep), unless
                // what it found is only that every move is worse than the
                // window.
                if completed == 0 || (searched > 0 && found.0 > window.0) {
                    best = found;
                }
                break;
            }
            best = found;
            completed = depth;
            if self.progress.is_some() {
                let mv = moves[best.1].clone();
                let pv = self.principal_variation(pos, &mv, depth as usize)?;
                let choice = Choice {
                    mv,
                    score: Some(best.0),
                    depth,
                    pv,
                    nodes: self.nodes,
                };
                if let Some(report) = self.progress.as_mut() {
                    report(&choice);
                }
            }
            // One move needs no search for the choice, nor a mate found
            // a deeper search, but a depth asked for is searched for its
            // score (an analysis waits for the depth it asked for).
            let depth_asked = matches!(self.limit, Limit::Depth(_));
            let decided = moves.len() == 1 || best.0.abs() >= WIN - 1000;
            if decided && !depth_asked {
                break;
            }
            // On a clock, the next iteration (a few times as long as this
            // one) is not begun past 60 % of the time: what is saved goes
            // to later moves. A fixed move time is used to its end, the
            // last iteration counting as far as it got.
            if let Limit::Clock(t) = self.limit
                && !self.helper
                && started.elapsed() * 5 > t * 3
            {
                break;
            }
        }
        let mv = moves[best.1].clone();
        let pv = self.principal_variation(pos, &mv, completed.max(1) as usize)?;
        Ok(Some(Choice {
            mv,
            // No score if the time ran out before any move was searched.
            score: (best.0 > -INF).then_some(best.0),
            depth: completed,
            pv,
            nodes: self.nodes,
        }))
    }

    /// The root moves [`Control::root_moves`] allows: those of `moves` it
    /// names, or all if it names none of them.
    fn allowed_at_root(&self, moves: Vec<Move>) -> Vec<Move> {
        let Some(only) = &self.control.root_moves else {
            return moves;
        };
        let kept: Vec<Move> = moves.iter().filter(|m| only.contains(m)).cloned().collect();
        if kept.is_empty() { moves } else { kept }
    }

    /// One iteration: from depth 5 on, first within a window of
    /// `ASPIRATION` around the last iteration's score, searched again with
    /// the whole window if the score falls outside. Returns what
    /// [`Searcher::root_search`] returns and the window of the last search.
    fn aspiration_search(
        &mut self,
        pos: &mut Position,
        moves: &[Move],
        depth: u32,
        (last, first): (i32, usize),
    ) -> Result<RootResult, GenError> {
        let whole = (-INF, INF);
        let mut window = if depth >= 5 && last.abs() < WIN - 1000 {
            (last - ASPIRATION, last + ASPIRATION)
        } else {
            whole
        };
        loop {
            let (found, searched) = self.root_search(pos, moves, depth, first, window)?;
            let outside = found.0 <= window.0 || found.0 >= window.1;
            if self.stopped || !outside || window == whole {
                return Ok((found, searched, window));
            }
            window = whole;
        }
    }

    /// Searches every root move to `depth` within `window`, the last
    /// iteration's best first; returns (score, index of best) and how many
    /// moves were searched to the end (fewer if the time ran out, or if a
    /// move reached the window's top).
    fn root_search(
        &mut self,
        pos: &mut Position,
        moves: &[Move],
        depth: u32,
        first: usize,
        (mut alpha, beta): (i32, i32),
    ) -> Result<((i32, usize), usize), GenError> {
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.swap(0, first);
        if self.helper {
            // A helper takes the moves after the first in another order, so
            // that the threads fill the table with different subtrees.
            order[1..].reverse();
        }
        let floor = alpha;
        let mut best = (-INF, first);
        let mut searched = 0;
        for (n, i) in order.into_iter().enumerate() {
            let mv = moves[i].as_ref();
            self.game.make(pos, mv);
            // The first move with the whole window; the others first with
            // a null window, again with the whole one if they beat it.
            let mut score = if n == 0 {
                self.search(pos, depth - 1, 1, None, alpha, beta)
            } else {
                self.search(pos, depth - 1, 1, None, alpha, alpha + 1)
            };
            if n > 0 && matches!(score, Ok(s) if s > alpha && !self.stopped) {
                score = self.search(pos, depth - 1, 1, None, alpha, beta);
            }
            self.game.undo(pos, mv);
            let score = score?;
            if self.stopped {
                break;
            }
            searched += 1;
            if score > best.0 {
                best = (score, i);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        let exact = best.0 > floor && best.0 < beta;
        if let Some(m) = moves.get(best.1).filter(|_| !self.stopped && exact) {
            self.store(
                pos.hash(),
                depth as i16,
                Bound::Exact,
                best.0,
                m.header.hash_delta,
            );
        }
        Ok((best, searched))
    }

    fn time_is_up(&mut self) -> bool {
        if self.nodes >= self.check_at {
            let now = Instant::now();
            let over = self.max_nodes.is_some_and(|n| self.nodes >= n)
                || self.deadline.is_some_and(|d| now >= d)
                || self.control.stopped();
            self.stopped |= over;
            // About a millisecond between looks, whatever a node costs.
            if let Some(last) = self.checked {
                let since = now - last;
                if since < Duration::from_micros(500) {
                    self.check_every = (self.check_every * 2).min(MAX_CHECK_EVERY);
                } else if since > Duration::from_millis(2) {
                    self.check_every = (self.check_every / 2).max(1);
                }
            }
            self.checked = Some(now);
            // A node budget is looked at when it is spent, exactly: the
            // search stops at the same node however fast the machine.
            let next = self.nodes + self.check_every;
            self.check_at = self
                .max_nodes
                .map_or(next, |n| next.min(n.max(self.nodes + 1)));
        }
        self.stopped
    }

    fn list(&mut self, ply: usize) -> MoveList {
        while self.lists.len() <= ply {
            self.lists.push(MoveList::new());
        }
        std::mem::take(&mut self.lists[ply])
    }

    /// `check`: whether the side to move is in check, if known.
    fn search(
        &mut self,
        pos: &mut Position,
        depth: u32,
        ply: usize,
        check: Option<bool>,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, GenError> {
        let node = Node {
            depth,
            ply,
            in_check: check
                .unwrap_or_else(|| self.checks && self.game.royal_attacked(pos, pos.side())),
            after_null: false,
        };
        self.search_node(pos, node, (alpha, beta))
    }

    fn search_node(
        &mut self,
        pos: &mut Position,
        node: Node,
        (mut alpha, mut beta): (i32, i32),
    ) -> Result<i32, GenError> {
        self.nodes += 1;
        if self.time_is_up() {
            return Ok(0);
        }
        let Node { depth, ply, .. } = node;
        // A side in check is searched a ply deeper (never from quiescence),
        // within twice the nominal depth.
        let in_check = node.in_check;
        let depth = if in_check && ply < 64 {
            depth + 1
        } else {
            depth
        };
        if depth == 0 {
            return self.quiesce(pos, ply, in_check, alpha, beta);
        }
        let mut list = self.list(ply);
        let node = Node {
            depth,
            in_check,
            ..node
        };
        let result = self.search_moves(pos, node, &mut alpha, &mut beta, &mut list);
        self.lists[ply] = list;
        result
    }

    fn search_moves(
        &mut self,
        pos: &mut Position,
        node: Node,
        alpha: &mut i32,
        beta: &mut i32,
        list: &mut MoveList,
    ) -> Result<i32, GenError> {
        let Node { depth, ply, .. } = node;
        // The window as given, before the table narrows it: whether this
        // node is on the principal variation.
        let given = (*alpha, *beta);
        // The table is read before the moves are generated, unless the
        // position occurred before (its result may then depend on the
        // history, which the hash does not hold).
        let key = pos.hash();
        let entry = self.tt.get(key);
        let tt_move = entry.map_or(0, |e| e.best);
        if let Some(entry) = entry.filter(|e| e.depth >= depth as i16)
            && pos.repetitions() == 0
        {
            match entry.bound {
                Bound::Exact => return Ok(entry.score),
                Bound::Lower => *alpha = (*alpha).max(entry.score),
                Bound::Upper => *beta = (*beta).min(entry.score),
                Bound::None => {}
            }
            if *alpha >= *beta {
                return Ok(entry.score);
            }
        }
        let legality = self.generator.moves_to_try(self.game, pos, list)?;
        if let Some(result) = self.generator.result_given(self.game, pos, list.len())? {
            return Ok(self.result_score(&result, ply));
        }
        self.note_mobility(ply, list.len());
        let maximising = pos.side() == self.root;
        // The static score, at the nodes near the leaves that may be pruned.
        let stand = self
            .may_prune(node, given)
            .then(|| self.static_score(pos, ply, list.len(), maximising));
        if let Some(bound) =
            stand.and_then(|s| self.reverse_futility(s, node, maximising, (*alpha, *beta)))
        {
            return Ok(bound);
        }
        if let Some(score) = self.null_move_cutoff(pos, node, maximising, (*alpha, *beta))? {
            return Ok(score);
        }
        let futile = stand.is_some_and(|s| {
            let margin = self.unit * FUTILITY * depth as i32 / 100;
            if maximising {
                s + margin <= *alpha
            } else {
                s - margin >= *beta
            }
        });
        let late = 3 + 2 * (depth * depth) as usize;
        let (alpha0, beta0) = (*alpha, *beta);
        let order = self.order(list, ply, tt_move);
        let mut best = if maximising { -INF } else { INF };
        let mut best_key = 0;
        let killers = self.killers.get(ply).copied().unwrap_or([0; 2]);
        // The legal moves searched so far (pseudo-legal ones are tested as
        // they are made).
        let mut n = 0;
        // Whether moves give check (built before the first is made).
        let mut check_test: Option<CheckTest> = None;
        for i in order {
            let mv = list.get(i);
            let key = mv.header.hash_delta;
            let quiet = mv.header.captures == 0
                && mv.header.promotion().is_none()
                && !killers.contains(&key)
                && key != tt_move;
            let reduction = if n >= LMR_AFTER && depth >= LMR_DEPTH && quiet && !node.in_check {
                late_move_reduction(depth, n)
            } else {
                0
            };
            // Futility and late-move pruning: quiet moves after the first
            // legal one, at a node that cannot reach its bound or far down
            // the list, unless they give check.
            // Not while the best move searched loses by force: a pruned one
            // might not.
            let losing = if maximising {
                best <= -(WIN - 1000)
            } else {
                best >= WIN - 1000
            };
            let prunable = stand.is_some() && quiet && n >= 1 && !losing && (futile || n >= late);
            if self.checks && check_test.is_none() {
                check_test = Some(CheckTest::new(self.game, pos));
            }
            self.game.make(pos, mv);
            // Whether the move gives check, asked of a move that may be
            // pruned before its legality (a pruned move needs no test).
            let mut check = None;
            if prunable {
                let gives = check_test
                    .as_ref()
                    .is_some_and(|t| t.gives_check(self.game, pos, mv));
                check = Some(gives);
                if !gives {
                    self.game.undo(pos, mv);
                    continue;
                }
            }
            if !self.generator.allows(self.game, pos, mv, &legality)? {
                self.game.undo(pos, mv);
                continue;
            }
            let check = check.or_else(|| {
                check_test
                    .as_ref()
                    .map(|t| t.gives_check(self.game, pos, mv))
            });
            let score = self.search_child(
                pos,
                node,
                (n, check),
                reduction,
                maximising,
                (*alpha, *beta),
            );
            n += 1;
            self.game.undo(pos, mv);
            let score = score?;
            if self.stopped {
                return Ok(0);
            }
            let better = if maximising {
                score > best
            } else {
                score < best
            };
            if better {
                best = score;
                best_key = mv.header.hash_delta;
            }
            if maximising {
                *alpha = (*alpha).max(score);
            } else {
                *beta = (*beta).min(score);
            }
            if *alpha >= *beta {
                if mv.header.captures == 0 {
                    self.remember_cutoff(mv, ply, depth);
                }
                break;
            }
        }
        if n == 0 {
            // Every pseudo-legal move was illegal: no legal move.
            if let Some(result) = self.generator.result_given(self.game, pos, 0)? {
                return Ok(self.result_score(&result, ply));
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.store(key, depth as i16, bound, best, best_key);
        Ok(best)
    }

    /// Null-move pruning: if the side to move, passing, still holds the
    /// bound it must hold (`beta` for the maximising side, `alpha` for the
    /// other) in a search `NULL_R` plies shallower, its real moves would
    /// too; the bound is returned. Only in games where it is sound enough
    /// ([`Searcher::null_moves`]): not in check, not twice in a row, not
    /// near mate scores, and only with a piece other than the King and
    /// pawns (zugzwang is rare then).
    fn null_move_cutoff(
        &mut self,
        pos: &mut Position,
        node: Node,
        maximising: bool,
        (alpha, beta): (i32, i32),
    ) -> Result<Option<i32>, GenError> {
        let bound = if maximising { beta } else { alpha };
        if !self.null_moves
            || node.in_check
            || node.after_null
            || node.depth < 3
            || bound.abs() >= WIN - 1000
            || !self.has_big_piece(pos)
        {
            return Ok(None);
        }
        let pass = Move::pass(pos.side());
        let reduction = NULL_R + node.depth / 6;
        let child = Node {
            depth: node.depth.saturating_sub(1 + reduction),
            ply: node.ply + 1,
            // The opponent, to move after the pass.
            in_check: self.checks && self.game.royal_attacked(pos, 1 - pos.side()),
            after_null: true,
        };
        let window = if maximising {
            (beta - 1, beta)
        } else {
            (alpha, alpha + 1)
        };
        self.game.make(pos, pass.as_ref());
        let score = self.search_node(pos, child, window);
        self.game.undo(pos, pass.as_ref());
        let score = score?;
        let holds = if maximising {
            score >= beta
        } else {
            score <= alpha
        };
        Ok((holds && !self.stopped).then_some(bound))
    }

    /// Whether pruning near the leaves applies at `node`: a null-window
    /// node (not on the principal variation) of depth up to
    /// `PRUNE_DEPTH`, not in check, in a game where null moves are used.
    fn may_prune(&self, node: Node, (alpha, beta): (i32, i32)) -> bool {
        self.null_moves
            && !node.in_check
            && node.depth <= PRUNE_DEPTH
            && beta.saturating_sub(alpha) == 1
            && alpha.abs() < WIN - 1000
    }

    /// Reverse futility pruning: the bound, if the static score `stand`
    /// beats it by a margin that grows with the depth.
    fn reverse_futility(
        &self,
        stand: i32,
        node: Node,
        maximising: bool,
        (alpha, beta): (i32, i32),
    ) -> Option<i32> {
        let margin = self.unit * REVERSE_FUTILITY * node.depth as i32 / 100;
        if maximising {
            (stand - margin >= beta).then_some(beta)
        } else {
            (stand + margin <= alpha).then_some(alpha)
        }
    }

    /// Notes that the side to move at `ply` has `moves` moves.
    fn note_mobility(&mut self, ply: usize, moves: usize) {
        if self.mobility.len() <= ply {
            self.mobility.resize(ply + 1, 0);
        }
        self.mobility[ply] = moves;
    }

    /// The position's static score at `ply`: the evaluation plus the
    /// mobility, the side to move's `moves` less those its opponent had a
    /// ply before (`maximising`: the side to move is the root's player).
    /// Counting only the side to move's moves would add a bonus for having
    /// the move, which swings the score between odd and even depths (by
    /// about ±70 in chess middlegames, more than the aspiration window).
    /// With no moves counted it is the least the score can be for the side
    /// to move.
    fn static_score(&self, pos: &Position, ply: usize, moves: usize, maximising: bool) -> i32 {
        let before = ply
            .checked_sub(1)
            .and_then(|p| self.mobility.get(p))
            .map_or(moves, |&m| m);
        let mobility = MOBILITY * (moves as i32 - before as i32);
        let mobility = if maximising { mobility } else { -mobility };
        self.eval.evaluate(self.game, pos, self.root) + mobility
    }

    /// After a move: whether it attacks the royal piece of the side now
    /// to move.
    fn gives_check(&self, pos: &Position) -> bool {
        self.checks && self.game.royal_attacked(pos, pos.side())
    }

    /// Whether the side to move has a piece that is neither royal nor a
    /// pawn (a piece that restarts the no-progress clock).
    fn has_big_piece(&self, pos: &Position) -> bool {
        let side = pos.side();
        self.game.pieces.iter().enumerate().any(|(t, p)| {
            !p.royal && !p.resets_clock && pos.piece_bits(side, t).iter().any(|w| *w != 0)
        })
    }

    /// Searches the position after the `n`-th move of a node: the first
    /// with the whole window; the others with a null window at the bound
    /// the side to move must beat, `reduction` plies shallower, then at
    /// full depth and with the whole window only if they beat it.
    /// `check`: whether the move gave check, if known.
    fn search_child(
        &mut self,
        pos: &mut Position,
        node: Node,
        (n, check): (usize, Option<bool>),
        reduction: u32,
        maximising: bool,
        (alpha, beta): (i32, i32),
    ) -> Result<i32, GenError> {
        let depth = node.depth - 1;
        let ply = node.ply + 1;
        if n == 0 {
            return self.search(pos, depth, ply, check, alpha, beta);
        }
        let (lo, hi) = if maximising {
            (alpha, alpha + 1)
        } else {
            (beta - 1, beta)
        };
        let beats = |s: i32| if maximising { s > alpha } else { s < beta };
        let mut score = self.search(pos, depth.saturating_sub(reduction), ply, check, lo, hi)?;
        if reduction > 0 && beats(score) && !self.stopped {
            score = self.search(pos, depth, ply, check, lo, hi)?;
        }
        if beats(score) && score > alpha && score < beta && !self.stopped {
            score = self.search(pos, depth, ply, check, alpha, beta)?;
        }
        Ok(score)
    }

    /// Captures only, from a position's static value ("stand pat").
    /// `in_check`: whether the side to move is in check (known before).
    fn quiesce(
        &mut self,
        pos: &mut Position,
        ply: usize,
        in_check: bool,
        mut alpha: i32,
        mut beta: i32,
    ) -> Result<i32, GenError> {
        let mut list = self.list(ply);
        let result = self.quiesce_moves(pos, (ply, in_check), &mut alpha, &mut beta, &mut list);
        self.lists[ply] = list;
        result
    }

    fn quiesce_moves(
        &mut self,
        pos: &mut Position,
        (ply, in_check): (usize, bool),
        alpha: &mut i32,
        beta: &mut i32,
        list: &mut MoveList,
    ) -> Result<i32, GenError> {
        // In check, every legal move is needed (a mate is found here); else
        // the pseudo-legal moves serve: mobility counts them, and only the
        // captures are made.
        let maximising = pos.side() == self.root;
        let asked = !in_check && self.game.end_rule.is_none();
        if asked {
            // The static score with no moves counted is the least it can
            // be for the side to move: if that holds the bound, the moves
            // need not be generated. (The goals are asked first as if
            // there were moves; without an extension's end rule, only a
            // count of none matters to them.)
            if let Some(result) = self.generator.result_given(self.game, pos, 1)? {
                return Ok(self.result_score(&result, ply));
            }
            let base = self.static_score(pos, ply, 0, maximising);
            if (maximising && base >= *beta) || (!maximising && base <= *alpha) {
                return Ok(base);
            }
        }
        let (legality, moves) = if in_check {
            self.generator.moves_of_side(self.game, pos, list)?;
            (None, list.len())
        } else {
            let (legality, moves) = self.generator.captures_to_try(self.game, pos, list)?;
            (Some(legality), moves)
        };
        if (!asked || moves == 0)
            && let Some(result) = self.generator.result_given(self.game, pos, moves)?
        {
            return Ok(self.result_score(&result, ply));
        }
        self.note_mobility(ply, moves);
        let stand = self.static_score(pos, ply, moves, maximising);
        if maximising {
            if stand >= *beta {
                return Ok(stand);
            }
            *alpha = (*alpha).max(stand);
        } else {
            if stand <= *alpha {
                return Ok(stand);
            }
            *beta = (*beta).min(stand);
        }
        if ply >= self.quiescence_horizon() {
            return Ok(stand);
        }
        let mut best = stand;
        let order = self.order(list, ply, 0);
        for i in order {
            let mv = list.get(i);
            if mv.header.captures == 0 {
                continue;
            }
            // Delta pruning: a capture that cannot bring the score back to
            // the bound, even with a margin, is not searched (not in check,
            // and not a promotion, whose gain the victims do not show).
            let gain = self.victims(mv) as i32 + DELTA;
            let hopeless = if maximising {
                stand + gain <= *alpha
            } else {
                stand - gain >= *beta
            };
            if hopeless && !in_check && mv.header.promotion().is_none() {
                continue;
            }
            self.game.make(pos, mv);
            if let Some(legality) = &legality
                && !self.generator.allows(self.game, pos, mv, legality)?
            {
                self.game.undo(pos, mv);
                continue;
            }
            if !in_check && mv.header.promotion().is_none() && self.risky_capture(pos, mv) {
                self.game.undo(pos, mv);
                continue;
            }
            self.nodes += 1;
            let check = self.gives_check(pos);
            let score = self.quiesce(pos, ply + 1, check, *alpha, *beta);
            self.game.undo(pos, mv);
            let score = score?;
            if self.time_is_up() {
                return Ok(best);
            }
            if maximising {
                best = best.max(score);
                *alpha = (*alpha).max(score);
            } else {
                best = best.min(score);
                *beta = (*beta).min(score);
            }
            if *alpha >= *beta {
                break;
            }
        }
        Ok(best)
    }

    fn quiescence_horizon(&self) -> usize {
        let depth = match self.limit {
            Limit::Depth(d) => d as usize,
            _ => 64,
        };
        depth.min(64) + QUIESCENCE_PLIES
    }

    fn result_score(&self, result: &GameResult, ply: usize) -> i32 {
        match result {
            GameResult::Win { winner, .. } if *winner == self.root => WIN - ply as i32,
            GameResult::Win { .. } => -(WIN - ply as i32),
            GameResult::Draw { .. } => 0,
        }
    }

    /// Move indices, most promising first.
    fn order(&self, list: &MoveList, ply: usize, tt_move: u64) -> Vec<usize> {
        let killers = self.killers.get(ply).copied().unwrap_or([0; 2]);
        let mut scored: Vec<(i64, usize)> = (0..list.len())
            .map(|i| {
                let mv = list.get(i);
                let key = mv.header.hash_delta;
                let score = if key == tt_move && tt_move != 0 {
                    1 << 40
                } else if mv.header.captures > 0 {
                    (1 << 32) + self.victims(mv) * 64 - self.mover_value(mv)
                } else if mv.header.promotion().is_some() {
                    1 << 31
                } else if key == killers[0] {
                    1 << 30
                } else if key == killers[1] {
                    1 << 29
                } else {
                    self.history[self.history_index(mv)] as i64
                };
                (score, i)
            })
            .collect();
        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
        scored.into_iter().map(|(_, i)| i).collect()
    }

    /// What the pieces `mv` removes or replaces of other players are.
    fn taken<'m>(&self, mv: MoveRef<'m>) -> impl Iterator<Item = CellInfo> + use<'_, 'm> {
        let squares = self.game.topology.len();
        mv.changes
            .iter()
            .filter(move |c| (c.slot as usize) < squares && !c.old.is_empty())
            .map(|c| self.game.cells.info(c.old))
            .filter(move |i| i.owner != mv.header.player && !i.is_neutral())
    }

    /// Total value of the pieces a move captures.
    fn victims(&self, mv: MoveRef) -> i64 {
        self.taken(mv)
            .map(|i| {
                self.game
                    .pieces
                    .get(i.piece as usize)
                    .map_or(1, |p| p.value.max(1) as i64)
            })
            .sum()
    }

    /// After the capture `mv` has been made on `pos`: true if it took less
    /// than the piece it moved and that piece can be taken where it
    /// landed, so the exchange likely loses material (the sign of a
    /// static exchange, without playing the exchange out).
    /// A capture that takes a royal piece (which ends the game where
    /// royal pieces may be taken) is never risky.
    fn risky_capture(&self, pos: &Position, mv: MoveRef) -> bool {
        let Some(to) = mv.header.to() else {
            return false;
        };
        !self.takes_royal(mv)
            && self.victims(mv) < self.mover_value(mv)
            && self
                .game
                .square_attacked(pos, to, mv.header.player as usize)
    }

    /// Whether `mv` removes or replaces an enemy royal piece.
    fn takes_royal(&self, mv: MoveRef) -> bool {
        self.taken(mv).any(|i| {
            self.game
                .pieces
                .get(i.piece as usize)
                .is_some_and(|p| p.royal)
        })
    }

    fn mover_value(&self, mv: MoveRef) -> i64 {
        self.game
            .pieces
            .get(mv.header.piece as usize)
            .map_or(0, |p| p.value as i64)
    }

    fn history_index(&self, mv: MoveRef) -> usize {
        let n = self.game.topology.len() + 1;
        let from = mv.header.from().map_or(n - 1, |s| s.index());
        let to = mv.header.to().map_or(n - 1, |s| s.index());
        from * n + to
    }

    fn remember_cutoff(&mut self, mv: MoveRef, ply: usize, depth: u32) {
        while self.killers.len() <= ply {
            self.killers.push([0; 2]);
        }
        let key = mv.header.hash_delta;
        if self.killers[ply][0] != key {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = key;
        }
        let i = self.history_index(mv);
        self.update_history(i, (depth * depth) as i32);
    }

    /// Moves a history score by `bonus`, less the nearer it already is to
    /// the limit, so scores stay within `HISTORY_LIMIT` and recent cut-offs
    /// weigh more than old ones. (A malus for the quiet moves tried before a
    /// cut-off, as many engines give, made the search larger here: 2.40 M
    /// nodes against 1.95 M on the eight middlegames at depth 9.)
    fn update_history(&mut self, i: usize, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_LIMIT, HISTORY_LIMIT);
        let h = &mut self.history[i];
        *h += bonus - *h * bonus.abs() / HISTORY_LIMIT;
    }

    fn store(&mut self, key: u64, depth: i16, bound: Bound, score: i32, best: u64) {
        self.tt.put(
            key,
            Entry {
                depth,
                bound,
                score,
                best,
            },
        );
    }

    /// The expected line: the chosen move, then the table's best moves.
    fn principal_variation(
        &mut self,
        pos: &mut Position,
        first: &Move,
        length: usize,
    ) -> Result<Vec<Move>, GenError> {
        let mut pv = vec![first.clone()];
        self.game.make(pos, first.as_ref());
        let mut list = MoveList::new();
        while pv.len() < length.max(1) {
            let Some(entry) = self.tt.get(pos.hash()).filter(|e| e.best != 0) else {
                break;
            };
            self.generator.moves_of_side(self.game, pos, &mut list)?;
            let Some(mv) = list
                .iter()
                .find(|m| m.header.hash_delta == entry.best)
                .map(|m| m.to_owned())
            else {
                break;
            };
            self.game.make(pos, mv.as_ref());
            pv.push(mv);
        }
        for mv in pv.iter().rev() {
            self.game.undo(pos, mv.as_ref());
        }
        Ok(pv)
    }
}
