//! KIF, the shogi record format of Kakinoki's programs and of most
//! Japanese shogi sites: header lines (`先手：name`), a move line per ply
//! (`   1 ７六歩(77)`: the square, the piece, `成` or `打`, the start
//! square in digits; `同　` for the square of the move before), and a last
//! line saying how the game ended (`投了`, `詰み`, `千日手`, …).
//!
//! Promoted pieces are written with one character (`杏`, `圭`, `全`) and a
//! move that could promote but does not is written without `不成`, the
//! form every KIF reader takes (cshogi's reads no other); the two-character
//! names (`成香`) and `不成` are read too.
//!
//! A game from another start than the usual one is written with the
//! start position as a board diagram (BOD) in the header. Pieces are
//! named by their SFEN symbol (`P`, `+R`, …), so any shogi-like game with
//! shogi's pieces on a board of at most 9×9 can be written ([`applies`]).

use super::{Record, RecordError};
use crate::board::Square;
use crate::game::{Game, GameResult, PositionFormat};
use crate::position::{Cell, MoveList, NO_PIECE, Position};
use crate::session::Session;

/// SFEN symbol and KIF name of each shogi piece; the first name is
/// written, the others are read too.
const PIECES: [(&str, &[&str]); 14] = [
    ("P", &["歩"]),
    ("L", &["香"]),
    ("N", &["桂"]),
    ("S", &["銀"]),
    ("G", &["金"]),
    ("B", &["角"]),
    ("R", &["飛"]),
    ("K", &["玉", "王"]),
    ("+P", &["と"]),
    ("+L", &["杏", "成香"]),
    ("+N", &["圭", "成桂"]),
    ("+S", &["全", "成銀"]),
    ("+B", &["馬"]),
    ("+R", &["龍", "竜"]),
];

/// One-character names of the pieces in a board diagram.
const DIAGRAM: [(&str, char); 14] = [
    ("P", '歩'),
    ("L", '香'),
    ("N", '桂'),
    ("S", '銀'),
    ("G", '金'),
    ("B", '角'),
    ("R", '飛'),
    ("K", '玉'),
    ("+P", 'と'),
    ("+L", '杏'),
    ("+N", '圭'),
    ("+S", '全'),
    ("+B", '馬'),
    ("+R", '龍'),
];

const FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const RANKS: [char; 10] = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];

/// Header keys and the tag names they are read into.
const HEADER: [(&str, &str); 6] = [
    ("先手", "White"),
    ("後手", "Black"),
    ("棋戦", "Event"),
    ("場所", "Site"),
    ("開始日時", "Date"),
    ("手合割", "Handicap"),
];

/// Whether `game` can be written in KIF: a shogi-like game (SFEN
/// positions) of shogi's pieces on a board of at most 9 files and ranks
/// named like `7g`.
pub fn applies(game: &Game) -> bool {
    game.fen.format == PositionFormat::Sfen
        && game.players.len() == 2
        && game.pieces.iter().all(|p| name_of(&p.symbol).is_some())
        && game.topology.squares().all(|sq| coords(game, sq).is_some())
}

/// A square's file and rank, counted from 1 (`7g` is (7, 7)).
fn coords(game: &Game, sq: Square) -> Option<(usize, usize)> {
    let mut chars = game.topology.name(sq).chars();
    let file = chars.next()?.to_digit(10)? as usize;
    let rank = chars.next()?;
    if chars.next().is_some() || !rank.is_ascii_lowercase() || file == 0 {
        return None;
    }
    let rank = (rank as u8 - b'a') as usize + 1;
    (rank <= 9).then_some((file, rank))
}

fn square_at(game: &Game, file: usize, rank: usize) -> Option<Square> {
    let name = format!("{file}{}", (b'a' + rank as u8 - 1) as char);
    game.topology.square(&name)
}

fn name_of(symbol: &str) -> Option<&'static str> {
    let upper = symbol.to_ascii_uppercase();
    PIECES.iter().find(|(s, _)| *s == upper).map(|(_, n)| n[0])
}

