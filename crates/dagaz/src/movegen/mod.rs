//! Move generation: runs the piece programs of the side to move
//! ([`vm`]), then applies the game-level rules that choose among the
//! generated moves — royal safety (with [`attack`] detection), move
//! priorities and capture priority.

pub(crate) mod attack;
mod neutral;
mod outcome;
mod validity;
pub(crate) mod vm;

pub use validity::check_position;
pub use vm::GenError;

use crate::board::Square;
use crate::game::{CaptureTest, Game, Ko, PassRule};
use crate::position::{
    CellInfo, Move, MoveHeader, MoveList, MoveRef, NO_PIECE, Position, squares_of,
};
use attack::ReadSet;
use vm::{Env, Mode, Vm};

/// Reusable move-generation state (buffers of the interpreter).
#[derive(Default)]
pub struct Generator {
    vm: Vm,
    bits: Vec<u64>,
    keep: Vec<bool>,
    scratch: MoveList,
    /// `random_legal`'s moves not tried yet.
    untried: Vec<usize>,
    /// The moves before `move_neutral` multiplies them.
    unexpanded: MoveList,
    /// A second generator, for the replies that rules look at.
    inner: Option<Box<Generator>>,
}

impl Generator {
    pub fn new() -> Generator {
        Generator::default()
    }

    /// Every move the pieces' programs allow, before game-level rules.
    pub fn pseudo_legal(
        &mut self,
        game: &Game,
        pos: &mut Position,
        out: &mut MoveList,
    ) -> Result<(), GenError> {
        self.pseudo_legal_seeded(game, pos, out, &[])
    }

    /// [`Generator::pseudo_legal`], told in advance whether some squares
    /// are attacked (`[a]` on them needs no test).
    fn pseudo_legal_seeded(
        &mut self,
        game: &Game,
        pos: &mut Position,
        out: &mut MoveList,
        attacked: &[(Square, bool)],
    ) -> Result<(), GenError> {
        self.run_programs(game, pos, out, attacked)?;
        if let Some(piece) = game.rules.move_neutral {
            neutral::expand(game, pos, piece, out, &mut self.unexpanded);
        }
        Ok(())
    }

    /// The moves of the programs: the pieces' of the side to move (or of
    /// every player who may move) and the drops.
    fn run_programs(
        &mut self,
        game: &Game,
        pos: &mut Position,
        out: &mut MoveList,
        attacked: &[(Square, bool)],
    ) -> Result<(), GenError> {
        out.clear();
        self.vm.begin();
        let turn = game.turn(pos);
        // The seeds answer `[a]` as the side to move's pieces ask it.
        if turn.pieces == turn.player {
            for &(sq, hit) in attacked {
                self.vm.seed_attack(sq, hit);
            }
        }
        // Normally only the side to move's pieces move (or, where the turn
        // order says, another player's, as that player moves them); with
        // `move_any_piece` every piece does, each as its owner would move
        // it. With `drops_first`, a player holding pieces only drops.
        if game.in_free_phase(pos) {
            for player in free_movers(game, pos) {
                self.run_pieces_of(game, pos, player, None, out)?;
                self.run_drops(game, pos, player, None, out)?;
            }
            return Ok(());
        }
        let owners = if game.rules.move_any_piece {
            0..game.players.len()
        } else {
            turn.pieces..turn.pieces + 1
        };
        if !(game.rules.drops_first && holds_pieces(game, pos, turn.pieces)) {
            for owner in owners {
                self.run_pieces_of(game, pos, owner, turn.move_type, out)?;
            }
        }
        self.run_drops(game, pos, turn.pieces, turn.move_type, out)
    }

    /// Runs the drop programs of the pieces `player` holds in hand, on
    /// every square (in a turn restricted to `move_type`, if given).
    fn run_drops(
        &mut self,
        game: &Game,
        pos: &mut Position,
        player: usize,
        move_type: Option<u16>,
        out: &mut MoveList,
    ) -> Result<(), GenError> {
        if !game.has_hands() {
            return Ok(());
        }
        for (t, piece) in game.pieces.iter().enumerate() {
            let Some(prog) = piece.drop_programs.get(player) else {
                continue;
            };
            if game.in_hand(pos, player, t as u16) == 0 {
                continue;
            }
            let slot = game.hand_slot(player, t as u16);
            // The piece itself, and with `promote.drops` its promoted forms.
            let promoted = piece
                .promotion
                .as_ref()
                .filter(|p| p.drops)
                .map_or(&[][..], |p| p.targets(player));
            for &face in std::iter::once(&(t as u16)).chain(promoted) {
                let cell = game.cells.piece(face, player, false);
                let prog = game.pieces[face as usize]
                    .drop_programs
                    .get(player)
                    .unwrap_or(prog);
                let (env, cells) = generation_env(game, pos, player, move_type);
                for sq in game.topology.squares() {
                    self.vm.run_drop(&env, cells, prog, sq, cell, slot, out)?;
                }
            }
        }
        Ok(())
    }

