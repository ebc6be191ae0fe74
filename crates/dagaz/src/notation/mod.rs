//! The Dagaz move notation: a regular-expression language over board
//! actions (`notation.md`). Split like the `regex` crate: [`parser`] turns
//! text into an [`ast`], [`compile`] turns the tree into a flat [`Program`]
//! per player, and `movegen::vm` runs programs.

pub mod ast;
pub mod betza;
pub mod compile;
pub mod parser;
pub mod program;
pub mod sexpr;
pub mod zrf;

pub use ast::{Node, Span};
pub use compile::{
    CompileContext, MoveEntry, MovedRef, ProgramBuilder, Resolved, moved_refs, resolve,
};
pub use parser::parse;
pub use program::{
    Cond, Hop, NO_TYPE, Op, Program, Test, UNTYPED, WALK_HAND, WALK_MOVED, WALK_NOT_MOVED,
    WALK_TESTS, WalkPaths, ZrfChange, ZrfOp,
};

use std::fmt;

/// The kind of a notation error (one per error class of `notation.md` §10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Malformed text: an unexpected character, a missing item.
    Syntax,
    /// `(`, `[`, `{` without its closing partner, or the reverse.
    Unbalanced,
    /// A quantifier with nothing before it.
    NothingToRepeat,
    /// `{3,2}` or a count that is too large.
    BadRange,
    /// A direction letter the board does not define.
    UnknownDirection,
    /// A letter in brackets that is not a check code.
    UnknownCheck,
    /// More than nine capture groups on one alternative.
    TooManyGroups,
    /// `\k` where the expression has fewer than `k` capture groups.
    TooFewGroups,
    /// `\k` where no path has bound variable `k`.
    UnboundVariable,
    /// `=Name` of an unknown piece.
    UnknownPiece,
    /// `@zone` of an unknown zone.
    UnknownZone,
    /// A handler number the game does not register.
    UnknownHandler,
    /// An unbounded repetition whose body cannot progress.
    NoProgress,
    /// `~k` on a direction without an opposite.
    NoOpposite,
    /// Nesting or program size beyond the limits.
    TooLarge,
}

/// An error in a move expression, with the span of the offending text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    pub kind: ErrorKind,
    pub span: Span,
    pub message: String,
    /// What would have been accepted here.
    pub expected: Option<String>,
}

impl NotationError {
    pub fn new(
        kind: ErrorKind,
        span: Span,
        message: impl Into<String>,
        expected: Option<&str>,
    ) -> Self {
        NotationError {
            kind,
            span,
            message: message.into(),
            expected: expected.map(str::to_string),
        }
    }

    /// Renders the error under the expression with the span underlined.
    pub fn render(&self, text: &str) -> String {
        let start = self.span.start.min(text.len());
        let end = self.span.end.clamp(start, text.len());
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let line_no = text[..start].matches('\n').count() + 1;
        let col = text[line_start..start].chars().count() + 1;
        let width = text[start..end.min(line_end)].chars().count().max(1);
        let mut out = format!("error at line {line_no}, column {col}: {}\n", self.message);
        out += &format!("  {}\n", &text[line_start..line_end]);
        out += &format!("  {}{}", " ".repeat(col - 1), "^".repeat(width));
        if let Some(e) = &self.expected {
            out += &format!(" expected {e}");
        }
        out
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)?;
        if let Some(e) = &self.expected {
            write!(f, " (expected {e})")?;
        }
        Ok(())
    }
}

impl std::error::Error for NotationError {}
