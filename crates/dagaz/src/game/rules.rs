//! Goals: how a game ends (`checkmate = win`, `repetition 3 = draw`, …) and
//! the result of a finished game.

use super::Game;

/// What a goal means for the player it concerns (see [`Goal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
    /// The game is over and the player with the most pieces on the board
    /// wins (Reversi, Ataxx); equal counts draw.
    MostPieces,
    /// The game is over and the player with the fewest pieces on the board
    /// wins (suicide chess's stalemate); equal counts draw.
    FewestPieces,
}

/// A comparison of a number of pieces with a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    Less,
    LessOrEqual,
    Equal,
    GreaterOrEqual,
    Greater,
}

impl Compare {
    pub fn holds(self, n: u32, bound: u32) -> bool {
        match self {
            Compare::Less => n < bound,
            Compare::LessOrEqual => n <= bound,
            Compare::Equal => n == bound,
            Compare::GreaterOrEqual => n >= bound,
            Compare::Greater => n > bound,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Compare::Less => "<",
            Compare::LessOrEqual => "<=",
            Compare::Equal => "==",
            Compare::GreaterOrEqual => ">=",
            Compare::Greater => ">",
        }
    }
}

/// A condition that ends the game.
///
/// Conditions on the position as the side to move finds it (checkmate,
/// repetition, …) concern the player who just moved, as "who gave the
/// mate". Conditions on a player's own pieces (a line, a piece in a zone,
/// a chain, a count) concern whichever player has them, the player who
/// just moved looked at first; `occupy` concerns only the side to move (it
/// held the zone through the other side's turn).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    /// The side to move has no legal move and a royal piece is attacked.
    Checkmate,
    /// The side to move has no legal move and no royal piece is attacked.
    Stalemate,
    /// The side to move has no legal move.
    NoMoves,
    /// The same position for the n-th time.
    Repetition(u32),
    /// n plies without a capture or a clock-resetting move.
    NoProgress(u32),
    /// None of the pieces of the side to move can move (whoever would move
    /// them); also when it has none (Stavropol checkers).
    ColourBlocked,
    /// The side to move has nothing left but royal pieces while the player
    /// who just moved has more (shatranj).
    BareKing,
    /// Nobody can win any more: nothing stands on the board but royal
    /// pieces and at most one piece of these types, and no hand holds
    /// anything (chess's K v K, K+B v K, K+N v K).
    Insufficient(Vec<u16>),
    /// Every square of the board holds something.
    Full,
    /// The last n moves were passes.
    Passes(u32),
    /// The player has given check n times (three-check).
    Checks(u32),
    /// `length` (or, `exact`, exactly `length`) of the player's pieces in a
    /// row along one of `dirs` (each given with or without its opposite),
    /// of the types `pieces` (empty: any).
    Line {
        length: u16,
        exact: bool,
        dirs: Vec<crate::board::Dir>,
        pieces: Vec<u16>,
    },
    /// One of the player's pieces (of `pieces`; empty: any) stands in the
    /// player's zone.
    Reach { zone: usize, pieces: Vec<u16> },
    /// A race to a zone (racing kings): like `Reach`, but a player who
    /// arrives gives the other player one move to arrive too; if both do,
    /// the game is drawn.
    Race { zone: usize, pieces: Vec<u16> },
    /// Like `Reach`, but only by a piece no other player could capture
    /// there (dobutsu shogi's Lion on the far rank).
    ReachSafe { zone: usize, pieces: Vec<u16> },
    /// Like `Reach`, for the side to move: it kept a piece in the zone
    /// through the other player's turn.
    Occupy { zone: usize, pieces: Vec<u16> },
    /// A chain of the player's pieces, each a step along `dirs` from the
    /// next, links a square of zone `from` to one of zone `to`.
    Connect {
        from: usize,
        to: usize,
        dirs: Vec<crate::board::Dir>,
    },
    /// The number of the player's pieces on the board (of `pieces`;
    /// empty: all) compares with `bound`.
    Pieces {
        pieces: Vec<u16>,
        compare: Compare,
        bound: u32,
    },
    /// The number of pieces on the board, of every player (of `pieces`;
    /// empty: all), compares with `bound`. The count is everyone's, so it
    /// holds for any player: the goal's player if it names one, else the
    /// player who just moved.
    Total {
        pieces: Vec<u16>,
        compare: Compare,
        bound: u32,
    },
    /// A pattern of the player's pieces: a square holding `cells[0]`, the
    /// square a step along `dirs[0]` from it (in the player's directions)
    /// holding `cells[1]`, and so on (ZRF's `relative-config`).
    Config {
        cells: Vec<ConfigCell>,
        dirs: Vec<crate::board::Dir>,
    },
    /// Every one of these conditions on the player's pieces holds
    /// (`reach a Rook & reach b Knight`: a puzzle's final picture).
    All(Vec<Condition>),
}

