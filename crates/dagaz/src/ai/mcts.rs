//! Monte-Carlo tree search (UCT) for games where evaluation is weak: the
//! tree grows one node per playout, each playout plays random moves (or
//! prefers captures, with `greedy`) to the end of the game, and rewards
//! are kept per player, so any number of players works (max-n).

use std::time::Instant;

use rand::RngExt;
use rand::rngs::StdRng;

use super::eval::{Evaluator, Material};
use super::{Choice, Control, Limit};
use crate::game::{Game, GameResult};
use crate::movegen::{GenError, Generator};
use crate::position::Position;
use crate::position::{Move, MoveList};

/// Exploration constant of UCT.
const EXPLORATION: f64 = 1.4;
/// Playouts stop after this many plies and are scored by material.
const PLAYOUT_PLIES: usize = 300;
/// Playouts per depth unit when the limit is given as a depth.
const PLAYOUTS_PER_DEPTH: u64 = 1000;

struct Node {
    mv: Option<Move>,
    /// Player to move in this node's position.
    side: usize,
    visits: f64,
    /// Sum of rewards per player.
    reward: Vec<f64>,
    children: Vec<usize>,
    untried: Vec<Move>,
    /// Rewards if the position is the end of the game.
    end: Option<Vec<f64>>,
}

/// One search.
pub struct Mcts<'g, 'r> {
    game: &'g Game,
    limit: Limit,
    greedy: bool,
    rng: &'r mut StdRng,
    generator: Generator,
    list: MoveList,
    nodes: Vec<Node>,
    eval: Material,
    control: Control,
}

impl<'g, 'r> Mcts<'g, 'r> {
    pub fn new(game: &'g Game, limit: Limit, greedy: bool, rng: &'r mut StdRng) -> Mcts<'g, 'r> {
        Mcts {
            game,
            limit,
            greedy,
            rng,
            generator: Generator::new(),
            list: MoveList::new(),
            nodes: Vec::new(),
            eval: Material::new(game),
            control: Control::unbounded(),
        }
    }

    /// The same search, within `control`'s bounds.
    pub fn with_control(mut self, control: Control) -> Mcts<'g, 'r> {
        self.control = control;
        self
    }

    /// The most visited move after the search; `None` without legal moves.
    pub fn best(&mut self, pos: &mut Position) -> Result<Option<Choice>, GenError> {
        let started = Instant::now();
        let root = self.node(pos, None)?;
        if self.nodes[root].untried.is_empty() {
            return Ok(None);
        }
        let own = match self.limit {
            Limit::Depth(d) => d as u64 * PLAYOUTS_PER_DEPTH,
            _ => u64::MAX,
        };
        let budget = own.min(self.control.node_budget(self.limit).unwrap_or(u64::MAX));
        let deadline = self.control.deadline(started, self.limit);
        let mut playouts = 0u64;
        while playouts < budget {
            let late = deadline.is_some_and(|d| Instant::now() >= d) || self.control.stopped();
            if late && playouts > 0 {
                break;
            }
            self.iterate(pos)?;
            playouts += 1;
        }
        let side = self.nodes[root].side;
        let best = self.nodes[root]
            .children
            .iter()
            .copied()
            .max_by(|a, b| self.nodes[*a].visits.total_cmp(&self.nodes[*b].visits));
        let Some(best) = best else {
            return Ok(None);
        };
        let node = &self.nodes[best];
        let Some(mv) = node.mv.clone() else {
            return Ok(None);
        };
        let rate = node.reward[side] / node.visits.max(1.0);
        Ok(Some(Choice {
            pv: vec![mv.clone()],
            mv,
            score: Some(((rate - 0.5) * 2.0 * 1000.0) as i32),
            depth: 0,
            nodes: playouts,
        }))
    }

    /// A new node for `pos`, reached by `mv`.
    fn node(&mut self, pos: &mut Position, mv: Option<Move>) -> Result<usize, GenError> {
        self.generator
            .moves_of_side(self.game, pos, &mut self.list)?;
        let end = self
            .generator
            .result_given(self.game, pos, self.list.len())?
            .map(|r| self.rewards(&r));
        let untried = if end.is_some() {
            Vec::new()
        } else {
            self.list.to_vec()
        };
        self.nodes.push(Node {
            mv,
            side: pos.side(),
            visits: 0.0,
            reward: vec![0.0; self.game.players.len()],
            children: Vec::new(),
            untried,
            end,
        });
        Ok(self.nodes.len() - 1)
    }