/// The SFEN symbol of a KIF piece name.
fn symbol_of(name: &str) -> Option<&'static str> {
    PIECES
        .iter()
        .find(|(_, names)| names.contains(&name))
        .map(|(s, _)| *s)
}

/// Whether a text is a KIF record.
pub fn looks_like(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("手数")
            || l.starts_with("手合割")
            || l.starts_with("先手：")
            || is_move_line(l)
    })
}

/// A KIF move line without a header before it: a number, then a move
/// that starts with a full-width file digit or `同` (`1 ７六歩(77)`).
fn is_move_line(line: &str) -> bool {
    let rest = line.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.len() < line.len()
        && rest.starts_with(char::is_whitespace)
        && rest
            .trim_start()
            .starts_with(|c: char| FILES.contains(&c) || c == '同')
}

/// The KIF text of the move at `index` of `list`; `previous` is where
/// the move before landed (`同`).
pub fn move_text(game: &Game, list: &MoveList, index: usize, previous: Option<Square>) -> String {
    let mv = list.get(index);
    let h = mv.header;
    let Some(to) = h.to() else {
        return "パス".into();
    };
    let mut out = String::new();
    match coords(game, to) {
        _ if previous == Some(to) => out += "同　",
        Some((file, rank)) => {
            out.push(FILES[file - 1]);
            out.push(RANKS[rank - 1]);
        }
        None => {}
    }
    let symbol = &game.pieces[h.piece as usize].symbol;
    out += name_of(symbol).unwrap_or("?");
    match h.from() {
        None => out += "打",
        Some(from) => {
            if h.promotion != NO_PIECE {
                out += "成";
            }
            if let Some((file, rank)) = coords(game, from) {
                out += &format!("({file}{rank})");
            }
        }
    }
    out
}

/// A KIF move as read: the parts a move line gives.
#[derive(Debug, PartialEq)]
struct Written {
    /// `None` for `同` (the square of the move before).
    to: Option<(usize, usize)>,
    symbol: &'static str,
    promotes: Option<bool>,
    drop: bool,
    from: Option<(usize, usize)>,
}

fn parse_move(text: &str) -> Option<Written> {
    let text: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '　')
        .collect();
    let (to, rest) = if let Some(rest) = text.strip_prefix('同') {
        (None, rest.to_string())
    } else {
        let mut chars = text.chars();
        let file = chars.next()?;
        let file = FILES.iter().position(|&c| c == file).or_else(|| {
            file.to_digit(10)
                .map(|d| d as usize)
                .filter(|d| *d > 0)
                .map(|d| d - 1)
        })?;
        let rank = chars.next()?;
        let rank = RANKS[..9].iter().position(|&c| c == rank)?;
        (Some((file + 1, rank + 1)), chars.collect())
    };
    let (body, from) = match rest.split_once('(') {
        Some((body, from)) => {
            let digits: Vec<usize> = from
                .trim_end_matches(')')
                .chars()
                .filter_map(|c| c.to_digit(10).map(|d| d as usize))
                .collect();
            match digits.as_slice() {
                [f, r] => (body.to_string(), Some((*f, *r))),
                _ => return None,
            }
        }
        None => (rest, None),
    };
    let (body, drop) = match body.strip_suffix('打') {
        Some(b) => (b, true),
        None => (body.as_str(), false),
    };
    let (name, promotes) = if let Some(b) = body.strip_suffix("不成") {
        (b, Some(false))
    } else if let Some(b) = body.strip_suffix('成').filter(|b| symbol_of(b).is_some()) {
        (b, Some(true))
    } else {
        (body, None)
    };
    Some(Written {
        to,
        symbol: symbol_of(name)?,
        promotes,
        drop,
        from,
    })
}

/// Why a KIF move names no legal move.
#[derive(Debug, thiserror::Error)]
pub enum KifMoveError {
    #[error("not a KIF move")]
    Unreadable,
    #[error("no legal move is written so")]
    Illegal,
    #[error("it could be any of {0} moves")]
    Ambiguous(usize),
}