impl Condition {
    /// Whether the condition concerns a player's own pieces (rather than
    /// the side to move's position).
    pub fn about_pieces(&self) -> bool {
        if let Condition::All(parts) = self {
            return parts.iter().all(Condition::about_pieces);
        }
        matches!(
            self,
            Condition::Line { .. }
                | Condition::Reach { .. }
                | Condition::ReachSafe { .. }
                | Condition::Race { .. }
                | Condition::Connect { .. }
                | Condition::Pieces { .. }
                | Condition::Total { .. }
                | Condition::Config { .. }
                | Condition::Checks(_)
        )
    }

    /// Whether the condition ends the game the moment it holds, so that a
    /// position where it holds has no legal moves: the conditions on the
    /// pieces, a full board, passes. (Checkmate, repetition and the like
    /// are about the moves themselves, or are claims.)
    pub fn immediate(&self) -> bool {
        self.about_pieces()
            || matches!(
                self,
                Condition::Occupy { .. } | Condition::Full | Condition::Passes(_)
            )
    }

    /// A short name for results ("checkmate", "3 in a row").
    pub fn reason(&self, game: &Game) -> String {
        let zone = |z: usize| game.zones.names().get(z).cloned().unwrap_or_default();
        match self {
            Condition::Checkmate => "checkmate".into(),
            Condition::Stalemate => "stalemate".into(),
            Condition::NoMoves => "no legal moves".into(),
            Condition::Repetition(n) => format!("position repeated {n} times"),
            Condition::NoProgress(n) => format!("{n} plies without progress"),
            Condition::ColourBlocked => "no piece of its colour can move".into(),
            Condition::BareKing => "bare king".into(),
            Condition::Insufficient(_) => "insufficient material".into(),
            Condition::Full => "the board is full".into(),
            Condition::Passes(n) => format!("{n} passes in a row"),
            Condition::Checks(n) => format!("{n} checks"),
            Condition::Line { length, exact, .. } => {
                format!("{}{length} in a row", if *exact { "exactly " } else { "" })
            }
            Condition::Reach { zone: z, .. } | Condition::Race { zone: z, .. } => {
                format!("reached {}", zone(*z))
            }
            Condition::ReachSafe { zone: z, .. } => format!("reached {} safely", zone(*z)),
            Condition::Occupy { zone: z, .. } => format!("held {}", zone(*z)),
            Condition::Connect { from, to, .. } => {
                format!("connected {} and {}", zone(*from), zone(*to))
            }
            Condition::Pieces {
                pieces,
                compare,
                bound,
            } => format!("{} {} {bound}", pieces_text(game, pieces), compare.symbol()),
            Condition::Total {
                pieces,
                compare,
                bound,
            } => format!(
                "{} on the board {} {bound}",
                pieces_text(game, pieces),
                compare.symbol()
            ),
            Condition::Config { .. } => "the pieces' configuration".into(),
            Condition::All(parts) => parts
                .iter()
                .map(|c| c.reason(game))
                .collect::<Vec<_>>()
                .join(" and "),
        }
    }
}

/// What one square of a [`Condition::Config`] holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigCell {
    /// Nothing.
    Empty,
    /// A piece of the player, of one of these types (empty: any).
    Own(Vec<u16>),
}

/// "pieces", or the names of `pieces` joined by "or".
fn pieces_text(game: &Game, pieces: &[u16]) -> String {
    let names: Vec<&str> = pieces
        .iter()
        .filter_map(|t| game.pieces.get(*t as usize).map(|p| p.name.as_str()))
        .collect();
    if names.is_empty() {
        "pieces".to_string()
    } else {
        names.join(" or ")
    }
}

