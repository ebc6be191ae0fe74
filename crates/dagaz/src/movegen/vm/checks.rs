//! The bracket tests of a path: what is on a square, whether it is
//! attacked, whether it was visited, where the last move went.

use super::*;

impl Vm {
    #[inline]
    pub(super) fn is_friend(&self, env: &Env, c: Cell) -> bool {
        env.game.cells.content(env.player, c) == Content::Friend
    }

    #[inline]
    pub(super) fn is_enemy(&self, env: &Env, c: Cell) -> bool {
        env.game.cells.content(env.player, c) == Content::Enemy
    }

    /// True if a piece landing here may replace what stands there: the
    /// square is empty or holds an enemy piece (not a friend, not a marked
    /// piece, not a neutral one).
    #[inline]
    pub(super) fn can_land(&self, env: &Env, c: Cell) -> bool {
        c.is_empty() || self.is_enemy(env, c)
    }

    /// A bracket test on the cursor's square (inlined into the
    /// interpreter's loop: most tests are a load and a compare).
    #[inline(always)]
    pub(super) fn test(&mut self, env: &Env, cells: &mut [Cell], cursor: Square, t: Test) -> bool {
        let c = cells[cursor.index()];
        match t {
            Test::Empty => c.is_empty(),
            Test::NotEmpty => !c.is_empty(),
            Test::Enemy => self.is_enemy(env, c),
            Test::NotEnemy => !self.is_enemy(env, c),
            Test::Friend => self.is_friend(env, c),
            Test::NotFriend => !self.is_friend(env, c),
            Test::Visited | Test::NotVisited => {
                let seen = self
                    .visited
                    .get(cursor.index() / 64)
                    .is_some_and(|w| w & (1 << (cursor.index() % 64)) != 0);
                seen == (t == Test::Visited)
            }
            Test::Attacked | Test::NotAttacked | Test::Protected | Test::NotProtected => {
                if matches!(env.mode, Mode::Attack(_)) {
                    // Attack detection does not recurse into attacks.
                    return true;
                }
                let protect = matches!(t, Test::Protected | Test::NotProtected);
                let key = (cursor.0, protect, if protect { self.from } else { NONE });
                let hit = match self.attack_cache.iter().find(|(k, _)| *k == key) {
                    Some(&(_, hit)) => hit,
                    None => {
                        let hit = self.attacked_before_move(env, cells, cursor, protect);
                        self.attack_cache.push((key, hit));
                        hit
                    }
                };
                hit == matches!(t, Test::Attacked | Test::Protected)
            }
            Test::Moved | Test::NotMoved => {
                let piece = if self.hand.is_empty() { c } else { self.hand };
                let info = env.game.cells.info(piece);
                if piece.is_empty() || info.piece == NO_PIECE {
                    false
                } else {
                    info.moved == (t == Test::Moved)
                }
            }
            Test::LastStart | Test::LastEnd => self.last_move(env, cursor, t == Test::LastStart),
            Test::NotLastStart | Test::NotLastEnd => {
                !self.was_last_move(env, cursor, t == Test::NotLastStart)
            }
        }
    }

    /// `a`/`s`: evaluated on the position as it was when the move started.
    pub(super) fn attacked_before_move(
        &mut self,
        env: &Env,
        cells: &mut [Cell],
        sq: Square,
        protect: bool,
    ) -> bool {
        let game = env.game;
        let (player, from, history, bits) = (env.player, self.from, env.history, env.bits);
        self.with_original(cells, |cells| {
            let here = cells[sq.index()];
            if protect {
                let hypo = if here.is_empty() {
                    game.cells.phantom((player + 1) % game.players.len())
                } else {
                    here
                };
                let exclude = (from != NONE).then_some(Square(from));
                attack::attacked_where(game, cells, history, sq, player, hypo, exclude, bits)
            } else {
                let hypo = if here.is_empty() {
                    game.cells.phantom(player)
                } else {
                    here
                };
                (0..game.players.len()).any(|by| {
                    by != player
                        && attack::attacked_where(game, cells, history, sq, by, hypo, None, bits)
                })
            }
        })
    }

