//! A position drawn as an SVG picture, in the spirit of the web page: the
//! squares, points or pits of the board at their grid places (levels of a
//! 3-D board side by side), the pieces as the game file's `[display]`
//! says (glyphs, discs, counters, tiles), hands and pit counts as numbers.
//! For notebooks and documents; the page draws its own.

use std::fmt::Write as _;

use crate::board::Square;
use crate::game::Game;
use crate::game::display::{BoardStyle, PieceShape};
use crate::position::{NO_PIECE, Position};

/// The side of one square, in SVG units.
const S: f64 = 40.0;
/// Room for the row and column names.
const MARGIN: f64 = 22.0;

/// The position as an SVG document.
pub fn draw(game: &Game, pos: &Position) -> String {
    let topo = &game.topology;
    let grid = topo.grid();
    let (cols, rows) = (grid.cols.len().max(1), grid.rows.len().max(1));
    let levels = grid.levels.len().max(1);
    // Hex boards: each row half a cell right of the one above, rows closer.
    let hex = game.display.style == BoardStyle::Hexes;
    let (shear, dy) = if hex { (S * 0.5, S * 0.866) } else { (0.0, S) };
    let level_width = cols as f64 * S + (rows - 1) as f64 * shear;
    let board_width = levels as f64 * level_width + (levels - 1) as f64 * S * 0.5;
    let hands = game.has_hands();
    let hand_height = if hands { S * 0.8 } else { 0.0 };
    let width = board_width + 2.0 * MARGIN;
    let height = (rows - 1) as f64 * dy + S + 2.0 * MARGIN + 2.0 * hand_height;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width:.0} {height:.0}\" \
         width=\"{width:.0}\" height=\"{height:.0}\" font-family=\"sans-serif\">\n"
    );
    let _ = writeln!(
        out,
        "<rect width=\"{width:.0}\" height=\"{height:.0}\" fill=\"#efe6d2\"/>"
    );
    let origin = |sq: Square| -> (f64, f64) {
        let c = topo.coords(sq);
        let level_x = c.level as f64 * (level_width + S * 0.5);
        (
            MARGIN + level_x + c.col as f64 * S + c.row as f64 * shear,
            MARGIN + hand_height + c.row as f64 * dy,
        )
    };
    board(game, &mut out, &origin);
    labels(game, &mut out, &origin);
    for sq in topo.squares() {
        let (x, y) = origin(sq);
        square_contents(game, pos, sq, x + S / 2.0, y + S / 2.0, &mut out);
    }
    if hands {
        hand_rows(game, pos, width, height, hand_height, &mut out);
    }
    out.push_str("</svg>\n");
    out
}

/// The squares, points and lines, or pits.
fn board(game: &Game, out: &mut String, origin: &dyn Fn(Square) -> (f64, f64)) {
    let topo = &game.topology;
    let d = &game.display;
    for sq in topo.squares() {
        let (x, y) = origin(sq);
        let c = topo.coords(sq);
        match d.style {
            BoardStyle::Squares => {
                let dark = d.checkered && (c.col + c.row) % 2 == 1;
                let fill = if dark { "#b58863" } else { "#f0d9b5" };
                let _ = writeln!(
                    out,
                    "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{S}\" height=\"{S}\" fill=\"{fill}\" stroke=\"#8b6f4e\" stroke-width=\"0.5\"/>"
                );
            }
            BoardStyle::Points => {
                let _ = writeln!(
                    out,
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2\" fill=\"#5a4a32\"/>",
                    x + S / 2.0,
                    y + S / 2.0
                );
            }
            BoardStyle::Hexes => {
                let (cx, cy, r) = (x + S / 2.0, y + S / 2.0, S * 0.577);
                let corners: Vec<String> = (0..6)
                    .map(|i| {
                        let a = std::f64::consts::PI / 3.0 * i as f64 + std::f64::consts::PI / 6.0;
                        format!("{:.1},{:.1}", cx + r * a.cos(), cy + r * a.sin())
                    })
                    .collect();
                let _ = writeln!(
                    out,
                    "<polygon points=\"{}\" fill=\"#e8d3a6\" stroke=\"#8b6f4e\"/>",
                    corners.join(" ")
                );
            }
            BoardStyle::Pits => {
                let _ = writeln!(
                    out,
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" fill=\"#d9c29a\" stroke=\"#8b6f4e\"/>",
                    x + S / 2.0,
                    y + S / 2.0,
                    S * 0.42
                );
            }
        }
    }
    for (a, b) in &d.lines {
        let ((x1, y1), (x2, y2)) = (origin(*a), origin(*b));
        let h = S / 2.0;
        let _ = writeln!(
            out,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#5a4a32\" stroke-width=\"1\"/>",
            x1 + h,
            y1 + h,
            x2 + h,
            y2 + h
        );
    }
}