/// One goal of a game: a condition, what it means, and (optionally) the
/// only player it applies to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Goal {
    pub condition: Condition,
    pub outcome: Outcome,
    pub player: Option<usize>,
}

impl Goal {
    /// Whether the goal is a draw a player must claim rather than one that
    /// ends the game by itself: a draw by repetition or by the move clock
    /// (chess's threefold repetition and fifty-move rule). Engine
    /// protocols leave such claims to the program that runs the game.
    pub fn is_claimed_draw(&self) -> bool {
        self.outcome == Outcome::Draw
            && matches!(
                self.condition,
                Condition::Repetition(_) | Condition::NoProgress(_)
            )
    }
}

/// The goals of a game, in the game file's order: the first that holds
/// decides.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Goals {
    pub list: Vec<Goal>,
}

impl Goals {
    /// Whether some goal ends the game at once ([`Condition::immediate`]).
    pub fn has_immediate(&self) -> bool {
        self.list.iter().any(|g| g.condition.immediate())
    }

    /// Whether some goal counts checks.
    pub fn counts_checks(&self) -> bool {
        self.list
            .iter()
            .any(|g| matches!(g.condition, Condition::Checks(_)))
    }

    /// Whether some goal needs to know if the side to move's pieces are all
    /// blocked (see `Generator::result_given`).
    pub fn needs_colour_blocked(&self) -> bool {
        self.list
            .iter()
            .any(|g| g.condition == Condition::ColourBlocked)
    }
}

/// What goal lines may name: the game's pieces, zones, players and board.
pub struct GoalNames<'a> {
    pub pieces: &'a [String],
    pub zones: &'a crate::board::Zones,
    pub players: &'a [String],
    pub topology: &'a crate::board::Topology,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win { winner: usize, reason: String },
    Draw { reason: String },
}

impl GameResult {
    /// The score as written in game records: `1-0`, `0-1`, `1/2-1/2`; with
    /// more than two players, the winner's name and "wins".
    pub fn score(&self, game: &Game) -> String {
        match self {
            GameResult::Win { winner: 0, .. } if game.players.len() == 2 => "1-0".into(),
            GameResult::Win { winner: 1, .. } if game.players.len() == 2 => "0-1".into(),
            GameResult::Win { winner, .. } => format!("{} wins", game.players[*winner].name),
            GameResult::Draw { .. } => "1/2-1/2".into(),
        }
    }

    /// Why the game ended ("checkmate", "Black resigned").
    pub fn reason(&self) -> &str {
        match self {
            GameResult::Win { reason, .. } | GameResult::Draw { reason } => reason,
        }
    }

    /// A sentence for people: "White wins (checkmate)", "Draw (stalemate)".
    pub fn describe(&self, game: &Game) -> String {
        match self {
            GameResult::Win { winner, reason } => {
                format!("{} wins ({reason})", game.players[*winner].name)
            }
            GameResult::Draw { reason } => format!("Draw ({reason})"),
        }
    }
}

/// Parses one goal line: `[Player:] condition = outcome`, e.g.
/// `checkmate = win`, `line 3 = win`, `White: reach far King = win`,
/// `pieces King < 1 = loss`, `passes 2 = most`.
pub fn parse_goal(text: &str, names: &GoalNames) -> Result<Goal, String> {
    let (cond, outcome) = text.rsplit_once('=').ok_or_else(|| {
        format!("'{text}' is not of the form 'condition = win|loss|draw|most|fewest'")
    })?;
    let outcome = match outcome.trim() {
        "win" => Outcome::Win,
        "loss" => Outcome::Loss,
        "draw" => Outcome::Draw,
        "most" => Outcome::MostPieces,
        "fewest" => Outcome::FewestPieces,
        other => {
            return Err(format!(
                "unknown outcome '{other}': use win, loss, draw, most or fewest"
            ));
        }
    };
    let (player, cond) = match cond.split_once(':') {
        Some((who, rest)) => {
            let who = who.trim();
            let p = names
                .players
                .iter()
                .position(|n| n == who)
                .ok_or_else(|| format!("'{who}' is not a player of this game"))?;
            (Some(p), rest)
        }
        None => (None, cond),
    };
    let condition = match cond.contains('&') {
        true => {
            let parts = cond
                .split('&')
                .map(|part| {
                    let words: Vec<&str> = part.split_whitespace().collect();
                    let c = parse_condition(&words, part.trim(), names)?;
                    match c.about_pieces() && !matches!(c, Condition::Race { .. }) {
                        true => Ok(c),
                        false => Err(format!(
                            "'{}': only conditions on the player's pieces (line, reach, connect, pieces, checks) combine with '&'",
                            part.trim()
                        )),
                    }
                })
                .collect::<Result<Vec<_>, String>>()?;
            Condition::All(parts)
        }
        false => {
            let words: Vec<&str> = cond.split_whitespace().collect();
            parse_condition(&words, cond.trim(), names)?
        }
    };
    Ok(Goal {
        condition,
        outcome,
        player,
    })
}

