//! Zillions of Games rule files (ZRF) converted into dagaz game files.
//!
//! The file is read as s-expressions, its includes and `define` macros
//! expanded ([`expand`]), the chosen `game` or `variant` laid over the
//! game it follows, and each part written into the game file: the board
//! ([`board`]), the pieces with their move blocks (kept in ZRF, compiled by
//! `notation::zrf`), the setup, the goals and the options ([`rules`]).
//! Whatever cannot be expressed is an error naming the file, line and
//! column and the macros it came through; options that change nothing
//! here are warnings. `docs/zrf.md` is the reference.

mod board;
mod expand;
mod rules;

use std::fmt;

use toml::{Table, Value};

use crate::notation::sexpr::Sexp;
pub use expand::Sources;

/// Why a file (or a variant of it) cannot be converted. Shown as
/// `file:line:column: message`, then the macro calls, one per line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ZrfError {
    pub message: String,
    /// File, line and column, then the macro calls, one per line.
    pub at: String,
}

impl fmt::Display for ZrfError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let (place, chain) = self.at.split_once('\n').unwrap_or((&self.at, ""));
        write!(f, "{place}: {}", self.message)?;
        if !chain.is_empty() {
            write!(f, "\n{chain}")?;
        }
        Ok(())
    }
}

impl ZrfError {
    pub(crate) fn at(sources: &Sources, form: &Sexp, message: impl Into<String>) -> ZrfError {
        ZrfError {
            message: message.into(),
            at: sources.locate(form),
        }
    }
}

/// A converted game: the game file and the warnings.
#[derive(Clone, Debug)]
pub struct Conversion {
    pub title: String,
    pub game: String,
    pub warnings: Vec<String>,
}

/// One playable game of a file: the `game` (index 0) or a variant.
#[derive(Clone, Debug)]
pub struct Entry {
    pub index: usize,
    pub title: String,
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}: {}", self.index, self.title)
    }
}

/// The file read and expanded.
pub struct ZrfFile {
    pub sources: Sources,
    forms: Vec<Sexp>,
}

impl ZrfFile {
    /// Reads a ZRF file; `include` gives the text of an included file.
    pub fn read(
        name: &str,
        text: &str,
        include: &dyn Fn(&str) -> Option<String>,
    ) -> Result<ZrfFile, ZrfError> {
        let mut sources = Sources::default();
        let forms = expand::read(name, text, include, &mut sources)?;
        Ok(ZrfFile { sources, forms })
    }

    /// The `game` and its `variant`s (separators titled "-" left out).
    pub fn entries(&self) -> Vec<Entry> {
        let mut out = Vec::new();
        let mut index = 0;
        for f in &self.forms {
            match f.head() {
                Some((h, body)) if h == "game" || h == "variant" => {
                    let title = title_of(body).unwrap_or_default();
                    if h == "game" || title != "-" {
                        out.push(Entry {
                            index,
                            title: if title.is_empty() {
                                format!("{h} {index}")
                            } else {
                                title
                            },
                        });
                    }
                    index += 1;
                }
                _ => {}
            }
        }
        out
    }

    /// Converts entry `index` (0: the game) into a game file.
    pub fn convert(&self, index: usize) -> Result<Conversion, ZrfError> {
        let sections = self.sections(index)?;
        rules::build(&self.sources, &sections)
    }

