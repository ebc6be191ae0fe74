//! Rithmomachia's arithmetic: captures after every move and the victories
//! (`games/rithmomachia.toml`; rules reference §1). The notation moves the
//! pieces; everything that needs numbers is here.
//!
//! - `has_part:<Piece>`: the moving piece (a pyramid) still holds a part of
//!   that type, so it may move like one.
//! - `rithmomachia_captures`: called at the end of every move, with the
//!   moving piece in the hand over its landing square. Every enemy piece is
//!   tested on the board as the move leaves it: **siege** (its four
//!   orthogonal or its four diagonal neighbours are the mover's pieces or
//!   off the board), **equality** (an attacker's value equals it),
//!   **ambush** (two attackers' sum, difference, product or quotient equals
//!   it) and **eruption** (a piece on its rank or file whose value times the
//!   distance, both end squares counted, equals it). A pyramid is tested
//!   with its total, which takes it whole, and with each part's value, which
//!   takes that part alone.
//! - end rule `rithmomachia:<options>`: the common and proper victories,
//!   with thresholds as options (see [`Victories::parse`]).
//!
//! Pieces are known by their type names: `Round`, `Triangle`, `Square`
//! move and attack as the rules say, `Pyramid` is made of parts.

use std::sync::{Arc, OnceLock};

use super::{Branch, EndRule, Handler, HandlerContext, HandlerRegistry};
use crate::board::{Square, Topology};
use crate::game::{Game, GameResult};
use crate::position::{Cell, NO_PIECE, Position};

pub(super) fn register(r: &mut HandlerRegistry) {
    r.register("rithmomachia_captures", Captures);
}

/// `has_part:<Piece>`.
pub(super) fn with_argument(name: &str) -> Option<Arc<dyn Handler>> {
    let piece = name.strip_prefix("has_part:")?;
    Some(Arc::new(HasPart(piece.to_string())))
}

/// The end rule `rithmomachia` or `rithmomachia:<options>`.
pub(super) fn end_rule(name: &str) -> Option<Result<Arc<dyn EndRule>, String>> {
    let options = match name.strip_prefix("rithmomachia") {
        Some("") => "",
        Some(rest) => rest.strip_prefix(':')?,
        None => return None,
    };
    Some(Victories::parse(options).map(|v| Arc::new(v) as Arc<dyn EndRule>))
}

struct HasPart(String);

impl Handler for HasPart {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let holds = ctx.game.parts_held(ctx.hand).is_some_and(|parts| {
            parts
                .iter()
                .any(|p| ctx.game.pieces[p.piece as usize].name == self.0)
        });
        if holds {
            out.push(Branch::stay(ctx.cursor));
        }
    }
}

/// How a piece moves, and so what it attacks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Shape {
    Round,
    Triangle,
    Square,
}

impl Shape {
    const ALL: [Shape; 3] = [Shape::Round, Shape::Triangle, Shape::Square];

    fn bit(self) -> u8 {
        1 << self as u8
    }

    fn of(name: &str) -> Option<Shape> {
        match name {
            "Round" => Some(Shape::Round),
            "Triangle" => Some(Shape::Triangle),
            "Square" => Some(Shape::Square),
            _ => None,
        }
    }

    /// Whether a piece of this shape on `from` could move to `to` if `to`
    /// were empty, on `board`.
    fn reaches(self, topo: &Topology, board: &[Cell], from: Square, to: Square) -> bool {
        let (a, b) = (topo.coords(from), topo.coords(to));
        let (dx, dy) = (b.col - a.col, b.row - a.row);
        if dx.abs() > 3 || dy.abs() > 3 {
            return false;
        }
        let clear = |n: i32| {
            (1..n).all(|k| {
                topo.at(a.col + dx.signum() * k, a.row + dy.signum() * k, a.level)
                    .is_some_and(|sq| board[sq.index()].is_empty())
            })
        };
        let (ax, ay) = (dx.abs(), dy.abs());
        match self {
            Shape::Round => ax == 1 && ay == 1,
            Shape::Triangle => {
                ((ax == 2 && ay == 0) || (ax == 0 && ay == 2)) && clear(2)
                    || (ax, ay) == (1, 2)
                    || (ax, ay) == (2, 1)
            }
            Shape::Square => {
                ((ax == 3 && ay == 0) || (ax == 0 && ay == 3)) && clear(3)
                    || (ax, ay) == (1, 3)
                    || (ax, ay) == (3, 1)
            }
        }
    }
}