/// Row names left of each row's first square, column names below the
/// last row (of the first level).
fn labels(game: &Game, out: &mut String, origin: &dyn Fn(Square) -> (f64, f64)) {
    let topo = &game.topology;
    let grid = topo.grid();
    let last_row = grid.rows.len().saturating_sub(1) as i32;
    for sq in topo.squares() {
        let c = topo.coords(sq);
        if c.level != 0 {
            continue;
        }
        let (x, y) = origin(sq);
        if c.col == 0
            && let Some(name) = grid.rows.get(c.row as usize)
        {
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#5a4a32\">{}</text>",
                x - MARGIN / 2.0,
                y + S / 2.0 + 4.0,
                escape(name)
            );
        }
        if c.row == last_row
            && let Some(name) = grid.cols.get(c.col as usize)
        {
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#5a4a32\">{}</text>",
                x + S / 2.0,
                y + S + 14.0,
                escape(name)
            );
        }
    }
}

/// What stands on one square, centred on (cx, cy).
fn square_contents(game: &Game, pos: &Position, sq: Square, cx: f64, cy: f64, out: &mut String) {
    let cell = pos.cell(sq);
    if game.cells.is_counts() {
        if cell.0 > 0 {
            count_text(out, cx, cy, cell.0, "#3b2f1e", 14.0);
        }
        return;
    }
    let info = game.cells.info(cell);
    if cell.is_empty() || info.piece == NO_PIECE || info.phantom {
        return;
    }
    piece(game, info.piece, info.owner as usize, cx, cy, 1.0, out);
    let under = game.below(pos, sq).count();
    if under > 0 {
        count_text(
            out,
            cx + S * 0.32,
            cy - S * 0.3,
            under as u16 + 1,
            "#7a1010",
            10.0,
        );
    }
    if game.numbered() {
        let number = game.piece_number(cell);
        let _ = writeln!(
            out,
            "<text x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"9\" text-anchor=\"middle\" fill=\"#7a1010\">{number}</text>",
            cy + S * 0.42
        );
    }
}

