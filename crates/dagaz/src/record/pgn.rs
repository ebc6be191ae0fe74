//! The tag-pair syntax of PGN, which PDN (draughts) shares: tag pairs
//! `[Name "value"]`, then the movetext — move numbers, moves, comments
//! (`{…}`, `;` to the end of the line), variations (`(…)`), annotation
//! glyphs (`$1`) — ending with the result (`1-0`, `0-1`, `1/2-1/2`, `*`;
//! PDN also `2-0`, `0-2`, `1-1`). A file may hold many games.
//!
//! Reading keeps the tags and the main line's moves as written; what the
//! moves mean is for [`super::load`]. Writing wraps the movetext under 80
//! columns with a move number before the first player's moves.

use super::{Record, RecordError};

/// The result tokens that end a game's movetext (PDN's `0-0`, both sides
/// losing, is left out: it is castling written with zeros).
const RESULTS: [&str; 7] = ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1"];

/// Reads every game of a PGN or PDN text.
pub fn read(text: &str) -> Result<Vec<Record>, RecordError> {
    let mut games = Vec::new();
    let mut current = Record::default();
    let mut in_moves = false;
    let mut reader = Reader::new(text);
    while let Some((line, token)) = reader.next_token()? {
        match token {
            Token::Tag(name, value) => {
                if in_moves {
                    games.push(std::mem::take(&mut current));
                    in_moves = false;
                }
                current.tags.push((name, value));
            }
            Token::Word(word) => {
                in_moves = true;
                if RESULTS.contains(&word.as_str()) {
                    current.result = Some(word);
                    games.push(std::mem::take(&mut current));
                    in_moves = false;
                } else if word == "e.p." {
                    // An en passant capture's mark written apart.
                } else if let Some(mv) = strip_number(&word) {
                    if current.result.is_some() {
                        return Err(RecordError::Syntax {
                            line,
                            message: format!("'{word}' after the game's result"),
                        });
                    }
                    current.moves.push(mv.to_string());
                }
            }
        }
    }
    if in_moves || !current.tags.is_empty() {
        games.push(current);
    }
    if games.is_empty() {
        return Err(RecordError::Syntax {
            line: 1,
            message: "no game in the text".into(),
        });
    }
    Ok(games)
}

/// A word of movetext without its move number (`12.e4` → `e4`); `None`
/// for a move number alone (`12.`, `12...`).
fn strip_number(word: &str) -> Option<&str> {
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &word[digits..];
    if digits > 0 && rest.starts_with('.') {
        let rest = rest.trim_start_matches('.');
        return (!rest.is_empty()).then_some(rest);
    }
    Some(word)
}

enum Token {
    Tag(String, String),
    Word(String),
}

/// Splits a PGN text into tags and movetext words, skipping comments,
/// variations and annotation glyphs.
struct Reader<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    text: &'a str,
    line: usize,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Reader<'a> {
        Reader {
            chars: text.char_indices().peekable(),
            text,
            line: 1,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let (_, c) = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn fail<T>(&self, line: usize, message: impl Into<String>) -> Result<T, RecordError> {
        Err(RecordError::Syntax {
            line,
            message: message.into(),
        })
    }

    fn next_token(&mut self) -> Result<Option<(usize, Token)>, RecordError> {
        loop {
            let Some(&(at, c)) = self.chars.peek() else {
                return Ok(None);
            };
            let line = self.line;
            match c {
                c if c.is_whitespace() => {
                    self.bump();
                }
                '%' if at == 0 || self.text[..at].ends_with('\n') => self.skip_line(),
                ';' => self.skip_line(),
                '{' => self.skip_until('}', line, "a comment '{' is never closed")?,
                '(' => self.skip_variation(line)?,
                '$' => {
                    self.bump();
                    self.take_while(|c| c.is_ascii_digit());
                }
                '[' => return self.tag(line).map(|t| Some((line, t))),
                ')' | ']' | '}' => return self.fail(line, format!("unexpected '{c}'")),
                _ => {
                    let word = self.take_while(|c| !c.is_whitespace() && !"{}()[];$".contains(c));
                    return Ok(Some((line, Token::Word(word))));
                }
            }
        }
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> String {
        let mut out = String::new();
        while let Some(&(_, c)) = self.chars.peek() {
            if !keep(c) {
                break;
            }
            out.push(c);
            self.bump();
        }
        out
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }

    fn skip_until(&mut self, end: char, line: usize, message: &str) -> Result<(), RecordError> {
        self.bump();
        loop {
            match self.bump() {
                Some(c) if c == end => return Ok(()),
                Some(_) => {}
                None => return self.fail(line, message),
            }
        }
    }

    /// Skips a variation, with the variations and comments inside it.
    fn skip_variation(&mut self, line: usize) -> Result<(), RecordError> {
        self.bump();
        let mut depth = 1;
        while depth > 0 {
            match self.chars.peek().map(|&(_, c)| c) {
                None => return self.fail(line, "a variation '(' is never closed"),
                Some('{') => self.skip_until('}', self.line, "a comment '{' is never closed")?,
                Some(';') => self.skip_line(),
                Some(c) => {
                    depth += usize::from(c == '(');
                    depth -= usize::from(c == ')');
                    self.bump();
                }
            }
        }
        Ok(())
    }

    /// `[Name "value"]`, with `\"` and `\\` escapes in the value.
    fn tag(&mut self, line: usize) -> Result<Token, RecordError> {
        self.bump();
        self.take_while(char::is_whitespace);
        let name = self.take_while(|c| c.is_ascii_alphanumeric() || c == '_');
        if name.is_empty() {
            return self.fail(line, "a tag without a name");
        }
        self.take_while(char::is_whitespace);
        if self.bump() != Some('"') {
            return self.fail(line, format!("the tag {name} has no quoted value"));
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('\\') => match self.bump() {
                    Some(c) => value.push(c),
                    None => break,
                },
                Some('"') => {
                    self.take_while(char::is_whitespace);
                    if self.bump() != Some(']') {
                        return self.fail(line, format!("the tag {name} is not closed with ']'"));
                    }
                    return Ok(Token::Tag(name, value));
                }
                Some('\n') | None => break,
                Some(c) => value.push(c),
            }
        }
        self.fail(line, format!("the value of the tag {name} is not closed"))
    }
}