    /// Selection, expansion, playout and backpropagation.
    fn iterate(&mut self, pos: &mut Position) -> Result<(), GenError> {
        let mut path = vec![0usize];
        let mut made: Vec<Move> = Vec::new();
        let mut at = 0;
        // Select.
        while self.nodes[at].untried.is_empty() && !self.nodes[at].children.is_empty() {
            at = self.select(at);
            if let Some(mv) = self.nodes[at].mv.clone() {
                self.game.make(pos, mv.as_ref());
                made.push(mv);
            }
            path.push(at);
        }
        // Expand.
        if !self.nodes[at].untried.is_empty() {
            let k = self.rng.random_range(0..self.nodes[at].untried.len());
            let mv = self.nodes[at].untried.swap_remove(k);
            self.game.make(pos, mv.as_ref());
            made.push(mv.clone());
            let child = self.node(pos, Some(mv))?;
            self.nodes[at].children.push(child);
            at = child;
            path.push(at);
        }
        // Play out.
        let reward = match self.nodes[at].end.clone() {
            Some(r) => r,
            None => self.playout(pos)?,
        };
        for &n in &path {
            let node = &mut self.nodes[n];
            node.visits += 1.0;
            for (acc, r) in node.reward.iter_mut().zip(&reward) {
                *acc += r;
            }
        }
        for mv in made.iter().rev() {
            self.game.undo(pos, mv.as_ref());
        }
        Ok(())
    }

    /// The child of `at` with the best upper confidence bound for the
    /// player to move at `at`.
    fn select(&self, at: usize) -> usize {
        let node = &self.nodes[at];
        let log_n = node.visits.max(1.0).ln();
        let side = node.side;
        let mut best = (f64::NEG_INFINITY, node.children[0]);
        for &c in &node.children {
            let child = &self.nodes[c];
            let value = if child.visits == 0.0 {
                f64::INFINITY
            } else {
                child.reward[side] / child.visits + EXPLORATION * (log_n / child.visits).sqrt()
            };
            if value > best.0 {
                best = (value, c);
            }
        }
        best.1
    }

    /// Random moves to the end of the game (or the ply cap).
    fn playout(&mut self, pos: &mut Position) -> Result<Vec<f64>, GenError> {
        let mut made: Vec<Move> = Vec::new();
        let mut rewards = None;
        for _ in 0..PLAYOUT_PLIES {
            // A random move needs no full list; whether there is a legal
            // move at all is all the end of the game depends on.
            let (legal, chosen) = if self.greedy {
                self.generator
                    .moves_of_side(self.game, pos, &mut self.list)?;
                (self.list.len(), None)
            } else {
                let chosen =
                    self.generator
                        .random_legal(self.game, pos, &mut self.rng, &mut self.list)?;
                (usize::from(chosen.is_some()), chosen)
            };
            if let Some(r) = self.generator.result_given(self.game, pos, legal)? {
                rewards = Some(self.rewards(&r));
                break;
            }
            let Some(i) = chosen.or_else(|| (legal > 0).then(|| self.pick())) else {
                break;
            };
            let mv = self.list.get(i).to_owned();
            self.game.make(pos, mv.as_ref());
            made.push(mv);
        }
        let rewards = match rewards {
            Some(r) => r,
            None => self.material_rewards(pos),
        };
        for mv in made.iter().rev() {
            self.game.undo(pos, mv.as_ref());
        }
        Ok(rewards)
    }

    /// A playout move: uniformly random, or a capture when `greedy` and
    /// one exists.
    fn pick(&mut self) -> usize {
        if self.greedy {
            let captures: Vec<usize> = (0..self.list.len())
                .filter(|&i| self.list.header(i).captures > 0)
                .collect();
            if !captures.is_empty() {
                return captures[self.rng.random_range(0..captures.len())];
            }
        }
        self.rng.random_range(0..self.list.len())
    }

    fn rewards(&self, result: &GameResult) -> Vec<f64> {
        let n = self.game.players.len();
        match result {
            GameResult::Win { winner, .. } => (0..n)
                .map(|p| if p == *winner { 1.0 } else { 0.0 })
                .collect(),
            GameResult::Draw { .. } => vec![1.0 / n as f64; n],
        }
    }

    /// Rewards of an unfinished playout: a soft share by material.
    fn material_rewards(&self, pos: &Position) -> Vec<f64> {
        let n = self.game.players.len();
        let weights: Vec<f64> = (0..n)
            .map(|p| {
                let score = self.eval.evaluate(self.game, pos, p) as f64 / (n.max(2) - 1) as f64;
                (score / 300.0).clamp(-30.0, 30.0).exp()
            })
            .collect();
        let total: f64 = weights.iter().sum();
        weights.iter().map(|w| w / total).collect()
    }
}
