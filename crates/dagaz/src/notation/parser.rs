//! Recursive-descent parser for move expressions (`notation.md` §2).
//!
//! The parser knows nothing of the board: direction letters, piece and zone
//! names are checked by the compiler, which has the game at hand.

use super::ast::{Bracket, Check, CheckKind, DirAtom, Nav, Node, NodeKind, Span};
use super::{ErrorKind, NotationError};

/// Deepest nesting of parentheses accepted; deeper input is refused rather
/// than risking the stack.
const MAX_DEPTH: usize = 64;
/// Largest count accepted in `{n,m}`.
const MAX_COUNT: u32 = 1000;

/// The check codes allowed inside brackets.
pub const CHECK_CODES: &str = "pPeEfFaAsSomMrRlLtTx";

const EXPECTED_ITEM: &str = "a direction letter, '+', 'X', '*', '(', '[', '\\k', '~k', '|' or '^'";

/// Parses a move expression.
pub fn parse(text: &str) -> Result<Node, NotationError> {
    let mut p = Parser {
        text,
        pos: 0,
        depth: 0,
    };
    let node = p.expr()?;
    p.skip_ws();
    match p.peek() {
        None => Ok(node),
        Some(')') => Err(p.error_here(ErrorKind::Unbalanced, "unmatched ')'", None)),
        Some(c) => Err(p.error_here(
            ErrorKind::Syntax,
            format!("unexpected '{c}'"),
            Some(EXPECTED_ITEM),
        )),
    }
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    /// Skips whitespace and `#` comments.
    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.bump();
            } else if c == '#' {
                while let Some(c) = self.bump() {
                    if c == '\n' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }

    fn char_span(&self) -> Span {
        let len = self.peek().map_or(0, char::len_utf8);
        self.pos..self.pos + len
    }

    fn error_here(
        &self,
        kind: ErrorKind,
        message: impl Into<String>,
        expected: Option<&str>,
    ) -> NotationError {
        NotationError::new(kind, self.char_span(), message, expected)
    }

    fn expr(&mut self) -> Result<Node, NotationError> {
        let start = self.pos;
        let mut alts = vec![self.seq()?];
        loop {
            self.skip_ws();
            if self.peek() == Some(';') {
                self.bump();
                alts.push(self.seq()?);
            } else {
                break;
            }
        }
        if alts.len() == 1 {
            Ok(alts.remove(0))
        } else {
            Ok(Node {
                kind: NodeKind::Alt(alts),
                span: start..self.pos,
            })
        }
    }

    fn seq(&mut self) -> Result<Node, NotationError> {
        self.skip_ws();
        let start = self.pos;
        let mut items = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                None | Some(';') | Some(')') => break,
                Some(',') => {
                    if items.is_empty() {
                        return Err(self.error_here(
                            ErrorKind::Syntax,
                            "',' with nothing before it",
                            Some(EXPECTED_ITEM),
                        ));
                    }
                    self.bump();
                    self.skip_ws();
                    if matches!(self.peek(), None | Some(';') | Some(')') | Some(',')) {
                        return Err(self.error_here(
                            ErrorKind::Syntax,
                            "',' with nothing after it",
                            Some(EXPECTED_ITEM),
                        ));
                    }
                }
                Some(_) => items.push(self.item()?),
            }
        }
        match items.len() {
            0 => Err(self.error_here(
                ErrorKind::Syntax,
                "empty move expression",
                Some(EXPECTED_ITEM),
            )),
            1 => Ok(items.remove(0)),
            _ => Ok(Node {
                kind: NodeKind::Seq(items),
                span: start..self.pos,
            }),
        }
    }

    fn item(&mut self) -> Result<Node, NotationError> {
        let mut node = self.atom()?;
        // After `|` and `^`, a following `+` or `*` is a direction set.
        let mut star_plus_quantify = !matches!(node.kind, NodeKind::Drop | NodeKind::Take);
        loop {
            self.skip_ws();
            let qstart = self.pos;
            let (min, max) = match self.peek() {
                Some('?') => {
                    self.bump();
                    (0, Some(1))
                }
                Some('+') if star_plus_quantify => {
                    self.bump();
                    (1, None)
                }
                Some('*') if star_plus_quantify => {
                    self.bump();
                    (0, None)
                }
                Some('{') => self.braces()?,
                _ => break,
            };
            let maximal = if self.peek() == Some('!') {
                self.bump();
                true
            } else {
                false
            };
            let span = node.span.start..self.pos;
            if let Some(m) = max
                && min > m
            {
                return Err(NotationError::new(
                    ErrorKind::BadRange,
                    qstart..self.pos,
                    format!("the range {{{min},{m}}} is empty: the minimum is above the maximum"),
                    None,
                ));
            }
            node = Node {
                kind: NodeKind::Repeat {
                    body: Box::new(node),
                    min,
                    max,
                    maximal,
                },
                span,
            };
            star_plus_quantify = true;
        }
        Ok(node)
    }

    fn braces(&mut self) -> Result<(u32, Option<u32>), NotationError> {
        let start = self.pos;
        self.bump(); // '{'
        let min = self.number()?;
        let max = if self.peek() == Some(',') {
            self.bump();
            self.number()?
        } else {
            if min.is_none() {
                return Err(self.error_here(
                    ErrorKind::Syntax,
                    "empty count",
                    Some("a count: {n}, {n,m}, {n,} or {,m}"),
                ));
            }
            min
        };
        if self.peek() != Some('}') {
            return Err(NotationError::new(
                ErrorKind::Unbalanced,
                start..start + 1,
                "unclosed '{'",
                Some("a count: {n}, {n,m}, {n,} or {,m}"),
            ));
        }
        self.bump();
        Ok((min.unwrap_or(0), max))
    }

    fn number(&mut self) -> Result<Option<u32>, NotationError> {
        self.skip_ws();
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
        }
        let digits = &self.text[start..self.pos];
        self.skip_ws();
        if digits.is_empty() {
            return Ok(None);
        }
        match digits.parse::<u32>() {
            Ok(n) if n <= MAX_COUNT => Ok(Some(n)),
            _ => Err(NotationError::new(
                ErrorKind::BadRange,
                start..self.pos,
                format!("count {digits} is too large (at most {MAX_COUNT})"),
                None,
            )),
        }
    }

    fn atom(&mut self) -> Result<Node, NotationError> {
        self.skip_ws();
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Err(self.error_here(ErrorKind::Syntax, "unexpected end", Some(EXPECTED_ITEM)));
        };
        let kind = match c {
            'A'..='Z' | '+' | '*' => NodeKind::Step(self.dirs()),
            '(' => return self.group(),
            '\\' | '~' => {
                let (var, back) = self.var()?;
                NodeKind::Var { var, back }
            }
            '|' => {
                self.bump();
                NodeKind::Drop
            }
            '^' => {
                self.bump();
                NodeKind::Take
            }
            '[' => NodeKind::Bracket(self.bracket()?),
            '?' | '{' => {
                return Err(self.error_here(
                    ErrorKind::NothingToRepeat,
                    format!("quantifier '{c}' with nothing to repeat"),
                    Some(EXPECTED_ITEM),
                ));
            }
            '!' => {
                return Err(self.error_here(
                    ErrorKind::Syntax,
                    "'!' must follow a quantifier",
                    Some("a quantifier before it: *! +! ?! {n,m}!"),
                ));
            }
            ']' => return Err(self.error_here(ErrorKind::Unbalanced, "unmatched ']'", None)),
            'a'..='z' => {
                return Err(self.error_here(
                    ErrorKind::Syntax,
                    format!("'{c}' outside brackets"),
                    Some("a direction letter; checks go inside brackets, e.g. [p]"),
                ));
            }
            _ => {
                return Err(self.error_here(
                    ErrorKind::Syntax,
                    format!("unexpected '{c}'"),
                    Some(EXPECTED_ITEM),
                ));
            }
        };
        Ok(Node {
            kind,
            span: start..self.pos,
        })
    }

    /// A run of direction letters (stops at whitespace and at `X`), or a set.
    fn dirs(&mut self) -> DirAtom {
        match self.bump() {
            Some('+') => DirAtom::Orthogonal,
            Some('*') => DirAtom::All,
            Some('X') => DirAtom::Diagonal,
            Some(c) => {
                let mut letters = vec![(c, self.pos - 1)];
                while let Some(c) = self.peek() {
                    if c.is_ascii_uppercase() && c != 'X' {
                        letters.push((c, self.pos));
                        self.bump();
                    } else {
                        break;
                    }
                }
                DirAtom::Letters(letters)
            }
            None => DirAtom::All,
        }
    }

    fn group(&mut self) -> Result<Node, NotationError> {
        let start = self.pos;
        if self.depth >= MAX_DEPTH {
            return Err(self.error_here(
                ErrorKind::TooLarge,
                "parentheses nested too deeply",
                None,
            ));
        }
        self.bump(); // '('
        self.skip_ws();
        // A group holding only a direction run or set is a capture group.
        let save = self.pos;
        if matches!(self.peek(), Some('A'..='Z' | '+' | '*')) {
            let dirs = self.dirs();
            self.skip_ws();
            if self.peek() == Some(')') {
                self.bump();
                return Ok(Node {
                    kind: NodeKind::Capture(dirs),
                    span: start..self.pos,
                });
            }
            self.pos = save;
        }
        self.depth += 1;
        let inner = self.expr()?;
        self.depth -= 1;
        self.skip_ws();
        if self.peek() != Some(')') {
            return Err(NotationError::new(
                ErrorKind::Unbalanced,
                start..start + 1,
                "unclosed '('",
                Some("')' to close this group"),
            ));
        }
        self.bump();
        Ok(Node {
            kind: NodeKind::Group(Box::new(inner)),
            span: start..self.pos,
        })
    }

    fn var(&mut self) -> Result<(u8, bool), NotationError> {
        let back = self.bump() == Some('~');
        match self.peek() {
            Some(d @ '1'..='9') => {
                self.bump();
                Ok((d as u8 - b'0', back))
            }
            _ => Err(self.error_here(
                ErrorKind::Syntax,
                "a variable is a digit 1 to 9",
                Some("a digit 1..9 after '\\' or '~'"),
            )),
        }
    }

    fn bracket(&mut self) -> Result<Bracket, NotationError> {
        let open = self.pos;
        self.bump(); // '['
        let mut checks = Vec::new();
        let mut nav = Vec::new();
        let mut parens: Vec<usize> = Vec::new();
        let unclosed = |_at: usize| {
            NotationError::new(
                ErrorKind::Unbalanced,
                open..open + 1,
                "unclosed '['",
                Some("']'"),
            )
        };
        loop {
            self.skip_ws();
            let here = self.pos;
            let Some(c) = self.peek() else {
                return Err(unclosed(here));
            };
            match c {
                ']' => break,
                ',' => {
                    self.bump();
                }
                '(' => {
                    parens.push(here);
                    self.bump();
                }
                ')' => {
                    if parens.pop().is_none() {
                        return Err(self.error_here(ErrorKind::Unbalanced, "unmatched ')'", None));
                    }
                    self.bump();
                }
                '>' => {
                    self.bump();
                    nav = self.nav()?;
                    self.skip_ws();
                    if self.peek() != Some(']') {
                        return match self.peek() {
                            None => Err(unclosed(self.pos)),
                            Some(_) => Err(self.error_here(
                                ErrorKind::Syntax,
                                "only ']' may follow a navigation",
                                Some("']' (checks come before the first '>')"),
                            )),
                        };
                    }
                    break;
                }
                '1'..='9' => {
                    self.bump();
                    checks.push(Check {
                        kind: CheckKind::Handler(c as u8 - b'0'),
                        span: here..self.pos,
                    });
                }
                '=' | '@' => {
                    self.bump();
                    let name = self.ident();
                    if name.is_empty() {
                        return Err(self.error_here(
                            ErrorKind::Syntax,
                            format!("'{c}' without a name"),
                            Some(if c == '=' {
                                "a piece name, e.g. =Rook"
                            } else {
                                "a zone name, e.g. @promotion"
                            }),
                        ));
                    }
                    let kind = if c == '=' {
                        CheckKind::Piece(name)
                    } else {
                        CheckKind::Zone(name)
                    };
                    checks.push(Check {
                        kind,
                        span: here..self.pos,
                    });
                }
                c if CHECK_CODES.contains(c) => {
                    self.bump();
                    checks.push(Check {
                        kind: CheckKind::Code(c),
                        span: here..self.pos,
                    });
                }
                _ => {
                    return Err(self.error_here(
                        ErrorKind::UnknownCheck,
                        format!("unknown check '{c}'"),
                        Some(
                            "one of p P e E f F a A s S o m M r R l L t T x, 1..9, =Name, @zone or '>'",
                        ),
                    ));
                }
            }
        }
        if let Some(p) = parens.pop() {
            return Err(NotationError::new(
                ErrorKind::Unbalanced,
                p..p + 1,
                "unclosed '(' in brackets",
                Some("')'"),
            ));
        }
        if checks.is_empty() {
            return Err(NotationError::new(
                ErrorKind::Syntax,
                open..self.pos + 1,
                "brackets without a check",
                Some("at least one check or action, e.g. [p]"),
            ));
        }
        self.bump(); // ']'
        Ok(Bracket { checks, nav })
    }

    fn nav(&mut self) -> Result<Vec<Nav>, NotationError> {
        let mut steps = Vec::new();
        loop {
            self.skip_ws();
            let here = self.pos;
            match self.peek() {
                Some(c) if c.is_ascii_uppercase() && c != 'X' => {
                    self.bump();
                    if self.peek().is_some_and(|c| c.is_ascii_uppercase()) {
                        return Err(self.error_here(
                            ErrorKind::Syntax,
                            "a navigation step is a single direction",
                            Some("'>' before each step, e.g. >N>E"),
                        ));
                    }
                    steps.push(Nav::Dir(c, here..self.pos));
                }
                Some('\\' | '~') => {
                    let (var, back) = self.var()?;
                    steps.push(Nav::Var {
                        var,
                        back,
                        span: here..self.pos,
                    });
                }
                _ => {
                    return Err(self.error_here(
                        ErrorKind::Syntax,
                        "'>' must be followed by a step",
                        Some("a direction letter, \\k or ~k"),
                    ));
                }
            }
            self.skip_ws();
            if self.peek() == Some('>') {
                self.bump();
            } else {
                return Ok(steps);
            }
        }
    }

    fn ident(&mut self) -> String {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.bump();
        }
        self.text[start..self.pos].to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> Node {
        parse(s).unwrap_or_else(|e| panic!("{s}: {e:?}"))
    }

    fn kind_of(s: &str) -> ErrorKind {
        parse(s).unwrap_err().kind
    }

    #[test]
    fn runs_are_alternatives_and_commas_sequence() {
        match ok("WNE").kind {
            NodeKind::Step(DirAtom::Letters(l)) => assert_eq!(l.len(), 3),
            k => panic!("{k:?}"),
        }
        assert!(matches!(ok("N,E").kind, NodeKind::Seq(ref v) if v.len() == 2));
        assert!(matches!(ok("N E").kind, NodeKind::Seq(ref v) if v.len() == 2));
        assert!(matches!(ok("N[p]").kind, NodeKind::Seq(ref v) if v.len() == 2));
    }

    #[test]
    fn plus_and_star_are_sets_or_quantifiers() {
        match ok("(+)\\1*").kind {
            NodeKind::Seq(v) => {
                assert!(matches!(v[0].kind, NodeKind::Capture(DirAtom::Orthogonal)));
                assert!(matches!(
                    v[1].kind,
                    NodeKind::Repeat {
                        min: 0,
                        max: None,
                        ..
                    }
                ));
            }
            k => panic!("{k:?}"),
        }
        match ok("*[A]").kind {
            NodeKind::Seq(v) => assert!(matches!(v[0].kind, NodeKind::Step(DirAtom::All))),
            k => panic!("{k:?}"),
        }
        // `++`: one-or-more orthogonal steps.
        assert!(matches!(ok("++").kind, NodeKind::Repeat { min: 1, .. }));
        // After `|`, `*` is the set.
        assert!(matches!(ok("|*").kind, NodeKind::Seq(ref v) if v.len() == 2));
    }

    #[test]
    fn quantifiers() {
        assert!(matches!(
            ok("N{2}").kind,
            NodeKind::Repeat {
                min: 2,
                max: Some(2),
                ..
            }
        ));
        assert!(matches!(
            ok("N{2,}").kind,
            NodeKind::Repeat {
                min: 2,
                max: None,
                ..
            }
        ));
        assert!(matches!(
            ok("N{,4}").kind,
            NodeKind::Repeat {
                min: 0,
                max: Some(4),
                ..
            }
        ));
        assert!(matches!(
            ok("N{1,3}!").kind,
            NodeKind::Repeat { maximal: true, .. }
        ));
        assert!(matches!(
            ok("N?").kind,
            NodeKind::Repeat {
                min: 0,
                max: Some(1),
                ..
            }
        ));
        assert!(matches!(
            ok("(N)+!").kind,
            NodeKind::Repeat {
                min: 1,
                maximal: true,
                ..
            }
        ));
    }

    #[test]
    fn brackets() {
        match ok("[(te,=Pawn,x)>E]").kind {
            NodeKind::Bracket(b) => {
                assert_eq!(b.checks.len(), 4);
                assert_eq!(b.checks[2].kind, CheckKind::Piece("Pawn".into()));
                assert!(matches!(b.nav[..], [Nav::Dir('E', _)]));
            }
            k => panic!("{k:?}"),
        }
        match ok("[p>N>\\1]").kind {
            NodeKind::Bracket(b) => assert_eq!(b.nav.len(), 2),
            k => panic!("{k:?}"),
        }
        match ok("[@zone 3]").kind {
            NodeKind::Bracket(b) => {
                assert_eq!(b.checks[0].kind, CheckKind::Zone("zone".into()));
                assert_eq!(b.checks[1].kind, CheckKind::Handler(3));
            }
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn comments_and_lines() {
        ok("N[p]; # a step\n OM[e]");
    }

    #[test]
    fn errors() {
        assert_eq!(kind_of("(N"), ErrorKind::Unbalanced);
        assert_eq!(kind_of("N)"), ErrorKind::Unbalanced);
        assert_eq!(kind_of("[p"), ErrorKind::Unbalanced);
        assert_eq!(kind_of("p]"), ErrorKind::Syntax);
        assert_eq!(kind_of("]"), ErrorKind::Unbalanced);
        assert_eq!(kind_of("?N"), ErrorKind::NothingToRepeat);
        assert_eq!(kind_of("N;{2}"), ErrorKind::NothingToRepeat);
        assert_eq!(kind_of("N{3,2}"), ErrorKind::BadRange);
        assert_eq!(kind_of("[q]"), ErrorKind::UnknownCheck);
        assert_eq!(kind_of("[]"), ErrorKind::Syntax);
        assert_eq!(kind_of("N!"), ErrorKind::Syntax);
        assert_eq!(kind_of(""), ErrorKind::Syntax);
        assert_eq!(kind_of("N;"), ErrorKind::Syntax);
        assert_eq!(kind_of("\\0"), ErrorKind::Syntax);
        assert_eq!(kind_of("[p>NE]"), ErrorKind::Syntax);
        assert_eq!(kind_of("N{2"), ErrorKind::Unbalanced);
        assert_eq!(kind_of(&"(".repeat(100)), ErrorKind::TooLarge);
    }

    #[test]
    fn error_spans_point_at_the_problem() {
        let e = parse("N[p]; OM[q]").unwrap_err();
        assert_eq!(e.span, 9..10);
        let e = parse("N{3,2}").unwrap_err();
        assert_eq!(e.span, 1..6);
    }
}