/// The shape of each piece type, by name.
fn shapes(game: &Game) -> Vec<Option<Shape>> {
    game.pieces.iter().map(|p| Shape::of(&p.name)).collect()
}

/// A piece as the arithmetic sees it.
struct Numbered {
    sq: Square,
    owner: usize,
    /// Its value (a pyramid's total).
    total: u32,
    /// A pyramid's parts: shape and value.
    parts: Vec<(Shape, u32)>,
    /// Its shapes, one bit per [`Shape`] (a pyramid's: those of its parts).
    shapes: u8,
    pyramid: bool,
}

impl Numbered {
    /// The piece in `cell` on `sq`; `shapes` gives each piece type's shape.
    fn read(game: &Game, shapes: &[Option<Shape>], sq: Square, cell: Cell) -> Option<Numbered> {
        let info = game.cells.info(cell);
        if cell.is_empty() || info.piece == NO_PIECE {
            return None;
        }
        let shape_of = |piece: u16| shapes[piece as usize];
        if game.pieces[info.piece as usize].parts.is_empty() {
            return Some(Numbered {
                sq,
                owner: info.owner as usize,
                total: info.number as u32,
                parts: Vec::new(),
                shapes: shape_of(info.piece).map_or(0, Shape::bit),
                pyramid: false,
            });
        }
        let (parts, shapes, pyramid) = match game.parts_held(cell) {
            Some(held) => {
                let parts: Vec<(Shape, u32)> = held
                    .iter()
                    .filter_map(|p| Some((shape_of(p.piece)?, p.number as u32)))
                    .collect();
                let shapes = parts.iter().fold(0, |m, p| m | p.0.bit());
                (parts, shapes, true)
            }
            None => (
                Vec::new(),
                shape_of(info.piece).map_or(0, Shape::bit),
                false,
            ),
        };
        Some(Numbered {
            sq,
            owner: info.owner as usize,
            total: game.piece_number(cell),
            parts,
            shapes,
            pyramid,
        })
    }

    /// The values it offers: its total, and a pyramid's parts.
    fn values(&self) -> impl Iterator<Item = u32> + '_ {
        std::iter::once(self.total).chain(self.parts.iter().map(|p| p.1))
    }
}

/// The board as a move leaves it, read for arithmetic.
struct Field<'a> {
    game: &'a Game,
    board: Vec<Cell>,
    pieces: Vec<Numbered>,
}