/// Writes a record: its tags, then its moves numbered from `fullmove`
/// (`first_moves`: whether the first move is the first player's), then the
/// result.
pub fn write(record: &Record, fullmove: u32, first_moves: bool) -> String {
    let mut out = String::new();
    for (name, value) in &record.tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        out += &format!("[{name} \"{value}\"]\n");
    }
    out.push('\n');
    let mut words = Vec::new();
    let mut number = fullmove;
    let mut white = first_moves;
    for (i, mv) in record.moves.iter().enumerate() {
        if white {
            words.push(format!("{number}. {mv}"));
        } else if i == 0 {
            words.push(format!("{number}... {mv}"));
        } else {
            words.push(mv.clone());
        }
        if !white {
            number += 1;
        }
        white = !white;
    }
    words.push(record.result.clone().unwrap_or_else(|| "*".into()));
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > 79 {
            out += &line;
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += &word;
    }
    out += &line;
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_moves_comments_and_variations() {
        let text = "[Event \"Test \\\"quoted\\\"\"]\n[Result \"1-0\"]\n\n\
                    1.e4 {best by test} e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 $1 Nc6 ; a comment\n\
                    3. Bb5 a6 1-0\n\n[Event \"Second\"]\n\n1. d4 *\n";
        let games = read(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("Test \"quoted\""));
        assert_eq!(games[0].moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        assert_eq!(games[1].moves, ["d4"]);
        assert_eq!(games[1].result.as_deref(), Some("*"));
    }

    #[test]
    fn reads_draughts_moves_and_black_first_numbers() {
        let games = read("[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 3... 5-10 2-0").unwrap();
        assert_eq!(games[0].moves, ["32-28", "19-23", "28x19", "14x23", "5-10"]);
        assert_eq!(games[0].result.as_deref(), Some("2-0"));
    }

    #[test]
    fn names_the_line_of_a_syntax_error() {
        let err = read("[Event \"x\"]\n\n1. e4 {open comment\n e5").unwrap_err();
        assert_eq!(err.to_string(), "line 3: a comment '{' is never closed");
        let err = read("[Event x]\n1. e4").unwrap_err();
        assert!(
            err.to_string().starts_with("line 1: the tag Event"),
            "{err}"
        );
    }

    #[test]
    fn writes_numbers_and_wraps_lines() {
        let record = Record {
            tags: vec![("Event".into(), "A \"b\"".into())],
            moves: (0..40).map(|i| format!("m{i}")).collect(),
            result: Some("0-1".into()),
        };
        let text = write(&record, 1, true);
        assert!(text.starts_with("[Event \"A \\\"b\\\"\"]\n\n1. m0 m1 2. m2 m3"));
        assert!(text.lines().all(|l| l.len() < 80));
        assert!(text.trim_end().ends_with("0-1"));
        assert_eq!(read(&text).unwrap()[0].moves, record.moves);
        let black = write(&record, 7, false);
        assert!(black.contains("7... m0 8. m1 m2 9. m3"), "{black}");
    }
}
