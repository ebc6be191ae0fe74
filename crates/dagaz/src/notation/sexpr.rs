//! S-expressions as the Zillions rules language (ZRF) writes them: lists in
//! parentheses, atoms, and strings in double quotes; `;` starts a comment
//! that runs to the end of the line. Shared by the ZRF move blocks of game
//! files ([`super::zrf`]) and the ZRF importer (`import::zrf`).
//!
//! Strings have no escapes (ZRF writes Windows paths in them), and atoms
//! are any run of characters other than white space, parentheses, `"` and
//! `;`.

use std::fmt;
use std::ops::Range;

/// One form with the byte range of its text in the source it was read
/// from. `file` and `origin` are free for the reader's caller (the
/// importer numbers its files and macro expansions with them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sexp {
    pub kind: SexpKind,
    pub span: Range<usize>,
    pub file: u16,
    /// 0: written where it stands; otherwise the caller's number of the
    /// macro expansion that produced it.
    pub origin: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SexpKind {
    Atom(String),
    Str(String),
    List(Vec<Sexp>),
}

/// Malformed s-expression text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SexpError {
    pub message: String,
    pub span: Range<usize>,
}

impl Sexp {
    /// The atom's text, if the form is an atom.
    pub fn atom(&self) -> Option<&str> {
        match &self.kind {
            SexpKind::Atom(a) => Some(a),
            _ => None,
        }
    }

    /// The text of an atom or a string.
    pub fn text(&self) -> Option<&str> {
        match &self.kind {
            SexpKind::Atom(a) | SexpKind::Str(a) => Some(a),
            SexpKind::List(_) => None,
        }
    }

    /// The words of an atom, a string, or a list of them (`King`,
    /// `(a1 b2)`): what ZRF writes where one name or several may stand.
    pub fn words(&self) -> Vec<String> {
        match &self.kind {
            SexpKind::Atom(a) | SexpKind::Str(a) => vec![a.clone()],
            SexpKind::List(items) => items
                .iter()
                .filter_map(|i| i.text().map(str::to_string))
                .collect(),
        }
    }

    pub fn list(&self) -> Option<&[Sexp]> {
        match &self.kind {
            SexpKind::List(items) => Some(items),
            _ => None,
        }
    }

    /// True for an atom equal to `word`, ignoring case (ZRF's keywords are
    /// not case-sensitive).
    pub fn is(&self, word: &str) -> bool {
        self.atom().is_some_and(|a| a.eq_ignore_ascii_case(word))
    }

    /// For a list whose first item is an atom: that atom, lower-cased, and
    /// the items after it.
    pub fn head(&self) -> Option<(String, &[Sexp])> {
        let items = self.list()?;
        let (first, rest) = items.split_first()?;
        Some((first.atom()?.to_ascii_lowercase(), rest))
    }

    pub fn new(kind: SexpKind, span: Range<usize>) -> Sexp {
        Sexp {
            kind,
            span,
            file: 0,
            origin: 0,
        }
    }
}

impl fmt::Display for Sexp {
    /// The form written back as text on one line.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match &self.kind {
            SexpKind::Atom(a) => f.write_str(a),
            SexpKind::Str(s) => write!(f, "\"{s}\""),
            SexpKind::List(items) => {
                f.write_str("(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Deepest nesting of lists accepted (everything after reading recurses).
const MAX_NESTING: usize = 256;

/// Reads every top-level form of `text`, numbering them as from `file`.
pub fn parse(text: &str, file: u16) -> Result<Vec<Sexp>, SexpError> {
    let bytes = text.as_bytes();
    let mut i = 0;
    // Open lists: their start offsets and items so far.
    let mut open: Vec<(usize, Vec<Sexp>)> = Vec::new();
    let mut top = Vec::new();
    while i < bytes.len() {
        let b = bytes[i];
        let form = match b {
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' => {
                if open.len() >= MAX_NESTING {
                    return Err(SexpError {
                        message: format!("lists nest deeper than {MAX_NESTING}"),
                        span: i..i + 1,
                    });
                }
                open.push((i, Vec::new()));
                i += 1;
                continue;
            }
            b')' => {
                let Some((start, items)) = open.pop() else {
                    return Err(SexpError {
                        message: "')' without an opening '('".into(),
                        span: i..i + 1,
                    });
                };
                i += 1;
                Sexp {
                    kind: SexpKind::List(items),
                    span: start..i,
                    file,
                    origin: 0,
                }
            }
            b'"' => {
                let start = i;
                let Some(len) = text[i + 1..].find('"') else {
                    return Err(SexpError {
                        message: "a string without its closing '\"'".into(),
                        span: start..text.len(),
                    });
                };
                i += len + 2;
                Sexp {
                    kind: SexpKind::Str(text[start + 1..i - 1].to_string()),
                    span: start..i,
                    file,
                    origin: 0,
                }
            }
            _ if b.is_ascii_whitespace() => {
                i += 1;
                continue;
            }
            _ => {
                let start = i;
                while i < bytes.len() {
                    let c = bytes[i];
                    if c.is_ascii_whitespace() || matches!(c, b'(' | b')' | b'"' | b';') {
                        break;
                    }
                    i += 1;
                }
                Sexp {
                    kind: SexpKind::Atom(text[start..i].to_string()),
                    span: start..i,
                    file,
                    origin: 0,
                }
            }
        };
        match open.last_mut() {
            Some((_, items)) => items.push(form),
            None => top.push(form),
        }
    }
    if let Some((start, _)) = open.last() {
        return Err(SexpError {
            message: "'(' without its closing ')'".into(),
            span: *start..start + 1,
        });
    }
    Ok(top)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lists_atoms_strings_and_comments() {
        let forms = parse("(a (b \"c d\") ; comment\n e) x", 3).unwrap();
        assert_eq!(forms.len(), 2);
        assert_eq!(forms[0].to_string(), "(a (b \"c d\") e)");
        assert_eq!(forms[0].file, 3);
        assert_eq!(forms[1].atom(), Some("x"));
        assert_eq!(forms[1].span, 27..28);
        let (head, rest) = forms[0].head().unwrap();
        assert_eq!((head.as_str(), rest.len()), ("a", 2));
    }

    #[test]
    fn unbalanced_text_is_located() {
        assert_eq!(parse("(a (b)", 0).unwrap_err().span, 0..1);
        assert_eq!(parse("a)", 0).unwrap_err().span, 1..2);
        assert_eq!(parse("(\"abc", 0).unwrap_err().span, 1..5);
    }
}