impl<'a> Field<'a> {
    fn new(game: &'a Game, board: Vec<Cell>) -> Field<'a> {
        let shapes = shapes(game);
        let pieces = game
            .topology
            .squares()
            .filter_map(|sq| Numbered::read(game, &shapes, sq, board[sq.index()]))
            .collect();
        Field {
            game,
            board,
            pieces,
        }
    }

    /// Whether `x` is besieged by `by`: all four orthogonal or all four
    /// diagonal neighbours are `by`'s pieces or off the board.
    fn besieged(&self, x: Square, by: usize) -> bool {
        let topo = &self.game.topology;
        let closed = |dirs: &[crate::board::Dir]| {
            dirs.iter().all(|d| match topo.step(x, *d) {
                None => true,
                Some(n) => {
                    let c = self.board[n.index()];
                    let info = self.game.cells.info(c);
                    !c.is_empty() && info.piece != NO_PIECE && info.owner as usize == by
                }
            })
        };
        closed(topo.orthogonal()) || closed(topo.diagonal())
    }

    /// `by`'s pieces that could move onto `x` if it were empty.
    fn attackers(&self, x: Square, by: usize) -> Vec<&Numbered> {
        let topo = &self.game.topology;
        self.pieces
            .iter()
            .filter(|p| p.owner == by && p.sq != x)
            .filter(|p| {
                Shape::ALL
                    .iter()
                    .filter(|s| p.shapes & s.bit() != 0)
                    .any(|s| s.reaches(topo, &self.board, p.sq, x))
            })
            .collect()
    }

    /// `by`'s pieces on `x`'s rank or file, with the distance counting both
    /// end squares (neighbours are 2 apart). Pieces between do not matter.
    fn in_line(&self, x: Square, by: usize) -> Vec<(&Numbered, u32)> {
        let topo = &self.game.topology;
        let c = topo.coords(x);
        self.pieces
            .iter()
            .filter(|p| p.owner == by && p.sq != x)
            .filter_map(|p| {
                let a = topo.coords(p.sq);
                let d = if a.row == c.row {
                    (a.col - c.col).abs()
                } else if a.col == c.col {
                    (a.row - c.row).abs()
                } else {
                    return None;
                };
                Some((p, d as u32 + 1))
            })
            .collect()
    }

    /// What `by` brings to bear on the square `x`.
    fn threats(&self, x: Square, by: usize) -> Threats<'_> {
        Threats {
            attackers: self.attackers(x, by),
            in_line: self.in_line(x, by),
        }
    }
}

/// The pieces that attack one square and those on its rank and file.
struct Threats<'a> {
    attackers: Vec<&'a Numbered>,
    in_line: Vec<(&'a Numbered, u32)>,
}

impl Threats<'_> {
    /// Whether a piece of value `target` on the square is taken, by
    /// equality, ambush or eruption.
    fn take(&self, target: u32) -> bool {
        let equality = self
            .attackers
            .iter()
            .any(|a| a.values().any(|v| v == target));
        equality
            || ambush(&self.attackers, target)
            || self
                .in_line
                .iter()
                .any(|(a, d)| a.values().any(|v| v * d == target))
    }
}

/// Two different attackers whose values combine to `target`.
fn ambush(attackers: &[&Numbered], target: u32) -> bool {
    attackers.iter().enumerate().any(|(i, a)| {
        attackers[i + 1..].iter().any(|b| {
            a.values().any(|x| {
                b.values().any(|y| {
                    let (hi, lo) = (x.max(y), x.min(y));
                    x + y == target
                        || hi - lo == target
                        || x * y == target
                        || (lo > 0 && hi % lo == 0 && hi / lo == target)
                })
            })
        })
    })
}

struct Captures;

impl Handler for Captures {
    fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
        let game = ctx.game;
        let mut board = ctx.cells[..game.topology.len()].to_vec();
        board[ctx.cursor.index()] = ctx.hand;
        let field = Field::new(game, board);
        let mut branch = Branch::stay(ctx.cursor);
        for target in field.pieces.iter().filter(|p| p.owner != ctx.player) {
            let x = target.sq;
            let threats = field.threats(x, ctx.player);
            if field.besieged(x, ctx.player) || threats.take(target.total) {
                branch = branch.capture(x);
                continue;
            }
            if !target.pyramid {
                continue;
            }
            // Part by part: each part whose value is taken goes.
            let cell = field.board[x.index()];
            let number = game.cells.info(cell).number;
            let all = &game.pieces[game.cells.info(cell).piece as usize].parts[target.owner];
            let mut left = number;
            for (i, part) in all.iter().enumerate() {
                if number & (1 << i) != 0 && threats.take(part.number as u32) {
                    left &= !(1 << i);
                }
            }
            if left == 0 {
                branch = branch.capture(x);
            } else if left != number {
                branch = branch.set(x, game.cells.with_number(cell, left));
            }
        }
        out.push(branch);
    }
}

