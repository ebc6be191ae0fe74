//! The grid syntax of the original article: `a-h x 8-1` is files `a`..`h`
//! from left to right and ranks `8`..`1` from top to bottom. A third
//! component gives levels (`a-e x 5-1 x A-E`). Labels are numbers or letter
//! sequences; letters continue past `z` as `aa`, `ab`, … so any size works.

/// The labels of a grid's columns, rows and (optionally) levels, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GridSpec {
    pub cols: Vec<String>,
    pub rows: Vec<String>,
    pub levels: Vec<String>,
}

const MAX_EXTENT: usize = 1000;

/// Parses a grid description.
pub fn parse_grid(text: &str) -> Result<GridSpec, String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let mut parts = Vec::new();
    for (i, tok) in tokens.iter().enumerate() {
        if i % 2 == 1 {
            if *tok != "x" {
                return Err(format!(
                    "expected 'x' between the ranges of '{text}', found '{tok}'"
                ));
            }
        } else {
            parts.push(parse_range(tok)?);
        }
    }
    if tokens.len().is_multiple_of(2) || !(2..=3).contains(&parts.len()) {
        return Err(format!(
            "a grid is written 'a-h x 8-1' (columns x rows [x levels]), not '{text}'"
        ));
    }
    let mut parts = parts.into_iter();
    let cols = parts.next().unwrap_or_default();
    let rows = parts.next().unwrap_or_default();
    let levels = parts.next().unwrap_or_default();
    let numeric = |v: &[String]| v.iter().all(|s| s.chars().all(|c| c.is_ascii_digit()));
    if numeric(&cols) && numeric(&rows) {
        return Err("columns and rows cannot both be numbers: square names would clash".into());
    }
    Ok(GridSpec { cols, rows, levels })
}

fn parse_range(tok: &str) -> Result<Vec<String>, String> {
    // A list of labels, `a/b/c` (ZRF's dimensions).
    if tok.contains('/') {
        let labels: Vec<String> = tok.split('/').map(str::to_string).collect();
        if labels.iter().any(|l| l.is_empty()) {
            return Err(format!("an empty label in '{tok}'"));
        }
        if labels.len() > MAX_EXTENT {
            return Err(format!(
                "'{tok}' has {} labels; at most {MAX_EXTENT}",
                labels.len()
            ));
        }
        return Ok(labels);
    }
    // One label of letters and digits, as it is (`r0`).
    if !tok.contains('-')
        && label_value(tok).is_none()
        && tok.chars().all(|c| c.is_ascii_alphanumeric())
    {
        return Ok(vec![tok.to_string()]);
    }
    let (a, b) = tok.split_once('-').unwrap_or((tok, tok));
    let (start, kind_a) = label_value(a).ok_or_else(|| format!("bad label '{a}' in '{tok}'"))?;
    let (end, kind_b) = label_value(b).ok_or_else(|| format!("bad label '{b}' in '{tok}'"))?;
    if kind_a != kind_b {
        return Err(format!("'{tok}' mixes numbers and letters"));
    }
    let len = start.abs_diff(end) + 1;
    if len > MAX_EXTENT {
        return Err(format!("'{tok}' has {len} labels; at most {MAX_EXTENT}"));
    }
    let values: Vec<usize> = if start <= end {
        (start..=end).collect()
    } else {
        (end..=start).rev().collect()
    };
    Ok(values.into_iter().map(|v| label_text(v, kind_a)).collect())
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum LabelKind {
    Number,
    Lower,
    Upper,
}

/// A label's numeric value: numbers as they are, letters in bijective base 26
/// (`a` = 1, `z` = 26, `aa` = 27).
fn label_value(s: &str) -> Option<(usize, LabelKind)> {
    if s.is_empty() || s.len() > 4 {
        return None;
    }
    if s.chars().all(|c| c.is_ascii_digit()) {
        return s.parse().ok().map(|v| (v, LabelKind::Number));
    }
    let kind = if s.chars().all(|c| c.is_ascii_lowercase()) {
        LabelKind::Lower
    } else if s.chars().all(|c| c.is_ascii_uppercase()) {
        LabelKind::Upper
    } else {
        return None;
    };
    let v = s.bytes().fold(0usize, |acc, b| {
        acc * 26 + (b.to_ascii_lowercase() - b'a' + 1) as usize
    });
    Some((v, kind))
}

fn label_text(mut v: usize, kind: LabelKind) -> String {
    if kind == LabelKind::Number {
        return v.to_string();
    }
    let base = if kind == LabelKind::Lower { b'a' } else { b'A' };
    let mut out = Vec::new();
    while v > 0 {
        v -= 1;
        out.push(base + (v % 26) as u8);
        v /= 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess_grid() {
        let g = parse_grid("a-h x 8-1").unwrap();
        assert_eq!(g.cols.join(""), "abcdefgh");
        assert_eq!(g.rows.first().map(String::as_str), Some("8"));
        assert_eq!(g.rows.last().map(String::as_str), Some("1"));
        assert!(g.levels.is_empty());
    }

    #[test]
    fn shogi_grid_numbers_first() {
        let g = parse_grid("9-1 x a-i").unwrap();
        assert_eq!(g.cols[0], "9");
        assert_eq!(g.rows[8], "i");
    }

    #[test]
    fn letters_past_z() {
        let g = parse_grid("y-ac x 1-2").unwrap();
        assert_eq!(g.cols, vec!["y", "z", "aa", "ab", "ac"]);
    }

    #[test]
    fn labels_listed_one_by_one() {
        let g = parse_grid("c0/c1/top x r0").unwrap();
        assert_eq!(g.cols, vec!["c0", "c1", "top"]);
        assert_eq!(g.rows, vec!["r0"]);
        assert!(parse_grid("a//b x 1").is_err());
    }

    #[test]
    fn three_dimensions() {
        let g = parse_grid("a-e x 5-1 x A-E").unwrap();
        assert_eq!(g.levels.len(), 5);
    }

    #[test]
    fn errors() {
        assert!(parse_grid("a-h").is_err());
        assert!(parse_grid("a-h y 8-1").is_err());
        assert!(parse_grid("a-8 x 1-2").is_err());
        assert!(parse_grid("1-8 x 1-8").is_err());
        assert!(parse_grid("a-h x 1-5000").is_err());
        assert!(parse_grid("").is_err());
    }
}
