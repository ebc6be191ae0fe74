//! The end of the game: Fairy-Stockfish's result keys as goals.

use toml::Table;

use super::builder::Builder;
use super::reader::{Outcome, Reader};

impl Builder {
    /// The end conditions, as goals.
    pub(super) fn goals(&self, r: &mut Reader, zones: &mut Table, goals: &mut Vec<String>) {
        self.flag_goals(r, zones, goals);
        self.extinction_goals(r, goals);
        self.connect_goal(r, goals);
        if let Some(n) = self.checks {
            goals.push(format!("checks {n} = win"));
        }
        if self.pieces.iter().any(|p| p.royal) {
            let mate = r.outcome("checkmateValue", Outcome::Loss);
            if mate != Outcome::None {
                goals.push(format!("checkmate = {}", mate.other().word()));
            }
        }
        let stalemate = r.outcome("stalemateValue", Outcome::Draw);
        goals.push(format!("stalemate = {}", stalemate.other().word()));
        let repetitions = r.int("nFoldRule", 3);
        let value = r.outcome("nFoldValue", Outcome::Draw);
        if repetitions > 0 {
            goals.push(format!(
                "repetition {repetitions} = {}",
                value.other().word()
            ));
        }
        let moves = r.int("nMoveRule", 50);
        if moves > 0 {
            goals.push(format!("no_progress {} = draw", moves * 2));
        }
    }

    /// `flagRegion…` and `flagPiece…`: reaching the region wins.
    pub(super) fn flag_goals(&self, r: &mut Reader, zones: &mut Table, goals: &mut Vec<String>) {
        let region = r.coloured("flagRegion", |r, k| r.region(k), Vec::new());
        let piece = r.coloured("flagPiece", |r, k| r.letters(k), vec!['*']);
        let race = r.flag("flagMove", false);
        let safe = r.flag("flagPieceSafe", false);
        if region.iter().all(|z| z.is_empty()) {
            return;
        }
        zones.insert("flag".into(), self.per_player(r, &region));
        for (c, player) in ["White", "Black"].iter().enumerate() {
            if region[c].is_empty() {
                continue;
            }
            let who = match piece[c].first() {
                Some('*') | None => String::new(),
                Some(l) => match self.piece(*l) {
                    Some(p) => format!(" {}", p.name),
                    None => continue,
                },
            };
            // A race: the first player's arrival gives the second one more
            // move (Fairy-Stockfish's flagMove).
            let how = if race && c == 0 {
                " answerable"
            } else if safe {
                " safe"
            } else {
                ""
            };
            goals.push(format!("{player}: reach flag{who}{how} = win"));
        }
    }

    /// `extinctionValue`: a player left with at most `extinctionPieceCount`
    /// pieces of one of the types gets the value.
    pub(super) fn extinction_goals(&self, r: &mut Reader, goals: &mut Vec<String>) {
        let value = r.outcome("extinctionValue", Outcome::None);
        let types = r.letters("extinctionPieceTypes").unwrap_or_default();
        let count = r.int("extinctionPieceCount", 0);
        if value == Outcome::None || types.is_empty() {
            return;
        }
        if r.flag("capturesToHand", false) || r.flag("pieceDrops", false) {
            r.fatal(
                "extinctionValue",
                "extinction where pieces in hand count cannot be converted yet".into(),
            );
        }
        for l in types {
            let who = if l == '*' {
                String::new()
            } else {
                match self.piece(l) {
                    Some(p) => format!(" {}", p.name),
                    None => continue,
                }
            };
            goals.push(format!("pieces{who} <= {count} = {}", value.word()));
        }
    }
}

impl Builder {
    /// `connectN`: that many of the player's pieces in a row.
    pub(super) fn connect_goal(&self, r: &mut Reader, goals: &mut Vec<String>) {
        let n = r.int("connectN", 0);
        let types = r.letters("connectPieceTypes").unwrap_or_else(|| vec!['*']);
        let value = r.outcome("connectValue", Outcome::Win);
        let dirs: String = [
            (r.flag("connectHorizontal", true), "EW"),
            (r.flag("connectVertical", true), "NS"),
            (r.flag("connectDiagonal", true), "X"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, d)| *d)
        .collect();
        if n <= 0 || dirs.is_empty() || value == Outcome::None {
            return;
        }
        let within = if dirs.len() == 5 {
            String::new()
        } else {
            format!(" in {dirs}")
        };
        let pieces: String = types
            .iter()
            .filter(|l| **l != '*')
            .filter_map(|l| self.piece(*l))
            .map(|p| format!(" {}", p.name))
            .collect();
        goals.push(format!("line {n}{within}{pieces} = {}", value.word()));
    }
}