/// What has been taken from one player: compared with the setup.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Losses {
    pieces: u32,
    value: u32,
    digits: u32,
}

fn digits(n: u32) -> u32 {
    n.to_string().len() as u32
}

/// Pieces, value and digits of `player`'s pieces in `pos` (a pyramid is
/// one piece; its digits are its parts').
fn holdings(game: &Game, pos: &Position, player: usize) -> Losses {
    let mut h = Losses::default();
    for sq in game.topology.squares() {
        let cell = pos.cell(sq);
        let info = game.cells.info(cell);
        if cell.is_empty() || info.piece == NO_PIECE || info.owner as usize != player {
            continue;
        }
        h.pieces += 1;
        h.value += game.piece_number(cell);
        h.digits += match game.parts_held(cell) {
            Some(parts) => parts.iter().map(|p| digits(p.number as u32)).sum(),
            None => digits(info.number as u32),
        };
    }
    h
}

/// A threshold per capturing player (`1315/984`), or one for all.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PerPlayer(Vec<u32>);

impl PerPlayer {
    fn parse(text: &str) -> Result<PerPlayer, String> {
        text.split('/')
            .map(|t| {
                t.trim()
                    .parse()
                    .map_err(|_| format!("'{t}' is not a number"))
            })
            .collect::<Result<Vec<u32>, _>>()
            .map(PerPlayer)
    }

    fn get(&self, player: usize) -> u32 {
        self.0
            .get(player)
            .or(self.0.last())
            .copied()
            .unwrap_or(u32::MAX)
    }
}

/// The victories in play and their thresholds. Common victories compare
/// what the winner has taken from the other side with the thresholds; the
/// proper ones need the enemy pyramid wholly taken and a progression of
/// pieces in the enemy half (zone `enemy_half`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Victories {
    corpore: Option<PerPlayer>,
    bonis: Option<PerPlayer>,
    lite: Option<(PerPlayer, PerPlayer)>,
    honore: Option<(PerPlayer, PerPlayer)>,
    honore_liteque: Option<(PerPlayer, PerPlayer, PerPlayer)>,
    magna: bool,
    major: bool,
    excellentissima: bool,
    /// Each player's holdings in the setup, computed once (the rule is
    /// built for one game).
    setup: OnceLock<Vec<Losses>>,
}

impl Victories {
    /// Options separated by `;`:
    /// `corpore=15` (pieces taken), `bonis=1315/984` (value taken; per
    /// capturing player when written `a/b`), `lite=V,D` (value ≥ V with at
    /// most D digits), `honore=N,V`, `honore_liteque=N,V,D`, and the flags
    /// `magna`, `major`, `excellentissima`.
    pub fn parse(options: &str) -> Result<Victories, String> {
        let mut v = Victories::default();
        for option in options.split(';').map(str::trim).filter(|o| !o.is_empty()) {
            let (key, value) = option.split_once('=').unwrap_or((option, ""));
            let args: Vec<&str> = value.split(',').collect();
            let n = |i: usize| -> Result<PerPlayer, String> {
                PerPlayer::parse(args.get(i).copied().unwrap_or(""))
                    .map_err(|e| format!("rithmomachia option {key}: {e}"))
            };
            match key {
                "corpore" => v.corpore = Some(n(0)?),
                "bonis" => v.bonis = Some(n(0)?),
                "lite" => v.lite = Some((n(0)?, n(1)?)),
                "honore" => v.honore = Some((n(0)?, n(1)?)),
                "honore_liteque" => v.honore_liteque = Some((n(0)?, n(1)?, n(2)?)),
                "magna" => v.magna = true,
                "major" => v.major = true,
                "excellentissima" => v.excellentissima = true,
                other => {
                    return Err(format!(
                        "unknown rithmomachia option '{other}'; options: corpore, bonis, lite, honore, honore_liteque, magna, major, excellentissima"
                    ));
                }
            }
        }
        Ok(v)
    }

