//! Goals: how a game ends (`checkmate = win`, `repetition 3 = draw`, …) and
//! the result of a finished game.

use super::Game;

/// What a condition means for the player who made the last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
}

/// The end conditions of a game. Each outcome is from the point of view of
/// the player who just moved (who gave the mate, made the repetition, …).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Goals {
    /// The side to move has no legal move and a royal piece is attacked.
    pub checkmate: Option<Outcome>,
    /// The side to move has no legal move and no royal piece is attacked.
    pub stalemate: Option<Outcome>,
    /// The side to move has no legal move (when neither of the above applies).
    pub no_moves: Option<Outcome>,
    /// The same position for the n-th time.
    pub repetition: Option<(u32, Outcome)>,
    /// n plies without a capture or a clock-resetting move.
    pub no_progress: Option<(u32, Outcome)>,
    /// None of the pieces of the side to move can move (whoever would
    /// move them); also when it has no pieces (Stavropol checkers).
    pub colour_blocked: Option<Outcome>,
    /// The side to move has nothing left but royal pieces while the player
    /// who just moved has more (shatranj's bare king).
    pub bare_king: Option<Outcome>,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win { winner: usize, reason: String },
    Draw { reason: String },
}

impl GameResult {
    /// The score as written in game records: `1-0`, `0-1`, `1/2-1/2`; with
    /// more than two players, the winner's name and "wins".
    pub fn score(&self, game: &Game) -> String {
        match self {
            GameResult::Win { winner: 0, .. } if game.players.len() == 2 => "1-0".into(),
            GameResult::Win { winner: 1, .. } if game.players.len() == 2 => "0-1".into(),
            GameResult::Win { winner, .. } => format!("{} wins", game.players[*winner].name),
            GameResult::Draw { .. } => "1/2-1/2".into(),
        }
    }

    /// Why the game ended ("checkmate", "Black resigned").
    pub fn reason(&self) -> &str {
        match self {
            GameResult::Win { reason, .. } | GameResult::Draw { reason } => reason,
        }
    }

    /// A sentence for people: "White wins (checkmate)", "Draw (stalemate)".
    pub fn describe(&self, game: &Game) -> String {
        match self {
            GameResult::Win { winner, reason } => {
                format!("{} wins ({reason})", game.players[*winner].name)
            }
            GameResult::Draw { reason } => format!("Draw ({reason})"),
        }
    }
}

/// Parses one goal line, e.g. `checkmate = win` or `no_progress 100 = draw`.
pub fn parse_goal(goals: &mut Goals, text: &str) -> Result<(), String> {
    let (cond, outcome) = text
        .split_once('=')
        .ok_or_else(|| format!("'{text}' is not of the form 'condition = win|loss|draw'"))?;
    let outcome = match outcome.trim() {
        "win" => Outcome::Win,
        "loss" => Outcome::Loss,
        "draw" => Outcome::Draw,
        other => return Err(format!("unknown outcome '{other}': use win, loss or draw")),
    };
    let words: Vec<&str> = cond.split_whitespace().collect();
    let count = |w: &[&str]| -> Result<u32, String> {
        match w {
            [n] => n
                .parse::<u32>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("'{n}' is not a positive count")),
            _ => Err(format!(
                "'{}' needs one count, e.g. '{} 3'",
                w.join(" "),
                cond.trim()
            )),
        }
    };
    match words.as_slice() {
        ["checkmate"] => goals.checkmate = Some(outcome),
        ["stalemate"] => goals.stalemate = Some(outcome),
        ["no_moves"] => goals.no_moves = Some(outcome),
        ["colour_blocked"] => goals.colour_blocked = Some(outcome),
        ["bare_king"] => goals.bare_king = Some(outcome),
        ["repetition", rest @ ..] => goals.repetition = Some((count(rest)?, outcome)),
        ["no_progress", rest @ ..] => goals.no_progress = Some((count(rest)?, outcome)),
        _ => {
            return Err(format!(
                "unknown condition '{}': use checkmate, stalemate, no_moves, colour_blocked, bare_king, repetition N or no_progress N",
                cond.trim()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_parse() {
        let mut g = Goals::default();
        parse_goal(&mut g, "checkmate = win").unwrap();
        parse_goal(&mut g, "repetition 3 = draw").unwrap();
        parse_goal(&mut g, " no_progress 100 = draw ").unwrap();
        assert_eq!(g.checkmate, Some(Outcome::Win));
        assert_eq!(g.repetition, Some((3, Outcome::Draw)));
        assert_eq!(g.no_progress, Some((100, Outcome::Draw)));
        assert!(parse_goal(&mut g, "checkmate").is_err());
        assert!(parse_goal(&mut g, "mate = win").is_err());
        assert!(parse_goal(&mut g, "repetition = draw").is_err());
        assert!(parse_goal(&mut g, "repetition x = draw").is_err());
        assert!(parse_goal(&mut g, "stalemate = maybe").is_err());
    }
}