fn count(word: Option<&&str>, what: &str) -> Result<u32, String> {
    let w = word.ok_or_else(|| format!("'{what}' needs a number, e.g. '{what} 3'"))?;
    w.parse::<u32>()
        .ok()
        .filter(|n| *n > 0 && *n <= 10_000)
        .ok_or_else(|| format!("'{w}' is not a count from 1 to 10000"))
}

fn no_more(rest: &[&str], what: &str) -> Result<(), String> {
    match rest.first() {
        None => Ok(()),
        Some(w) => Err(format!("'{what}' takes nothing after it, found '{w}'")),
    }
}

fn parse_condition(words: &[&str], text: &str, names: &GoalNames) -> Result<Condition, String> {
    let simple = |c: Condition, rest: &[&str]| no_more(rest, words[0]).map(|_| c);
    let Some((&first, rest)) = words.split_first() else {
        return Err("an empty condition".into());
    };
    match first {
        "checkmate" => simple(Condition::Checkmate, rest),
        "stalemate" => simple(Condition::Stalemate, rest),
        "no_moves" => simple(Condition::NoMoves, rest),
        "colour_blocked" => simple(Condition::ColourBlocked, rest),
        "bare_king" => simple(Condition::BareKing, rest),
        "full" => simple(Condition::Full, rest),
        "insufficient" => Ok(Condition::Insufficient(pieces_named(rest, names)?)),
        "repetition" => {
            no_more(&rest[rest.len().min(1)..], first)?;
            Ok(Condition::Repetition(count(rest.first(), first)?))
        }
        "no_progress" => {
            no_more(&rest[rest.len().min(1)..], first)?;
            Ok(Condition::NoProgress(count(rest.first(), first)?))
        }
        "passes" => {
            no_more(&rest[rest.len().min(1)..], first)?;
            Ok(Condition::Passes(count(rest.first(), first)?))
        }
        "checks" => {
            no_more(&rest[rest.len().min(1)..], first)?;
            Ok(Condition::Checks(count(rest.first(), first)?))
        }
        "line" => parse_line(rest, names),
        "reach" | "occupy" => {
            let zone = zone_named(rest.first(), first, names)?;
            let last = rest
                .last()
                .copied()
                .filter(|_| first == "reach" && rest.len() > 1);
            let mode = last.filter(|w| matches!(*w, "answerable" | "safe"));
            let named = &rest[1..rest.len() - mode.is_some() as usize];
            let pieces = pieces_named(named, names)?;
            Ok(match (first, mode) {
                ("reach", Some("answerable")) => Condition::Race { zone, pieces },
                ("reach", Some(_)) => Condition::ReachSafe { zone, pieces },
                ("reach", None) => Condition::Reach { zone, pieces },
                _ => Condition::Occupy { zone, pieces },
            })
        }
        "connect" => {
            let from = zone_named(rest.first(), first, names)?;
            let to = zone_named(rest.get(1), first, names)?;
            let (dirs, rest) = directions(&rest[2.min(rest.len())..], names)?;
            no_more(rest, "connect ZONE ZONE in DIRECTIONS")?;
            Ok(Condition::Connect { from, to, dirs })
        }
        "pieces" => parse_pieces(rest, names, first),
        "total" => match parse_pieces(rest, names, first)? {
            Condition::Pieces {
                pieces,
                compare,
                bound,
            } => Ok(Condition::Total {
                pieces,
                compare,
                bound,
            }),
            other => Ok(other),
        },
        "config" => parse_config(rest, names),
        _ => Err(format!(
            "unknown condition '{text}': use checkmate, stalemate, no_moves, colour_blocked, bare_king, full, repetition N, no_progress N, passes N, checks N, line N, reach ZONE, occupy ZONE, connect ZONE ZONE, pieces OP N, total OP N or config PIECE DIR PIECE…"
        )),
    }
}

