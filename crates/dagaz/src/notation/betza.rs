//! Betza's "funny notation" for chess pieces, with H. G. Muller's XBetza
//! multi-leg moves (`a`), translated into Dagaz move expressions.
//!
//! `to_dagaz("mRcpR")` gives the xiangqi cannon; `to_dagaz("KNADcaKmcabK")`
//! gives the chu shogi Lion. Game files use it through a piece's `betza`
//! key, and `dagaz betza` prints the translation. What each letter means
//! here, and the choices made where Betza's own texts are vague, is in
//! `docs/notation.md` ("Betza notation").
//!
//! Geometry: a move is a vector `(dx, dy)` seen from the mover's side, `dy`
//! forward and `dx` to the right. A leap is written as its straight steps
//! first and then its diagonal steps (`(1, 2)` is `N,O`); the squares in
//! between are not looked at unless the move is lame (`n`).

use std::fmt;

/// A Betza string the converter cannot translate, with what and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// Character offset of the offending part in the input.
    pub at: usize,
    /// The offending part of the input.
    pub part: String,
    pub message: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "Betza '{}' (at character {}): {}",
            self.part,
            self.at + 1,
            self.message
        )
    }
}

impl std::error::Error for BetzaError {}

/// A move vector: `dx` to the right, `dy` forward.
type Vector = (i32, i32);

/// How far a component may go in one direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Range {
    /// One leap.
    Leap,
    /// Up to this many leaps in a line.
    UpTo(u32),
    /// Any number of leaps in a line.
    Unlimited,
}

/// One written component: modifiers, an atom, a doubling or a range.
struct Component<'a> {
    /// Offset of the component's first character.
    at: usize,
    text: &'a str,
    /// The modifier letters of each leg (one group per `a`-separated leg).
    legs: Vec<&'a str>,
    atom: char,
    range: Range,
}

/// The basic leaps (`(dx, dy)` with `dx <= dy`) and the atom letters.
fn leap_of(atom: char) -> Option<Vector> {
    Some(match atom {
        'W' => (0, 1),
        'F' => (1, 1),
        'D' => (0, 2),
        'N' => (1, 2),
        'A' => (2, 2),
        'H' => (0, 3),
        'C' | 'L' => (1, 3),
        'Z' | 'J' => (2, 3),
        'G' => (3, 3),
        _ => return None,
    })
}

/// The basic atoms a letter stands for, and whether it rides by default.
fn bases(atom: char) -> Option<(Vec<char>, bool)> {
    Some(match atom {
        'K' => (vec!['W', 'F'], false),
        'R' => (vec!['W'], true),
        'B' => (vec!['F'], true),
        'Q' => (vec!['W', 'F'], true),
        a if leap_of(a).is_some() => (vec![a], false),
        _ => return None,
    })
}