    /// The sections of entry `index`: the game's, with the variant's laid
    /// over them (a variant's section replaces the game's of the same
    /// kind; its pieces replace the game's of the same name, or are added;
    /// its end conditions replace all of the game's).
    fn sections(&self, index: usize) -> Result<Vec<Sexp>, ZrfError> {
        let blocks: Vec<(&str, &[Sexp], &Sexp)> = self
            .forms
            .iter()
            .filter_map(|f| {
                let (h, body) = f.head()?;
                match h.as_str() {
                    "game" => Some(("game", body, f)),
                    "variant" => Some(("variant", body, f)),
                    _ => None,
                }
            })
            .collect();
        let Some(game) = blocks.iter().position(|b| b.0 == "game") else {
            return Err(ZrfError {
                message: "the file has no (game …)".into(),
                at: self.sources.place(0, 0),
            });
        };
        let Some(&(kind, body, form)) = blocks.get(index) else {
            return Err(ZrfError {
                message: format!(
                    "no variant {index}: the file has {} games (0 to {})",
                    blocks.len(),
                    blocks.len().saturating_sub(1)
                ),
                at: self.sources.place(0, 0),
            });
        };
        if kind == "game" || index < game {
            return Ok(body.to_vec());
        }
        if title_of(body).as_deref() == Some("-") {
            return Err(ZrfError::at(
                &self.sources,
                form,
                "this variant is a menu separator, not a game",
            ));
        }
        let mut sections: Vec<Sexp> = blocks[game].1.to_vec();
        let goal = |s: &Sexp| {
            s.head().is_some_and(|(h, _)| {
                matches!(
                    h.as_str(),
                    "win-condition" | "loss-condition" | "draw-condition" | "count-condition"
                )
            })
        };
        if body.iter().any(goal) {
            sections.retain(|s| !goal(s));
        }
        for s in body {
            let Some((h, _)) = s.head() else { continue };
            match h.as_str() {
                "piece" => {
                    let name = piece_name(s);
                    match sections.iter().position(|x| {
                        x.head().is_some_and(|(k, _)| k == "piece") && piece_name(x) == name
                    }) {
                        Some(i) => sections[i] = s.clone(),
                        None => sections.push(s.clone()),
                    }
                }
                "option" => {
                    let name = option_name(s);
                    sections.retain(|x| {
                        !(x.head().is_some_and(|(k, _)| k == "option") && option_name(x) == name)
                    });
                    sections.push(s.clone());
                }
                _ if goal(s) => sections.push(s.clone()),
                _ => {
                    sections.retain(|x| x.head().is_none_or(|(k, _)| k != h));
                    sections.push(s.clone());
                }
            }
        }
        Ok(sections)
    }
}

/// The `(title "…")` of a game or variant body.
fn title_of(body: &[Sexp]) -> Option<String> {
    body.iter().find_map(|s| match s.head() {
        Some((h, [t, ..])) if h == "title" => t.text().map(str::to_string),
        _ => None,
    })
}

fn piece_name(piece: &Sexp) -> Option<String> {
    piece.head().and_then(|(_, body)| {
        body.iter().find_map(|s| match s.head() {
            Some((h, [n, ..])) if h == "name" => n.text().map(str::to_string),
            _ => None,
        })
    })
}

fn option_name(option: &Sexp) -> Option<String> {
    option
        .head()
        .and_then(|(_, args)| args.first())
        .and_then(|n| n.text())
        .map(normalize_option)
}

/// Option names as Dagaz compares them: spaces and hyphens alike.
pub(crate) fn normalize_option(name: &str) -> String {
    name.trim().to_ascii_lowercase().replace(' ', "-")
}

/// Converts entry `index` of a ZRF text (0: the game itself).
pub fn convert(
    name: &str,
    text: &str,
    index: usize,
    include: &dyn Fn(&str) -> Option<String>,
) -> Result<Conversion, ZrfError> {
    ZrfFile::read(name, text, include)?.convert(index)
}

/// A TOML string value.
pub(crate) fn s(v: impl Into<String>) -> Value {
    Value::String(v.into())
}

/// A table from pairs.
pub(crate) fn table<const N: usize>(pairs: [(&str, Value); N]) -> Table {
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// Loads entry `index` of the ZRF file at `path` as a game: converted,
/// then loaded like any game file (named after the file, with `:index`
/// for a variant). Included files are read from the file's folder.
pub fn load(path: &std::path::Path, index: usize) -> Result<crate::game::Game, String> {
    let name = path.display().to_string();
    let converted = ZrfFile::open(path)?
        .convert(index)
        .map_err(|e| e.to_string())?;
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("zrf");
    let stem = if index == 0 {
        stem.to_string()
    } else {
        format!("{stem}:{index}")
    };
    let file = format!("{name} (converted)");
    crate::load::load_str(&converted.game, &file, &stem).map_err(|e| e.to_string())
}

impl ZrfFile {
    /// Reads the ZRF file at `path`; included files are read from its
    /// folder, by relative names that stay inside it (no `..`, no root).
    pub fn open(path: &std::path::Path) -> Result<ZrfFile, String> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
        let dir = path
            .parent()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_default();
        let include = |inc: &str| {
            let inc = std::path::Path::new(inc);
            let inside = inc
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
            inside
                .then(|| std::fs::read(dir.join(inc)).ok())
                .flatten()
                .map(|b| latin1(&b))
        };
        ZrfFile::read(&name, &latin1(&bytes), &include).map_err(|e| e.to_string())
    }
}

/// A file's text: UTF-8 when it is, else read as Latin-1 (older ZRF files).
pub fn latin1(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| b as char).collect(),
    }
}