/// `line N [exact] [in DIRECTIONS] [Piece…]`.
fn parse_line(rest: &[&str], names: &GoalNames) -> Result<Condition, String> {
    let length = count(rest.first(), "line")?;
    if length > 64 {
        return Err(format!("a line of {length}: at most 64"));
    }
    let mut rest = &rest[1..];
    let exact = rest.first() == Some(&"exact");
    if exact {
        rest = &rest[1..];
    }
    let (dirs, rest) = directions(rest, names)?;
    let pieces = pieces_named(rest, names)?;
    Ok(Condition::Line {
        length: length as u16,
        exact,
        dirs,
        pieces,
    })
}

/// `pieces [Piece…] OP N` (and `total …`, written the same way).
fn parse_pieces(rest: &[&str], names: &GoalNames, what: &str) -> Result<Condition, String> {
    let at = rest
        .iter()
        .position(|w| matches!(*w, "<" | "<=" | "==" | ">=" | ">"))
        .ok_or_else(|| {
            format!("'{what}' needs a comparison: {what} [Piece…] < N (or <=, ==, >=, >)")
        })?;
    let compare = match rest[at] {
        "<" => Compare::Less,
        "<=" => Compare::LessOrEqual,
        "==" => Compare::Equal,
        ">=" => Compare::GreaterOrEqual,
        _ => Compare::Greater,
    };
    let bound = rest
        .get(at + 1)
        .and_then(|w| w.parse::<u32>().ok())
        .ok_or_else(|| format!("'{what} … OP' needs a number after the comparison"))?;
    no_more(&rest[(at + 2).min(rest.len())..], &format!("{what} … OP N"))?;
    Ok(Condition::Pieces {
        pieces: pieces_named(&rest[..at], names)?,
        compare,
        bound,
    })
}

/// `config CELL DIR CELL DIR CELL…`: a cell is a piece name, a list of
/// them joined by `|`, `any` (any of the player's pieces) or `empty`; a
/// direction is a letter of the board.
fn parse_config(rest: &[&str], names: &GoalNames) -> Result<Condition, String> {
    if rest.len().is_multiple_of(2) {
        return Err(
            "'config' alternates squares and directions: config PIECE DIR PIECE … (a square first and last)"
                .into(),
        );
    }
    let mut cells = Vec::new();
    let mut dirs = Vec::new();
    for (i, word) in rest.iter().enumerate() {
        if i % 2 == 1 {
            let mut letters = word.chars();
            let dir = match (letters.next(), letters.next()) {
                (Some(c), None) => names.topology.dir(c),
                _ => None,
            };
            dirs.push(dir.ok_or_else(|| format!("'{word}' is not a direction of this board"))?);
            continue;
        }
        cells.push(match *word {
            "empty" => ConfigCell::Empty,
            "any" => ConfigCell::Own(Vec::new()),
            list => {
                let words: Vec<&str> = list.split('|').collect();
                ConfigCell::Own(pieces_named(&words, names)?)
            }
        });
    }
    Ok(Condition::Config { cells, dirs })
}