/// The eight (or four) symmetric images of a leap, in a fixed order:
/// forward first, then clockwise.
fn images((a, b): Vector) -> Vec<Vector> {
    let mut out: Vec<Vector> = Vec::new();
    for v in [
        (a, b),
        (b, a),
        (b, -a),
        (a, -b),
        (-a, -b),
        (-b, -a),
        (-b, a),
        (-a, b),
    ] {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    // Start with the straight-forward or forward-right image.
    out.sort_by_key(|&(x, y)| order_key(x, y));
    out
}

/// Clockwise order from north.
fn order_key(x: i32, y: i32) -> i64 {
    let angle = (x as f64).atan2(y as f64);
    let turn = if angle < 0.0 {
        angle + std::f64::consts::TAU
    } else {
        angle
    };
    (turn * 1e6) as i64
}

/// The board direction letter of a unit step.
fn letter((x, y): Vector) -> char {
    match (x.signum(), y.signum()) {
        (0, 1) => 'N',
        (0, -1) => 'S',
        (1, 0) => 'E',
        (-1, 0) => 'W',
        (1, 1) => 'O',
        (-1, 1) => 'M',
        (1, -1) => 'T',
        _ => 'R',
    }
}

/// The unit steps of a leap: straight steps first, then diagonal ones.
fn steps((x, y): Vector) -> Vec<char> {
    let (ax, ay) = (x.abs(), y.abs());
    let diagonal = ax.min(ay);
    let straight = ax.max(ay) - diagonal;
    let along = if ay > ax {
        (0, y.signum())
    } else {
        (x.signum(), 0)
    };
    let mut out = vec![letter(along); straight as usize];
    out.extend(std::iter::repeat_n(letter((x, y)), diagonal as usize));
    out
}

/// Whether a leap is a whole number of one unit step.
fn is_straight((x, y): Vector) -> bool {
    x == 0 || y == 0 || x.abs() == y.abs()
}

/// A run of direction letters, with the board's set names when they fit.
fn run(letters: &[char]) -> String {
    let has = |s: &str| s.chars().all(|c| letters.contains(&c));
    let n = letters.len();
    if n == 8 && has("NSEWOMTR") {
        "*".into()
    } else if n == 4 && has("NSEW") {
        "+".into()
    } else if n == 4 && has("OMTR") {
        "X".into()
    } else {
        letters.iter().collect()
    }
}

// ---------------------------------------------------------------------------
// Parsing

fn parse(text: &str) -> Result<Vec<Component<'_>>, BetzaError> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let err = |at: usize, end: usize, message: String| BetzaError {
        at: text[..at].chars().count(),
        part: text[at..end].to_string(),
        message,
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let start = chars[i].0;
        if chars[i].1.is_whitespace() {
            i += 1;
            continue;
        }
        while i < chars.len() && chars[i].1.is_ascii_lowercase() {
            i += 1;
        }
        let Some(&(apos, atom)) = chars.get(i) else {
            return Err(err(
                start,
                text.len(),
                "modifiers with no atom after them".into(),
            ));
        };
        let end_of = |k: usize| chars.get(k).map_or(text.len(), |c| c.0);
        let Some((_, rides)) = bases(atom) else {
            return Err(err(
                apos,
                end_of(i + 1),
                format!(
                    "unknown atom '{atom}' (supported: W F D N A H C L Z J G K R B Q, \
                     with lower-case modifiers before them)"
                ),
            ));
        };
        i += 1;
        let mut range = if rides { Range::Unlimited } else { Range::Leap };
        if chars.get(i).map(|c| c.1) == Some(atom) && !rides && atom != 'K' {
            range = Range::Unlimited;
            i += 1;
        }
        let digits_start = i;
        while i < chars.len() && chars[i].1.is_ascii_digit() {
            i += 1;
        }
        if i > digits_start {
            let digits = &text[chars[digits_start].0..end_of(i)];
            range = match digits.parse::<u32>() {
                Ok(0) => Range::Unlimited,
                Ok(1) => Range::Leap,
                Ok(n) if n <= 100 => Range::UpTo(n),
                _ => {
                    return Err(err(
                        chars[digits_start].0,
                        end_of(i),
                        "a range is a number from 0 (unlimited) to 100".into(),
                    ));
                }
            };
        }
        let comp_text = &text[start..end_of(i)];
        let prefix = &text[start..apos];
        out.push(Component {
            at: text[..start].chars().count(),
            text: comp_text,
            legs: prefix.split('a').collect(),
            atom,
            range,
        });
    }
    if out.is_empty() {
        return Err(BetzaError {
            at: 0,
            part: text.to_string(),
            message: "no piece described".into(),
        });
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Modifiers

/// The modifiers of one leg, sorted by kind.
#[derive(Default)]
struct Modifiers {
    directions: String,
    moves: bool,
    captures: bool,
    initial: bool,
    lame: bool,
    hop: bool,
    grasshopper: bool,
}

impl Modifiers {
    fn read(letters: &str, comp: &Component) -> Result<Modifiers, BetzaError> {
        let mut m = Modifiers::default();
        for c in letters.chars() {
            match c {
                'f' | 'b' | 'l' | 'r' | 'v' | 's' | 'h' => m.directions.push(c),
                'm' => m.moves = true,
                'c' => m.captures = true,
                'i' => m.initial = true,
                'n' => m.lame = true,
                'p' => m.hop = true,
                'g' => m.grasshopper = true,
                other => {
                    return Err(comp.error(format!(
                        "unsupported modifier '{other}' (supported: f b l r v s h, m c, i, n, p, g, a)"
                    )));
                }
            }
        }
        Ok(m)
    }

    /// The check a final landing square needs: `[p]` for move-only,
    /// `[e]` for capture-only.
    fn landing(&self) -> &'static str {
        match (self.moves, self.captures) {
            (true, false) => "[p]",
            (false, true) => "[e]",
            _ => "",
        }
    }
}

