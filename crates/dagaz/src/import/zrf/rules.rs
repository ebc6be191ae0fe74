//! The game file of one ZRF game: players, turn order, pieces with their
//! move blocks, setup, end conditions and options.

use indexmap::IndexMap;
use toml::{Table, Value};

use super::board::{self, Board};
use super::{Conversion, Sources, ZrfError, normalize_option, s, table};
use crate::notation::sexpr::{Sexp, SexpKind};

/// Options that only change how Zillions or Dagaz show the game.
const DISPLAY_OPTIONS: &[&str] = &[
    "animate-captures",
    "animate-drops",
    "smart-moves",
    "show-hints",
    "show-blink",
    "show-captures",
    "highlight-goals",
    "prevent-flipping",
    "progressive-levels",
    "show-moves-list",
    "show-drops",
    "drag-n-drop",
    "advisor-wait",
    "animate-redo",
    "promote-dialog",
    "show-lose",
    "selection-screen",
];

struct Piece {
    name: String,
    help: String,
    /// Move blocks with their move type.
    moves: Vec<(Sexp, Option<String>)>,
    drops: Vec<(Sexp, Option<String>)>,
    /// `(attribute name value)`: the piece's attributes and their values
    /// when it is set up or created.
    attributes: Vec<(String, bool)>,
}

struct Build<'a> {
    sources: &'a Sources,
    warnings: Vec<String>,
    players: Vec<String>,
    board: Option<Board>,
    pieces: Vec<Piece>,
    rules: Table,
    goals: Vec<String>,
    royal: Vec<String>,
    priorities: Vec<String>,
    turns: Option<Value>,
    /// The players of the turn order's turns (opening, repeated part), if
    /// the file gives one.
    order: Option<(Vec<usize>, Vec<usize>)>,
    pass_partial: bool,
    deferred: bool,
    /// The player the turn order starts with, if not the first.
    first: Option<usize>,
}

/// Converts a game's sections into a game file.
pub(super) fn build(sources: &Sources, sections: &[Sexp]) -> Result<Conversion, ZrfError> {
    let mut b = Build {
        sources,
        warnings: Vec::new(),
        players: Vec::new(),
        board: None,
        pieces: Vec::new(),
        rules: Table::new(),
        goals: Vec::new(),
        royal: Vec::new(),
        priorities: Vec::new(),
        turns: None,
        order: None,
        pass_partial: false,
        deferred: false,
        first: None,
    };
    let mut title = String::new();
    let mut description = String::new();
    // Players first: boards and zones name them.
    for s in sections {
        if let Some((h, args)) = s.head()
            && h == "players"
        {
            b.players = args
                .iter()
                .filter_map(|p| p.text().map(str::to_string))
                .collect();
        }
    }
    if b.players.is_empty() {
        return Err(ZrfError {
            message: "the game has no (players …)".into(),
            at: sources.place(0, 0),
        });
    }
    let mut setup = None;
    // The turn order after the pieces: it may name their move types.
    let mut turn_order = None;
    // Goals last: they may name zones of the board.
    let mut goals = Vec::new();
    for sec in sections {
        let Some((h, args)) = sec.head() else {
            continue;
        };
        match h.as_str() {
            "title" => title = text_arg(args),
            "description" => description = text_arg(args),
            "players" => {}
            "board" => {
                let board = board::read(sources, sec, &b.players)?;
                b.warnings.extend(board.warnings.iter().cloned());
                b.board = Some(board);
            }
            "piece" => b.piece(sec, args)?,
            "board-setup" => setup = Some(sec),
            "turn-order" => turn_order = Some((sec, args)),
            "move-priorities" => {
                b.priorities = args
                    .iter()
                    .filter_map(|a| a.text().map(str::to_string))
                    .collect()
            }
            "option" => b.option(sec, args)?,
            "pass-turn" => b.pass_turn(sec, args.first())?,
            "win-condition" | "loss-condition" | "draw-condition" | "count-condition" => {
                goals.push((sec, h, args))
            }
            "help" | "history" | "strategy" | "notation" | "image" | "music" | "solution"
            | "engine" | "default" | "version" | "recycle-captures" => {}
            _ if h.ends_with("-sound") => {}
            other => {
                return Err(ZrfError::at(
                    sources,
                    sec,
                    format!("'{other}' is not supported yet"),
                ));
            }
        }
    }
    if let Some((sec, args)) = turn_order {
        b.turn_order(sec, args)?;
    }
    for (sec, h, args) in goals {
        b.goal(sec, &h, args)?;
    }
    let Some(board) = b.board.take() else {
        return Err(ZrfError {
            message: "the game has no (board …)".into(),
            at: sources.place(0, 0),
        });
    };
    if b.players.len() > 8 {
        return Err(ZrfError {
            message: format!("{} players: at most 8", b.players.len()),
            at: sources.place(0, 0),
        });
    }
    let fen = match setup {
        Some(sec) => b.setup(sec, &board)?,
        None => b.empty_setup(&board)?,
    };
    let game = b.file(&title, &description, &board, fen)?;
    Ok(Conversion {
        title,
        game,
        warnings: b.warnings,
    })
}