/// Finds the legal move a KIF move text names; `previous` is where the
/// move before landed (for `同`).
pub fn find(
    game: &Game,
    list: &MoveList,
    text: &str,
    previous: Option<Square>,
) -> Result<usize, KifMoveError> {
    let written = parse_move(text).ok_or(KifMoveError::Unreadable)?;
    let to = match written.to {
        Some((f, r)) => square_at(game, f, r),
        None => previous,
    }
    .ok_or(KifMoveError::Illegal)?;
    let fits: Vec<usize> = (0..list.len())
        .filter(|&i| {
            let h = list.get(i).header;
            let from = h.from().and_then(|s| coords(game, s));
            h.to() == Some(to)
                && game.pieces[h.piece as usize]
                    .symbol
                    .eq_ignore_ascii_case(written.symbol)
                && (h.from().is_none() || !written.drop)
                && written.from.is_none_or(|f| from == Some(f))
                && written
                    .promotes
                    .is_none_or(|p| p == (h.promotion != NO_PIECE))
        })
        .collect();
    match fits.as_slice() {
        [i] => Ok(*i),
        [] => Err(KifMoveError::Illegal),
        // A drop and a board move of the same piece to the same square: an
        // unmarked move is the board move.
        many => {
            let board: Vec<usize> = many
                .iter()
                .copied()
                .filter(|&i| list.get(i).header.from().is_some())
                .filter(|&i| written.promotes.is_some() || list.get(i).header.promotion == NO_PIECE)
                .collect();
            match board.as_slice() {
                [i] => Ok(*i),
                _ => Err(KifMoveError::Ambiguous(many.len())),
            }
        }
    }
}

/// Writes a session's game as KIF. `tags` as for [`super::write`]:
/// `White` is the first player (先手), `Black` the second (後手).
pub fn write(
    session: &Session,
    tags: &[(String, String)],
) -> Result<String, crate::movegen::GenError> {
    let game = session.game();
    let mut out = String::from("#KIF version=2.0 encoding=UTF-8\n");
    if game.name != "shogi" {
        // Which game, for dagaz; other readers skip `#` lines.
        out += &format!("#dagaz-game: {}\n", game.name);
    }
    for (key, tag) in HEADER {
        let given = tags.iter().find(|(n, v)| n == tag && !v.contains('?'));
        if let Some((_, value)) = given {
            // KIF writes dates with slashes (`2026/11/26`).
            let value = if tag == "Date" {
                value.replace('.', "/")
            } else {
                value.clone()
            };
            out += &format!("{key}：{value}\n");
        }
    }
    let start = session.start();
    if game.write_position(start) == game.write_position(game.setup()) {
        out += "手合割：平手\n";
    } else {
        out += &diagram(game, start);
    }
    out += "手数----指手---------消費時間--\n";
    let moves = super::each_move(session, |replay, i| {
        let previous = replay.played().last().and_then(|m| m.to());
        Ok(move_text(game, replay.legal(), i, previous))
    })?;
    for (n, text) in moves.iter().enumerate() {
        out += &format!("{:>4} {text}\n", n + 1);
    }
    let n = session.ply() + 1;
    if let Some(result) = session.result() {
        let (word, summary) = ending(result, session);
        if let Some(word) = word {
            out += &format!("{n:>4} {word}\n");
        }
        out += &format!("まで{}手{summary}\n", session.ply());
    }
    Ok(out)
}

/// The last line's word (charged to the side to move: `投了`, it
/// resigned; `詰み`, it is mated; `反則負け`, it played an illegal move) and the summary's ending for a result.
/// A win of the side to move (its opponent resigned out of turn) has no
/// word: the summary says it.
fn ending(result: &GameResult, session: &Session) -> (Option<&'static str>, String) {
    let sides = ["先手", "後手"];
    match result {
        GameResult::Draw { reason } if reason.contains("repeat") => {
            (Some("千日手"), "で千日手".into())
        }
        GameResult::Draw { .. } => (Some("持将棋"), "で持将棋".into()),
        GameResult::Win { winner, reason } => {
            let summary = format!("で{}の勝ち", sides[*winner]);
            let word = if session.side() == *winner {
                None
            } else if reason.contains("mate") && !session.result_declared() {
                Some("詰み")
            } else if reason.contains("illegal move") {
                // A match's forfeit: the side to move played an illegal move.
                Some("反則負け")
            } else {
                Some("投了")
            };
            (word, summary)
        }
    }
}