impl Component<'_> {
    fn error(&self, message: String) -> BetzaError {
        BetzaError {
            at: self.at,
            part: self.text.to_string(),
            message,
        }
    }
}

/// One direction token (`f`, `fr`, `ff`, `fs`, …) as a test on a vector.
fn token_selects(token: &str, (x, y): Vector) -> bool {
    let one = |c: char| match c {
        'f' => y > 0,
        'b' => y < 0,
        'l' => x < 0,
        'r' => x > 0,
        'v' => y.abs() >= x.abs(),
        's' => x.abs() >= y.abs(),
        _ => false,
    };
    let mut cs = token.chars();
    let first = cs.next().unwrap_or(' ');
    match cs.next() {
        None => one(first),
        // Doubled: the narrow (ff, bb) or wide (ll, rr) half.
        Some(second) if second == first => {
            one(first)
                && if matches!(first, 'f' | 'b') {
                    y.abs() > x.abs()
                } else {
                    x.abs() > y.abs()
                }
        }
        Some('s') => one(first) && x.abs() > y.abs(),
        Some('v') => one(first) && y.abs() > x.abs(),
        Some(second) => one(first) && one(second),
    }
}

/// Which letter pairs form one token.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pairs {
    /// Every letter on its own (W-type atoms: `fs` is forward and sideways).
    None,
    /// Quadrants: `fr`, `bl`, … (diagonal atoms, and turns in later legs).
    Quadrants,
    /// Quadrants and halves: `ff`, `fs`, `ll`, `lv`, … (oblique atoms).
    Halves,
}

/// The pairing that suits a leap.
fn pairs_for((x, y): Vector) -> Pairs {
    if x == 0 {
        Pairs::None
    } else if x == y {
        Pairs::Quadrants
    } else {
        Pairs::Halves
    }
}

/// Splits direction letters into tokens: single letters, or pairs where
/// the pair is not simply a union (see [`Pairs`]). `h` ("half") after a
/// letter adds nothing: `fh` is `f`.
fn tokens(directions: &str, pairs: Pairs) -> Vec<String> {
    let cs: Vec<char> = directions.chars().filter(|&c| c != 'h').collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        let (a, b) = (cs[i], cs.get(i + 1).copied());
        let halves = pairs == Pairs::Halves;
        let pair = pairs != Pairs::None
            && match (a, b) {
                ('f' | 'b', Some(b)) => {
                    matches!(b, 'l' | 'r') || halves && matches!(b, 's') || halves && b == a
                }
                ('l' | 'r', Some(b)) => {
                    matches!(b, 'f' | 'b') || halves && matches!(b, 'v') || halves && b == a
                }
                _ => false,
            };
        if pair {
            out.push([a, b.unwrap_or(' ')].iter().collect());
            i += 2;
        } else {
            out.push(a.to_string());
            i += 1;
        }
    }
    out
}