    /// The common victory `player` has won, if any, having taken `t`.
    fn common(&self, player: usize, t: Losses) -> Option<&'static str> {
        let (p, v, d) = (t.pieces, t.value, t.digits);
        if self.corpore.as_ref().is_some_and(|n| p >= n.get(player)) {
            return Some("De Corpore: enough pieces taken");
        }
        if self.bonis.as_ref().is_some_and(|n| v >= n.get(player)) {
            return Some("De Bonis: enough value taken");
        }
        if let Some((val, dig)) = &self.lite
            && v >= val.get(player)
            && d <= dig.get(player)
        {
            return Some("De Lite: value taken in few digits");
        }
        if let Some((pieces, val)) = &self.honore
            && p >= pieces.get(player)
            && v >= val.get(player)
        {
            return Some("De Honore: pieces and value taken");
        }
        if let Some((pieces, val, dig)) = &self.honore_liteque
            && p >= pieces.get(player)
            && v >= val.get(player)
            && d <= dig.get(player)
        {
            return Some("De Honore Liteque: pieces, value and digits");
        }
        None
    }

    /// The proper victory `player` has won in `pos`, if any.
    fn proper(&self, game: &Game, pos: &Position, player: usize) -> Option<&'static str> {
        if !(self.magna || self.major || self.excellentissima) {
            return None;
        }
        let enemy_pyramid_left = game.topology.squares().any(|sq| {
            let info = game.cells.info(pos.cell(sq));
            !pos.cell(sq).is_empty()
                && info.piece != NO_PIECE
                && info.owner as usize != player
                && game.pieces[info.piece as usize].name == "Pyramid"
        });
        if enemy_pyramid_left {
            return None;
        }
        let triples = progressions(game, pos, player);
        if self.excellentissima && four_with_kinds(&triples, 3) {
            return Some("Victoria Excellentissima: all three progressions in four pieces");
        }
        if self.major && four_with_kinds(&triples, 2) {
            return Some("Victoria Major: two progressions in four pieces");
        }
        if self.magna && !triples.is_empty() {
            return Some("Victoria Magna: a progression in the enemy half");
        }
        None
    }
}

impl EndRule for Victories {
    fn result(&self, game: &Game, pos: &Position, _legal: usize) -> Option<GameResult> {
        let players = game.players.len();
        let setup = self.setup.get_or_init(|| {
            let initial = game.initial_position();
            (0..players).map(|p| holdings(game, &initial, p)).collect()
        });
        // The side that just moved is the one that can have won.
        let last = (pos.side() + players - 1) % players;
        for winner in [last, pos.side()] {
            let loser = (winner + 1) % players;
            let (had, has) = (setup[loser], holdings(game, pos, loser));
            let taken = Losses {
                pieces: had.pieces.saturating_sub(has.pieces),
                value: had.value.saturating_sub(has.value),
                digits: had.digits.saturating_sub(has.digits),
            };
            let reason = self
                .common(winner, taken)
                .or_else(|| self.proper(game, pos, winner));
            if let Some(reason) = reason {
                return Some(GameResult::Win {
                    winner,
                    reason: reason.to_string(),
                });
            }
        }
        None
    }
}

/// A progression found on the board: its squares and kind (0 arithmetic,
/// 1 geometric, 2 harmonic).
struct Progression {
    squares: [Square; 3],
    kind: usize,
}