/// A piece of type `t` owned by `owner`, centred on (cx, cy), `scale` of a
/// square.
fn piece(game: &Game, t: u16, owner: usize, cx: f64, cy: f64, scale: f64, out: &mut String) {
    let Some(p) = game.pieces.get(t as usize) else {
        return;
    };
    // Nobody's pieces (walls, the duck) are drawn with the first glyph.
    let glyph = p
        .glyphs
        .get(owner)
        .or(p.glyphs.first())
        .cloned()
        .unwrap_or_else(|| p.symbol.clone());
    let colour = game
        .display
        .colours
        .get(owner)
        .map_or("#333333", String::as_str);
    let r = S * 0.4 * scale;
    let font = |f: f64| S * f * scale / glyph.chars().count().max(1) as f64;
    let text = |out: &mut String, fill: &str, size: f64| {
        let _ = writeln!(
            out,
            "<text x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"{size:.1}\" text-anchor=\"middle\" fill=\"{fill}\">{}</text>",
            cy + size * 0.35,
            escape(&glyph)
        );
    };
    match game.display.shape {
        PieceShape::Glyph => {
            let _ = writeln!(
                out,
                "<text x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"{:.1}\" text-anchor=\"middle\" fill=\"{colour}\" stroke=\"#222\" stroke-width=\"0.6\">{}</text>",
                cy + font(0.75) * 0.35,
                font(0.75),
                escape(&glyph)
            );
        }
        PieceShape::Disc => {
            let _ = writeln!(
                out,
                "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" fill=\"{colour}\" stroke=\"#222\"/>"
            );
            text(out, "#c9a227", font(0.45));
        }
        PieceShape::Counter => {
            let _ = writeln!(
                out,
                "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" fill=\"#f6ecd4\" stroke=\"{colour}\" stroke-width=\"2\"/>"
            );
            text(out, colour, font(0.45));
        }
        PieceShape::Tile => {
            let (w, h) = (S * 0.34 * scale, S * 0.42 * scale);
            let point = if owner == 0 { cy - h } else { cy + h };
            let base = if owner == 0 { cy + h } else { cy - h };
            let _ = writeln!(
                out,
                "<polygon points=\"{:.1},{point:.1} {:.1},{:.1} {:.1},{base:.1} {:.1},{base:.1} {:.1},{:.1}\" fill=\"#f2d9a0\" stroke=\"#6b4f23\"/>",
                cx,
                cx + w,
                (point + base) / 2.0 + (base - point) * -0.15,
                cx + w * 1.1,
                cx - w * 1.1,
                cx - w,
                (point + base) / 2.0 + (base - point) * -0.15
            );
            let fill = if p.symbol.starts_with('+') {
                "#b0201a"
            } else {
                "#1d1d1d"
            };
            text(out, fill, font(0.36));
        }
    }
}

/// The hands: the first player's below the board, the second's above
/// (more players: not drawn).
fn hand_rows(game: &Game, pos: &Position, width: f64, height: f64, hand: f64, out: &mut String) {
    for player in 0..game.players.len().min(2) {
        let y = if player == 0 {
            height - hand / 2.0
        } else {
            hand / 2.0
        };
        let mut x = MARGIN + S / 2.0;
        for t in 0..game.pieces.len() as u16 {
            let n = game.in_hand(pos, player, t);
            if n == 0 || x > width - S / 2.0 {
                continue;
            }
            piece(game, t, player, x, y, 0.8, out);
            if n > 1 {
                count_text(out, x + S * 0.35, y - S * 0.2, n, "#7a1010", 10.0);
            }
            x += S;
        }
    }
}

fn count_text(out: &mut String, x: f64, y: f64, n: u16, fill: &str, size: f64) {
    let _ = writeln!(
        out,
        "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"{size}\" text-anchor=\"middle\" fill=\"{fill}\">{n}</text>",
        y + size * 0.35
    );
}

/// Text for an SVG document.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use crate::load::load_game;

    #[test]
    fn pictures_of_several_boards_are_whole_svg_documents() {
        for name in [
            "chess",
            "shogi",
            "xiangqi",
            "kalah",
            "lasca",
            "rithmomachia",
            "raumschach",
        ] {
            let game = load_game(name).unwrap();
            let svg = super::draw(&game, game.setup());
            assert!(
                svg.starts_with("<svg ") && svg.ends_with("</svg>\n"),
                "{name}"
            );
            assert_eq!(svg.matches("<svg").count(), 1);
            let squares = game.topology.len();
            let marks = svg.matches("<rect x=").count() + svg.matches("<circle").count();
            assert!(
                marks >= squares.min(1),
                "{name}: {marks} marks for {squares} squares"
            );
        }
        let chess = load_game("chess").unwrap();
        let svg = super::draw(&chess, chess.setup());
        assert_eq!(svg.matches("♚").count(), 2, "both kings drawn");
        assert_eq!(svg.matches("<rect x=").count(), 64);
    }
}
