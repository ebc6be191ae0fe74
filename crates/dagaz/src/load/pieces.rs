//! The `[pieces]` section: letters, programs compiled from the notation,
//! promotion, glyphs, evaluation hints, numbered pieces' parts, and the
//! invariants a piece declares (`count`, `never_in`, `only_in`).

use super::spec::*;
use super::*;

/// Most attribute names a game may have (their values are bits of the
/// piece's cell number).
const MAX_ATTRIBUTES: usize = 8;

impl Loader<'_> {
    pub(super) fn letters(&mut self, spec: &FileSpec) -> Vec<char> {
        let mut letters = Vec::new();
        for (pname, p) in &spec.pieces {
            let letter = match &p.letter {
                Some(l) => match single_char(l.get_ref()).filter(|c| c.is_ascii_alphabetic()) {
                    Some(c) => c.to_ascii_uppercase(),
                    None => {
                        self.error(
                            format!("pieces.{pname}.letter: one letter A-Z"),
                            Some(l.span()),
                            "here",
                        );
                        '?'
                    }
                },
                None => pname.chars().next().unwrap_or('?').to_ascii_uppercase(),
            };
            // A piece written with its own symbol (`+P`) is never looked
            // up by its letter, so only the others need distinct letters
            // (chu shogi has more piece types than the alphabet).
            let by_letter = |q: &PieceSection| q.symbol.is_none();
            let clash = by_letter(p)
                && spec
                    .pieces
                    .iter()
                    .zip(&letters)
                    .any(|((_, q), l)| *l == letter && by_letter(q));
            if clash {
                let span = p.letter.as_ref().map(|l| l.span());
                self.error(
                    format!("pieces.{pname}: letter '{letter}' is already used by another piece"),
                    span,
                    "give each piece its own letter",
                );
            }
            letters.push(letter);
        }
        letters
    }

    /// A piece's `san` letter, if the file gives one.
    pub(super) fn san_letter(&mut self, pname: &str, p: &PieceSection) -> Option<char> {
        let l = p.san.as_ref()?;
        let letter = single_char(l.get_ref()).filter(|c| c.is_ascii_uppercase());
        if letter.is_none() {
            self.error(
                format!("pieces.{pname}.san: one upper-case letter A-Z"),
                Some(l.span()),
                "here",
            );
        }
        letter
    }

    /// A piece's `betza` key translated into a move expression.
    pub(super) fn betza_moves(&mut self, pname: &str, piece: &PieceSection) -> Option<ExprItem> {
        let b = piece.betza.as_ref()?;
        match notation::betza::to_dagaz(b.get_ref()) {
            Ok(text) => Some(ExprItem::expression(text, Some(b.span()))),
            Err(e) => {
                self.error(format!("pieces.{pname}.betza: {e}"), Some(b.span()), "here");
                None
            }
        }
    }

    /// A `{ zrf = "(…)" }` item read, and checked by compiling it once
    /// (errors are the same for every player), so that its problems are
    /// reported where it is written.
    #[allow(clippy::too_many_arguments)]
    fn zrf_block(
        &mut self,
        ctx: &CompileContext,
        pname: &str,
        what: &str,
        i: usize,
        item: &ExprItem,
        outer: Range<usize>,
        (pass_partial, deferred_captures): (bool, bool),
    ) -> Option<ZrfBlock> {
        let forms = match notation::sexpr::parse(&item.text, 0) {
            Ok(forms) => forms,
            Err(e) => {
                let span = self.expr_span(item, outer, &e.span);
                self.error(
                    format!("piece {pname}, {what} {}: {}", i + 1, e.message),
                    span,
                    "here",
                );
                return None;
            }
        };
        let whole = 0..item.text.len();
        let block = match <[Sexp; 1]>::try_from(forms) {
            Ok([one]) => one,
            Err(forms) => Sexp::new(SexpKind::List(forms), whole),
        };
        let block = ZrfBlock {
            block,
            move_type: item.move_type.clone(),
            priority: item.priority,
            first: item.starts,
            pass_partial,
            deferred_captures,
        };
        let identity = DirMap::identity(ctx.topology);
        let mut scratch = notation::Program::default();
        let checked = notation::zrf::ZrfCompiler::new(ctx, &identity, &mut scratch)
            .blocks(std::slice::from_ref(&block));
        if let Err(e) = checked {
            let span = self.expr_span(item, outer, &e.span);
            let mut d = Diagnostic::new(format!("piece {pname}, {what} {}: {}", i + 1, e.message))
                .at(span, "in this ZRF block")
                .note(e.render(&item.text));
            if let Some(origin) = &item.origin {
                d = d.note(format!("the block was written at {origin}"));
            }
            self.errors.push(d);
            return None;
        }
        Some(block)
    }

    /// File position of an expression's error, when the string maps exactly.
    pub(super) fn expr_span(
        &self,
        item: &ExprItem,
        outer: Range<usize>,
        inner: &Range<usize>,
    ) -> Option<Range<usize>> {
        let span = item.span.clone().unwrap_or(outer);
        match string_offsets(self.source, &span, &item.text) {
            Some(map) => {
                let at = |i: usize| map.get(i.min(map.len() - 1)).copied().unwrap_or(span.start);
                let start = at(inner.start);
                let end = at(inner.end.max(inner.start + 1)).max(start + 1);
                Some(start..end)
            }
            None => Some(span),
        }
    }

    pub(super) fn compile_pieces(
        &mut self,
        spec: &FileSpec,
        (topology, zones, move_types): (&Topology, &Zones, &[String]),
        players: &[Player],
        handlers: &[Option<Arc<dyn Handler>>; 10],
        names: &[String],
    ) -> Option<CompiledPieces> {
        let (attributes, attribute_defaults) = self.attributes(spec);
        let mut registered = [false; 10];
        for (k, h) in handlers.iter().enumerate() {
            registered[k] = h.is_some();
        }
        let not_type =
            super::square_tests(handlers, names).map(|test| test.map(|SquareTest::NotType(t)| t));
        let ctx = CompileContext {
            topology,
            pieces: names,
            zones,
            attributes: &attributes,
            move_types,
            handlers: registered,
            not_type,
        };
        let mut once_flags: u16 = 0;
        let mut parsed: Vec<[Vec<Parsed>; 2]> = Vec::new();
        let mut zrf: Vec<[Vec<ZrfBlock>; 2]> = Vec::new();
        let pass = (spec.rules.pass_partial, spec.rules.deferred_captures);
        let mut refs: Vec<Vec<MovedRef>> = Vec::new();
        let mut priorities = Vec::new();
        for (pname, piece) in &spec.pieces {
            let mut piece_refs = Vec::new();
            let mut lists: [Vec<Parsed>; 2] = [Vec::new(), Vec::new()];
            let mut blocks: [Vec<ZrfBlock>; 2] = [Vec::new(), Vec::new()];
            let betza = self.betza_moves(pname, piece);
            for (k, (what, exprs)) in [("move", &piece.moves), ("drop", &piece.drops)]
                .into_iter()
                .enumerate()
            {
                let outer = exprs.as_ref().map(|e| e.span());
                let written = exprs.iter().flat_map(|e| e.get_ref().0.iter());
                let items: Vec<&ExprItem> = if k == 0 {
                    betza.iter().chain(written).collect()
                } else {
                    written.collect()
                };
                for (i, item) in items.into_iter().enumerate() {
                    if item.zrf {
                        let outer = outer.clone().unwrap_or_default();
                        priorities.push(item.priority);
                        if let Some(block) = self.zrf_block(&ctx, pname, what, i, item, outer, pass)
                        {
                            blocks[k].push(block);
                        }
                        continue;
                    }
                    let result = notation::parse(&item.text).and_then(|node| {
                        let r = notation::resolve(&node, &ctx)?;
                        Ok((node, r))
                    });
                    match result {
                        Ok((node, resolved)) => {
                            piece_refs.extend(notation::moved_refs(&node));
                            let base = once_flags;
                            once_flags = once_flags.saturating_add(resolved.once_count);
                            priorities.push(item.priority);
                            lists[k].push((node, resolved, base, item.priority));
                        }
                        Err(e) => {
                            let outer = outer.clone().unwrap_or_default();
                            let span = self.expr_span(item, outer, &e.span);
                            let label = e
                                .expected
                                .as_ref()
                                .map_or(String::new(), |x| format!("expected {x}"));
                            let d = Diagnostic::new(format!(
                                "piece {pname}, {what} {}: {}",
                                i + 1,
                                e.message
                            ))
                            .at(span, label)
                            .note(e.render(&item.text));
                            self.errors.push(d);
                        }
                    }
                }
            }
            parsed.push(lists);
            zrf.push(blocks);
            refs.push(piece_refs);
        }
        if !self.errors.is_empty() {
            return None;
        }
        let mut programs = Vec::new();
        let mut drop_programs = Vec::new();
        // Every piece's ZRF move blocks: a piece that turns into another in
        // the middle of a move goes on with the other's.
        let all_moves: Vec<Vec<ZrfBlock>> = zrf.iter().map(|[moves, _]| moves.clone()).collect();
        for ((lists, blocks), (pname, piece)) in parsed.iter().zip(&zrf).zip(&spec.pieces) {
            let moves = self.programs(
                &ctx,
                players,
                (&lists[0], &blocks[0], &all_moves),
                true,
                pname,
                piece
                    .moves
                    .as_ref()
                    .map(|m| m.span())
                    .or_else(|| piece.betza.as_ref().map(|b| b.span())),
            )?;
            let drops = if lists[1].is_empty() && blocks[1].is_empty() {
                Vec::new()
            } else {
                self.programs(
                    &ctx,
                    players,
                    (&lists[1], &blocks[1], &all_moves),
                    false,
                    pname,
                    piece.drops.as_ref().map(|m| m.span()),
                )?
            };
            programs.push(moves);
            drop_programs.push(drops);
        }
        let mut tracks = vec![false; names.len()];
        for (i, list) in refs.iter().enumerate() {
            for r in list {
                match r {
                    MovedRef::Mover => tracks[i] = true,
                    MovedRef::Piece(n) => {
                        if let Some(j) = names.iter().position(|x| x == n) {
                            tracks[j] = true;
                        }
                    }
                    MovedRef::Any => tracks.iter_mut().for_each(|t| *t = true),
                }
            }
        }
        Some(CompiledPieces {
            programs,
            drop_programs,
            tracks,
            priorities,
            once_flags,
            attributes,
            attribute_defaults,
        })
    }

    /// One program per player for a piece's move (or drop) alternatives.
    pub(super) fn programs(
        &mut self,
        ctx: &CompileContext,
        players: &[Player],
        (entries, blocks, all_moves): (&[Parsed], &[ZrfBlock], &[Vec<ZrfBlock>]),
        prologue_take: bool,
        pname: &str,
        span: Option<Range<usize>>,
    ) -> Option<Vec<notation::Program>> {
        let mut out = Vec::new();
        for (index, player) in players.iter().enumerate() {
            let list: Vec<(MoveEntry, &Resolved, u16)> = entries
                .iter()
                .map(|(n, r, b, p)| {
                    (
                        MoveEntry {
                            node: n,
                            priority: *p,
                        },
                        r,
                        *b,
                    )
                })
                .collect();
            match ProgramBuilder::new(ctx, index, &player.map)
                .with_zrf(blocks, all_moves)
                .piece(&list, prologue_take)
            {
                Ok(p) => out.push(p),
                Err(e) => {
                    self.error(
                        format!("piece {pname}: {}", e.message),
                        span,
                        "in these moves",
                    );
                    return None;
                }
            }
        }
        Some(out)
    }

    pub(super) fn piece_ref(
        &mut self,
        pname: &str,
        key: &str,
        v: Option<&Spanned<String>>,
        names: &[String],
    ) -> Option<u16> {
        let v = v?;
        match names.iter().position(|x| x == v.get_ref()) {
            Some(i) => Some(i as u16),
            None => {
                self.error(
                    format!("pieces.{pname}.{key}: unknown piece '{}'", v.get_ref()),
                    Some(v.span()),
                    "here",
                );
                None
            }
        }
    }

    /// A piece's `count`, checked.
    pub(super) fn piece_count(&mut self, pname: &str, p: &PieceSection) -> Option<(u16, u16)> {
        let spec = p.count.as_ref()?;
        let (low, high) = match spec.get_ref() {
            CountSpec::Exactly(n) => (*n, *n),
            CountSpec::Range([a, b]) => (*a, *b),
        };
        if low > high {
            self.error(
                format!("piece {pname}: count [{low}, {high}] has its fewest above its most"),
                Some(spec.span()),
                "here",
            );
            return None;
        }
        Some((low, high))
    }

    /// A piece's `neutral`, checked: a piece of nobody's has no moves of
    /// its own, is not royal, and needs a game of two players (position
    /// strings of more players name an owner for every piece).
    pub(super) fn neutral(&mut self, pname: &str, p: &PieceSection, players: usize) -> bool {
        let Some(spec) = p.neutral.as_ref().filter(|n| *n.get_ref()) else {
            return false;
        };
        let why = if p.moves.is_some() || p.betza.is_some() || p.drops.is_some() {
            Some("has moves or drops; nobody moves it but the rule `move_neutral`")
        } else if p.royal {
            Some("is royal")
        } else if p.promote.is_some() {
            Some("promotes")
        } else if players != 2 {
            Some("is in a game of more than two players")
        } else {
            None
        };
        if let Some(why) = why {
            self.error(
                format!("piece {pname}: a neutral piece belongs to nobody, but this one {why}"),
                Some(spec.span()),
                "here",
            );
        }
        true
    }

    /// `rules.move_neutral` must name a neutral piece.
    pub(super) fn check_move_neutral(
        &mut self,
        spec: &crate::load::spec::RulesSection,
        rules: &crate::game::Rules,
        pieces: &[crate::game::PieceType],
    ) {
        if let (Some(t), Some(name)) = (rules.move_neutral, spec.move_neutral.as_ref())
            && !pieces[t as usize].neutral
        {
            self.error(
                format!(
                    "rules.move_neutral: piece {} is not neutral (give it `neutral = true`)",
                    name.get_ref()
                ),
                Some(name.span()),
                "here",
            );
        }
    }

    /// The zones a piece's `never_in` or `only_in` names.
    pub(super) fn piece_zones(
        &mut self,
        pname: &str,
        key: &str,
        names: Option<&Spanned<Vec<String>>>,
        zones: &Zones,
    ) -> Vec<usize> {
        let Some(names) = names else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for name in names.get_ref() {
            match zones.find(name) {
                Some(z) => out.push(z),
                None => self.error(
                    format!("piece {pname}: {key} names zone '{name}', which is not in [zones]"),
                    Some(names.span()),
                    "here",
                ),
            }
        }
        out
    }

    pub(super) fn glyphs(&mut self, pname: &str, p: &PieceSection, players: usize) -> Vec<String> {
        let symbol = p
            .symbol
            .as_ref()
            .map(|s| s.get_ref().clone())
            .or_else(|| p.letter.as_ref().map(|l| l.get_ref().clone()))
            .unwrap_or_else(|| pname.chars().take(1).collect());
        match p.glyphs.as_ref().map(|g| (g.get_ref(), g.span())) {
            None => vec![symbol; players],
            Some((Glyphs::One(g), _)) => vec![g.clone(); players],
            Some((Glyphs::PerPlayer(list), _)) if list.len() == players => list.clone(),
            Some((Glyphs::PerPlayer(list), span)) => {
                self.error(
                    format!(
                        "pieces.{pname}.glyphs: {} glyphs for {players} players",
                        list.len()
                    ),
                    Some(span),
                    "one glyph, or one per player",
                );
                Vec::new()
            }
        }
    }

    /// A piece's hints `key` (`squares`, `endgame_squares`), one bonus per
    /// square; empty if the file gives none.
    pub(super) fn square_values(
        &mut self,
        pname: &str,
        key: &str,
        hints: Option<&Spanned<SquareHints>>,
        topo: &Topology,
    ) -> Vec<i32> {
        let Some(hints) = hints else {
            return Vec::new();
        };
        let mut values = vec![0; topo.len()];
        match hints.get_ref() {
            SquareHints::Named(named) => {
                for (name, v) in named {
                    match topo.square(name) {
                        Some(sq) => values[sq.index()] = *v,
                        None => self.error(
                            format!("pieces.{pname}.{key}: unknown square '{name}'"),
                            Some(hints.span()),
                            "here",
                        ),
                    }
                }
            }
            SquareHints::Picture(text) => {
                let numbers: Result<Vec<i32>, String> = text
                    .split_whitespace()
                    .map(|t| {
                        t.parse()
                            .map_err(|_| format!("'{t}' is not a whole number"))
                    })
                    .collect();
                match numbers {
                    Ok(numbers) if numbers.len() == topo.len() => values = numbers,
                    Ok(numbers) => self.error(
                        format!(
                            "pieces.{pname}.{key}: {} numbers for a board of {} squares",
                            numbers.len(),
                            topo.len()
                        ),
                        Some(hints.span()),
                        "one number per square, in the board's order",
                    ),
                    Err(e) => self.error(
                        format!("pieces.{pname}.{key}: {e}"),
                        Some(hints.span()),
                        "whole numbers separated by spaces",
                    ),
                }
            }
        }
        values
    }

    pub(super) fn promotion(
        &mut self,
        p: &PieceSection,
        zones: &Zones,
        names: &[String],
        players: &[String],
    ) -> Option<Promotion> {
        let promo = p.promote.as_ref()?;
        let span = Some(promo.span());
        let spec = promo.get_ref();
        let Some(zone) = zones.find(&spec.zone) else {
            self.error(
                format!("promotion zone '{}' is not defined in [zones]", spec.zone),
                span,
                "here",
            );
            return None;
        };
        let mut pieces = |list: &[String]| -> Vec<u16> {
            list.iter()
                .filter_map(|t| match names.iter().position(|n| n == t) {
                    Some(i) => Some(i as u16),
                    None => {
                        self.error(
                            format!("promotion to unknown piece '{t}'"),
                            span.clone(),
                            "here",
                        );
                        None
                    }
                })
                .collect()
        };
        let (to, by_player) = match &spec.to {
            PromoteTargets::All(list) => (pieces(list), Vec::new()),
            PromoteTargets::ByPlayer(table) => {
                let by_player: Vec<Vec<u16>> = players
                    .iter()
                    .map(|pl| table.get(pl).map_or_else(Vec::new, |l| pieces(l)))
                    .collect();
                let mut union: Vec<u16> = Vec::new();
                for &t in by_player.iter().flatten() {
                    if !union.contains(&t) {
                        union.push(t);
                    }
                }
                (union, by_player)
            }
        };
        if let PromoteTargets::ByPlayer(table) = &spec.to {
            for name in table.keys().filter(|k| !players.contains(k)) {
                self.error(
                    format!("promotion 'to': '{name}' is not a player"),
                    span.clone(),
                    "here",
                );
            }
        }
        if to.is_empty() {
            self.error("a promotion needs at least one piece in 'to'", span, "here");
            return None;
        }
        let forced_zone = match &spec.forced {
            None => None,
            Some(name) => match zones.find(name) {
                Some(z) => Some(z),
                None => {
                    self.error(
                        format!("forced-promotion zone '{name}' is not defined in [zones]"),
                        span.clone(),
                        "here",
                    );
                    None
                }
            },
        };
        let also_zone = match &spec.also {
            None => None,
            Some(name) => match zones.find(name) {
                Some(z) => Some(z),
                None => {
                    self.error(
                        format!("promotion zone '{name}' (also) is not defined in [zones]"),
                        span.clone(),
                        "here",
                    );
                    None
                }
            },
        };
        let limits = spec
            .limits
            .iter()
            .filter_map(|(name, most)| match names.iter().position(|n| n == name) {
                Some(t) => Some((t as u16, *most)),
                None => {
                    self.error(
                        format!("promotion limits: unknown piece '{name}'"),
                        span.clone(),
                        "here",
                    );
                    None
                }
            })
            .collect();
        let capturing = spec
            .capturing
            .iter()
            .filter_map(|name| match names.iter().position(|n| n == name) {
                Some(t) => Some(t as u16),
                None => {
                    self.error(
                        format!("promotion capturing: unknown piece '{name}'"),
                        span.clone(),
                        "here",
                    );
                    None
                }
            })
            .collect();
        Some(Promotion {
            capturing,
            zone,
            to,
            by_player,
            drops: spec.drops,
            limits,
            optional: spec.optional,
            from_zone: spec.from_zone,
            immediate: spec.immediate,
            forced_zone,
            captured_only: spec.captured_only,
            setup_counts: Vec::new(),
            entering_or_capturing: spec.entering_or_capturing,
            also_zone,
        })
    }

    /// `[pieces.X] attributes`: every attribute name of the game, in the
    /// order the pieces name them, and per piece type the bits of its
    /// attributes' values when it is set up or created.
    pub(super) fn attributes(&mut self, spec: &FileSpec) -> (Vec<String>, Vec<u16>) {
        let mut names: Vec<String> = Vec::new();
        let mut defaults = Vec::new();
        for (pname, p) in &spec.pieces {
            let mut bits = 0u16;
            for (name, on) in p.attributes.iter().flat_map(|a| a.get_ref()) {
                let i = match names.iter().position(|n| n.eq_ignore_ascii_case(name)) {
                    Some(i) => i,
                    None if names.len() < MAX_ATTRIBUTES => {
                        names.push(name.clone());
                        names.len() - 1
                    }
                    None => {
                        let span = p.attributes.as_ref().map(|a| a.span());
                        self.error(
                            format!("pieces.{pname}.attributes: a game has at most {MAX_ATTRIBUTES} attribute names"),
                            span,
                            "here",
                        );
                        continue;
                    }
                };
                if *on {
                    bits |= 1 << i;
                }
            }
            defaults.push(bits);
        }
        (names, defaults)
    }

    /// `[board] piece_numbers`: 1 (no numbers) unless given.
    pub(super) fn piece_numbers(
        &mut self,
        board: &BoardSection,
        kind: BoardKind,
        players: usize,
        types: usize,
    ) -> usize {
        let Some(n) = &board.piece_numbers else {
            return 1;
        };
        let numbers = *n.get_ref() as usize + 1;
        if kind != BoardKind::Default {
            self.error(
                "board.piece_numbers is for default boards (one piece per square)",
                Some(n.span()),
                "here",
            );
        } else if !CellTable::fits(players, types, numbers) {
            self.error(
                format!(
                    "board.piece_numbers: {players} players x {types} piece types x numbers up to {} is too many combinations",
                    numbers - 1
                ),
                Some(n.span()),
                "here",
            );
        }
        numbers
    }

    /// The cell numbers of a game whose pieces carry `n` attributes: one
    /// per combination of their values.
    pub(super) fn attribute_numbers(
        &mut self,
        board: &BoardSection,
        kind: BoardKind,
        players: usize,
        types: usize,
        n: usize,
    ) -> usize {
        let numbers = 1 << n;
        if let Some(given) = &board.piece_numbers {
            self.error(
                "board.piece_numbers cannot go with piece attributes (both are kept in the piece's number)",
                Some(given.span()),
                "here",
            );
        } else if kind != BoardKind::Default {
            self.error(
                "piece attributes are for default boards (one piece per square)",
                None,
                "",
            );
        } else if !CellTable::fits(players, types, numbers) {
            self.error(
                format!("{players} players x {types} piece types x {n} attributes is too many combinations"),
                None,
                "",
            );
        }
        numbers
    }

    /// `[pieces.X] parts`: per player, the numbered parts of the piece.
    pub(super) fn parts(
        &mut self,
        spec: &FileSpec,
        player_names: &[String],
        pieces: &mut [PieceType],
        numbers: usize,
    ) {
        let letters: Vec<char> = pieces.iter().map(|p| p.letter).collect();
        for (i, (pname, p)) in spec.pieces.iter().enumerate() {
            if p.parts.is_empty() {
                continue;
            }
            let mut per_player = vec![Vec::new(); player_names.len()];
            for (player, list) in &p.parts {
                let Some(owner) = player_names.iter().position(|n| n == player) else {
                    self.error(
                        format!("pieces.{pname}.parts: no player '{player}'"),
                        Some(list.span()),
                        "here",
                    );
                    continue;
                };
                match parse_parts(list.get_ref(), &letters, numbers) {
                    Ok(parts) => per_player[owner] = parts,
                    Err(message) => {
                        self.error(
                            format!("pieces.{pname}.parts: {message}"),
                            Some(list.span()),
                            "here",
                        );
                    }
                }
            }
            pieces[i].parts = per_player;
        }
    }
}
/// `"S36 S25 T16"` into parts; the piece's number is a bit set of them, so
/// `numbers` bounds how many there may be.
pub(super) fn parse_parts(
    text: &str,
    letters: &[char],
    numbers: usize,
) -> Result<Vec<Part>, String> {
    if numbers <= 1 {
        return Err("parts need numbered pieces ([board] piece_numbers)".into());
    }
    let mut parts = Vec::new();
    for token in text.split_whitespace() {
        let mut chars = token.chars();
        let letter = chars.next().unwrap_or(' ');
        let piece = letters
            .iter()
            .position(|l| *l == letter)
            .ok_or_else(|| format!("'{token}': no piece with letter '{letter}'"))?;
        let number: u16 = chars
            .as_str()
            .parse()
            .map_err(|_| format!("'{token}': expected a letter and a number, as in S36"))?;
        if number as usize >= numbers {
            return Err(format!("'{token}': numbers go up to {}", numbers - 1));
        }
        parts.push(Part {
            piece: piece as u16,
            number,
        });
    }
    if parts.is_empty() || 1usize << parts.len() > numbers {
        return Err(format!(
            "1 to {} parts (a piece's number holds one bit per part)",
            numbers.ilog2()
        ));
    }
    Ok(parts)
}