/// The start position as a board diagram (BOD).
fn diagram(game: &Game, pos: &Position) -> String {
    let files = game
        .topology
        .squares()
        .filter_map(|s| coords(game, s))
        .map(|c| c.0)
        .max()
        .unwrap_or(9);
    let ranks = game
        .topology
        .squares()
        .filter_map(|s| coords(game, s))
        .map(|c| c.1)
        .max()
        .unwrap_or(9);
    let mut out = format!("後手の持駒：{}\n", hand_text(game, pos, 1));
    out += " ";
    for f in (1..=files).rev() {
        out += &format!(" {}", FILES[f - 1]);
    }
    out += &format!("\n+{}+\n", "-".repeat(files * 3));
    for r in 1..=ranks {
        out.push('|');
        for f in (1..=files).rev() {
            let cell = square_at(game, f, r).map_or(Cell::EMPTY, |sq| pos.cell(sq));
            if cell.is_empty() {
                out += " ・";
                continue;
            }
            let info = game.cells.info(cell);
            let symbol = &game.pieces[info.piece as usize].symbol;
            let c = DIAGRAM
                .iter()
                .find(|(s, _)| s.eq_ignore_ascii_case(symbol))
                .map_or('？', |(_, c)| *c);
            out.push(if info.owner == 1 { 'v' } else { ' ' });
            out.push(c);
        }
        out += &format!("|{}\n", RANKS[r - 1]);
    }
    out += &format!("+{}+\n", "-".repeat(files * 3));
    out += &format!("先手の持駒：{}\n", hand_text(game, pos, 0));
    if pos.side() == 1 {
        out += "後手番\n";
    }
    out
}

/// A hand as the diagram writes it: `飛　歩三`, or `なし`.
fn hand_text(game: &Game, pos: &Position, player: usize) -> String {
    let mut items = Vec::new();
    for (t, piece) in game.pieces.iter().enumerate() {
        let n = game.in_hand(pos, player, t as u16) as usize;
        if n == 0 || !game.has_hands() {
            continue;
        }
        let name = name_of(&piece.symbol).unwrap_or("?");
        items.push(if n == 1 {
            name.to_string()
        } else {
            format!("{name}{}", number(n))
        });
    }
    if items.is_empty() {
        "なし".into()
    } else {
        items.join("　")
    }
}

/// A count in kanji (`三`, `十二`, `二十一`); from 100 on, in digits.
fn number(n: usize) -> String {
    let digit = |d: usize| RANKS[d - 1].to_string();
    match n {
        0 => "〇".into(),
        1..=9 => digit(n),
        10..=99 => {
            let tens = if n / 10 == 1 {
                String::new()
            } else {
                digit(n / 10)
            };
            let ones = if n.is_multiple_of(10) {
                String::new()
            } else {
                digit(n % 10)
            };
            format!("{tens}十{ones}")
        }
        _ => n.to_string(),
    }
}

/// A count as [`number`] writes it (an empty count is one).
fn read_number(text: &str) -> Option<usize> {
    if text.is_empty() {
        return Some(1);
    }
    if let Ok(n) = text.parse() {
        return Some(n);
    }
    let digit = |c: char| RANKS[..9].iter().position(|&r| r == c).map(|i| i + 1);
    let chars: Vec<char> = text.chars().collect();
    match chars.iter().position(|&c| c == '十') {
        None if chars.len() == 1 => digit(chars[0]),
        None => None,
        Some(at) => {
            let tens = match &chars[..at] {
                [] => 1,
                [d] => digit(*d)?,
                _ => return None,
            };
            let ones = match &chars[at + 1..] {
                [] => 0,
                [d] => digit(*d)?,
                _ => return None,
            };
            Some(tens * 10 + ones)
        }
    }
}

