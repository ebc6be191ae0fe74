//! Jetan's ends (end rule `jetan`): taking the enemy `Princess` wins; a
//! `Chief` taking the enemy `Chief` wins; any other piece taking a Chief
//! draws (rules reference §8).

use super::{EndRule, HandlerRegistry};
use crate::game::{Game, GameResult};
use crate::position::Position;

pub(super) fn register(r: &mut HandlerRegistry) {
    r.register_end("jetan", Jetan);
}

struct Jetan;

impl EndRule for Jetan {
    fn result(&self, game: &Game, pos: &Position, _legal: usize) -> Option<GameResult> {
        let last = pos.history().last()?;
        let type_of = |name: &str| game.pieces.iter().position(|p| p.name == name);
        let took = |t: Option<usize>| t.is_some_and(|t| t < 64 && last.took & (1 << t) != 0);
        let (princess, chief) = (type_of("Princess"), type_of("Chief"));
        let winner = last.player as usize;
        if took(princess) {
            return Some(GameResult::Win {
                winner,
                reason: "the Princess is taken".into(),
            });
        }
        if took(chief) {
            if Some(last.piece as usize) == chief {
                return Some(GameResult::Win {
                    winner,
                    reason: "Chief takes Chief".into(),
                });
            }
            return Some(GameResult::Draw {
                reason: "a Chief taken by a piece other than the Chief".into(),
            });
        }
        None
    }
}
