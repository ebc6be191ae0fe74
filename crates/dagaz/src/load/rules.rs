//! The `[handlers]`, `[rules]`, `[fen]` and `[display]` sections: extension
//! handlers and the end rule, game-level rules and goals, position-string
//! settings, and how front ends draw the game.

use super::spec::*;
use super::*;
use crate::board::Dir;
use crate::game::{
    CaptureTest, ConsecutiveMoves, Ko, PassRule, RecordFormat, RoyalCheck, Turn, TurnOrder,
};

impl Loader<'_> {
    pub(super) fn handlers(
        &mut self,
        spec: &FileSpec,
        registry: &HandlerRegistry,
    ) -> [Option<Arc<dyn Handler>>; 10] {
        let mut out: [Option<Arc<dyn Handler>>; 10] = Default::default();
        for (k, name) in &spec.handlers {
            if k == "end" {
                continue;
            }
            let slot = match k.parse::<usize>() {
                Ok(n @ 1..=9) => n,
                _ => {
                    self.error(
                        format!(
                            "handlers.{k}: handler numbers are 1 to 9 (or 'end' for an end rule)"
                        ),
                        Some(name.span()),
                        "here",
                    );
                    continue;
                }
            };
            if let Some(why) = unknown_piece_argument(name.get_ref(), registry, spec) {
                self.error(
                    format!("handler '{}': {why}", name.get_ref()),
                    Some(name.span()),
                    "this handler",
                );
                continue;
            }
            match registry.get(name.get_ref()) {
                Some(h) => out[slot] = Some(h),
                None => {
                    let known: Vec<&str> = registry.names().collect();
                    self.error(
                        format!(
                            "unknown handler '{}'; registered handlers: {}",
                            name.get_ref(),
                            known.join(", ")
                        ),
                        Some(name.span()),
                        "this handler",
                    );
                }
            }
        }
        out
    }

    /// The end rule named by `[handlers] end = "…"`.
    pub(super) fn end_rule(
        &mut self,
        spec: &FileSpec,
        registry: &HandlerRegistry,
    ) -> Option<Arc<dyn EndRule>> {
        let name = spec.handlers.get("end")?;
        if name.get_ref() == "none" {
            // A variant switching off its base's end rule.
            return None;
        }
        let rule = match registry.end_rule(name.get_ref()) {
            Err(message) => {
                self.error(
                    format!("end rule '{}': {message}", name.get_ref()),
                    Some(name.span()),
                    "this end rule",
                );
                return None;
            }
            Ok(rule) => rule,
        };
        if rule.is_none() {
            let known: Vec<&str> = registry.end_rule_names().collect();
            self.error(
                format!(
                    "unknown end rule '{}'; registered end rules: {}",
                    name.get_ref(),
                    known.join(", ")
                ),
                Some(name.span()),
                "this end rule",
            );
        }
        rule
    }

    pub(super) fn rules(
        &mut self,
        r: &RulesSection,
        names: &GoalNames,
        move_types: &[String],
    ) -> Rules {
        let players = names.players;
        let mut goals = Goals::default();
        for g in &r.goals {
            match parse_goal(g.get_ref(), names) {
                Ok(goal) => goals.list.push(goal),
                Err(e) => self.error(format!("rules.goals: {e}"), Some(g.span()), "this goal"),
            }
        }
        let topology = names.topology;
        let names = names.pieces;
        let maximum_capture = self.capture_tests(r, names);
        Rules {
            royal_safety: r.royal_safety,
            capture_priority: r.capture_priority,
            maximum_capture,
            deferred_captures: r.deferred_captures,
            move_any_piece: r.move_any_piece,
            captures_to_hand: r.captures_to_hand,
            capture_to_bottom: r.capture_to_bottom,
            no_drop_mate: self.piece_list("no_drop_mate", &r.no_drop_mate, names),
            goals,
            pass: self.pass_rule(r),
            turns: self.turns(r, players, move_types),
            consecutive_moves: self.consecutive_moves(r, names),
            free_opening: r.turns.as_ref().is_some_and(
                |t| matches!(t.get_ref(), TurnsSpec::Mode(m) if m == "free_until_capture"),
            ),
            drops_first: r.drops_first,
            no_checks: r.no_checks,
            no_drop_checks: r.no_drop_checks,
            dropped_pieces_have_moved: r.dropped_pieces_have_moved,
            captures_explode: r.captures_explode,
            hands: r.hands,
            explosion_immune: self.piece_list("explosion_immune", &r.explosion_immune, names),
            burning: self.burning(r, names),
            borrowed_moves: self.borrowed_moves(r, topology),
            explosion_proof: self.piece_list("explosion_proof", &r.explosion_proof, names),
            royal_check: self.royal_check(r),
            ko: self.ko(r),
            move_neutral: r.move_neutral.as_ref().and_then(|n| {
                self.piece_list("move_neutral", std::slice::from_ref(n), names)
                    .pop()
            }),
        }
    }

    /// `burning`: piece types. Royal safety does not see burning, so the
    /// two may not go together.
    fn burning(&mut self, r: &RulesSection, names: &[String]) -> Vec<u16> {
        if r.royal_safety
            && let Some(first) = r.burning.first()
        {
            self.error(
                "rules.burning cannot go with royal_safety: a royal piece's safety does not see burning (win by taking the royal pieces instead)",
                Some(first.span()),
                "here",
            );
        }
        self.piece_list("burning", &r.burning, names)
    }

    /// `borrowed_moves = "S"`: a direction letter of the board.
    fn borrowed_moves(&mut self, r: &RulesSection, topology: &Topology) -> Option<Dir> {
        let spec = r.borrowed_moves.as_ref()?;
        let mut letters = spec.get_ref().chars();
        let dir = match (letters.next(), letters.next()) {
            (Some(c), None) => topology.dir(c),
            _ => None,
        };
        if dir.is_none() {
            self.error(
                format!(
                    "rules.borrowed_moves: '{}' is not a direction of the board",
                    spec.get_ref()
                ),
                Some(spec.span()),
                "here",
            );
        }
        dir
    }

    /// `consecutive_moves = { piece = "King", most = 3 }`.
    fn consecutive_moves(
        &mut self,
        r: &RulesSection,
        names: &[String],
    ) -> Option<ConsecutiveMoves> {
        let spec = r.consecutive_moves.as_ref()?;
        let Some(piece) = names.iter().position(|n| *n == spec.get_ref().piece) else {
            self.error(
                format!(
                    "rules.consecutive_moves: unknown piece '{}'",
                    spec.get_ref().piece
                ),
                Some(spec.span()),
                "here",
            );
            return None;
        };
        if spec.get_ref().most == 0 {
            self.error(
                "rules.consecutive_moves: `most` must be at least 1",
                Some(spec.span()),
                "here",
            );
            return None;
        }
        Some(ConsecutiveMoves {
            piece: piece as u16,
            most: spec.get_ref().most,
        })
    }

    /// `maximum_capture`: one test or a list of them (`CaptureTest`).
    fn capture_tests(&mut self, r: &RulesSection, names: &[String]) -> Vec<CaptureTest> {
        let Some(spec) = r.maximum_capture.as_ref() else {
            return Vec::new();
        };
        let mut tests = Vec::new();
        for text in spec.get_ref().names() {
            match parse_capture_test(text, names) {
                Ok(test) => tests.push(test),
                Err(e) => self.error(
                    format!("rules.maximum_capture: {e}"),
                    Some(spec.span()),
                    "here",
                ),
            }
        }
        let earliest = tests
            .iter()
            .filter(|t| matches!(t, CaptureTest::Earliest(_)))
            .count();
        if earliest > 1 {
            self.error(
                "rules.maximum_capture: at most one \"earliest:Piece\" test",
                Some(spec.span()),
                "here",
            );
        }
        tests
    }

    /// Piece names of a `[rules]` key, as piece numbers.
    fn piece_list(&mut self, key: &str, list: &[Spanned<String>], names: &[String]) -> Vec<u16> {
        list.iter()
            .filter_map(|n| match names.iter().position(|x| x == n.get_ref()) {
                Some(i) => Some(i as u16),
                None => {
                    self.error(
                        format!("rules.{key}: unknown piece '{}'", n.get_ref()),
                        Some(n.span()),
                        "here",
                    );
                    None
                }
            })
            .collect()
    }

    fn royal_check(&mut self, r: &RulesSection) -> RoyalCheck {
        match r
            .royal_check
            .as_ref()
            .map(|p| (p.get_ref().as_str(), p.span()))
        {
            None | Some(("any", _)) => RoyalCheck::Any,
            Some(("all", _)) => RoyalCheck::All,
            Some(("last", _)) => RoyalCheck::Last,
            Some((other, span)) => {
                self.error(
                    format!("rules.royal_check: '{other}' is not \"any\", \"all\" or \"last\""),
                    Some(span),
                    "here",
                );
                RoyalCheck::Any
            }
        }
    }

    fn ko(&mut self, r: &RulesSection) -> Option<Ko> {
        let spec = r.ko.as_ref()?;
        match spec.get_ref().as_str() {
            "simple" => Some(Ko::Simple),
            "situation" => Some(Ko::Situation),
            other => {
                self.error(
                    format!("rules.ko: '{other}' is not \"simple\" or \"situation\""),
                    Some(spec.span()),
                    "here",
                );
                None
            }
        }
    }

    fn pass_rule(&mut self, r: &RulesSection) -> PassRule {
        match r.pass.as_ref().map(|p| (p.get_ref().as_str(), p.span())) {
            None => PassRule::Never,
            Some(("allowed", _)) => PassRule::Allowed,
            Some(("forced", _)) => PassRule::Forced,
            Some((other, span)) => {
                self.error(
                    format!("rules.pass: '{other}' is not \"allowed\" or \"forced\""),
                    Some(span),
                    "here",
                );
                PassRule::Never
            }
        }
    }

    fn turns(
        &mut self,
        r: &RulesSection,
        players: &[String],
        move_types: &[String],
    ) -> Option<TurnOrder> {
        let spec = r.turns.as_ref()?;
        let (opening, repeat) = match spec.get_ref() {
            TurnsSpec::Mode(m) if m == "free_until_capture" => return None,
            TurnsSpec::Mode(other) => {
                self.error(
                    format!("rules.turns: '{other}' is not a turn order; give a list of turns, a table {{ opening, repeat }}, or \"free_until_capture\""),
                    Some(spec.span()),
                    "here",
                );
                return None;
            }
            TurnsSpec::Cycle(list) => (&[][..], &list[..]),
            TurnsSpec::Parts { opening, repeat } => (&opening[..], &repeat[..]),
        };
        let order = TurnOrder {
            opening: self.turn_list(opening, players, move_types),
            repeat: self.turn_list(repeat, players, move_types),
        };
        if order.repeat.is_empty() {
            self.error(
                "rules.turns: the repeated part names no player",
                Some(spec.span()),
                "here",
            );
            return None;
        }
        Some(order)
    }

    /// The turns of a list, each checked ([`Loader::turn`]); the wrong ones
    /// are left out (and reported).
    fn turn_list(
        &mut self,
        list: &[Spanned<TurnSpec>],
        players: &[String],
        move_types: &[String],
    ) -> Vec<Turn> {
        list.iter()
            .filter_map(|t| self.turn(t, players, move_types))
            .collect()
    }

    /// One turn, checked: a wrong name is reported where the turn is
    /// written.
    fn turn(
        &mut self,
        spec: &Spanned<TurnSpec>,
        players: &[String],
        move_types: &[String],
    ) -> Option<Turn> {
        match resolve_turn(spec.get_ref(), players, move_types) {
            Ok(turn) => Some(turn),
            Err(why) => {
                self.error(
                    format!("rules.turns: {why}"),
                    Some(spec.span()),
                    "this turn",
                );
                None
            }
        }
    }

    /// `[game] record`: the format of the game's records.
    pub(super) fn record_format(&mut self, g: &GameSection) -> Option<RecordFormat> {
        let r = g.record.as_ref()?;
        match r.get_ref().as_str() {
            "pgn" => Some(RecordFormat::Pgn),
            "pdn" => Some(RecordFormat::Pdn),
            "kif" => Some(RecordFormat::Kif),
            other => {
                self.error(
                    format!("game.record: unknown record format '{other}'"),
                    Some(r.span()),
                    "pgn, pdn or kif",
                );
                None
            }
        }
    }

    pub(super) fn fen_config(
        &mut self,
        f: &FenSection,
        topo: &Topology,
        names: &[String],
    ) -> FenConfig {
        let mut cfg = FenConfig {
            ignore_hand: f.ignore_hand,
            ..FenConfig::default()
        };
        for (letter, squares) in &f.castling {
            let Some(c) = single_char(letter) else {
                self.error(
                    format!("fen.castling: '{letter}' is not one letter"),
                    Some(squares.span()),
                    "here",
                );
                continue;
            };
            let found: Vec<Option<Square>> = squares
                .get_ref()
                .split_whitespace()
                .map(|s| topo.square(s))
                .collect();
            match found.as_slice() {
                [Some(k), Some(r)] => cfg.castling.push((c, *k, *r)),
                // One square: the letter says its piece has not moved
                // (Seirawan chess's gating rights).
                [Some(sq)] => cfg.castling.push((c, *sq, *sq)),
                _ => self.error(
                    format!("fen.castling.{letter}: give the king's and the rook's squares, e.g. \"e1 h1\", or one square whose piece has not moved"),
                    Some(squares.span()),
                    "here",
                ),
            }
        }
        for (letter, piece) in &f.aliases {
            let c = single_char(letter)
                .filter(|c| !c.is_ascii_lowercase() && !c.is_ascii_digit() && *c != '/');
            let t = names.iter().position(|n| n == piece.get_ref());
            match (c, t) {
                (Some(c), Some(t)) => cfg.aliases.push((c, t as u16)),
                (None, _) => self.error(
                    format!("fen.aliases: '{letter}' is not one upper-case letter or sign"),
                    Some(piece.span()),
                    "here",
                ),
                (_, None) => self.error(
                    format!("fen.aliases.{letter}: unknown piece '{}'", piece.get_ref()),
                    Some(piece.span()),
                    "here",
                ),
            }
        }
        for name in &f.hand_order {
            match names.iter().position(|n| n == name.get_ref()) {
                Some(t) if cfg.hand_order.contains(&(t as u16)) => self.error(
                    format!("fen.hand_order: '{}' is listed twice", name.get_ref()),
                    Some(name.span()),
                    "here",
                ),
                Some(t) => cfg.hand_order.push(t as u16),
                None => self.error(
                    format!("fen.hand_order: unknown piece '{}'", name.get_ref()),
                    Some(name.span()),
                    "here",
                ),
            }
        }
        if let Some(format) = &f.format {
            match format.get_ref().as_str() {
                "fen" => {}
                "sfen" => cfg.format = PositionFormat::Sfen,
                "pdn" => {
                    let mut piece = |key: &str, v: &Option<Spanned<String>>| -> u16 {
                        match v {
                            Some(n) => match names.iter().position(|x| x == n.get_ref()) {
                                Some(i) => i as u16,
                                None => {
                                    self.error(
                                        format!("fen.{key}: unknown piece '{}'", n.get_ref()),
                                        Some(n.span()),
                                        "here",
                                    );
                                    0
                                }
                            },
                            None => {
                                self.error(
                                    format!("fen.format = \"pdn\" needs fen.{key}"),
                                    Some(format.span()),
                                    "here",
                                );
                                0
                            }
                        }
                    };
                    let man = piece("man", &f.man);
                    let king = piece("king", &f.king);
                    cfg.format = PositionFormat::Pdn { man, king };
                }
                other => self.error(
                    format!(
                        "fen.format: unknown format '{other}': use \"fen\", \"pdn\" or \"sfen\""
                    ),
                    Some(format.span()),
                    "here",
                ),
            }
        }
        if let Some(rook) = &f.castling_960 {
            match names.iter().position(|n| n == rook.get_ref()) {
                Some(i) => cfg.castling_960 = Some(i as u16),
                None => self.error(
                    format!("fen.castling_960: unknown piece '{}'", rook.get_ref()),
                    Some(rook.span()),
                    "here",
                ),
            }
        }
        if let Some(ep) = &f.en_passant {
            for name in ep.get_ref().names() {
                match names.iter().position(|n| n == name) {
                    Some(i) => cfg.en_passant.push(i as u16),
                    None => self.error(
                        format!("fen.en_passant: unknown piece '{name}'"),
                        Some(ep.span()),
                        "here",
                    ),
                }
            }
        }
        cfg
    }

    pub(super) fn display(
        &mut self,
        section: &Option<Spanned<DisplaySection>>,
        topo: &Topology,
        players: usize,
    ) -> Option<Display> {
        let empty = DisplaySection::default();
        let s = section.as_ref().map_or(&empty, |s| s.get_ref());
        let spec = DisplaySpec {
            style: s.style.clone(),
            pieces: s.pieces.clone(),
            checkered: s.checkered,
            lines: s.lines.clone(),
            segments: s.segments.clone(),
            colours: s.colours.clone(),
            show_removed: s.show_removed,
        };
        match Display::build(&spec, topo, players) {
            Ok(d) => Some(d),
            Err(message) => {
                self.error(
                    message,
                    section.as_ref().map(|s| s.span()),
                    "in this section",
                );
                None
            }
        }
    }
}