    /// Runs the programs of every piece of `owner`, as `owner` (in a turn
    /// restricted to `move_type`, if given).
    fn run_pieces_of(
        &mut self,
        game: &Game,
        pos: &mut Position,
        owner: usize,
        move_type: Option<u16>,
        out: &mut MoveList,
    ) -> Result<(), GenError> {
        if game.board_kind == crate::board::BoardKind::Heap {
            return self.run_heaps(game, pos, owner, move_type, out);
        }
        pos.owner_bits(owner, &mut self.bits);
        let (env, cells) = generation_env(game, pos, owner, move_type);
        for w in 0..self.bits.len() {
            let mut b = self.bits[w];
            while b != 0 {
                let sq = Square((w * 64 + b.trailing_zeros() as usize) as u16);
                b &= b - 1;
                let piece = game.cells.info(cells[sq.index()]).piece;
                if piece == NO_PIECE {
                    continue;
                }
                let moving = game.moving_type(cells, sq, owner, piece);
                let prog = &game.pieces[moving as usize].programs[owner];
                self.vm.run_piece(&env, cells, prog, sq, out)?;
            }
        }
        Ok(())
    }

    /// Heap boards: pieces belong to nobody, so every piece type's program
    /// starts on every square that holds something (its own tests say
    /// which squares the player may sow from).
    fn run_heaps(
        &mut self,
        game: &Game,
        pos: &mut Position,
        owner: usize,
        move_type: Option<u16>,
        out: &mut MoveList,
    ) -> Result<(), GenError> {
        for sq in game.topology.squares() {
            if pos.cell(sq).is_empty() {
                continue;
            }
            for piece in &game.pieces {
                let (env, cells) = generation_env(game, pos, owner, move_type);
                self.vm.run(&env, cells, &piece.programs[owner], sq, out)?;
            }
        }
        Ok(())
    }

    /// The moves of the side to move's own pieces, as the programs give
    /// them, before any game-level rule (`colour_blocked` asks whether
    /// there are any).
    fn own_pieces_moves(
        &mut self,
        game: &Game,
        pos: &mut Position,
        out: &mut MoveList,
    ) -> Result<(), GenError> {
        out.clear();
        self.vm.begin();
        self.run_pieces_of(game, pos, pos.side(), None, out)
    }

    /// The legal moves of the side to move.
    pub fn legal(
        &mut self,
        game: &Game,
        pos: &mut Position,
        out: &mut MoveList,
    ) -> Result<(), GenError> {
        let free = game.in_free_phase(pos);
        let guard = if free {
            None
        } else {
            RoyalGuard::new(game, pos)
        };
        let seeds = guard.as_ref().map_or(&[][..], |g| g.seeds());
        self.pseudo_legal_seeded(game, pos, out, seeds)?;
        if free && game.rules.royal_safety {
            // Every player moves in the free phase: each move must keep its
            // own mover's royal pieces safe.
            self.keep_when_made(game, pos, out, |pos, mv| {
                !game.royal_attacked(pos, mv.header.player as usize)
            });
        }
        if let Some(guard) = guard {
            self.keep_when_made(game, pos, out, |pos, mv| guard.safe_after(game, pos, mv));
        }
        if !game.rules.no_drop_mate.is_empty() {
            self.forbid_drop_mates(game, pos, out)?;
        }
        if let Some(ko) = game.rules.ko {
            self.keep_when_made(game, pos, out, |pos, _| !brings_back(ko, pos));
        }
        if let Some(rule) = game.end_rule.as_ref().filter(|r| r.forbids_moves()) {
            self.keep.clear();
            self.keep.resize(out.len(), true);
            rule.forbid(game, pos, out, &mut self.keep);
            let keep = &self.keep;
            out.retain_indices(|i| keep[i]);
        }
        if let Some(square) = tired_piece(game, pos) {
            self.keep.clear();
            self.keep.extend((0..out.len()).map(|i| {
                let h = out.header(i);
                h.captures > 0 || h.from() != Some(square)
            }));
            let keep = &self.keep;
            out.retain_indices(|i| keep[i]);
        }
        if game.rules.capture_priority && (0..out.len()).any(|i| out.header(i).captures > 0) {
            self.keep.clear();
            self.keep
                .extend((0..out.len()).map(|i| out.header(i).captures > 0));
            let keep = &self.keep;
            out.retain_indices(|i| keep[i]);
        }
        // The capture-precedence tests choose among captures; a move that
        // captures nothing loses to any capture.
        let captures = (0..out.len()).any(|i| out.header(i).captures > 0);
        for &test in game.rules.maximum_capture.iter().filter(|_| captures) {
            let score = |i: usize| match out.header(i).captures {
                0 => None,
                _ => Some(capture_score(game, test, out.get(i))),
            };
            let best = (0..out.len()).map(score).max().flatten();
            self.keep.clear();
            self.keep.extend((0..out.len()).map(|i| score(i) == best));
            let keep = &self.keep;
            out.retain_indices(|i| keep[i]);
        }
        if game.uses_priorities {
            let best = (0..out.len())
                .map(|i| out.header(i).priority)
                .max()
                .unwrap_or(0);
            self.keep.clear();
            self.keep
                .extend((0..out.len()).map(|i| out.header(i).priority == best));
            let keep = &self.keep;
            out.retain_indices(|i| keep[i]);
        }
        if let Some(rule) = game.end_rule.as_ref().filter(|r| r.adds_moves()) {
            rule.complete(game, pos, out);
        }
        if game.watches_checks() {
            self.mark_checks(game, pos, out);
        }
        if game.rules.goals.has_immediate() && outcome::immediate(game, pos, Some(out)).is_some() {
            // The game is over: a line was made, a zone reached, ….
            out.clear();
            return Ok(());
        }
        let pass = match game.rules.pass {
            PassRule::Never => false,
            PassRule::Allowed => true,
            PassRule::Forced => out.is_empty(),
        };
        if pass {
            let mut header = MoveHeader::new(NO_PIECE, None, None, 0);
            header.player = pos.side() as u8;
            out.push(header, &[], &[]);
        }
        Ok(())
    }

