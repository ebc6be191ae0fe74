//! Reading one section's keys as Fairy-Stockfish reads them: bools,
//! numbers, results, regions, piece sets, per-colour keys.

use std::collections::HashSet;

use super::{Keys, Problem};
use crate::import::ini::Entry;

/// A square as (file, rank), 0-based.
pub(super) type Sq = (usize, usize);

/// Reads the resolved keys of one section; remembers which were used.
pub(super) struct Reader<'a> {
    pub(super) keys: &'a Keys,
    pub(super) used: HashSet<String>,
    pub(super) problems: Vec<Problem>,
    pub(super) files: usize,
    pub(super) ranks: usize,
}

/// A result as Fairy-Stockfish's keys give it: for the side concerned.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Outcome {
    Win,
    Loss,
    Draw,
    None,
}

impl Outcome {
    pub(super) fn parse(text: &str) -> Outcome {
        match text {
            "win" => Outcome::Win,
            "loss" => Outcome::Loss,
            "draw" => Outcome::Draw,
            _ => Outcome::None,
        }
    }

    pub(super) fn word(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            _ => "draw",
        }
    }

    /// The same result, for the other side.
    pub(super) fn other(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            o => o,
        }
    }
}

impl<'a> Reader<'a> {
    pub(super) fn entry(&mut self, key: &str) -> Option<&'a Entry> {
        let e = self.keys.get(key)?;
        self.used.insert(key.to_string());
        Some(e)
    }

    pub(super) fn text(&mut self, key: &str) -> Option<&'a str> {
        self.entry(key).map(|e| e.value.as_str())
    }

    pub(super) fn line(&self, key: &str) -> usize {
        self.keys.get(key).map_or(0, |e| e.line)
    }

    /// `true` only as written exactly, as Fairy-Stockfish reads a bool.
    pub(super) fn flag(&mut self, key: &str, default: bool) -> bool {
        self.text(key).map_or(default, |v| v == "true")
    }

    pub(super) fn int(&mut self, key: &str, default: i64) -> i64 {
        match self.text(key) {
            None => default,
            Some(v) => v.trim().parse().unwrap_or_else(|_| {
                self.fatal(key, format!("'{v}' is not a number"));
                default
            }),
        }
    }

    pub(super) fn outcome(&mut self, key: &str, default: Outcome) -> Outcome {
        self.text(key).map_or(default, Outcome::parse)
    }

    pub(super) fn fatal(&mut self, key: &str, message: String) {
        self.problems.push(Problem {
            line: self.line(key),
            key: key.into(),
            message,
            fatal: true,
        });
    }

    pub(super) fn warn(&mut self, key: &str, message: String) {
        self.problems.push(Problem {
            line: self.line(key),
            key: key.into(),
            message,
            fatal: false,
        });
    }

    /// A file given as a letter or a 1-based number (0-based result).
    pub(super) fn file_of(text: &str) -> Option<usize> {
        let t = text.trim();
        match t.chars().next()? {
            c @ 'a'..='z' if t.len() == 1 => Some(c as usize - 'a' as usize),
            _ => t.parse::<usize>().ok().filter(|&n| n >= 1).map(|n| n - 1),
        }
    }

    /// A region: squares (`e4`), ranks (`*3`), files (`a*`); `-` stops.
    /// Squares as (file, rank), 0-based.
    pub(super) fn region(&mut self, key: &str) -> Option<Vec<(usize, usize)>> {
        let text = self.text(key)?;
        let (files, ranks) = (self.files, self.ranks);
        let mut out = Vec::new();
        for tok in text.split_whitespace() {
            if tok == "-" {
                break;
            }
            let (f, r) = tok.split_at(1);
            let file = (f != "*").then(|| Self::file_of(&f.to_ascii_lowercase()));
            let rank = (r != "*").then(|| r.parse::<usize>().ok().filter(|&n| n >= 1));
            let squares: Vec<(usize, usize)> = match (file, rank) {
                (Some(Some(f)), Some(Some(r))) => vec![(f, r - 1)],
                (None, Some(Some(r))) => (0..files).map(|f| (f, r - 1)).collect(),
                (Some(Some(f)), None) => (0..ranks).map(|r| (f, r)).collect(),
                _ => {
                    self.warn(
                        key,
                        format!("'{tok}' is no square; the region ends before it"),
                    );
                    break;
                }
            };
            out.extend(squares.into_iter().filter(|&(f, r)| f < files && r < ranks));
        }
        Some(out)
    }

    /// A piece set: letters (lower case), `*` for every piece, `-` none.
    pub(super) fn letters(&mut self, key: &str) -> Option<Vec<char>> {
        let text = self.text(key)?;
        let mut out = Vec::new();
        for c in text.chars().filter(|c| !c.is_whitespace()) {
            match c {
                '-' => break,
                '*' => out.push('*'),
                c if c.is_ascii_alphabetic() => out.push(c.to_ascii_lowercase()),
                _ => break,
            }
        }
        Some(out)
    }

    /// A key given for both colours, then per colour (`…White`, `…Black`).
    pub(super) fn coloured<T: Clone>(
        &mut self,
        key: &str,
        read: impl Fn(&mut Self, &str) -> Option<T>,
        default: T,
    ) -> [T; 2] {
        let both = read(self, key).unwrap_or(default);
        let w = read(self, &format!("{key}White")).unwrap_or_else(|| both.clone());
        let b = read(self, &format!("{key}Black")).unwrap_or(both);
        [w, b]
    }

    /// Every square of the board, rank by rank from a1.
    pub(super) fn all_squares(&self) -> Vec<Sq> {
        (0..self.ranks)
            .flat_map(|rk| (0..self.files).map(move |f| (f, rk)))
            .collect()
    }

    pub(super) fn square_name(&self, (f, r): (usize, usize)) -> String {
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    pub(super) fn squares_text(&self, squares: &[(usize, usize)]) -> String {
        squares
            .iter()
            .map(|&s| self.square_name(s))
            .collect::<Vec<_>>()
            .join(" ")
    }
}