/// Reads a KIF record: its header into tags (`先手` → `White`, …, and a
/// `KIF` tag), a board diagram into `FEN` (an SFEN), the moves, and the
/// ending into the result and `Termination`.
pub fn read(text: &str) -> Result<Record, RecordError> {
    let mut record = Record::default();
    record.tags.push(("KIF".into(), "1".into()));
    let mut board: Vec<(usize, String)> = Vec::new();
    let mut hands: [Option<String>; 2] = [None, None];
    let mut second_to_move = false;
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let line = raw.trim_end();
        let trimmed = line.trim_start();
        if let Some(name) = trimmed.strip_prefix("#dagaz-game:") {
            record
                .tags
                .push(("Variant".into(), name.trim().to_string()));
            continue;
        }
        if trimmed.starts_with("変化") {
            // The side lines after the main line.
            break;
        }
        if let Some(rest) = trimmed.strip_prefix("まで") {
            // The summary: the result, if no ending line gave it.
            if record.result.is_none() {
                record.result = summary_result(rest).map(str::to_string);
            }
            continue;
        }
        if trimmed.is_empty()
            || trimmed.starts_with('#')
            || trimmed.starts_with('*')
            || trimmed.starts_with('&')
        {
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix('|') {
            board.push((line_no, rest.to_string()));
            continue;
        }
        if let Some((key, value)) = trimmed.split_once('：') {
            match key {
                "先手の持駒" | "下手の持駒" => hands[0] = Some(value.trim().to_string()),
                "後手の持駒" | "上手の持駒" => hands[1] = Some(value.trim().to_string()),
                _ => {
                    if let Some((_, tag)) = HEADER.iter().find(|(k, _)| *k == key) {
                        record
                            .tags
                            .push((tag.to_string(), value.trim().to_string()));
                    }
                }
            }
            continue;
        }
        if trimmed.starts_with("後手番") || trimmed.starts_with("上手番") {
            second_to_move = true;
            continue;
        }
        let first = trimmed.chars().next().unwrap_or(' ');
        if !first.is_ascii_digit() {
            // The column header of a diagram, its frame, the move list's
            // header, the summary (`まで…`) and other lines.
            continue;
        }
        let (number, rest) = trimmed.split_at(
            trimmed
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(trimmed.len()),
        );
        let number: usize = number.parse().unwrap_or(0);
        // The move with its start square, without the time (`( 0:01/00:00:01)`).
        let mut mv_text = rest.trim();
        if let Some(at) = mv_text.rfind('(').filter(|&at| mv_text[at..].contains(':')) {
            mv_text = mv_text[..at].trim_end();
        }
        let mv = mv_text.split_whitespace().next().unwrap_or("");
        if let Some(result) = ending_of(mv, number, second_to_move) {
            record.result = Some(result.0.into());
            if !result.1.is_empty() {
                record.tags.push(("Termination".into(), result.1.into()));
            }
            break;
        }
        if number != record.moves.len() + 1 {
            return Err(RecordError::Syntax {
                line: line_no,
                message: format!(
                    "move {number} where move {} was expected",
                    record.moves.len() + 1
                ),
            });
        }
        if parse_move(mv_text).is_none() {
            return Err(RecordError::Syntax {
                line: line_no,
                message: format!("'{mv_text}' is not a KIF move"),
            });
        }
        record.moves.push(mv_text.to_string());
    }
    if !board.is_empty() {
        let sfen = board_to_sfen(&board, &hands, second_to_move)?;
        record.tags.push(("FEN".into(), sfen));
    }
    Ok(record)
}

/// The result and the reason of a KIF ending word at move `number`,
/// charged to the side to move (the first player at odd numbers, unless
/// the second moved first).
fn ending_of(
    word: &str,
    number: usize,
    second_first: bool,
) -> Option<(&'static str, &'static str)> {
    let mover_first = (number % 2 == 1) != second_first;
    let mover_loses = if mover_first { "0-1" } else { "1-0" };
    let mover_wins = if mover_first { "1-0" } else { "0-1" };
    Some(match word {
        "投了" => (mover_loses, "resignation"),
        "詰み" => (mover_loses, "checkmate"),
        "切れ負け" | "反則負け" | "不戦敗" => (mover_loses, "forfeit"),
        "反則勝ち" | "入玉勝ち" | "不戦勝" => (mover_wins, "forfeit"),
        "千日手" => ("1/2-1/2", "repetition"),
        "持将棋" => ("1/2-1/2", "impasse"),
        "中断" | "封じ手" | "不詰" => ("*", ""),
        _ => return None,
    })
}