    /// Keeps the moves of `out` for which `test` holds once the move is
    /// made on `pos` (each is taken back after).
    fn keep_when_made(
        &mut self,
        game: &Game,
        pos: &mut Position,
        out: &mut MoveList,
        mut test: impl FnMut(&mut Position, MoveRef) -> bool,
    ) {
        self.keep.clear();
        for i in 0..out.len() {
            let mv = out.get(i);
            game.make(pos, mv);
            self.keep.push(test(pos, mv));
            game.undo(pos, mv);
        }
        let keep = &self.keep;
        out.retain_indices(|i| keep[i]);
    }

    /// Sets `gives_check` on the moves that attack another player's royal
    /// piece, and with `no_checks` removes them (with `no_drop_checks`,
    /// the drops among them).
    fn mark_checks(&mut self, game: &Game, pos: &mut Position, out: &mut MoveList) {
        let mover = pos.side();
        self.keep.clear();
        for i in 0..out.len() {
            let mv = out.get(i);
            game.make(pos, mv);
            let check = (0..game.players.len())
                .filter(|p| *p != mover)
                .any(|p| game.royal_attacked(pos, p));
            game.undo(pos, mv);
            out.header_mut(i).gives_check = check;
            let drop = out.header(i).from().is_none();
            let forbidden = game.rules.no_checks || (drop && game.rules.no_drop_checks);
            self.keep.push(!(check && forbidden));
        }
        let keep = &self.keep;
        out.retain_indices(|i| keep[i]);
    }

    /// The legal moves of the side to move only: in a free opening
    /// (`Rules::free_opening`), where every player may move, the moves of
    /// the other players are left out. The computer plays as if the free
    /// opening alternated.
    pub fn moves_of_side(
        &mut self,
        game: &Game,
        pos: &mut Position,
        out: &mut MoveList,
    ) -> Result<(), GenError> {
        self.legal(game, pos, out)?;
        if game.in_free_phase(pos) {
            let side = pos.side() as u8;
            let keep: Vec<bool> = out.iter().map(|m| m.header.player == side).collect();
            out.retain_indices(|i| keep[i]);
        }
        Ok(())
    }