/// The images of `leap` that the direction letters select (all of them if
/// there are none).
fn select(leap: Vector, directions: &str, comp: &Component) -> Result<Vec<Vector>, BetzaError> {
    let all = images(leap);
    if directions.starts_with('h') {
        return Err(comp.error("'h' (half) must follow f, b, l or r".into()));
    }
    let toks = tokens(directions, pairs_for(leap));
    if toks.is_empty() {
        return Ok(all);
    }
    let chosen: Vec<Vector> = all
        .into_iter()
        .filter(|&v| toks.iter().any(|t| token_selects(t, v)))
        .collect();
    if chosen.is_empty() {
        return Err(comp.error(format!(
            "the directions '{directions}' select none of its moves"
        )));
    }
    Ok(chosen)
}

// ---------------------------------------------------------------------------
// Expressions

/// Translates a Betza string into a Dagaz move expression.
pub fn to_dagaz(betza: &str) -> Result<String, BetzaError> {
    let mut alternatives = Vec::new();
    for comp in parse(betza)? {
        if comp.legs.len() > 1 {
            alternatives.push(multi_leg(&comp)?);
        } else {
            alternatives.extend(single_leg(&comp)?);
        }
    }
    Ok(alternatives.join("; "))
}

/// The alternatives of a component without `a`: one per basic atom.
fn single_leg(comp: &Component) -> Result<Vec<String>, BetzaError> {
    let m = Modifiers::read(comp.legs[0], comp)?;
    if m.hop && m.grasshopper {
        return Err(comp.error("'p' and 'g' cannot be combined".into()));
    }
    let (base_atoms, _) = bases(comp.atom).expect("parsed atoms are known");
    let mut out = Vec::new();
    for base in base_atoms {
        let leap = leap_of(base).expect("bases are leaps");
        let vectors = match select(leap, &m.directions, comp) {
            Ok(v) => v,
            // A compound (K, Q) may have directions only one part has.
            Err(_) if comp.atom == 'K' || comp.atom == 'Q' => continue,
            Err(e) => return Err(e),
        };
        let body = atom_moves(leap, &vectors, comp.range, &m, comp)?;
        out.push(wrap(&body, m.initial, m.landing()));
    }
    if out.is_empty() {
        return Err(comp.error(format!(
            "the directions '{}' select none of its moves",
            m.directions
        )));
    }
    Ok(out)
}

/// `[M]` before and a landing check after an expression that may hold
/// several alternatives.
fn wrap(body: &[String], initial: bool, landing: &str) -> String {
    let joined = body.join("; ");
    if !initial && landing.is_empty() {
        return joined;
    }
    let inner = if body.len() > 1 {
        format!("({joined})")
    } else {
        joined
    };
    format!("{}{inner}{landing}", if initial { "[M]" } else { "" })
}

/// The moves of one basic atom in the selected directions.
fn atom_moves(
    leap: Vector,
    vectors: &[Vector],
    range: Range,
    m: &Modifiers,
    comp: &Component,
) -> Result<Vec<String>, BetzaError> {
    let hopping = m.hop || m.grasshopper;
    if hopping && range != Range::Unlimited {
        return Err(
            comp.error("'p' and 'g' need an unlimited rider (R, B, Q or a doubled atom)".into())
        );
    }
    if is_straight(leap) {
        // One variable carries the direction: `(+)\1`, `(X)([p]\1)*`.
        let dirs: Vec<char> = vectors.iter().map(|&v| letter(v)).collect();
        let n = steps(leap).len();
        let first = if n == 1 && range == Range::Leap {
            run(&dirs)
        } else {
            format!("({})", run(&dirs))
        };
        let further = if m.lame { "[p]\\1" } else { "\\1" }.repeat(n - 1);
        let leap_once = format!("{first}{further}");
        let again = format!("\\1{further}");
        return Ok(vec![ride(&leap_once, &again, range, m)]);
    }
    // One path per vector, grouped by all but the last step.
    let mut groups: Vec<(String, Vec<char>)> = Vec::new();
    let mut riders = Vec::new();
    for &v in vectors {
        let s = steps(v);
        let path = path_text(&s, m.lame);
        if range != Range::Leap {
            riders.push(ride(&path, &path, range, m));
            continue;
        }
        let (last, head) = s.split_last().expect("a leap has steps");
        let head = path_text(head, m.lame);
        let sep = match (head.is_empty(), m.lame) {
            (true, _) => "",
            (false, true) => "[p],",
            (false, false) => ",",
        };
        let key = format!("{head}{sep}");
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, lasts)) => lasts.push(*last),
            None => groups.push((key, vec![*last])),
        }
    }
    if range != Range::Leap {
        return Ok(riders);
    }
    Ok(groups
        .into_iter()
        .map(|(head, lasts)| format!("{head}{}", run(&lasts)))
        .collect())
}