/// The player of a turn as the game file writes it: a name, or a table
/// with a `player`.
fn turn_player(turn: &Value) -> Option<&str> {
    turn.as_str()
        .or_else(|| turn.get("player").and_then(Value::as_str))
}

fn text_arg(args: &[Sexp]) -> String {
    args.iter()
        .filter_map(|a| a.text())
        .collect::<Vec<_>>()
        .join(" ")
}

impl Build<'_> {
    fn err(&self, form: &Sexp, message: impl Into<String>) -> ZrfError {
        ZrfError::at(self.sources, form, message)
    }

    fn warn(&mut self, form: &Sexp, message: impl Into<String>) {
        let warning = ZrfError::at(self.sources, form, format!("warning: {}", message.into()));
        self.warnings.push(warning.to_string());
    }

    fn piece(&mut self, form: &Sexp, body: &[Sexp]) -> Result<(), ZrfError> {
        let mut p = Piece {
            name: String::new(),
            help: String::new(),
            moves: Vec::new(),
            drops: Vec::new(),
            attributes: Vec::new(),
        };
        for part in body {
            let Some((h, args)) = part.head() else {
                continue;
            };
            match h.as_str() {
                "name" => p.name = text_arg(args),
                "help" | "description" => {
                    if p.help.is_empty() {
                        p.help = text_arg(args)
                    }
                }
                "moves" | "drops" => {
                    let mut ty = None;
                    for m in args {
                        match m.head() {
                            Some((k, t)) if k == "move-type" => {
                                ty = t.first().and_then(|t| t.text()).map(str::to_string)
                            }
                            _ if m.list().is_some() => {
                                let list = if h == "moves" {
                                    &mut p.moves
                                } else {
                                    &mut p.drops
                                };
                                list.push((m.clone(), ty.clone()));
                            }
                            _ => return Err(self.err(m, "a move block is a list")),
                        }
                    }
                }
                "image" | "notation" | "dummy" | "glyph" => {}
                "attribute" => {
                    let (Some(name), Some(value)) =
                        (args.first().and_then(|a| a.atom()), args.get(1))
                    else {
                        return Err(self.err(part, "an attribute is (attribute name true|false)"));
                    };
                    let on = match value.atom().map(str::to_ascii_lowercase).as_deref() {
                        Some("true") => true,
                        Some("false") => false,
                        // Dagaz's numbers and names (`(attribute weight 7)`)
                        // are read by its JavaScript, not by ZRF blocks.
                        _ => {
                            self.warn(
                                part,
                                format!("attribute '{name}' is not true or false: ignored (the Dagaz project's JavaScript reads such values)"),
                            );
                            continue;
                        }
                    };
                    p.attributes.retain(|(n, _)| n != name);
                    p.attributes.push((name.to_string(), on));
                }
                other => {
                    return Err(
                        self.err(part, format!("'{other}' in a piece is not supported yet"))
                    );
                }
            }
        }
        if p.name.is_empty() {
            return Err(self.err(form, "a piece needs a name"));
        }
        if self.pieces.iter().any(|q| q.name == p.name) {
            return Err(self.err(form, format!("a second piece is named '{}'", p.name)));
        }
        self.pieces.push(p);
        Ok(())
    }

    fn turn_order(&mut self, form: &Sexp, args: &[Sexp]) -> Result<(), ZrfError> {
        let mut opening = Vec::new();
        let mut cycle = Vec::new();
        let mut repeat = false;
        for a in args {
            if a.is("repeat") {
                repeat = true;
                continue;
            }
            let turn = self.turn(a)?;
            if repeat {
                cycle.push(turn);
            } else {
                opening.push(turn);
            }
        }
        if !repeat {
            cycle = std::mem::take(&mut opening);
        }
        if cycle.is_empty() {
            return Err(self.err(form, "the turn order repeats nothing"));
        }
        let players_of = |list: &[Value]| -> Vec<usize> {
            let index = |t: &Value| {
                self.players
                    .iter()
                    .position(|p| Some(p.as_str()) == turn_player(t))
            };
            list.iter().filter_map(index).collect()
        };
        let order = (players_of(&opening), players_of(&cycle));
        self.first = order.0.first().or(order.1.first()).copied();
        self.order = Some(order);
        let plain: Vec<Value> = self.players.iter().map(|p| s(p.as_str())).collect();
        self.turns = if opening.is_empty() && cycle == plain {
            None
        } else if opening.is_empty() {
            Some(Value::Array(cycle))
        } else {
            Some(Value::Table(table([
                ("opening", Value::Array(opening)),
                ("repeat", Value::Array(cycle)),
            ])))
        };
        Ok(())
    }

    /// One turn of `turn-order`: a player, or `(player [owner] [type])`
    /// where the player moves the owner's pieces (Zillions: "White moves
    /// Black's pieces"), only with moves of the move type. The game file
    /// writes a player's name, or a table `{ player, pieces, type }`.
    fn turn(&self, a: &Sexp) -> Result<Value, ZrfError> {
        if let Some(p) = a.atom() {
            self.player_name(a, p)?;
            return Ok(s(p));
        }
        let Some((who, rest)) = a.list().and_then(|l| l.split_first()) else {
            return Err(self.err(a, "a turn is a player or a list (player …)"));
        };
        let names = "a turn lists names: (player [owner of the pieces] [move type])";
        let player = who.atom().ok_or_else(|| self.err(who, names))?;
        self.player_name(who, player)?;
        let mut t = table([("player", s(player))]);
        for item in rest {
            let name = item.atom().ok_or_else(|| self.err(item, names))?;
            let key = if self.players.iter().any(|p| p == name) {
                "pieces"
            } else if self.move_types().contains(&name) {
                "type"
            } else {
                return Err(self.err(
                    item,
                    format!("'{name}' in a turn is neither a player nor a move type of the pieces"),
                ));
            };
            // The owner comes before the move type, each once.
            if t.contains_key(key) || t.contains_key("type") {
                return Err(self.err(item, names));
            }
            t.insert(key.into(), s(name));
        }
        Ok(if t.len() == 1 {
            s(player)
        } else {
            Value::Table(t)
        })
    }

    /// The players who may have moved just before a turn of `player`:
    /// the one before it in the order of the players, or with a turn
    /// order, the player of every turn right before one of its turns (none
    /// before the game's first turn; not the player itself, when it has two
    /// turns in a row: the goals speak of the other player then).
    fn players_before(&self, player: usize) -> Vec<usize> {
        let n = self.players.len();
        let Some((opening, cycle)) = &self.order else {
            return vec![(player + n - 1) % n];
        };
        let turns: Vec<usize> = opening.iter().chain(cycle).copied().collect();
        let mut out = Vec::new();
        for k in (0..turns.len()).filter(|&k| turns[k] == player) {
            let before = match k {
                // The first repeated turn follows the opening once, then
                // the repeated part's last turn.
                _ if k == opening.len() => vec![opening.last(), cycle.last()],
                0 => Vec::new(),
                _ => vec![turns.get(k - 1)],
            };
            // A turn after the player's own turn: the goal speaks of the
            // player who moved before that one.
            for b in before.into_iter().flatten().filter(|b| **b != player) {
                if !out.contains(b) {
                    out.push(*b);
                }
            }
        }
        out
    }

    /// Checks that `name` (written at `form`) is a player.
    fn player_name(&self, form: &Sexp, name: &str) -> Result<(), ZrfError> {
        if self.players.iter().any(|p| p == name) {
            Ok(())
        } else {
            Err(self.err(form, format!("'{name}' is not a player")))
        }
    }

    /// The move types the pieces' blocks name.
    fn move_types(&self) -> Vec<&str> {
        self.pieces
            .iter()
            .flat_map(|p| p.moves.iter().chain(&p.drops))
            .filter_map(|(_, ty)| ty.as_deref())
            .collect()
    }

    fn option(&mut self, form: &Sexp, args: &[Sexp]) -> Result<(), ZrfError> {
        let name = args
            .first()
            .and_then(|a| a.text())
            .map(normalize_option)
            .unwrap_or_default();
        let value = args
            .get(1)
            .and_then(|v| v.text())
            .unwrap_or("true")
            .to_ascii_lowercase();
        let on = value != "false";
        match name.as_str() {
            n if DISPLAY_OPTIONS.contains(&n) => {}
            "pass-turn" => self.pass_turn(form, args.get(1))?,
            "pass-partial" => self.pass_partial = on,
            "deferred-captures" => self.deferred = on,
            "maximal-captures" if on => {
                if value != "true" {
                    self.warn(
                        form,
                        format!("maximal captures '{value}' read as counting pieces"),
                    );
                }
                self.rules.insert("maximum_capture".into(), s("pieces"));
            }
            "maximal-captures" => {}
            "chess-invariant" if on => {
                self.rules
                    .insert("royal_safety".into(), Value::Boolean(true));
            }
            "chess-invariant" => {}
            // Any player may move any piece, as its owner would.
            "shared-pieces" if on => {
                self.rules
                    .insert("move_any_piece".into(), Value::Boolean(true));
            }
            "shared-pieces" => {}
            // Dagaz's ko: `situation` forbids any earlier position with the
            // same player to move; `true`, the position the mover's previous
            // move left.
            "ko" => match value.as_str() {
                "false" => {}
                "situation" => {
                    self.rules.insert("ko".into(), s("situation"));
                }
                "true" => {
                    self.rules.insert("ko".into(), s("simple"));
                }
                other => self.warn(
                    form,
                    format!("option 'ko' '{other}' is not known here; no ko rule is played"),
                ),
            },
            _ if name.ends_with("-extension") || name.ends_with("-invariant") => self.warn(
                form,
                format!(
                    "option '{name}' names rules the Dagaz project adds in JavaScript, outside the ZRF file; they are not played here"
                ),
            ),
            _ => self.warn(
                form,
                format!("option '{name}' is not known here and changes nothing"),
            ),
        }
        Ok(())
    }

    fn pass_turn(&mut self, form: &Sexp, value: Option<&Sexp>) -> Result<(), ZrfError> {
        let v = value
            .and_then(|v| v.text())
            .unwrap_or("true")
            .to_ascii_lowercase();
        match v.as_str() {
            "true" => {
                self.rules.insert("pass".into(), s("allowed"));
            }
            "forced" => {
                self.rules.insert("pass".into(), s("forced"));
            }
            "false" => {
                self.rules.remove("pass");
            }
            other => {
                return Err(self.err(form, format!("pass-turn '{other}': true, false or forced")));
            }
        }
        Ok(())
    }

    /// `(win-condition (players…) condition)` and the others.
    fn goal(&mut self, form: &Sexp, kind: &str, args: &[Sexp]) -> Result<(), ZrfError> {
        let [who, cond] = args else {
            return Err(self.err(form, "a condition is (players) condition"));
        };
        let who = who.words();
        if let Some(p) = who.iter().find(|p| !self.players.contains(p)) {
            return Err(self.err(form, format!("'{p}' is not a player")));
        }
        let n = self.players.len();
        let outcome = match kind {
            "win-condition" => "win",
            // The game ends; the player with the most pieces wins.
            "count-condition" => "most",
            // A puzzle lost is a puzzle not solved: nobody wins.
            "loss-condition" if n == 1 => "draw",
            "loss-condition" => "loss",
            _ => "draw",
        };
        let all = who.len() == n;
        let name = cond
            .atom()
            .map(str::to_ascii_lowercase)
            .or_else(|| cond.head().map(|(h, _)| h))
            .unwrap_or_default();
        let mut lines: Vec<String> = Vec::new();
        if matches!(name.as_str(), "stalemated" | "repetition" | "checkmated") {
            let cargs = cond.head().map(|(_, a)| a).unwrap_or_default();
            let text = match name.as_str() {
                "stalemated" => "no_moves",
                "repetition" => "repetition 3",
                _ => {
                    for t in cargs.iter().filter_map(|t| t.text()) {
                        if !self.royal.iter().any(|r| r == t) {
                            self.royal.push(t.to_string());
                        }
                    }
                    self.rules
                        .insert("royal_safety".into(), Value::Boolean(true));
                    "checkmate"
                }
            };
            // These conditions are about the side to move; in the game file
            // they concern the player who just moved (the one before, in
            // the turn order).
            let flipped = match (outcome, n) {
                (_, 1) => outcome,
                ("win", _) => "loss",
                ("loss", _) => "win",
                (other, _) => other,
            };
            if all {
                lines.push(format!("{text} = {flipped}"));
            } else {
                for p in &who {
                    let i = self.players.iter().position(|x| x == p).unwrap_or(0);
                    for before in self.players_before(i) {
                        let line = format!("{}: {text} = {flipped}", self.players[before]);
                        if !lines.contains(&line) {
                            lines.push(line);
                        }
                    }
                }
            }
        } else {
            // Each alternative of an `or` is a goal of its own.
            for text in self.piece_condition(cond)? {
                for p in &who {
                    let prefix = if all { String::new() } else { format!("{p}: ") };
                    lines.push(format!("{prefix}{text} = {outcome}"));
                }
            }
        }
        for l in lines {
            if !self.goals.contains(&l) {
                self.goals.push(l);
            }
        }
        Ok(())
    }

    /// A condition on the player's pieces, as the game file writes it: the
    /// alternatives, any of which is enough (several for an `or`).
    fn piece_condition(&mut self, cond: &Sexp) -> Result<Vec<String>, ZrfError> {
        let (name, cargs) = match cond.head() {
            Some((h, rest)) => (h, rest),
            None => {
                let word = cond.atom().unwrap_or("?");
                return Err(self.err(cond, format!("the condition '{word}' is not supported yet")));
            }
        };
        let one = match name.as_str() {
            "pieces-remaining" | "total-piece-count" => {
                let n: i64 = cargs
                    .first()
                    .and_then(|n| n.text())
                    .and_then(|n| n.parse().ok())
                    .ok_or_else(|| self.err(cond, format!("{name} needs a number")))?;
                let types = self.types(&cargs[1..]);
                let what = if name == "pieces-remaining" {
                    "pieces"
                } else {
                    "total"
                };
                format!("{what}{types} == {n}")
            }
            "captured" => format!("pieces{} < 1", self.types(cargs)),
            "absolute-config" => {
                let zone = self.config_zone(cond, cargs)?;
                let types = self.types(&cargs[..cargs.len() - 1]);
                format!("reach {zone}{types}")
            }
            "relative-config" => self.relative_config(cond, cargs)?,
            "and" => {
                let mut all = vec![String::new()];
                for c in cargs {
                    let parts = self.piece_condition(c)?;
                    all = all
                        .iter()
                        .flat_map(|a| {
                            parts.iter().map(move |p| match a.is_empty() {
                                true => p.clone(),
                                false => format!("{a} & {p}"),
                            })
                        })
                        .collect();
                }
                return Ok(all);
            }
            "or" => {
                let mut any = Vec::new();
                for c in cargs {
                    any.extend(self.piece_condition(c)?);
                }
                return Ok(any);
            }
            other => {
                return Err(self.err(
                    cond,
                    format!("the condition '{other}' is not supported yet"),
                ));
            }
        };
        Ok(vec![one])
    }

    /// `(relative-config Piece dir Piece dir Piece…)` as `config …`, the
    /// directions as the board's letters; a name that is no piece's may be
    /// `empty`.
    fn relative_config(&mut self, cond: &Sexp, args: &[Sexp]) -> Result<String, ZrfError> {
        if args.len().is_multiple_of(2) {
            return Err(self.err(cond, "relative-config alternates pieces and directions"));
        }
        let mut words = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let word = a.atom().unwrap_or("");
            if i % 2 == 1 {
                let letter = self
                    .board
                    .as_ref()
                    .and_then(|b| b.dirs.get(word).copied())
                    .ok_or_else(|| self.err(a, format!("'{word}' is not a direction")))?;
                words.push(letter.to_string());
            } else if word == "empty" || self.pieces.iter().any(|p| p.name == word) {
                words.push(word.to_string());
            } else {
                return Err(self.err(a, format!("no piece is named '{word}'")));
            }
        }
        Ok(format!("config {}", words.join(" ")))
    }

    /// ` T1 T2` for a list of piece types (atoms or one list).
    fn types(&self, args: &[Sexp]) -> String {
        args.iter()
            .flat_map(Sexp::words)
            .map(|t| format!(" {t}"))
            .collect()
    }

    /// The zone of an `absolute-config`: its zone, or a zone made of its
    /// squares.
    fn config_zone(&mut self, cond: &Sexp, args: &[Sexp]) -> Result<String, ZrfError> {
        let Some(last) = args.last().filter(|_| args.len() >= 2) else {
            return Err(self.err(cond, "absolute-config needs pieces and positions"));
        };
        let names = last.words();
        let board = self.board.as_mut().ok_or_else(|| {
            ZrfError::at(self.sources, cond, "the board must come before the goals")
        })?;
        if let [one] = &names[..]
            && let Some(z) = board.zone_names.get(one)
        {
            return Ok(z.clone());
        }
        if let Some(bad) = names.iter().find(|n| !board.square_exists(n)) {
            let message = format!("'{bad}' is neither a zone nor a square of the board");
            return Err(ZrfError::at(self.sources, cond, message));
        }
        let name = board::zone_name(&format!("goal{}", board.zones.len() + 1), &board.zone_names);
        board.zone_names.insert(name.clone(), name.clone());
        let per: IndexMap<String, Vec<String>> = [("all".to_string(), names)].into_iter().collect();
        board.zones.insert(name.clone(), per);
        Ok(name)
    }

    /// The setup as a position string (FEN), hands included.
    fn setup(&mut self, sec: &Sexp, board: &Board) -> Result<String, ZrfError> {
        let (_, body) = sec.head().unwrap_or_default();
        let mut at: IndexMap<String, (usize, String)> = IndexMap::new();
        let mut hands: Vec<(usize, String, u32)> = Vec::new();
        for side in body {
            let Some((who, pieces)) = side.list().and_then(|l| l.split_first()) else {
                continue;
            };
            let who = who.text().unwrap_or("");
            let Some(owner) = self.players.iter().position(|p| p == who) else {
                return Err(self.err(side, format!("'{who}' is not a player")));
            };
            for p in pieces {
                let Some((name, places)) = p.list().and_then(|l| l.split_first()) else {
                    return Err(self.err(p, "a setup entry is (Piece squares…)"));
                };
                let name = name.text().unwrap_or("").to_string();
                if !self.pieces.iter().any(|x| x.name == name) {
                    return Err(self.err(p, format!("no piece is named '{name}'")));
                }
                let mut places = places.iter();
                while let Some(sq) = places.next() {
                    if sq.is("off") {
                        let n = places
                            .next()
                            .and_then(|n| n.text())
                            .and_then(|n| n.parse().ok())
                            .ok_or_else(|| self.err(p, "off needs a number"))?;
                        hands.push((owner, name.clone(), n));
                        continue;
                    }
                    let sq = sq.text().unwrap_or("");
                    if !board.square_exists(sq) {
                        return Err(self.err(p, format!("'{sq}' is not a square of the board")));
                    }
                    at.insert(sq.to_string(), (owner, name.clone()));
                }
            }
        }
        if !hands.is_empty() && self.pieces.iter().all(|p| p.drops.is_empty()) {
            self.warn(
                sec,
                "pieces set off the board are left out: no piece of this game drops",
            );
            hands.clear();
        }
        self.default_stocks(board, &mut hands);
        self.fen(board, &at, &hands)
    }

    /// A piece that drops and has no stock drops without limit: enough to
    /// fill the board (at most 999, what position strings count).
    fn default_stocks(&self, board: &Board, hands: &mut Vec<(usize, String, u32)>) {
        let squares = board.len().min(999) as u32;
        for p in self.pieces.iter().filter(|p| !p.drops.is_empty()) {
            for owner in 0..self.players.len() {
                if !hands.iter().any(|(o, n, _)| *o == owner && *n == p.name) {
                    hands.push((owner, p.name.clone(), squares));
                }
            }
        }
    }

    fn empty_setup(&mut self, board: &Board) -> Result<String, ZrfError> {
        let mut hands = Vec::new();
        self.default_stocks(board, &mut hands);
        self.fen(board, &IndexMap::new(), &hands)
    }

    fn fen(
        &self,
        board: &Board,
        at: &IndexMap<String, (usize, String)>,
        hands: &[(usize, String, u32)],
    ) -> Result<String, ZrfError> {
        let symbols = self.symbols();
        let many = self.players.len() > 2;
        if many && symbols.len() > 26 {
            return Err(ZrfError {
                message: format!(
                    "{} piece types with {} players: at most 26 (one letter each)",
                    symbols.len(),
                    self.players.len()
                ),
                at: self.sources.place(0, 0),
            });
        }
        if symbols.len() > 78 {
            return Err(ZrfError {
                message: format!("{} piece types: at most 78", symbols.len()),
                at: self.sources.place(0, 0),
            });
        }
        let players = self.player_letters();
        let letter = |owner: usize, name: &str| {
            let l = symbols.get(name).map_or("?", |s| s.1.as_str());
            match owner {
                _ if many => format!("{}{l}", players[owner]),
                0 => l.to_string(),
                _ => l.to_ascii_lowercase(),
            }
        };
        let mut rows = Vec::new();
        for row in board.rows() {
            let mut tokens: Vec<String> = Vec::new();
            let mut empty = 0;
            for cell in row {
                match cell.as_ref().and_then(|name| at.get(name)) {
                    Some((owner, name)) => {
                        if empty > 0 {
                            tokens.push(empty.to_string());
                            empty = 0;
                        }
                        tokens.push(letter(*owner, name));
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                tokens.push(empty.to_string());
            }
            rows.push(tokens.join(if many { "," } else { "" }));
        }
        let mut fen = rows.join("/");
        if !hands.is_empty() {
            let tokens: Vec<String> = hands
                .iter()
                .filter(|h| h.2 > 0)
                .map(|(owner, name, n)| match n {
                    1 => letter(*owner, name),
                    n => format!("{n}{}", letter(*owner, name)),
                })
                .collect();
            fen += &format!("[{}]", tokens.join(if many { "," } else { "" }));
        }
        fen += &format!(" {} - - 0 1", players[self.first.unwrap_or(0)]);
        Ok(fen)
    }

    /// Each player's letter in position strings: `w` and `b` for two,
    /// else its initial if free, else the first free letter.
    fn player_letters(&self) -> Vec<char> {
        if self.players.len() == 2 {
            return vec!['w', 'b'];
        }
        let mut out: Vec<char> = Vec::new();
        for p in &self.players {
            let l = p
                .chars()
                .map(|c| c.to_ascii_lowercase())
                .chain('a'..='z')
                .find(|c| c.is_ascii_lowercase() && !out.contains(c))
                .unwrap_or('?');
            out.push(l);
        }
        out
    }

    /// Each piece's letter: its initial if free, else the first free one.
    fn letters(&self) -> IndexMap<String, char> {
        self.symbols()
            .into_iter()
            .map(|(k, (l, _))| (k, l))
            .collect()
    }

    /// Each piece's letter and how position strings write it: the first
    /// 26 pieces by their letters, the next ones by `+L`, then `L~` (as
    /// promoted pieces are written), reusing the letters in turn.
    fn symbols(&self) -> IndexMap<String, (char, String)> {
        let mut out: IndexMap<String, (char, String)> = IndexMap::new();
        for (i, p) in self.pieces.iter().enumerate() {
            if i >= 26 {
                let reused = out[i % 26].0;
                let symbol = match i / 26 {
                    1 => format!("+{reused}"),
                    2 => format!("{reused}~"),
                    _ => "?".to_string(),
                };
                out.insert(p.name.clone(), (reused, symbol));
                continue;
            }
            let free = |c: &char| c.is_ascii_uppercase() && !out.values().any(|l| l.0 == *c);
            // Chess's letters where the names are chess's.
            let usual = match p.name.to_ascii_lowercase().as_str() {
                "knight" => Some('N'),
                "king" => Some('K'),
                _ => None,
            };
            let l = usual
                .into_iter()
                .chain(p.name.chars())
                .map(|c| c.to_ascii_uppercase())
                .chain('A'..='Z')
                .find(free)
                .unwrap_or('?');
            out.insert(p.name.clone(), (l, l.to_string()));
        }
        out
    }

    /// A move block as the game file writes it: the block's text with the
    /// board's names (directions as letters, zones renamed).
    fn block_text(&self, board: &Board, block: &Sexp) -> String {
        let rename = |a: &str| -> String {
            if let Some(l) = board.dirs.get(a) {
                return l.to_string();
            }
            if let Some(z) = board.zone_names.get(a) {
                return z.clone();
            }
            a.to_string()
        };
        fn write(s: &Sexp, rename: &dyn Fn(&str) -> String, out: &mut String) {
            match &s.kind {
                SexpKind::Atom(a) => out.push_str(&rename(a)),
                SexpKind::Str(t) => out.push_str(&format!("\"{t}\"")),
                SexpKind::List(items) => {
                    out.push('(');
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push(' ');
                        }
                        write(item, rename, out);
                    }
                    out.push(')');
                }
            }
        }
        let mut out = String::new();
        write(block, &rename, &mut out);
        out
    }

    /// The priority of a block's moves, from `move-priorities` (the first
    /// listed type highest); blocks of types it leaves out only continue
    /// partial moves.
    fn priority(&self, ty: &Option<String>) -> (u8, bool) {
        if self.priorities.is_empty() {
            return (0, true);
        }
        match ty
            .as_ref()
            .and_then(|t| self.priorities.iter().position(|p| p == t))
        {
            Some(i) => ((self.priorities.len() - i) as u8, true),
            None => (0, false),
        }
    }

    fn blocks(&self, board: &Board, list: &[(Sexp, Option<String>)]) -> Value {
        Value::Array(
            list.iter()
                .map(|(block, ty)| {
                    let mut t = table([
                        ("zrf", s(self.block_text(board, block))),
                        (
                            "origin",
                            s(self.sources.locate(block).replace("\n  ", ", ")),
                        ),
                    ]);
                    if let Some(ty) = ty {
                        t.insert("type".into(), s(ty.as_str()));
                    }
                    let (priority, starts) = self.priority(ty);
                    if priority > 0 {
                        t.insert("priority".into(), Value::Integer(priority.into()));
                    }
                    if !starts {
                        t.insert("starts".into(), Value::Boolean(false));
                    }
                    Value::Table(t)
                })
                .collect(),
        )
    }

    fn file(
        &mut self,
        title: &str,
        description: &str,
        board: &Board,
        fen: String,
    ) -> Result<String, ZrfError> {
        let mut root = Table::new();
        let players: Vec<Value> = self.players.iter().map(|p| s(p.as_str())).collect();
        let mut game = table([("title", s(title)), ("players", Value::Array(players))]);
        if !description.is_empty() {
            game.insert(
                "description".into(),
                s(description.replace(['\n', '\r'], " ")),
            );
        }
        root.insert("game".into(), Value::Table(game));
        root.insert("board".into(), Value::Table(board.table()));
        let mut players = Table::new();
        let letters = self.player_letters();
        for (p, letter) in self.players.iter().zip(letters) {
            let mut t = Table::new();
            if self.players.len() != 2 {
                t.insert("letter".into(), s(letter.to_string()));
            }
            if let Some(map) = board.map(p) {
                t.insert("map".into(), s(map));
            }
            if !t.is_empty() {
                players.insert(p.clone(), Value::Table(t));
            }
        }
        if !players.is_empty() {
            root.insert("players".into(), Value::Table(players));
        }
        if !board.zones.is_empty() {
            let zones: Table = board
                .zones
                .iter()
                .map(|(z, per)| {
                    let t: Table = per
                        .iter()
                        .map(|(p, sq)| (p.clone(), s(sq.join(", "))))
                        .collect();
                    (z.clone(), Value::Table(t))
                })
                .collect();
            root.insert("zones".into(), Value::Table(zones));
        }
        let letters = self.letters();
        let symbols = self.symbols();
        let mut pieces = Table::new();
        for p in &self.pieces {
            let mut t = table([("letter", s(letters[&p.name].to_string()))]);
            if let Some((_, symbol)) = symbols.get(&p.name).filter(|x| x.1.len() > 1) {
                t.insert("symbol".into(), s(symbol.as_str()));
            }
            if !p.help.is_empty() {
                t.insert("description".into(), s(p.help.as_str()));
            }
            if self.royal.contains(&p.name) {
                t.insert("royal".into(), Value::Boolean(true));
            }
            if !p.attributes.is_empty() {
                let values = p
                    .attributes
                    .iter()
                    .map(|(n, on)| (n.clone(), Value::Boolean(*on)));
                t.insert("attributes".into(), Value::Table(values.collect()));
            }
            if !p.moves.is_empty() {
                t.insert("moves".into(), self.blocks(board, &p.moves));
            }
            if !p.drops.is_empty() {
                t.insert("drops".into(), self.blocks(board, &p.drops));
            }
            pieces.insert(p.name.clone(), Value::Table(t));
        }
        if let Some(r) = self.royal.iter().find(|r| !letters.contains_key(*r)) {
            return Err(ZrfError {
                message: format!("checkmated names '{r}', which is not a piece"),
                at: self.sources.place(0, 0),
            });
        }
        root.insert("pieces".into(), Value::Table(pieces));
        root.insert("setup".into(), Value::Table(table([("fen", s(fen))])));
        let mut rules = std::mem::take(&mut self.rules);
        if self.pass_partial {
            rules.insert("pass_partial".into(), Value::Boolean(true));
        }
        if self.deferred {
            rules.insert("deferred_captures".into(), Value::Boolean(true));
        }
        if self.pieces.iter().any(|p| !p.drops.is_empty()) {
            rules.insert("hands".into(), Value::Boolean(true));
        }
        if let Some(t) = self.turns.take() {
            rules.insert("turns".into(), t);
        }
        let goals: Vec<Value> = self.goals.iter().map(|g| s(g.as_str())).collect();
        rules.insert("goals".into(), Value::Array(goals));
        root.insert("rules".into(), Value::Table(rules));
        let text = toml::to_string(&root).map_err(|e| ZrfError {
            message: format!("writing the game file: {e}"),
            at: self.sources.place(0, 0),
        })?;
        Ok(format!(
            "# Converted from ZRF by `dagaz import`: moves are ZRF blocks ({{ zrf = \"…\" }}).\n{text}"
        ))
    }
}