    /// Runs `f` on the board as it was before the current path changed it,
    /// then puts the path's changes back.
    pub(super) fn with_original<R>(
        &mut self,
        cells: &mut [Cell],
        f: impl FnOnce(&[Cell]) -> R,
    ) -> R {
        let mark = self.saved.len();
        for u in self.log.iter().rev() {
            if let Undo::Cell(slot, old) = *u {
                self.saved.push((slot, cells[slot as usize]));
                cells[slot as usize] = old;
            }
        }
        let result = f(cells);
        while self.saved.len() > mark {
            if let Some((slot, value)) = self.saved.pop() {
                cells[slot as usize] = value;
            }
        }
        result
    }

    /// `l`/`t`: the start or end of the previous part, or of an opponent's
    /// move made since the mover's own last move.
    pub(super) fn last_move(&mut self, env: &Env, cursor: Square, start: bool) -> bool {
        let part = self.landings.len();
        if part >= 1 {
            let sq = if start {
                if part >= 2 {
                    self.landings[part - 2].0
                } else {
                    self.from
                }
            } else {
                self.landings[part - 1].0
            };
            return sq == cursor.0;
        }
        let pick = |p: &Ply| if start { p.from } else { p.to };
        if self.lt_ref != NONE {
            return env.history.get(self.lt_ref as usize).and_then(pick) == Some(cursor);
        }
        for (i, p) in env.history.iter().enumerate().rev() {
            if p.player as usize == env.player {
                break;
            }
            if pick(p) == Some(cursor) {
                self.log.push(Undo::LtRef(self.lt_ref));
                self.lt_ref = i as u16;
                return true;
            }
        }
        false
    }

    /// `L`/`T`: like [`Vm::last_move`] without fixing which move is meant.
    pub(super) fn was_last_move(&self, env: &Env, cursor: Square, start: bool) -> bool {
        let part = self.landings.len();
        if part >= 1 {
            let sq = match (start, part) {
                (true, 1) => self.from,
                (true, _) => self.landings[part - 2].0,
                (false, _) => self.landings[part - 1].0,
            };
            return sq == cursor.0;
        }
        let pick = |p: &Ply| if start { p.from } else { p.to };
        if self.lt_ref != NONE {
            return env.history.get(self.lt_ref as usize).and_then(pick) == Some(cursor);
        }
        env.history
            .iter()
            .rev()
            .take_while(|p| p.player as usize != env.player)
            .any(|p| pick(p) == Some(cursor))
    }

    /// The tests of a [`Walk`](Op::Walk) leg, as a bit set of [`WALK_TESTS`].
    #[inline]
    pub(super) fn content_tests(&self, env: &Env, c: Cell, tests: u8) -> bool {
        tests == 0 || tests & !self.passing_tests(env, c) == 0
    }

    /// The content tests (bits of `WALK_TESTS`: p P e E f F) that a
    /// square holding `c` passes.
    #[inline]
    pub(super) fn passing_tests(&self, env: &Env, c: Cell) -> u8 {
        match env.game.cells.content(env.player, c) {
            Content::Empty => crate::notation::program::EMPTY_PASSES,
            Content::Friend => 0b01_1010, // P E f
            Content::Enemy => 0b10_0110,  // P e F
            Content::Other => 0b10_1010,  // P E F: a marked or neutral piece
        }
    }
}

/// The bits of [`Vm::passing_tests`] of the squares a piece may land on
/// (`p` or `e`: empty or an enemy, as [`Vm::can_land`] says).
pub(super) const LANDING_TESTS: u8 = 0b00_0101;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::WALK_TESTS;

    /// The bit sets of `content_tests` are the tests of `WALK_TESTS`.
    #[test]
    fn walk_test_bits_follow_the_test_order() {
        assert_eq!(
            WALK_TESTS,
            [
                Test::Empty,
                Test::NotEmpty,
                Test::Enemy,
                Test::NotEnemy,
                Test::Friend,
                Test::NotFriend
            ]
        );
    }
}
