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
            let mut report = Report::error().with_message(&d.message).with_notes(d.notes.clone());
            if let Some(span) = &d.span {
                let end = span.end.min(self.source.len());
                let start = span.start.min(end);
                report = report.with_labels(vec![Label::primary((), start..end).with_message(&d.label)]);
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

/// Where the text of a TOML string value starts in the file, if the string
/// is written so that its text equals its content byte for byte (literal
/// strings, and basic strings without escapes). `span` covers the quotes.
pub fn string_content_start(source: &str, span: &Range<usize>, content: &str) -> Option<usize> {
    let raw = source.get(span.clone())?;
    let quote = ["\"\"\"", "'''", "\"", "'"].into_iter().find(|q| raw.starts_with(q))?;
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
    (inner == content).then_some(start)
}