/// For a handler written `name:Piece…` whose registered form takes a piece
/// (`file_free:<Piece>`, `castle:<Rook>:…`), why its piece is not one of the
/// file's (`any` stands for every piece where the form allows it).
fn unknown_piece_argument(
    name: &str,
    registry: &HandlerRegistry,
    spec: &FileSpec,
) -> Option<String> {
    let (base, args) = name.split_once(':')?;
    if base == "outranks" {
        // A list of ranks: every name a piece, each once.
        let listed: Vec<&str> = args.split(['>', ',']).map(str::trim).collect();
        if let Some(p) = listed.iter().find(|p| !spec.pieces.contains_key(**p)) {
            return Some(format!("unknown piece '{p}'"));
        }
        return listed
            .iter()
            .enumerate()
            .find(|(i, p)| listed[..*i].contains(p))
            .map(|(_, p)| format!("'{p}' is ranked twice"));
    }
    if base == "some_of" || base == "not_of" {
        // A list of pieces.
        return args
            .split(',')
            .map(str::trim)
            .find(|p| !spec.pieces.contains_key(*p))
            .map(|p| format!("unknown piece '{p}'"));
    }
    let piece = args.split(':').next().unwrap_or(args);
    let takes_piece = registry.names().any(|form| {
        form.strip_prefix(base)
            .and_then(|rest| rest.strip_prefix(':'))
            .is_some_and(|rest| rest.starts_with("<Piece>") || rest.starts_with("<Rook>"))
    });
    let known = spec.pieces.contains_key(piece) || (piece == "any" && base.starts_with("gate"));
    (takes_piece && !known).then(|| format!("unknown piece '{piece}'"))
}