/// An optional `in DIRECTIONS` (letters and the sets `+ X *`); by default
/// every direction of the board. Returns the directions and what follows.
fn directions<'w>(
    rest: &'w [&'w str],
    names: &GoalNames,
) -> Result<(Vec<crate::board::Dir>, &'w [&'w str]), String> {
    let topo = names.topology;
    if rest.first() != Some(&"in") {
        return Ok((topo.all_dirs().to_vec(), rest));
    }
    let letters = rest
        .get(1)
        .ok_or("'in' needs direction letters, e.g. 'in +X'")?;
    let mut dirs = Vec::new();
    for c in letters.chars() {
        let set: Vec<crate::board::Dir> = match c {
            '+' => topo.orthogonal().to_vec(),
            'X' => topo.diagonal().to_vec(),
            '*' => topo.all_dirs().to_vec(),
            c => vec![
                topo.dir(c)
                    .ok_or_else(|| format!("'{c}' is not a direction of this board"))?,
            ],
        };
        for d in set {
            if !dirs.contains(&d) {
                dirs.push(d);
            }
        }
    }
    Ok((dirs, &rest[2..]))
}

fn zone_named(word: Option<&&str>, what: &str, names: &GoalNames) -> Result<usize, String> {
    let w = word.ok_or_else(|| format!("'{what}' needs a zone name"))?;
    names
        .zones
        .find(w)
        .ok_or_else(|| format!("'{w}' is not a zone of this game (see [zones])"))
}

fn pieces_named(words: &[&str], names: &GoalNames) -> Result<Vec<u16>, String> {
    words
        .iter()
        .map(|w| {
            names
                .pieces
                .iter()
                .position(|p| p == w)
                .map(|i| i as u16)
                .ok_or_else(|| format!("'{w}' is not a piece of this game"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BoardSpec, Topology, Zones};

    #[test]
    fn goals_parse() {
        let topo = Topology::build(&BoardSpec {
            grid: "a-c x 3-1".into(),
            ..Default::default()
        })
        .unwrap();
        let mut zones = Zones::new(2, topo.len());
        zones.add("far", vec![vec![], vec![]]);
        let pieces = vec!["Stone".to_string(), "King".to_string()];
        let players = vec!["White".to_string(), "Black".to_string()];
        let names = GoalNames {
            pieces: &pieces,
            zones: &zones,
            players: &players,
            topology: &topo,
        };
        let g = |t: &str| parse_goal(t, &names);
        assert_eq!(
            g("checkmate = win").unwrap().condition,
            Condition::Checkmate
        );
        assert_eq!(
            g(" no_progress 100 = draw ").unwrap().condition,
            Condition::NoProgress(100)
        );
        let line = g("line 3 exact in + Stone = win").unwrap();
        assert!(
            matches!(line.condition, Condition::Line { length: 3, exact: true, ref dirs, ref pieces } if dirs.len() == 4 && pieces == &[0])
        );
        let reach = g("Black: reach far King = win").unwrap();
        assert_eq!(reach.player, Some(1));
        assert_eq!(
            reach.condition,
            Condition::Reach {
                zone: 0,
                pieces: vec![1]
            }
        );
        assert_eq!(
            g("pieces King < 1 = loss").unwrap().condition,
            Condition::Pieces {
                pieces: vec![1],
                compare: Compare::Less,
                bound: 1
            }
        );
        assert_eq!(g("passes 2 = most").unwrap().outcome, Outcome::MostPieces);
        assert_eq!(
            g("reach far King & pieces < 2 = win").unwrap().condition,
            Condition::All(vec![
                Condition::Reach {
                    zone: 0,
                    pieces: vec![1]
                },
                Condition::Pieces {
                    pieces: vec![],
                    compare: Compare::Less,
                    bound: 2
                }
            ])
        );
        for (op, compare) in [
            ("<=", Compare::LessOrEqual),
            ("==", Compare::Equal),
            (">=", Compare::GreaterOrEqual),
        ] {
            let goal = g(&format!("pieces {op} 1 = draw")).unwrap();
            assert_eq!(goal.outcome, Outcome::Draw);
            assert!(
                matches!(goal.condition, Condition::Pieces { compare: c, bound: 1, .. } if c == compare)
            );
        }
        for bad in [
            "checkmate",
            "mate = win",
            "repetition = draw",
            "repetition x = draw",
            "stalemate = maybe",
            "checkmate now = win",
            "line 3 in Q = win",
            "reach nowhere = win",
            "reach far Queen = win",
            "pieces King 1 = loss",
            "Red: checkmate = win",
            "reach far & checkmate = win",
            "reach far answerable & reach far = win",
        ] {
            assert!(g(bad).is_err(), "{bad}");
        }
    }
}