/// Steps separated by commas; a lame move checks each square in between.
fn path_text(steps: &[char], lame: bool) -> String {
    let mut out = String::new();
    for (i, s) in steps.iter().enumerate() {
        if i > 0 {
            out.push_str(if lame { "[p]," } else { "," });
        }
        out.push(*s);
    }
    out
}

/// A leap repeated in a line: `first` makes the first leap, `again` each
/// further one.
fn ride(first: &str, again: &str, range: Range, m: &Modifiers) -> String {
    let more = format!("([p]{again})");
    match range {
        Range::Leap => first.to_string(),
        Range::UpTo(n) => format!("{first}{more}{{0,{}}}", n - 1),
        Range::Unlimited if m.hop => format!("{first}{more}*[P]{again}{more}*"),
        Range::Unlimited if m.grasshopper => format!("{first}{more}*[P]{again}"),
        Range::Unlimited => format!("{first}{more}*"),
    }
}

// ---------------------------------------------------------------------------
// Multi-leg moves (XBetza `a`)

/// The turn from `from` to `v`, as the unit vector `v` would be if `from`
/// pointed forward. `None` if the angle is not a multiple of 45 degrees.
fn relative(from: Vector, v: Vector) -> Option<Vector> {
    let a = (from.0 as f64).atan2(from.1 as f64);
    let b = (v.0 as f64).atan2(v.1 as f64);
    let eighths = (b - a) / std::f64::consts::FRAC_PI_4;
    let k = eighths.round();
    if (eighths - k).abs() > 1e-9 {
        return None;
    }
    // Clockwise eighths from forward: 0 = f, 1 = fr, 2 = r, …
    Some(match (k as i64).rem_euclid(8) {
        0 => (0, 1),
        1 => (1, 1),
        2 => (1, 0),
        3 => (1, -1),
        4 => (0, -1),
        5 => (-1, -1),
        6 => (-1, 0),
        _ => (-1, 1),
    })
}

/// The Dagaz check for a leg that does not end the move.
fn passing_check(m: &Modifiers, comp: &Component) -> Result<&'static str, BetzaError> {
    if m.initial || m.lame || m.grasshopper {
        return Err(comp.error(
            "in a multi-leg move only m, c, p and directions may qualify a leg before the last"
                .into(),
        ));
    }
    Ok(match (m.moves, m.captures, m.hop) {
        (false, false, false) | (true, false, false) => "[p]",
        (false, true, false) => "[ex]",
        (true, true, false) => "([p];[ex])",
        (false, false, true) => "[P]",
        _ => {
            return Err(
                comp.error("'p' on a leg before the last cannot be combined with m or c".into())
            );
        }
    })
}