/// One entry of `maximum_capture`: `pieces`, `value`, `by:Type`,
/// `most:Type` or `earliest:Type`.
fn parse_capture_test(text: &str, names: &[String]) -> Result<CaptureTest, String> {
    let piece = |name: &str| {
        names
            .iter()
            .position(|n| n == name)
            .map(|i| i as u16)
            .ok_or_else(|| format!("unknown piece '{name}' in '{text}'"))
    };
    Ok(match text.split_once(':') {
        None if text == "pieces" => CaptureTest::Pieces,
        None if text == "value" => CaptureTest::Value,
        Some(("by", name)) => CaptureTest::By(piece(name)?),
        Some(("most", name)) => CaptureTest::Most(piece(name)?),
        Some(("earliest", name)) => CaptureTest::Earliest(piece(name)?),
        _ => {
            return Err(format!(
                "'{text}' is not \"pieces\", \"value\", \"by:Piece\", \"most:Piece\" or \"earliest:Piece\""
            ));
        }
    })
}

/// A turn's names as numbers: its player, whose pieces it moves (its own
/// unless it says) and its move type (an index of `move_types`).
fn resolve_turn(t: &TurnSpec, players: &[String], move_types: &[String]) -> Result<Turn, String> {
    let player_of = |name: &str| {
        players
            .iter()
            .position(|p| p == name)
            .ok_or_else(|| format!("'{name}' is not a player"))
    };
    let player = player_of(&t.player)?;
    let pieces = match &t.pieces {
        Some(name) => player_of(name)?,
        None => player,
    };
    let move_type = match &t.move_type {
        None => None,
        Some(name) => {
            let index = move_types.iter().position(|m| m == name).ok_or_else(|| {
                let known = match move_types.is_empty() {
                    true => "no move of this game has a type".to_string(),
                    false => format!("the move types are {}", move_types.join(", ")),
                };
                format!("no move has the move type '{name}' ({known})")
            })?;
            Some(index as u16)
        }
    };
    Ok(Turn {
        player,
        pieces,
        move_type,
    })
}
