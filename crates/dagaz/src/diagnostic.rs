//! Error reports about game files: a message, the offending text in the
//! file underlined, and what was expected. Rendering uses
//! `codespan-reporting`.

use std::fmt;
use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Config};

/// One problem found in a game file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub message: String,
    /// Byte range in the file, when known.
    pub span: Option<Range<usize>>,
    /// Text shown under the underline.
    pub label: String,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn new(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            span: None,
            label: String::new(),
            notes: Vec::new(),
        }
    }

    pub fn at(mut self, span: Option<Range<usize>>, label: impl Into<String>) -> Diagnostic {
        self.span = span;
        self.label = label.into();
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }
}

/// A game file that could not be loaded, with every problem found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub file: String,
    pub diagnostics: Vec<Diagnostic>,
    source: String,
}

impl LoadError {
    pub fn new(file: &str, source: &str, diagnostics: Vec<Diagnostic>) -> LoadError {
        LoadError {
            file: file.to_string(),
            diagnostics,
            source: source.to_string(),
        }
    }

    /// The report as text, with the file's lines and underlines.
    pub fn render(&self) -> String {
        let file = SimpleFile::new(self.file.as_str(), self.source.as_str());
        let config = Config::default();
        let mut out = String::new();
        for d in &self.diagnostics {
            let mut report = Report::error()
                .with_message(&d.message)
                .with_notes(d.notes.clone());
            if let Some(span) = &d.span {
                let end = span.end.min(self.source.len());
                let start = span.start.min(end);
                report =
                    report.with_labels(vec![Label::primary((), start..end).with_message(&d.label)]);
            } else if !d.label.is_empty() {
                report = report.with_notes(vec![d.label.clone()]);
            }
            match term::emit_into_string(&config, &file, &report) {
                Ok(s) => out.push_str(&s),
                Err(_) => out.push_str(&format!("error: {}\n", d.message)),
            }
        }
        if self.diagnostics.is_empty() {
            out.push_str(&format!("error: {} could not be loaded\n", self.file));
        }
        out
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.render().trim_end())
    }
}

impl std::error::Error for LoadError {}

/// Maps byte offsets in the value of a TOML string to byte offsets in the
/// file, so errors inside the string can point at the right place.
/// `span` covers the string with its quotes. Handles literal and basic
/// strings, single- and multi-line, with escapes; `None` if the text at
/// `span` does not decode to `content`.
pub fn string_offsets(source: &str, span: &Range<usize>, content: &str) -> Option<Vec<usize>> {
    let raw = source.get(span.clone())?;
    let quote = ["\"\"\"", "'''", "\"", "'"]
        .into_iter()
        .find(|q| raw.starts_with(q))?;
    let mut start = span.start + quote.len();
    let mut inner = raw.get(quote.len()..raw.len().checked_sub(quote.len())?)?;
    if quote.len() == 3 {
        if let Some(rest) = inner.strip_prefix("\r\n") {
            inner = rest;
            start += 2;
        } else if let Some(rest) = inner.strip_prefix('\n') {
            inner = rest;
            start += 1;
        }
    }
    let literal = quote.starts_with('\'');
    let mut decoded = String::new();
    let mut map = Vec::new();
    let mut chars = inner.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let at = start + i;
        if literal || c != '\\' {
            decoded.push(c);
            map.extend(std::iter::repeat_n(at, c.len_utf8()));
            continue;
        }
        let (_, e) = chars.next()?;
        let out = match e {
            'b' => '\u{8}',
            't' => '\t',
            'n' => '\n',
            'f' => '\u{c}',
            'r' => '\r',
            'e' => '\u{1b}',
            '"' => '"',
            '\\' => '\\',
            'u' | 'U' => {
                let len = if e == 'u' { 4 } else { 8 };
                let hex: String = (0..len)
                    .filter_map(|_| chars.next().map(|(_, h)| h))
                    .collect();
                char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?
            }
            ' ' | '\t' | '\r' | '\n' => {
                // A line-ending backslash: skip all whitespace after it.
                while chars.peek().is_some_and(|(_, w)| w.is_whitespace()) {
                    chars.next();
                }
                continue;
            }
            _ => return None,
        };
        decoded.push(out);
        map.extend(std::iter::repeat_n(at, out.len_utf8()));
    }
    map.push(start + inner.len());
    (decoded == content).then_some(map)
}