/// A component with `a`: every leg is one leap of the atom; the first
/// leg's directions are the board's, later legs' directions are relative
/// to the leg before (`f` goes on, `b` comes back, `l`/`r` turn).
fn multi_leg(comp: &Component) -> Result<String, BetzaError> {
    if comp.range != Range::Leap {
        return Err(comp.error("a multi-leg move ('a') needs a leaper atom, not a rider".into()));
    }
    let mods = comp
        .legs
        .iter()
        .map(|l| Modifiers::read(l, comp))
        .collect::<Result<Vec<_>, _>>()?;
    let last = mods.len() - 1;
    if mods[last].hop || mods[last].grasshopper || mods[last].lame {
        return Err(
            comp.error("the last leg of a multi-leg move takes only m, c and directions".into())
        );
    }
    if mods[1..].iter().any(|m| m.initial) {
        return Err(comp.error("'i' belongs to the first leg".into()));
    }
    let (base_atoms, _) = bases(comp.atom).expect("parsed atoms are known");
    let mut atom_vectors = Vec::new();
    for b in &base_atoms {
        atom_vectors.extend(images(leap_of(*b).expect("bases are leaps")));
    }
    // Every sequence of leaps the legs allow.
    let mut paths: Vec<Vec<Vector>> = Vec::new();
    for b in &base_atoms {
        for v in select(
            leap_of(*b).expect("bases are leaps"),
            &mods[0].directions,
            comp,
        )
        .unwrap_or_default()
        {
            paths.push(vec![v]);
        }
    }
    if paths.is_empty() {
        return Err(comp.error(format!(
            "the directions '{}' select none of its moves",
            mods[0].directions
        )));
    }
    for m in &mods[1..] {
        let mut next = Vec::new();
        for p in &paths {
            let from = *p.last().expect("paths are not empty");
            for &v in &atom_vectors {
                if later_leg_allows(from, v, &m.directions, comp)? {
                    let mut q = p.clone();
                    q.push(v);
                    next.push(q);
                }
            }
        }
        paths = next;
    }
    if paths.is_empty() {
        return Err(comp.error("the legs' directions leave no move".into()));
    }
    let checks = mods[..last]
        .iter()
        .map(|m| passing_check(m, comp))
        .collect::<Result<Vec<_>, _>>()?;
    let body = compact_legs(&paths, &checks, &mods, &atom_vectors)
        .unwrap_or_else(|| explicit_legs(&paths, &checks));
    Ok(wrap(&body, mods[0].initial, mods[last].landing()))
}

/// Whether a later leg may go along `v` after a leg along `from`.
fn later_leg_allows(
    from: Vector,
    v: Vector,
    directions: &str,
    comp: &Component,
) -> Result<bool, BetzaError> {
    if directions.is_empty() {
        return Ok(true);
    }
    match relative(from, v) {
        Some(rel) => Ok(tokens(directions, Pairs::Quadrants)
            .iter()
            .any(|t| token_selects(t, rel))),
        None if from == v || from == (-v.0, -v.1) => {
            let rel = if from == v { (0, 1) } else { (0, -1) };
            Ok(tokens(directions, Pairs::Quadrants)
                .iter()
                .any(|t| token_selects(t, rel)))
        }
        None => Err(comp.error(
            "turns in later legs are supported for W, F and K atoms; other atoms take only f or b"
                .into(),
        )),
    }
}

/// The legs written with sets and variables when the later legs are
/// "any direction", "straight on" or "straight back" for a one-step atom.
fn compact_legs(
    paths: &[Vec<Vector>],
    checks: &[&str],
    mods: &[Modifiers],
    atom_vectors: &[Vector],
) -> Option<Vec<String>> {
    // With three legs or more, `\1` would name the first leg, not the one
    // before.
    if mods.len() != 2 || atom_vectors.iter().any(|&v| steps(v).len() != 1) {
        return None;
    }
    let mut firsts: Vec<char> = Vec::new();
    for p in paths {
        let l = letter(p[0]);
        if !firsts.contains(&l) {
            firsts.push(l);
        }
    }
    let all: Vec<char> = atom_vectors.iter().map(|&v| letter(v)).collect();
    let mut legs = Vec::new();
    let mut needs_group = false;
    for m in &mods[1..] {
        legs.push(match m.directions.as_str() {
            "" => run(&all),
            "f" => {
                needs_group = true;
                "\\1".to_string()
            }
            "b" => {
                needs_group = true;
                "~1".to_string()
            }
            _ => return None,
        });
    }
    let first = if needs_group {
        format!("({})", run(&firsts))
    } else {
        run(&firsts)
    };
    let mut text = format!("{first}{}", checks[0]);
    for (i, leg) in legs.iter().enumerate() {
        text.push_str(", ");
        text.push_str(leg);
        if let Some(c) = checks.get(i + 1) {
            text.push_str(c);
        }
    }
    Some(vec![text])
}