/// The result a summary line (`まで64手で先手の勝ち`) gives.
fn summary_result(text: &str) -> Option<&'static str> {
    if text.contains("先手の勝ち") || text.contains("下手の勝ち") {
        Some("1-0")
    } else if text.contains("後手の勝ち") || text.contains("上手の勝ち") {
        Some("0-1")
    } else if text.contains("千日手") || text.contains("持将棋") {
        Some("1/2-1/2")
    } else {
        None
    }
}

/// A board diagram and hands as SFEN (board, side, hands, move number).
fn board_to_sfen(
    board: &[(usize, String)],
    hands: &[Option<String>; 2],
    second_to_move: bool,
) -> Result<String, RecordError> {
    let mut rows = Vec::new();
    for (line, text) in board {
        let body: Vec<char> = text.chars().take_while(|&c| c != '|').collect();
        let mut row = String::new();
        let mut empty = 0;
        let mut i = 0;
        while i < body.len() {
            let (mark, c) = (body[i], body.get(i + 1).copied().unwrap_or(' '));
            i += 2;
            if c == '・' {
                empty += 1;
                continue;
            }
            let symbol = DIAGRAM
                .iter()
                .find(|(_, d)| *d == c)
                .map(|(s, _)| *s)
                .or_else(|| symbol_of(&c.to_string()))
                .ok_or_else(|| RecordError::Syntax {
                    line: *line,
                    message: format!("'{c}' is not a shogi piece"),
                })?;
            if empty > 0 {
                row += &empty.to_string();
                empty = 0;
            }
            row += &if mark == 'v' {
                symbol.to_ascii_lowercase()
            } else {
                symbol.to_string()
            };
        }
        if empty > 0 {
            row += &empty.to_string();
        }
        rows.push(row);
    }
    let mut hand = String::new();
    for (player, text) in hands.iter().enumerate() {
        let Some(text) = text else { continue };
        for item in text
            .split(['　', ' '])
            .filter(|s| !s.is_empty() && *s != "なし")
        {
            let mut chars = item.chars();
            let name = chars.next().map(String::from).unwrap_or_default();
            let count = read_number(chars.as_str()).ok_or_else(|| RecordError::Syntax {
                line: 0,
                message: format!("'{item}' is not a count of pieces in hand"),
            })?;
            let symbol = symbol_of(&name).ok_or_else(|| RecordError::Syntax {
                line: 0,
                message: format!("'{item}' is not a piece in hand"),
            })?;
            if count > 1 {
                hand += &count.to_string();
            }
            hand += &if player == 1 {
                symbol.to_ascii_lowercase()
            } else {
                symbol.to_string()
            };
        }
    }
    let side = if second_to_move { "w" } else { "b" };
    let hand = if hand.is_empty() {
        "-".to_string()
    } else {
        hand
    };
    Ok(format!("{} {side} {hand} 1", rows.join("/")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_move_forms() {
        let m = parse_move("７六歩(77)").unwrap();
        assert_eq!(m.to, Some((7, 6)));
        assert_eq!(m.symbol, "P");
        assert_eq!(m.from, Some((7, 7)));
        let m = parse_move("同　角成(88)").unwrap();
        assert_eq!((m.to, m.symbol, m.promotes), (None, "B", Some(true)));
        let m = parse_move("５五成銀(44)").unwrap();
        assert_eq!((m.symbol, m.promotes), ("+S", None));
        let m = parse_move("２二角打").unwrap();
        assert!(m.drop);
        let m = parse_move("３三桂不成(45)").unwrap();
        assert_eq!(m.promotes, Some(false));
        assert!(parse_move("７六犬(77)").is_none());
    }

    #[test]
    fn numbers_in_kanji() {
        for n in 1..=150 {
            assert_eq!(read_number(&number(n)), Some(n), "{n}");
        }
        assert_eq!(number(21), "二十一");
        assert_eq!(read_number("十八"), Some(18));
    }
}