    /// A uniformly random legal move of the side to move, for playouts:
    /// `out` receives the moves it chose among and the answer is an index
    /// into it (`None`: no legal move). Where the game allows it (see
    /// [`Generator::streams`]) only the pseudo-legal moves are generated
    /// and they are tried in a random order until one keeps the mover's
    /// royal pieces safe, so most plies test one move instead of all;
    /// otherwise the legal moves are listed in full. Drawing without
    /// replacement until a legal move comes up picks each legal move with
    /// the same chance.
    pub fn random_legal(
        &mut self,
        game: &Game,
        pos: &mut Position,
        rng: &mut impl rand::Rng,
        out: &mut MoveList,
    ) -> Result<Option<usize>, GenError> {
        use rand::RngExt;
        let legality = self.moves_to_try(game, pos, out)?;
        if !legality.lazy {
            return Ok((!out.is_empty()).then(|| rng.random_range(0..out.len())));
        }
        self.untried.clear();
        self.untried.extend(0..out.len());
        while !self.untried.is_empty() {
            let k = rng.random_range(0..self.untried.len());
            let i = self.untried.swap_remove(k);
            let mv = out.get(i);
            game.make(pos, mv);
            let legal = self.allows(game, pos, mv, &legality);
            game.undo(pos, mv);
            if legal? {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// The moves of the side to move, for a caller that makes them one by
    /// one and may stop early (a search, a playout): where the game allows
    /// it (see [`Generator::streams`]) only the pseudo-legal moves, whose
    /// legality the caller asks [`Generator::allows`] after making each;
    /// otherwise the legal moves (of the side to move only, as
    /// [`Generator::moves_of_side`]), which `allows` then always accepts.
    pub fn moves_to_try(
        &mut self,
        game: &Game,
        pos: &mut Position,
        out: &mut MoveList,
    ) -> Result<Legality, GenError> {
        if !Self::streams(game, pos) {
            self.moves_of_side(game, pos, out)?;
            return Ok(Legality {
                guard: None,
                lazy: false,
                plain: false,
            });
        }
        self.stream(game, pos, out)
    }

    /// The pseudo-legal moves of a position that [`Generator::streams`],
    /// and the guard that tests them.
    fn stream(
        &mut self,
        game: &Game,
        pos: &mut Position,
        out: &mut MoveList,
    ) -> Result<Legality, GenError> {
        let guard = RoyalGuard::new(game, pos);
        let seeds = guard.as_ref().map_or(&[][..], |g| g.seeds());
        self.pseudo_legal_seeded(game, pos, out, seeds)?;
        let plain = !game.has_hands()
            && game.rules.ko.is_none()
            && game.rules.no_drop_mate.is_empty()
            && game.rules.royal_check == crate::game::RoyalCheck::Any;
        Ok(Legality {
            guard,
            lazy: true,
            plain,
        })
    }

    /// [`Generator::moves_to_try`] for a quiescence search, which makes
    /// only captures: where the position allows it (see
    /// [`Generator::streams`]), a simple move that takes nothing (from
    /// one square to another, the square empty or the mover's) is counted
    /// but not listed. Returns the legality and how many moves there are,
    /// listed or not (pseudo-legal, as `moves_to_try` lists them).
    pub fn captures_to_try(
        &mut self,
        game: &Game,
        pos: &mut Position,
        out: &mut MoveList,
    ) -> Result<(Legality, usize), GenError> {
        if !Self::streams(game, pos) || game.rules.move_neutral.is_some() {
            let legality = self.moves_to_try(game, pos, out)?;
            return Ok((legality, out.len()));
        }
        self.vm.captures_only = true;
        self.vm.skipped = 0;
        let legality = self.stream(game, pos, out);
        self.vm.captures_only = false;
        Ok((legality?, out.len() + self.vm.skipped))
    }

    /// After `mv`, one of the moves [`Generator::moves_to_try`] gave with
    /// `legality`, has been made on `pos`: whether it is legal (it keeps
    /// the mover's royal pieces safe, and is not a drop that mates where
    /// the rules forbid it).
    #[inline]
    pub fn allows(
        &mut self,
        game: &Game,
        pos: &mut Position,
        mv: MoveRef,
        legality: &Legality,
    ) -> Result<bool, GenError> {
        if !legality.lazy {
            return Ok(true);
        }
        // The commonest case, decided here: one of the player's own
        // pieces, not royal, moved from a square the recorded attacks on
        // its royal pieces do not read (strictly, through a blocked path
        // or as a ray's stop) to one they do not read strictly.
        if legality.plain
            && let Some(guard) = &legality.guard
            && guard.quick
            && guard.simple_cleared(game, mv)
        {
            return Ok(true);
        }
        self.allows_when_made(game, pos, mv, legality)
    }

    /// [`Generator::allows`] of a lazy legality, beyond its commonest case.
    fn allows_when_made(
        &mut self,
        game: &Game,
        pos: &mut Position,
        mv: MoveRef,
        legality: &Legality,
    ) -> Result<bool, GenError> {
        if legality
            .guard
            .as_ref()
            .is_some_and(|g| !g.safe_after(game, pos, mv))
        {
            return Ok(false);
        }
        if game.rules.ko.is_some_and(|ko| brings_back(ko, pos)) {
            return Ok(false);
        }
        if game.rules.no_drop_mate.is_empty() {
            return Ok(true);
        }
        self.drop_mates(game, pos, mv).map(|mates| !mates)
    }

    /// Removes drops that checkmate, of the pieces the rules name.
    fn forbid_drop_mates(
        &mut self,
        game: &Game,
        pos: &mut Position,
        out: &mut MoveList,
    ) -> Result<(), GenError> {
        let mut keep = Vec::with_capacity(out.len());
        for i in 0..out.len() {
            let mv = out.get(i);
            game.make(pos, mv);
            let mates = self.drop_mates(game, pos, mv);
            game.undo(pos, mv);
            keep.push(!mates?);
        }
        out.retain_indices(|i| keep[i]);
        Ok(())
    }

    /// After `mv` has been made on `pos`: whether it is a drop that the
    /// rules forbid because it mates (shogi's pawn-drop mate). Only drops
    /// of the pieces named that give check are looked into.
    fn drop_mates(
        &mut self,
        game: &Game,
        pos: &mut Position,
        mv: MoveRef,
    ) -> Result<bool, GenError> {
        let h = mv.header;
        if h.from().is_some() || !game.rules.no_drop_mate.contains(&h.piece) {
            return Ok(false);
        }
        let opponent = pos.side();
        if !game.royal_attacked(pos, opponent) {
            return Ok(false);
        }
        let mut inner = self.inner.take().unwrap_or_default();
        let mut replies = std::mem::take(&mut inner.scratch);
        let answered = inner
            .legal(game, pos, &mut replies)
            .map(|()| !replies.is_empty());
        inner.scratch = replies;
        self.inner = Some(inner);
        Ok(!answered?)
    }

    /// True if the moves of `pos` can be streamed: generated pseudo-legal,
    /// each tested by a royal-safety test once made, with no rule that
    /// compares moves with each other (nor a free opening: such games
    /// never stream). An end rule that forbids or adds moves (janggi's
    /// bikjang) lets them stream in the positions where it does neither.
    fn streams(game: &Game, pos: &Position) -> bool {
        Self::streaming(game)
            && game.end_rule.as_ref().is_none_or(|r| {
                (!r.forbids_moves() && !r.adds_moves()) || r.leaves_moves(game, pos)
            })
    }

    /// The part of [`Generator::streams`] that depends on the game alone.
    fn streaming(game: &Game) -> bool {
        game.rules.pass == PassRule::Never
            && !game.rules.free_opening
            && !game.watches_checks()
            && !game.rules.goals.has_immediate()
            && !game.rules.capture_priority
            && !game.uses_priorities
            && game.rules.maximum_capture.is_empty()
            && game.rules.consecutive_moves.is_none()
    }

    /// Keeps paths with the same effect but different landing squares as
    /// different moves (the "duplicate captures counted" perft convention).
    pub fn keep_distinct_paths(&mut self, keep: bool) {
        self.vm.distinct_paths = keep;
    }

    /// Like [`Generator::keep_distinct_paths`], and paths whose parts end on
    /// different squares are different moves too (lishogi counts a Lion's
    /// double move through an empty square apart from the single move).
    pub fn keep_distinct_landings(&mut self, keep: bool) {
        self.vm.distinct_paths = keep;
        self.vm.distinct_landings = keep;
    }
}

/// After a move has been made on `pos`: whether it brought back a position
/// the ko rule forbids. The position hash covers the side to move, so
/// equal hashes are equal situations.
fn brings_back(ko: Ko, pos: &Position) -> bool {
    let Some((last, before)) = pos.history().split_last() else {
        return false;
    };
    match ko {
        Ko::Situation => pos
            .history()
            .iter()
            .any(|p| !p.synthetic && p.hash_before == pos.hash()),
        // The position the mover's previous move left: the one its next
        // ply started from. The mover is the side that was to move (in a
        // turn that moves another player's pieces, not their owner).
        Ko::Simple => {
            let Some(k) = before
                .iter()
                .rposition(|p| p.side_before == last.side_before)
            else {
                return false;
            };
            let left = before
                .get(k + 1)
                .map_or(last.hash_before, |p| p.hash_before);
            !before[k].synthetic && left == pos.hash()
        }
    }
}

/// The players who may move in a free opening: whoever is in check must
/// answer it first; otherwise every player.
fn free_movers(game: &Game, pos: &Position) -> Vec<usize> {
    let players = 0..game.players.len();
    let checked: Vec<usize> = players
        .clone()
        .filter(|p| game.rules.royal_safety && game.royal_attacked(pos, *p))
        .collect();
    if checked.is_empty() {
        players.collect()
    } else {
        checked
    }
}

/// Whether `player` holds any piece in hand.
fn holds_pieces(game: &Game, pos: &Position, player: usize) -> bool {
    game.has_hands() && (0..game.pieces.len() as u16).any(|t| game.in_hand(pos, player, t) > 0)
}

/// The square of the side to move's piece that has made the most
/// non-capturing moves in a row `Rules::consecutive_moves` allows, while
/// its player has pieces of other types: it may only capture.
fn tired_piece(game: &Game, pos: &Position) -> Option<Square> {
    let limit = game.rules.consecutive_moves?;
    let side = pos.side();
    let own: Vec<&crate::position::Ply> = pos
        .history()
        .iter()
        .rev()
        .filter(|p| p.player as usize == side && !p.synthetic)
        .take(limit.most as usize)
        .collect();
    let plain =
        |p: &crate::position::Ply| p.piece == limit.piece && p.took == 0 && p.from.is_some();
    let chained = own.windows(2).all(|w| w[0].from == w[1].to);
    if own.len() < limit.most as usize || !own.iter().all(|p| plain(p)) || !chained {
        return None;
    }
    let square = own[0].to?;
    let piece = game.cells.info(pos.cell(square));
    let others = (0..game.pieces.len())
        .filter(|&t| t != limit.piece as usize)
        .any(|t| pos.piece_bits(side, t).iter().any(|w| *w != 0));
    (piece.piece == limit.piece && piece.owner as usize == side && others).then_some(square)
}

/// How well a move does on one capture-precedence test (higher is better).
fn capture_score(game: &Game, test: CaptureTest, mv: MoveRef) -> u64 {
    let captured = || {
        game.captured_squares(mv)
            .into_iter()
            .filter_map(|sq| mv.changes.iter().find(|c| c.slot == sq.0))
            .map(|c| game.cells.info(c.old).piece)
            .collect::<Vec<u16>>()
    };
    match test {
        CaptureTest::Pieces => mv.header.captures as u64,
        CaptureTest::Value => captured()
            .into_iter()
            .filter_map(|p| game.pieces.get(p as usize))
            .map(|t| t.capture_value.max(0) as u64)
            .sum(),
        CaptureTest::By(piece) => (mv.header.piece == piece) as u64,
        CaptureTest::Most(piece) => captured().into_iter().filter(|&p| p == piece).count() as u64,
        CaptureTest::Earliest(_) => mv.header.earliest_mask,
    }
}

/// The squares where a move that is not a drop puts pieces from the
/// mover's hand (gating). Such pieces never shield the mover's royal
/// pieces: Seirawan chess's rule that gating may not block a check.
///
/// A piece came from the hand when the mover's hand count of its type
/// fell by more than the move's captures put back: in S-house a capture
/// may put a piece of the gated type into the hand in the same move, and
/// the hand's count then does not change.
pub(crate) fn gated_squares(game: &Game, mv: MoveRef) -> Vec<Square> {
    if mv.header.from().is_none() || !game.has_hands() {
        return Vec::new();
    }
    let squares = game.topology.len();
    let to = mv.header.to();
    // An ordinary move sets no piece off its destination: done at once.
    let sets_elsewhere = mv
        .changes
        .iter()
        .any(|c| (c.slot as usize) < squares && Some(Square(c.slot)) != to && !c.new.is_empty());
    if !sets_elsewhere {
        return Vec::new();
    }
    let player = mv.header.player as usize;
    let mine = |cell: crate::position::Cell| {
        !cell.is_empty() && game.cells.info(cell).owner as usize == player
    };
    let on_board = |c: &&crate::position::Change| (c.slot as usize) < squares;
    // How many pieces of type `t` left the mover's hand: its count fell by
    // more than the move's captures put back into it.
    let from_hand = |t: u16| -> i64 {
        let slot = game.hand_slot(player, t) as u16;
        let delta = mv
            .changes
            .iter()
            .find(|c| c.slot == slot)
            .map_or(0, |c| i64::from(c.new.0) - i64::from(c.old.0));
        let refilled = if game.rules.captures_to_hand {
            mv.changes
                .iter()
                .filter(on_board)
                .filter(|c| {
                    let o = game.cells.info(c.old);
                    !c.old.is_empty()
                        && o.owner as usize != player
                        && o.piece != NO_PIECE
                        && game.cells.info(c.new) != o
                        && game.pieces[o.piece as usize].demotes_to.unwrap_or(o.piece) == t
                })
                .count() as i64
        } else {
            0
        };
        refilled - delta
    };
    // Candidates: the mover's pieces set off the move's destination on a
    // square that was empty or the mover's own (a converted enemy piece is
    // no gating) — none in an ordinary move.
    mv.changes
        .iter()
        .filter(on_board)
        .filter(|c| Some(Square(c.slot)) != to)
        .filter(|c| mine(c.new) && (c.old.is_empty() || mine(c.old)))
        .filter(|c| from_hand(game.cells.info(c.new).piece) > 0)
        .map(|c| Square(c.slot))
        .collect()
}

/// Whether `player`'s royal pieces are safe with the pieces on `gated`
/// taken off the board for the test.
fn safe_without(game: &Game, pos: &mut Position, player: usize, gated: &[Square]) -> bool {
    let saved: Vec<crate::position::Cell> = gated.iter().map(|sq| pos.cell(*sq)).collect();
    for sq in gated {
        pos.set(&game.cells, sq.index(), crate::position::Cell::EMPTY);
    }
    let safe = !game.royal_attacked(pos, player);
    for (sq, cell) in gated.iter().zip(saved) {
        pos.set(&game.cells, sq.index(), cell);
    }
    safe
}

/// How the moves of [`Generator::moves_to_try`] are to be checked: `lazy`
/// if they are pseudo-legal, each to be passed to [`Generator::allows`]
/// once made.
pub struct Legality {
    guard: Option<RoyalGuard>,
    lazy: bool,
    /// The guard alone decides (no hands, no ko, no rule on drops that
    /// mate, any royal piece counts), so a move it clears is legal.
    plain: bool,
}

impl Legality {
    /// [`Generator::allows`] passes every move of the list: its moves
    /// are the legal moves.
    fn allows_all(&self, game: &Game) -> bool {
        !self.lazy
            || (self.guard.is_none()
                && game.rules.ko.is_none()
                && game.rules.no_drop_mate.is_empty())
    }

    /// The moves are pseudo-legal: some may be refused by
    /// [`Generator::allows`], so their number is not the number of legal
    /// moves.
    pub fn is_lazy(&self) -> bool {
        self.lazy
    }
}

/// Tells whether moves give check, for a search that asks it of many moves
/// of one position (two-player games): the opponent's royal pieces are
/// guarded like the mover's own ([`RoyalGuard`]), so a move that changes
/// none of the squares their attack tests read gives no check without a
/// test.
pub struct CheckTest {
    guard: Option<RoyalGuard>,
}

impl CheckTest {
    /// Before the side to move in `pos` moves.
    pub fn new(game: &Game, pos: &Position) -> CheckTest {
        let guard = if game.players.len() == 2 {
            RoyalGuard::of(game, pos, 1 - pos.side())
        } else {
            None
        };
        CheckTest { guard }
    }

    /// After `mv` has been made on `pos`: whether the side now to move
    /// has a royal piece attacked.
    pub fn gives_check(&self, game: &Game, pos: &Position, mv: MoveRef) -> bool {
        let side = pos.side();
        if let Some(guard) = &self.guard
            && guard.player == side
            && guard.quick
            && guard.cleared(game, pos, mv)
        {
            return false;
        }
        game.royal_attacked(pos, side)
    }
}

/// The interpreter's environment for generating `player`'s moves on
/// `pos` (in a turn restricted to `move_type`, if any), and the cells it
/// explores on.
fn generation_env<'p>(
    game: &'p Game,
    pos: &'p mut Position,
    player: usize,
    move_type: Option<u16>,
) -> (Env<'p>, &'p mut [crate::position::Cell]) {
    let (cells, history, bits) = pos.split_for_generation();
    let env = Env {
        game,
        player,
        history,
        bits: Some(bits),
        mode: Mode::Generate,
        move_type,
    };
    (env, cells)
}

/// Royal safety at one position. It knows whether the mover is in check
/// and which squares the attack tests on its royal pieces read; a move that
/// changes none of those squares (and neither starts nor ends on one)
/// cannot expose a royal piece, so most moves need no attack test at all.
struct RoyalGuard {
    player: usize,
    /// Quick clearance is allowed (not in check, and the read sets are exact).
    quick: bool,
    read: ReadSet,
    /// Squares a piece may leave without a test: no recorded answer reads
    /// them strictly, through a blocked path or as a ray's stop.
    lift_safe: [u64; 8],
    seeds: [(Square, bool); 4],
    seed_count: usize,
}

impl RoyalGuard {
    /// `None` when the game has no royal safety rule or no royal pieces.
    fn new(game: &Game, pos: &Position) -> Option<RoyalGuard> {
        Self::of(game, pos, pos.side())
    }

    /// The guard of `player`'s royal pieces.
    fn of(game: &Game, pos: &Position, player: usize) -> Option<RoyalGuard> {
        if !game.rules.royal_safety || game.royal_types().is_empty() {
            return None;
        }
        let mut guard = RoyalGuard {
            player,
            quick: game.attacks.local(game)
                && game.topology.len() <= 64 * 8
                && !game.rules.captures_explode
                && game.rules.borrowed_moves.is_none()
                && game.rules.royal_check == crate::game::RoyalCheck::Any,
            read: ReadSet::default(),
            lift_safe: [0; 8],
            seeds: [(Square(0), false); 4],
            seed_count: 0,
        };
        if !guard.quick {
            return Some(guard);
        }
        for &t in game.royal_types() {
            for sq in squares_of(pos.piece_bits(player, t as usize)) {
                let hit = (0..game.players.len())
                    .filter(|b| *b != player)
                    .any(|by| attack::attacked_recording(game, pos, sq, by, &mut guard.read));
                guard.quick &= !hit;
                if guard.seed_count < guard.seeds.len() {
                    guard.seeds[guard.seed_count] = (sq, hit);
                    guard.seed_count += 1;
                }
            }
        }
        let r = &guard.read;
        guard.lift_safe = std::array::from_fn(|w| !(r.strict[w] | r.blocked[w] | r.ray_stops[w]));
        Some(guard)
    }

    /// Whether each royal piece is attacked now, as found while recording:
    /// the answers `[a]` on those squares gives during this generation.
    fn seeds(&self) -> &[(Square, bool)] {
        &self.seeds[..self.seed_count]
    }

    /// After `mv` has been made on `pos`: are the mover's royal pieces safe?
    /// Pieces the move brought in from the hand by gating do not count, nor
    /// (where a player may be left with one of two royal pieces attacked)
    /// a royal piece the move made by promotion: sho shogi's Drunk Elephant
    /// becoming a Crown Prince does not answer a check to the King, as
    /// Fairy-Stockfish plays it.
    #[inline]
    fn safe_after(&self, game: &Game, pos: &mut Position, mv: MoveRef) -> bool {
        if game.has_hands() {
            let gated = gated_squares(game, mv);
            if !gated.is_empty() {
                return safe_without(game, pos, self.player, &gated);
            }
        }
        if game.rules.royal_check == crate::game::RoyalCheck::Last
            && let (Some(to), Some(promoted)) = (mv.header.to(), mv.header.promotion())
            && game.pieces.get(promoted as usize).is_some_and(|p| p.royal)
            && !game.pieces[mv.header.piece as usize].royal
        {
            let made = pos.cell(to);
            let before =
                game.cells
                    .piece(mv.header.piece, self.player, game.cells.info(made).moved);
            pos.set(&game.cells, to.index(), before);
            let safe = !game.royal_attacked(pos, self.player);
            pos.set(&game.cells, to.index(), made);
            return safe;
        }
        (self.quick && self.cleared(game, pos, mv)) || !game.royal_attacked(pos, self.player)
    }

    /// True if `mv` provably keeps the recorded "not attacked" answers.
    #[inline]
    fn cleared(&self, game: &Game, pos: &Position, mv: MoveRef) -> bool {
        if self.simple_cleared(game, mv) {
            return true;
        }
        let r = &self.read;
        let strict = |slot: usize| ReadSet::has(&r.strict, slot);
        if mv.header.from().is_some_and(|s| strict(s.index()))
            || mv.header.to().is_some_and(|s| strict(s.index()))
        {
            return false;
        }
        mv.changes.iter().all(|c| {
            let slot = c.slot as usize;
            if strict(slot) {
                return false;
            }
            if c.new.is_empty() {
                if ReadSet::has(&r.blocked, slot) {
                    return false;
                }
                return !ReadSet::has(&r.ray_stops, slot)
                    || r.rays_safe(game, pos.cells(), Square(c.slot));
            }
            let info = game.cells.info(c.new);
            // A royal piece the move brings (a promotion to a royal type,
            // coregal chess's Queen) has not been asked about.
            if self.owns(info) {
                !is_royal(game, info)
            } else {
                !ReadSet::has(&r.read, slot)
            }
        })
    }

    /// [`RoyalGuard::cleared`] for the commonest move, quickly: one piece
    /// lifted from a square no answer reads and put on one no answer reads
    /// strictly, where it is the guarded player's own piece and not royal.
    /// False means "look closer", not "unsafe".
    #[inline]
    fn simple_cleared(&self, game: &Game, mv: MoveRef) -> bool {
        let h = mv.header;
        if h.simple && h.player as usize == self.player {
            // The guarded player's piece of type `h.piece`, lifted from
            // `from` and put on `to` as the same piece: the header says
            // what the changes would.
            let (from, to) = (h.from as usize, h.to as usize);
            let royal = game.pieces.get(h.piece as usize).is_none_or(|p| p.royal);
            let cleared = ReadSet::has(&self.lift_safe, from)
                && !ReadSet::has(&self.read.strict, to)
                && !royal;
            debug_assert_eq!(cleared, self.changes_cleared(game, mv));
            return cleared;
        }
        self.changes_cleared(game, mv)
    }

    /// [`RoyalGuard::simple_cleared`] read from the move's changes.
    fn changes_cleared(&self, game: &Game, mv: MoveRef) -> bool {
        let h = mv.header;
        let (Some(from), Some(to), [a, b]) = (h.from(), h.to(), mv.changes) else {
            return false;
        };
        let (lift, land) = if a.slot == from.0 { (a, b) } else { (b, a) };
        lift.slot == from.0
            && land.slot == to.0
            && lift.new.is_empty()
            && ReadSet::has(&self.lift_safe, lift.slot as usize)
            && !ReadSet::has(&self.read.strict, land.slot as usize)
            && {
                let info = game.cells.info(land.new);
                self.owns(info) && !is_royal(game, info)
            }
    }

    /// The cell decoded as `info` holds a piece of the guarded player (not
    /// a phantom).
    #[inline]
    fn owns(&self, info: CellInfo) -> bool {
        !info.phantom && info.owner as usize == self.player
    }
}

/// The cell decoded as `info` holds a royal piece.
#[inline]
fn is_royal(game: &Game, info: CellInfo) -> bool {
    game.pieces
        .get(info.piece as usize)
        .is_some_and(|p| p.royal)
}

/// Counts the leaf nodes of the legal move tree to `depth` plies, making
/// and taking back every move, leaves included (no bulk counting).
pub fn perft(game: &Game, pos: &mut Position, depth: u32) -> Result<u64, GenError> {
    perft_with(game, pos, depth, &mut Generator::new())
}

/// [`perft`] with a generator of the caller's (and its settings).
pub fn perft_with(
    game: &Game,
    pos: &mut Position,
    depth: u32,
    generator: &mut Generator,
) -> Result<u64, GenError> {
    perft_from::<false>(game, pos, depth, generator)
}

/// [`perft_with`] that counts the moves of the last ply without making
/// them wherever the list holds exactly the legal moves (bulk counting,
/// as most perft programs do; the same counts, found faster). Moves whose
/// legality is only known once made (a chess move that may leave the
/// King attacked) are still made.
pub fn perft_bulk_with(
    game: &Game,
    pos: &mut Position,
    depth: u32,
    generator: &mut Generator,
) -> Result<u64, GenError> {
    perft_from::<true>(game, pos, depth, generator)
}

/// Perft from `pos` with one move list per ply.
fn perft_from<const BULK: bool>(
    game: &Game,
    pos: &mut Position,
    depth: u32,
    generator: &mut Generator,
) -> Result<u64, GenError> {
    let mut lists: Vec<MoveList> = (0..=depth).map(|_| MoveList::new()).collect();
    perft_at::<BULK>(game, pos, depth, generator, &mut lists)
}

/// Perft below `pos`; `BULK`: the moves of the last ply are counted
/// without making them where the list is exact.
fn perft_at<const BULK: bool>(
    game: &Game,
    pos: &mut Position,
    depth: u32,
    generator: &mut Generator,
    lists: &mut [MoveList],
) -> Result<u64, GenError> {
    if depth == 0 {
        return Ok(1);
    }
    let (list, rest) = lists.split_first_mut().expect("one list per ply");
    let counted = BULK && depth == 1;
    let mut nodes = 0;
    if Generator::streams(game, pos) {
        let legality = generator.stream(game, pos, list)?;
        if counted && legality.allows_all(game) {
            return Ok(list.len() as u64);
        }
        for i in 0..list.len() {
            let mv = list.get(i);
            game.make(pos, mv);
            if generator.allows(game, pos, mv, &legality)? {
                nodes += perft_below::<BULK>(game, pos, depth, generator, rest)?;
            }
            game.undo(pos, mv);
        }
    } else {
        // Every player's moves in a free opening (`moves_to_try` would
        // keep the side to move's).
        generator.legal(game, pos, list)?;
        if counted {
            return Ok(list.len() as u64);
        }
        for i in 0..list.len() {
            let mv = list.get(i);
            game.make(pos, mv);
            nodes += perft_below::<BULK>(game, pos, depth, generator, rest)?;
            game.undo(pos, mv);
        }
    }
    Ok(nodes)
}

/// The leaves under a move made at a node `depth` plies from them: a leaf
/// is counted without a call.
#[inline(always)]
fn perft_below<const BULK: bool>(
    game: &Game,
    pos: &mut Position,
    depth: u32,
    generator: &mut Generator,
    lists: &mut [MoveList],
) -> Result<u64, GenError> {
    if depth == 1 {
        Ok(1)
    } else {
        perft_at::<BULK>(game, pos, depth - 1, generator, lists)
    }
}

/// Perft split by first move: each legal move with its subtree count.
pub fn divide(
    game: &Game,
    pos: &mut Position,
    depth: u32,
    generator: &mut Generator,
) -> Result<Vec<(Move, u64)>, GenError> {
    let mut list = MoveList::new();
    generator.legal(game, pos, &mut list)?;
    let mut out = Vec::new();
    for mv in list.to_vec() {
        game.make(pos, mv.as_ref());
        let n = perft_with(game, pos, depth.saturating_sub(1), generator)?;
        game.undo(pos, mv.as_ref());
        out.push((mv, n));
    }
    Ok(out)
}