/// The legs written out one path at a time.
fn explicit_legs(paths: &[Vec<Vector>], checks: &[&str]) -> Vec<String> {
    paths
        .iter()
        .map(|p| {
            let mut text = String::new();
            for (i, &v) in p.iter().enumerate() {
                if i > 0 {
                    text.push_str(", ");
                }
                text.push_str(&path_text(&steps(v), false));
                if let Some(c) = checks.get(i) {
                    text.push_str(c);
                }
            }
            text
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::to_dagaz;

    fn t(b: &str) -> String {
        to_dagaz(b).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn standard_pieces() {
        assert_eq!(t("W"), "+");
        assert_eq!(t("F"), "X");
        assert_eq!(t("K"), "+; X");
        assert_eq!(t("R"), "(+)([p]\\1)*");
        assert_eq!(t("B"), "(X)([p]\\1)*");
        assert_eq!(t("Q"), "(+)([p]\\1)*; (X)([p]\\1)*");
        assert_eq!(t("WW"), t("R"));
        assert_eq!(t("N"), "N,OM; E,OT; S,TR; W,RM");
        assert_eq!(t("D"), "(+)\\1");
        assert_eq!(t("A"), "(X)\\1");
        assert_eq!(t("R4"), "(+)([p]\\1){0,3}");
    }

    #[test]
    fn modifiers() {
        assert_eq!(t("fmWfcFifmnD"), "N[p]; OM[e]; [M](N)[p]\\1[p]");
        assert_eq!(t("fR"), "(N)([p]\\1)*");
        assert_eq!(t("fsR"), "(NEW)([p]\\1)*");
        assert_eq!(t("frF"), "O");
        assert_eq!(t("ffN"), "N,OM");
        assert_eq!(t("fsN"), "E,O; W,M");
        assert_eq!(t("nN"), "N[p],OM; E[p],OT; S[p],TR; W[p],RM");
        assert_eq!(
            t("mRcpR"),
            "(+)([p]\\1)*[p]; (+)([p]\\1)*[P]\\1([p]\\1)*[e]"
        );
        assert_eq!(t("fsR"), "(NEW)([p]\\1)*");
        assert_eq!(t("afF"), "(X)[p], \\1");
        assert_eq!(t("gQ"), "(+)([p]\\1)*[P]\\1; (X)([p]\\1)*[P]\\1");
    }

    #[test]
    fn lion() {
        assert_eq!(
            t("KNADcaKmcabK"),
            "+; X; N,OM; E,OT; S,TR; W,RM; (X)\\1; (+)\\1; *[ex], *; (*)([p];[ex]), ~1"
        );
    }

    #[test]
    fn errors_name_the_part() {
        let e = to_dagaz("KyN").unwrap_err();
        assert_eq!(e.part, "yN");
        assert!(e.message.contains("'y'"), "{e}");
        let e = to_dagaz("WX").unwrap_err();
        assert_eq!(e.part, "X");
        let e = to_dagaz("Kf").unwrap_err();
        assert!(e.message.contains("no atom"), "{e}");
        assert!(to_dagaz("pN").is_err());
        assert!(to_dagaz("").is_err());
    }
}
