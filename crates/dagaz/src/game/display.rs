//! How a game is drawn: the `[display]` section of a game file and the
//! `glyphs` of its pieces. Only front ends read this; the rules never do.

use crate::board::{Square, Topology};

/// What the board looks like.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BoardStyle {
    /// Pieces stand in the squares of a grid (chess, shogi).
    #[default]
    Squares,
    /// Pieces stand on points joined by lines (xiangqi, Fanorona).
    Points,
    /// Round pits holding a number of pieces (mancala on heap boards).
    Pits,
    /// Hexagonal cells, each row shifted half a cell right of the row
    /// above (Hex).
    Hexes,
}

/// What a piece looks like.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PieceShape {
    /// Its glyph alone, in its owner's colour (chess symbols).
    #[default]
    Glyph,
    /// A disc in its owner's colour with the glyph on it (draughts).
    Disc,
    /// A light round counter with the glyph and rim in the owner's colour
    /// (xiangqi, janggi).
    Counter,
    /// A pointed wooden tile facing the opponent (shogi).
    Tile,
}

/// Everything the `[display]` section says, resolved against the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Display {
    pub style: BoardStyle,
    pub shape: PieceShape,
    /// Squares are drawn in two alternating colours.
    pub checkered: bool,
    /// Lines between points (for [`BoardStyle::Points`]), each once.
    pub lines: Vec<(Square, Square)>,
    /// A CSS colour per player.
    pub colours: Vec<String>,
    /// Squares removed from the grid are drawn as plain squares (draughts
    /// boards keep only one colour), not left out (cross-shaped boards).
    pub show_removed: bool,
}

/// The raw `[display]` values of a game file.
#[derive(Clone, Debug, Default)]
pub struct DisplaySpec {
    pub style: Option<String>,
    pub pieces: Option<String>,
    pub checkered: Option<bool>,
    /// Direction letters whose links are drawn as lines.
    pub lines: Option<String>,
    /// Extra straight lines, `d1-f3 f1-d3`.
    pub segments: Option<String>,
    pub colours: Option<Vec<String>>,
    pub show_removed: Option<bool>,
}

/// Default colours for up to eight players.
const COLOURS: [&str; 8] = [
    "#f7f3e8", "#2b2b2b", "#c0392b", "#2e86c1", "#27ae60", "#8e44ad", "#d68910", "#17a589",
];

impl Display {
    /// Resolves a spec; the error says which key is wrong and why.
    pub fn build(spec: &DisplaySpec, topo: &Topology, players: usize) -> Result<Display, String> {
        let style = match spec.style.as_deref() {
            None | Some("squares") => BoardStyle::Squares,
            Some("points") => BoardStyle::Points,
            Some("pits") => BoardStyle::Pits,
            Some("hexes") => BoardStyle::Hexes,
            Some(other) => {
                return Err(format!(
                    "display.style: unknown style '{other}'; use squares, points, pits or hexes"
                ));
            }
        };
        let shape = match spec.pieces.as_deref() {
            None | Some("glyph") => PieceShape::Glyph,
            Some("disc") => PieceShape::Disc,
            Some("counter") => PieceShape::Counter,
            Some("tile") => PieceShape::Tile,
            Some(other) => {
                return Err(format!(
                    "display.pieces: unknown shape '{other}'; use glyph, disc, counter or tile"
                ));
            }
        };
        let mut lines = Vec::new();
        if style == BoardStyle::Points {
            let default: String = topo
                .orthogonal()
                .iter()
                .map(|d| topo.direction(*d).letter)
                .collect();
            lines = link_lines(topo, spec.lines.as_deref().unwrap_or(&default))?;
            if let Some(segments) = &spec.segments {
                lines.extend(segment_lines(topo, segments)?);
            }
        }
        let colours = match &spec.colours {
            Some(c) if c.len() != players => {
                return Err(format!(
                    "display.colours: {} colours for {players} players",
                    c.len()
                ));
            }
            Some(c) => {
                if let Some(bad) = c.iter().find(|c| !is_css_colour(c)) {
                    return Err(format!(
                        "display.colours: '{bad}' is not a colour (#rgb, #rrggbb or a name)"
                    ));
                }
                c.clone()
            }
            None => (0..players)
                .map(|p| COLOURS[p % COLOURS.len()].to_string())
                .collect(),
        };
        Ok(Display {
            style,
            shape,
            checkered: spec.checkered.unwrap_or(style == BoardStyle::Squares),
            lines,
            colours,
            show_removed: spec.show_removed.unwrap_or(false),
        })
    }
}

/// One line for each link of the named directions.
fn link_lines(topo: &Topology, letters: &str) -> Result<Vec<(Square, Square)>, String> {
    let mut out = Vec::new();
    for letter in letters.chars().filter(|c| !c.is_whitespace()) {
        let dir = topo
            .dir(letter)
            .ok_or_else(|| format!("display.lines: unknown direction '{letter}'"))?;
        for sq in topo.squares() {
            if let Some(next) = topo.step(sq, dir) {
                let pair = (sq.min(next), sq.max(next));
                if !out.contains(&pair) {
                    out.push(pair);
                }
            }
        }
    }
    Ok(out)
}

/// Lines written as `a1-c3 c1-a3`.
fn segment_lines(topo: &Topology, text: &str) -> Result<Vec<(Square, Square)>, String> {
    text.split([' ', ','])
        .filter(|s| !s.is_empty())
        .map(|seg| {
            let (a, b) = seg
                .split_once('-')
                .ok_or_else(|| format!("display.segments: '{seg}' is not of the form a1-c3"))?;
            let square = |n: &str| {
                topo.square(n)
                    .ok_or_else(|| format!("display.segments: unknown square '{n}'"))
            };
            Ok((square(a)?, square(b)?))
        })
        .collect()
}

/// A colour the page can use as it is: `#` and hex digits, or a name.
fn is_css_colour(c: &str) -> bool {
    match c.strip_prefix('#') {
        Some(hex) => {
            [3, 4, 6, 8].contains(&hex.len()) && hex.chars().all(|h| h.is_ascii_hexdigit())
        }
        None => !c.is_empty() && c.len() <= 20 && c.chars().all(|h| h.is_ascii_alphabetic()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::load_game;

    #[test]
    fn fanorona_lines_follow_its_links() {
        let game = load_game("fanorona").unwrap();
        let d = &game.display;
        assert_eq!(d.style, BoardStyle::Points);
        // 9x5 points: 8*5 + 9*4 orthogonal lines, and 32 diagonal ones.
        assert_eq!(d.lines.len(), 40 + 36 + 32);
    }

    #[test]
    fn bad_values_are_named() {
        let game = load_game("chess").unwrap();
        let spec = DisplaySpec {
            style: Some("hex".into()),
            ..Default::default()
        };
        let e = Display::build(&spec, &game.topology, 2).unwrap_err();
        assert!(e.contains("display.style") && e.contains("hex"), "{e}");
        let spec = DisplaySpec {
            colours: Some(vec!["red".into(), "url(x)".into()]),
            ..Default::default()
        };
        let e = Display::build(&spec, &game.topology, 2).unwrap_err();
        assert!(e.contains("url(x)"), "{e}");
    }
}
