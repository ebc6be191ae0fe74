//! The syntax tree of a move expression, with byte spans into the
//! expression text for diagnostics.

use std::ops::Range;

/// Byte range in the expression text.
pub type Span = Range<usize>;

/// One node of a parsed expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub kind: NodeKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// `a ; b ; c`: alternatives.
    Alt(Vec<Node>),
    /// `a , b c`: a sequence.
    Seq(Vec<Node>),
    /// One step in one of the given directions (a run like `OM`, or a set).
    Step(DirAtom),
    /// `(+)`: a step whose direction is remembered in a variable.
    Capture(DirAtom),
    /// `\k` (forward) or `~k` (back).
    Var { var: u8, back: bool },
    /// `( expr )`: a plain group.
    Group(Box<Node>),
    /// A quantified item.
    Repeat {
        body: Box<Node>,
        min: u32,
        max: Option<u32>,
        maximal: bool,
    },
    /// `|`: drop the hand.
    Drop,
    /// `^`: take into the hand.
    Take,
    /// `[...]`: checks and actions, possibly on another square.
    Bracket(Bracket),
}

/// The directions of a step: letters of the board, or one of the sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirAtom {
    /// A run of letters, each with its byte offset.
    Letters(Vec<(char, usize)>),
    /// `+`
    Orthogonal,
    /// `X`
    Diagonal,
    /// `*`
    All,
}

/// `[checks > nav > nav]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bracket {
    pub checks: Vec<Check>,
    pub nav: Vec<Nav>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub kind: CheckKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckKind {
    /// One of `p P e E f F a A s S o m M r R l t x`.
    Code(char),
    /// `=Name`
    Piece(String),
    /// `@zone`
    Zone(String),
    /// `1`..`9`
    Handler(u8),
}

/// One step of a `>` navigation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Nav {
    Dir(char, Span),
    Var { var: u8, back: bool, span: Span },
}

impl Node {
    /// True if some path through this node can move the cursor or add an
    /// effect (used to reject repetitions that could never end).
    pub fn can_progress(&self) -> bool {
        match &self.kind {
            NodeKind::Step(_) | NodeKind::Capture(_) | NodeKind::Var { .. } => true,
            NodeKind::Drop | NodeKind::Take => true,
            NodeKind::Alt(v) | NodeKind::Seq(v) => v.iter().any(Node::can_progress),
            NodeKind::Group(b) => b.can_progress(),
            NodeKind::Repeat { body, max, .. } => *max != Some(0) && body.can_progress(),
            NodeKind::Bracket(b) => b.checks.iter().any(|c| {
                matches!(
                    c.kind,
                    CheckKind::Code('x') | CheckKind::Code('o') | CheckKind::Handler(_)
                )
            }),
        }
    }

    /// Total number of capture groups anywhere in the expression.
    pub fn count_captures(&self) -> usize {
        match &self.kind {
            NodeKind::Capture(_) => 1,
            NodeKind::Alt(v) | NodeKind::Seq(v) => v.iter().map(Node::count_captures).sum(),
            NodeKind::Group(b) => b.count_captures(),
            NodeKind::Repeat { body, .. } => body.count_captures(),
            _ => 0,
        }
    }
}
