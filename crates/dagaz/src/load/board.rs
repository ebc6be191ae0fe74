//! The `[board]`, `[players]` and `[zones]` sections: what squares hold,
//! the topology, each player's letter and direction map, and the zones.

use super::spec::*;
use super::*;

impl Loader<'_> {
    pub(super) fn board_kind(&mut self, board: &BoardSection) -> Option<BoardKind> {
        let Some(kind) = &board.kind else {
            return Some(BoardKind::Default);
        };
        match BoardKind::parse(kind.get_ref()) {
            Ok(kind) => Some(kind),
            Err(e) => {
                self.error(format!("board.kind: {e}"), Some(kind.span()), "here");
                None
            }
        }
    }

    /// The stack height of a stack board (default 32), 1 for other boards.
    pub(super) fn stack_height(&mut self, board: &BoardSection, kind: BoardKind) -> usize {
        match (&board.stack_height, kind) {
            (None, BoardKind::Stack) => 32,
            (Some(h), BoardKind::Stack) if (2..=255).contains(h.get_ref()) => *h.get_ref() as usize,
            (Some(h), BoardKind::Stack) => {
                self.error(
                    "board.stack_height: 2 to 255 pieces",
                    Some(h.span()),
                    "here",
                );
                32
            }
            (Some(h), _) => {
                self.error(
                    "board.stack_height is for stack boards (kind = \"stack\")",
                    Some(h.span()),
                    "here",
                );
                1
            }
            (None, _) => 1,
        }
    }

    pub(super) fn topology(&mut self, board: &BoardSection) -> Option<Topology> {
        let directions = board.directions.as_ref().map(|d| {
            d.get_ref()
                .iter()
                .map(|(k, v)| {
                    let spec = match v.get_ref() {
                        DirValue::Vector(v) => DirSpec::Vector(v.clone()),
                        DirValue::Chains(s) => DirSpec::Chains(s.clone()),
                    };
                    (k.clone(), spec)
                })
                .collect()
        });
        let spec = BoardSpec {
            grid: board.grid.get_ref().clone(),
            directions,
            remove: board.remove.iter().map(|r| r.get_ref().clone()).collect(),
            sets: board
                .sets
                .iter()
                .map(|(k, v)| (k.clone(), v.get_ref().clone()))
                .collect(),
            checkered: board.checkered.as_ref().map(|c| c.get_ref().clone()),
            names: board.names.as_ref().map(|c| c.get_ref().clone()),
            rename: board
                .rename
                .as_ref()
                .map(|r| r.get_ref().clone().into_iter().collect())
                .unwrap_or_default(),
        };
        match Topology::build(&spec) {
            Ok(t) => Some(t),
            Err(e) => {
                let span = if e.what.starts_with("board.directions.") {
                    let key = &e.what["board.directions.".len()..];
                    board
                        .directions
                        .as_ref()
                        .and_then(|d| d.get_ref().get(key).map(|v| v.span()))
                } else if e.what == "board.remove" {
                    board.remove.as_ref().map(|r| r.span())
                } else if e.what == "board.checkered" {
                    board.checkered.as_ref().map(|r| r.span())
                } else if e.what == "board.names" {
                    board.names.as_ref().map(|r| r.span())
                } else if e.what == "board.rename" {
                    board.rename.as_ref().map(|r| r.span())
                } else if let Some(set) = e.what.strip_prefix("board.sets.") {
                    board.sets.get(set).map(|s| s.span())
                } else {
                    Some(board.grid.span())
                };
                self.error(
                    format!("{}: {}", e.what, e.message),
                    span,
                    "in this board description",
                );
                None
            }
        }
    }

    pub(super) fn players(
        &mut self,
        spec: &FileSpec,
        names: &[String],
        topo: &Topology,
    ) -> Option<Vec<Player>> {
        for key in spec.players.keys() {
            if !names.contains(key) {
                self.error(
                    format!("[players.{key}] describes a player that is not in game.players"),
                    Some(spec.game.players.span()),
                    "the players",
                );
            }
        }
        let mut players = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let section = spec.players.get(name);
            let letter = match section.and_then(|s| s.letter.as_ref()) {
                Some(l) => single_char(l.get_ref()).unwrap_or_else(|| {
                    self.error("a player's letter is one character", Some(l.span()), "here");
                    '?'
                }),
                None => match (i, names.len()) {
                    (0, 2) => 'w',
                    (1, 2) => 'b',
                    _ => name.chars().next().map_or('?', |c| c.to_ascii_lowercase()),
                },
            };
            let map = match section.and_then(|s| s.map.as_ref()) {
                None => DirMap::identity(topo),
                Some(m) => match DirMap::parse(topo, m.get_ref()) {
                    Ok(map) => map,
                    Err(e) => {
                        self.error(
                            format!("players.{name}.map: {e}"),
                            Some(m.span()),
                            "this map",
                        );
                        DirMap::identity(topo)
                    }
                },
            };
            let north = topo.dir('N').map(|d| map.apply(d));
            players.push(Player {
                name: name.clone(),
                letter,
                map,
                north,
            });
        }
        Some(players)
    }

    pub(super) fn zones(&mut self, spec: &FileSpec, players: &[String], topo: &Topology) -> Zones {
        let mut zones = Zones::new(players.len(), topo.len());
        for (zname, per) in &spec.zones {
            let nameable =
                !zname.is_empty() && zname.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !nameable {
                let span = per.values().next().map(|s| s.span());
                self.error(
                    format!(
                        "zone name '{zname}': use letters, digits and '_' only, so that '[@{zname}]' can name it"
                    ),
                    span,
                    "in this zone",
                );
            }
            let mut lists = vec![Vec::new(); players.len()];
            for (who, squares) in per {
                let set = match topo.parse_squares(squares.get_ref()) {
                    Ok(s) => s,
                    Err(e) => {
                        self.error(
                            format!("zones.{zname}.{who}: {e}"),
                            Some(squares.span()),
                            "these squares",
                        );
                        continue;
                    }
                };
                if who == "all" {
                    for l in lists.iter_mut() {
                        l.extend(set.iter().copied());
                    }
                } else if let Some(p) = players.iter().position(|p| p == who) {
                    lists[p].extend(set);
                } else {
                    self.error(
                        format!("zones.{zname}: '{who}' is not a player (nor 'all')"),
                        Some(squares.span()),
                        "here",
                    );
                }
            }
            zones.add(zname, lists);
        }
        zones
    }
}