/// Progressions of three pieces in `player`'s enemy half, at least one of
/// them `player`'s, equally spaced on a line or at the corners of a right
/// isosceles triangle with legs along a rank and a file.
fn progressions(game: &Game, pos: &Position, player: usize) -> Vec<Progression> {
    let zone = game.zones.find("enemy_half");
    let shapes = shapes(game);
    let pieces: Vec<Numbered> = game
        .topology
        .squares()
        .filter(|sq| zone.is_some_and(|z| game.zones.contains(z, player, *sq)))
        .filter_map(|sq| Numbered::read(game, &shapes, sq, pos.cell(sq)))
        .collect();
    let topo = &game.topology;
    let mut out = Vec::new();
    for (i, a) in pieces.iter().enumerate() {
        for (j, b) in pieces.iter().enumerate().skip(i + 1) {
            for c in pieces.iter().skip(j + 1) {
                let trio = [a, b, c];
                if !trio.iter().any(|p| p.owner == player) || !arranged(topo, trio.map(|p| p.sq)) {
                    continue;
                }
                for kind in kinds(a, b, c) {
                    out.push(Progression {
                        squares: trio.map(|p| p.sq),
                        kind,
                    });
                }
            }
        }
    }
    out
}

/// Three squares equally spaced on a line (any step), or a right isosceles
/// triangle whose legs run along a rank and a file.
fn arranged(topo: &Topology, sq: [Square; 3]) -> bool {
    let c = sq.map(|s| topo.coords(s));
    let p = |i: usize| (c[i].col, c[i].row);
    for (x, mid, y) in [(0, 1, 2), (1, 0, 2), (0, 2, 1)] {
        let (a, m, b) = (p(x), p(mid), p(y));
        if (m.0 - a.0, m.1 - a.1) == (b.0 - m.0, b.1 - m.1) {
            return true;
        }
        // Right angle at m, legs along a rank and a file, equal lengths.
        let (u, v) = ((a.0 - m.0, a.1 - m.1), (b.0 - m.0, b.1 - m.1));
        let legs = (u.0 == 0 && v.1 == 0) || (u.1 == 0 && v.0 == 0);
        if legs && u.0.abs() + u.1.abs() == v.0.abs() + v.1.abs() {
            return true;
        }
    }
    false
}

/// The kinds of progression the three pieces' values make (a pyramid
/// offers its total and each part), with three different values.
fn kinds(a: &Numbered, b: &Numbered, c: &Numbered) -> Vec<usize> {
    let mut found = Vec::new();
    for x in a.values() {
        for y in b.values() {
            for z in c.values() {
                let mut v = [x as u64, y as u64, z as u64];
                v.sort_unstable();
                let [p, q, r] = v;
                if p == q || q == r {
                    continue;
                }
                let checks = [q - p == r - q, p * r == q * q, (p + r) * q == 2 * p * r];
                for (kind, holds) in checks.into_iter().enumerate() {
                    if holds && !found.contains(&kind) {
                        found.push(kind);
                    }
                }
            }
        }
    }
    found
}

/// Whether four squares hold progressions of at least `kinds` kinds.
fn four_with_kinds(triples: &[Progression], kinds: usize) -> bool {
    for (i, t) in triples.iter().enumerate() {
        for u in &triples[i..] {
            let mut four: Vec<Square> = t.squares.iter().chain(&u.squares).copied().collect();
            four.sort();
            four.dedup();
            if four.len() > 4 {
                continue;
            }
            let mut seen: Vec<usize> = triples
                .iter()
                .filter(|p| p.squares.iter().all(|s| four.contains(s)))
                .map(|p| p.kind)
                .collect();
            seen.sort();
            seen.dedup();
            if seen.len() >= kinds {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options() {
        let v = Victories::parse("corpore=15; bonis=1315/984; magna").unwrap();
        assert_eq!(v.bonis.as_ref().unwrap().get(0), 1315);
        assert_eq!(v.bonis.as_ref().unwrap().get(1), 984);
        assert_eq!(v.corpore.as_ref().unwrap().get(1), 15);
        assert!(v.magna && !v.major);
        assert!(Victories::parse("corpus=3").is_err());
        assert!(Victories::parse("bonis=lots").is_err());
    }
}
