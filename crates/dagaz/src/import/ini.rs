//! The syntax of Fairy-Stockfish's `variants.ini`: sections `[name]` or
//! `[name:parent]`, lines `key = value`, comments on lines starting with
//! `#` or `;`. Read the way Fairy-Stockfish reads it (nothing trimmed from
//! section names, a key keeps its leading blanks, a value its trailing
//! ones, an empty value is not stored, the last of two equal keys wins),
//! with a warning wherever that differs from what the author most likely
//! meant.

use indexmap::IndexMap;

/// One `key = value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub value: String,
    /// 1-based line in the file (0: a built-in parent's own key).
    pub line: usize,
}

/// One section: its name, its parent, its keys in file order.
#[derive(Clone, Debug)]
pub struct Section {
    pub name: String,
    pub parent: Option<String>,
    pub line: usize,
    pub keys: IndexMap<String, Entry>,
}

/// Something in the file the reader took differently from how it reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub line: usize,
    pub message: String,
}

/// The sections of a file, and the notes on lines read differently from
/// how they look.
pub fn parse(text: &str) -> (Vec<Section>, Vec<Note>) {
    let mut sections: Vec<Section> = Vec::new();
    let mut notes = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.strip_suffix('\r').unwrap_or(raw);
        if let Some(header) = l.strip_prefix('[') {
            sections.push(section_header(header, line));
            continue;
        }
        let Some(section) = sections.last_mut() else {
            continue;
        };
        if l.is_empty() || l.starts_with('#') || l.starts_with(';') {
            continue;
        }
        let Some((key, value)) = l.split_once('=') else {
            notes.push(Note {
                line,
                message: format!("'{}' has no '=': ignored", l.trim()),
            });
            continue;
        };
        let key = key.trim_end_matches(' ');
        let value = value.trim_start();
        lint(key, value, line, &mut notes);
        if !value.is_empty() {
            section.keys.shift_remove(key);
            section.keys.insert(
                key.to_string(),
                Entry {
                    value: value.to_string(),
                    line,
                },
            );
        }
    }
    (sections, notes)
}

fn section_header(header: &str, line: usize) -> Section {
    let inner = header.split(']').next().unwrap_or("");
    let (name, parent) = match inner.split_once(':') {
        Some((n, p)) => (n, Some(p.to_string())),
        None => (inner, None),
    };
    Section {
        name: name.to_string(),
        parent,
        line,
        keys: IndexMap::new(),
    }
}

/// Warnings for a line Fairy-Stockfish reads otherwise than it looks.
fn lint(key: &str, value: &str, line: usize, notes: &mut Vec<Note>) {
    let mut note = |message: String| notes.push(Note { line, message });
    if key != key.trim() {
        note(format!(
            "key '{}' has blanks around it, so Fairy-Stockfish never looks it up",
            key.trim()
        ));
    }
    if value.contains(" #") || value.contains(" ;") {
        note(format!(
            "'{}': Fairy-Stockfish has no comments after a value; they are part of it",
            key.trim()
        ));
    }
    if value != value.trim_end() && matches!(value.trim_end(), "true" | "false") {
        note(format!(
            "'{}': the blanks after '{}' make Fairy-Stockfish read false",
            key.trim(),
            value.trim_end()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_keys_and_quirks() {
        let text = "header text\n[a:chess]\n# c\nx = 1\nx = 2\n  y = 3\nz =\n[b]\nw = true \n";
        let (sections, notes) = parse(text);
        assert_eq!(sections.len(), 2);
        assert_eq!(sections[0].parent.as_deref(), Some("chess"));
        assert_eq!(sections[0].keys["x"].value, "2");
        assert_eq!(sections[0].keys["x"].line, 5);
        assert!(sections[0].keys.contains_key("  y"));
        assert!(!sections[0].keys.contains_key("z"));
        assert_eq!(sections[1].parent, None);
        assert_eq!(sections[1].keys["w"].value, "true ");
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert_eq!(notes[0].line, 6);
        assert_eq!(notes[1].line, 9);
    }
}
