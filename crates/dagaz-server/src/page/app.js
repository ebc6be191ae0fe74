// Dagaz web page: the game catalogue, new matches, the list of saved
// matches, and the match view that draws any board from the game's
// topology. The server is the authority on every rule: the page only shows
// the legal moves it is given and sends the one the player picks.

const app = document.getElementById("app");
const S = 60; // SVG units per square
const SVG = "http://www.w3.org/2000/svg";

// ---- small helpers -------------------------------------------------------

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  };
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch { /* not JSON */ }
  if (!res.ok) throw new Error((data && data.error) || `${res.status} ${res.statusText}`);
  return data;
}

function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function s(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined) e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

let toastTimer = null;
function toast(message, kind = "error") {
  const t = document.getElementById("toast");
  t.textContent = message;
  t.className = kind;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 6000);
}

const tokenKey = (id) => `dagaz:token:${id}`;
const inviteKey = (id) => `dagaz:invites:${id}`;

// ---- routing -------------------------------------------------------------

function route() {
  const m = location.pathname.match(/^\/match\/([A-Za-z0-9]+)$/);
  if (m) {
    const id = m[1];
    const t = new URLSearchParams(location.search).get("t");
    if (t) localStorage.setItem(tokenKey(id), t);
    showMatch(id, t || localStorage.getItem(tokenKey(id)) || "");
  } else {
    showHome();
  }
}

function go(path) {
  history.pushState(null, "", path);
  route();
}

window.addEventListener("popstate", route);
// A page that is left holds no stream open, even while the browser keeps
// it to come back to: a browser opens at most six connections to one
// server over HTTP/1.1, and kept pages' streams would use them up and
// stall the next page. A page brought back from that cache shows its
// match afresh.
window.addEventListener("pagehide", () => {
  if (events) events.close();
  events = null;
});
window.addEventListener("pageshow", (e) => {
  if (e.persisted) route();
});

// ---- home: new game and saved matches --------------------------------------

const LEVELS = [
  ["random", "Computer: beginner (random moves)"],
  ["ab:0.2s", "Computer: easy (0.2 s a move)"],
  ["ab:1s", "Computer: normal (1 s a move)"],
  ["ab:3s", "Computer: strong (3 s a move)"],
];

// A record file's text: UTF-8, else Shift_JIS if it reads as KIF (the
// files of Japanese programs), else Windows-1252 (older PGN files).
async function recordText(file) {
  const bytes = await file.arrayBuffer();
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const japanese = new TextDecoder("shift_jis").decode(bytes);
    if (/手数|手合割|先手：/.test(japanese)) return japanese;
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

async function showHome() {
  stopEvents();
  document.title = "Dagaz";
  app.replaceChildren(h("p", { class: "loading" }, "Loading…"));
  let games, matches;
  try {
    [games, matches] = await Promise.all([api("/api/games"), api("/api/matches")]);
  } catch (e) {
    app.replaceChildren(h("p", {}, `The server did not answer: ${e.message}`));
    return;
  }
  const options = [];
  for (const g of games) {
    options.push({ value: g.name, label: g.title, game: g, description: g.description });
    for (const v of g.variants) {
      options.push({ value: `${g.name}:${v.name}`, label: `${g.title} — ${v.name}`, game: g, description: v.description || g.description });
    }
  }
  const gameSel = h("select", { id: "game" }, options.map((o) => h("option", { value: o.value }, o.label)));
  const description = h("p", { class: "description" });
  const opponent = h("select", { id: "opponent" },
    LEVELS.map(([v, l]) => h("option", { value: `ai ${v}` }, l)),
    h("option", { value: "local" }, "Two players on this screen"),
    h("option", { value: "online" }, "A friend in another browser (share a link)"));
  opponent.value = "ai ab:1s";
  const side = h("select", { id: "side" });
  const position = h("input", { id: "position", placeholder: "the game's usual setup", autocomplete: "off" });
  const record = h("textarea", { id: "record", rows: 6, placeholder: "1. e4 e5 2. Nf3 …" });
  const recordFile = h("input", { id: "record-file", type: "file", accept: ".pgn,.pdn,.kif,.kifu,.txt",
    onchange: async () => {
      const file = recordFile.files[0];
      if (file) record.value = await recordText(file);
    } });
  const refresh = () => {
    const o = options.find((x) => x.value === gameSel.value);
    description.textContent = o ? o.description : "";
    side.replaceChildren(...(o ? o.game.players : []).map((p, i) => h("option", { value: i }, p)));
  };
  gameSel.addEventListener("change", refresh);
  refresh();
  const start = h("button", { class: "primary", id: "start", onclick: async () => {
    const [mode, ai] = opponent.value.split(" ");
    start.disabled = true;
    try {
      const body = { game: gameSel.value, mode, ai, side: Number(side.value) };
      if (position.value.trim()) body.position = position.value.trim();
      if (record.value.trim()) body.record = record.value;
      const r = await api("/api/matches", body);
      localStorage.setItem(tokenKey(r.id), r.token);
      if (r.invites.length) localStorage.setItem(inviteKey(r.id), JSON.stringify(r.invites));
      go(`/match/${r.id}?t=${r.token}`);
    } catch (e) {
      toast(e.message);
      start.disabled = false;
    }
  } }, "Start");
  const form = h("section", { class: "new-game" },
    h("h2", {}, "New game"),
    h("label", { for: "game" }, "Game"), gameSel, description,
    h("label", { for: "opponent" }, "Opponent"), opponent,
    h("label", { for: "side" }, "You play"), side,
    h("details", {}, h("summary", {}, "Start from a position"),
      h("label", { for: "position" }, "Position (FEN, SFEN or PDN, as the game writes it)"), position),
    h("details", {}, h("summary", {}, "Go on from a game record"),
      h("label", { for: "record" }, "A game in PGN, PDN or KIF (the game it names, else the one chosen above)"),
      record, recordFile),
    start);
  const rows = matches.map((m) => h("tr", {},
    h("td", {}, h("a", { href: `/match/${m.id}`, onclick: (e) => { e.preventDefault(); go(`/match/${m.id}`); } }, m.title)),
    h("td", {}, m.mode === "ai" ? `vs computer (${m.ai})` : m.mode === "local" ? "one screen" : "online"),
    h("td", {}, `${m.plies} moves`),
    h("td", {}, m.result ? `${m.result.text} (${m.result.reason})` : "in progress")));
  const list = h("section", {},
    h("h2", {}, "Matches"),
    matches.length ? h("table", { class: "matches" }, h("tbody", {}, rows)) : h("p", {}, "No matches yet."));
  app.replaceChildren(h("div", { class: "home" }, form, list));
}

// ---- the match view ----------------------------------------------------------

const games = new Map(); // name -> game description
let view = null; // the match being shown
let events = null;

function stopEvents() {
  if (events) events.close();
  events = null;
  view = null;
}

async function gameInfo(name) {
  if (!games.has(name)) {
    const g = await api(`/api/games/${encodeURIComponent(name)}`);
    g.at = new Map(g.board.squares.map((q) => [`${q.col},${q.row},${q.level}`, q.name]));
    g.where = new Map(g.board.squares.map((q) => [q.name, q]));
    games.set(name, g);
  }
  return games.get(name);
}

async function showMatch(id, token) {
  stopEvents();
  app.replaceChildren(h("p", { class: "loading" }, "Loading…"));
  let state, game;
  try {
    state = await api(`/api/matches/${id}?token=${encodeURIComponent(token)}`);
    game = await gameInfo(state.game);
  } catch (e) {
    app.replaceChildren(h("p", {}, e.message), h("p", {}, h("a", { href: "/" }, "Back to the games")));
    return;
  }
  view = { id, token, state, game, sel: { drop: null, path: [] }, flipped: false };
  // Sit on the side of the board of the first seat one holds.
  const seat = state.you.length ? state.you[0] : 0;
  view.flipped = game.players[seat].at_bottom === false;
  document.title = `${game.title} — Dagaz`;
  events = new EventSource(`/api/matches/${id}/events`);
  events.addEventListener("version", (e) => {
    if (view && view.id === id && Number(e.data) !== view.state.version) refreshState();
  });
  render();
}

async function refreshState() {
  const v = view;
  try {
    const state = await api(`/api/matches/${v.id}?token=${encodeURIComponent(v.token)}`);
    if (view !== v) return;
    v.state = state;
    // A move half entered stays selected while it is still legal (in a
    // free opening the other side moves at any time).
    if (selecting() && candidates().length === 0) v.sel = { drop: null, path: [] };
    render();
  } catch (e) {
    toast(e.message);
  }
}

async function send(path, body) {
  const v = view;
  try {
    const state = await api(`/api/matches/${v.id}/${path}`, { ...body, token: v.token });
    if (view !== v) return;
    v.state = state;
  } catch (e) {
    toast(e.message);
  }
  v.sel = { drop: null, path: [] };
  render();
}

const playMove = (text) => send("moves", { move: text, version: view.state.version });

// ---- entering a move square by square ---------------------------------------

function candidates() {
  const { sel, state } = view;
  return state.legal.filter((m) =>
    m.drop === (sel.drop !== null) &&
    (sel.drop === null || m.piece === sel.drop) &&
    m.path.length >= sel.path.length &&
    sel.path.every((q, i) => m.path[i] === q));
}

function progress() {
  const c = candidates();
  const n = view.sel.path.length;
  const next = [...new Set(c.filter((m) => m.path.length > n).map((m) => m.path[n]))];
  const complete = c.filter((m) => m.path.length === n);
  return { next, complete };
}

function selecting() {
  return view.sel.drop !== null || view.sel.path.length > 0;
}

function mayMove() {
  const st = view.state;
  if (st.result) { toast(st.result.message, "info"); return false; }
  if (st.thinking) { toast("The computer is thinking…", "info"); return false; }
  return true;
}

function clickSquare(name) {
  if (!mayMove()) return;
  const sel = view.sel;
  const starts = new Set(view.state.legal.filter((m) => !m.drop).map((m) => m.path[0]));
  if (selecting()) {
    const { next } = progress();
    if (next.includes(name)) {
      sel.path.push(name);
      return settle();
    }
    if (sel.drop === null && sel.path.length === 1 && sel.path[0] === name) {
      view.sel = { drop: null, path: [] };
      return render();
    }
  }
  if (starts.has(name)) {
    view.sel = { drop: null, path: [name] };
    return settle();
  }
  if (selecting()) toast("That square does not continue a legal move.", "info");
  view.sel = { drop: null, path: [] };
  render();
}

function clickHand(piece) {
  if (!mayMove()) return;
  if (view.sel.drop === piece) view.sel = { drop: null, path: [] };
  else view.sel = { drop: piece, path: [] };
  render();
}

// After each square: play the move if it is the only one, or show choices.
function settle() {
  const { next, complete } = progress();
  if (next.length === 0 && complete.length === 1) return playMove(complete[0].text);
  render();
}

// ---- drawing ---------------------------------------------------------------

function layout(game) {
  const b = game.board;
  const cols = b.cols.length, rows = b.rows.length, levels = Math.max(1, b.levels.length);
  const margin = S * 0.6;
  // Hex boards: each row half a cell right of the one above, rows closer.
  const hex = b.style === "hexes";
  const shear = hex ? S * 0.5 : 0;
  const dy = hex ? S * 0.866 : S;
  const levelWidth = cols * S + (rows - 1) * shear + (levels > 1 ? S * 0.6 : 0);
  const width = margin + levels * levelWidth;
  // Pointed hexagons reach above their row's square.
  const top = levels > 1 ? S * 0.5 : hex ? S * 0.1 : 0;
  const height = (rows - 1) * dy + S + margin + top;
  const centre = (q) => {
    let c = q.col, r = q.row;
    if (view.flipped) { c = cols - 1 - c; r = rows - 1 - r; }
    const lv = view.flipped ? levels - 1 - q.level : q.level;
    return [margin + lv * levelWidth + (c + 0.5) * S + r * shear, top + r * dy + S / 2];
  };
  return { cols, rows, levels, margin, levelWidth, width, height, top, centre, hex, dy };
}

function render() {
  const { state, game } = view;
  const L = layout(game);
  const svg = s("svg", { class: "board", viewBox: `0 0 ${L.width} ${L.height}`, role: "img", "aria-label": `${game.title} board` });
  drawBoard(svg, L);
  drawHighlights(svg, L);
  for (const p of state.board) {
    const at = L.centre(game.where.get(p.square));
    if (p.count !== undefined) drawPit(svg, at, p.count, p.square);
    else drawStack(svg, at, p);
  }
  drawTargets(svg, L);
  drawHitAreas(svg, L);
  const board = h("div", { class: "board-area" }, hand(view.flipped ? 0 : 1), svg, hand(view.flipped ? 1 : 0));
  // Tall boards (Rithmomachia's 8x16) fit the screen's height too.
  if (L.height > L.width) board.style.maxWidth = `min(100%, ${(86 * L.width) / L.height}vh)`;
  app.replaceChildren(h("div", { class: "match" }, board, panel()));
  const list = app.querySelector(".moves");
  if (list) list.scrollTop = list.scrollHeight;
}

function drawBoard(svg, L) {
  const { game } = view;
  const b = game.board;
  for (let lv = 0; lv < L.levels; lv++) {
    const x0 = L.margin + (view.flipped ? L.levels - 1 - lv : lv) * L.levelWidth;
    if (b.levels.length > 1) {
      svg.append(s("text", { class: "coord", x: x0 + (L.cols * S) / 2, y: L.top / 2 }, `level ${b.levels[lv]}`));
    }
    if (L.hex) {
      for (const q of b.squares.filter((q) => q.level === lv)) {
        const [x, y] = L.centre(q);
        const r = S * 0.577;
        const corners = [0, 1, 2, 3, 4, 5].map((i) => {
          const a = (Math.PI / 3) * i + Math.PI / 6;
          return `${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`;
        });
        svg.append(s("polygon", { class: "sq light hexcell", points: corners.join(" "), "data-square": q.name }));
      }
    } else if (b.style === "points" || b.style === "pits") {
      svg.append(s("rect", { class: "boardbg", x: x0, y: L.top, width: L.cols * S, height: L.rows * S, rx: S * 0.3 }));
    } else {
      for (let r = 0; r < L.rows; r++) {
        for (let c = 0; c < L.cols; c++) {
          const name = game.at.get(`${c},${r},${lv}`);
          if (!name && !b.show_removed) continue;
          const [x, y] = L.centre({ col: c, row: r, level: lv });
          // a1 (bottom left) is dark, as on chess and draughts boards.
          const cls = !b.checkered ? "plain" : (c + L.rows - 1 - r) % 2 === 0 ? "dark" : "light";
          svg.append(s("rect", { class: `sq ${name ? cls : "blank " + cls}`, x: x - S / 2, y: y - S / 2, width: S, height: S, "data-square": name }));
        }
      }
      if (!b.checkered) {
        for (const q of b.squares.filter((q) => q.level === lv)) {
          const [x, y] = L.centre(q);
          svg.append(s("rect", { class: "gridline", x: x - S / 2, y: y - S / 2, width: S, height: S, fill: "none", "stroke-width": 1 }));
        }
      }
    }
    // Coordinates: columns below, rows on the left.
    const bottom = view.flipped ? 0 : L.rows - 1;
    for (let c = 0; c < L.cols; c++) {
      const [x, y] = L.centre({ col: c, row: bottom, level: lv });
      svg.append(s("text", { class: "coord", x, y: y + S / 2 + L.margin / 2 }, b.cols[c]));
    }
    if (lv === (view.flipped ? L.levels - 1 : 0)) {
      const left = view.flipped ? L.cols - 1 : 0;
      for (let r = 0; r < L.rows; r++) {
        const [x, y] = L.centre({ col: left, row: r, level: lv });
        svg.append(s("text", { class: "coord", x: L.hex ? x - S * 0.8 : L.margin / 2, y }, b.rows[r]));
      }
    }
  }
  if (b.style === "points") {
    for (const [a, z] of b.lines) {
      const [x1, y1] = L.centre(game.where.get(a));
      const [x2, y2] = L.centre(game.where.get(z));
      svg.append(s("line", { class: "gridline", x1, y1, x2, y2 }));
    }
    for (const q of b.squares) {
      const [x, y] = L.centre(q);
      svg.append(s("circle", { class: "point", cx: x, cy: y, r: 3.5 }));
    }
  }
}

function highlight(svg, L, name, cls) {
  const q = view.game.where.get(name);
  if (!q) return;
  const [x, y] = L.centre(q);
  if (view.game.board.style !== "squares") svg.append(s("circle", { class: `hl ${cls}`, cx: x, cy: y, r: S * 0.46 }));
  else svg.append(s("rect", { class: `hl ${cls}`, x: x - S / 2, y: y - S / 2, width: S, height: S }));
}

function drawHighlights(svg, L) {
  const { state, sel } = view;
  if (state.last) for (const q of state.last.path) highlight(svg, L, q, "last");
  for (const q of state.check) highlight(svg, L, q, "check");
  for (const q of sel.path) highlight(svg, L, q, "sel");
}

function drawTargets(svg, L) {
  if (!selecting()) return;
  const occupied = new Set(view.state.board.map((p) => p.square));
  const { next } = progress();
  for (const q of next) {
    const [x, y] = L.centre(view.game.where.get(q));
    if (occupied.has(q)) svg.append(s("circle", { class: "ring", cx: x, cy: y, r: S * 0.44, "data-square": q }));
    else svg.append(s("circle", { class: "dot", cx: x, cy: y, r: S * 0.15, "data-square": q }));
  }
  // Pieces every remaining candidate takes so far.
  const c = candidates();
  if (c.length && view.sel.path.length > 1) {
    const common = c[0].captures.filter((q) => c.every((m) => m.captures.includes(q)));
    for (const q of common) {
      const [x, y] = L.centre(view.game.where.get(q));
      svg.append(s("circle", { class: "capmark", cx: x, cy: y, r: S * 0.4 }));
    }
  }
}

function drawHitAreas(svg, L) {
  for (const q of view.game.board.squares) {
    const [x, y] = L.centre(q);
    svg.append(s("rect", {
      class: "hit", x: x - S / 2, y: y - S / 2, width: S, height: S,
      "data-square": q.name, onclick: () => clickSquare(q.name),
    }));
  }
}

// A piece at centre (x, y); `size` scales it (1 on the board).
function pieceShape(piece, owner, size = 1, { number, parts } = {}) {
  const { game } = view;
  const info = game.pieces[piece];
  const glyph = info.glyphs[owner] ?? info.glyphs[0] ?? info.letter;
  const colour = game.players[owner]?.colour ?? "#888";
  const light = isLight(colour);
  const kanji = /[\u3000-\u9fff]/.test(glyph);
  const g = s("g", { class: "piece", "data-piece": info.name, "data-owner": owner });
  const r = S * 0.42 * size;
  const font = (f) => `${f * S * size}px`;
  const text = (attrs, t) => s("text", { class: kanji ? "kanji" : "glyph", ...attrs }, t);
  switch (game.shape) {
    case "disc":
      g.append(s("circle", { r, fill: colour, stroke: light ? "#555" : "#000", "stroke-width": 2 }));
      g.append(s("circle", { r: r * 0.72, fill: "none", stroke: light ? "#bbb" : "#555", "stroke-width": 1.5 }));
      if (glyph) g.append(text({ fill: light ? "#8a6a00" : "#e8c85a", "font-size": font(0.45) }, glyph));
      break;
    case "counter":
      g.append(s("circle", { r, fill: "#f6e7c8", stroke: colour, "stroke-width": 3 }));
      g.append(s("circle", { r: r * 0.8, fill: "none", stroke: colour, "stroke-width": 1.2 }));
      if (number === undefined) {
        g.append(text({ fill: colour, "font-size": font(glyph.length > 1 ? 0.3 : 0.46) }, glyph));
      } else {
        // A numbered piece: a small glyph for its kind above its number.
        const dark = isLight(colour) ? "#6b5a3a" : colour;
        g.append(text({ fill: dark, y: -S * 0.17 * size, "font-size": font(0.2) }, glyph));
        g.append(s("text", { class: "number", fill: dark, y: S * 0.08 * size, "font-size": font(number > 99 ? 0.26 : 0.32) }, String(number)));
        if (parts) g.append(s("title", {}, `${info.name} ${parts.join(" + ")}`));
      }
      break;
    case "tile": {
      const w = S * 0.38 * size, t = S * 0.44 * size;
      const d = `M0 ${-t} L${w * 0.8} ${-t * 0.62} L${w} ${t} L${-w} ${t} L${-w * 0.8} ${-t * 0.62} Z`;
      g.append(s("path", { d, fill: "#f0d8a0", stroke: "#8a6a30", "stroke-width": 1.5 }));
      g.append(text({ fill: info.symbol.startsWith("+") ? "#b0201a" : "#1d1d1d", y: S * 0.04 * size, "font-size": font(glyph.length > 1 ? 0.24 : 0.38) }, glyph));
      break;
    }
    default:
      g.append(text({
        fill: colour, stroke: light ? "#222" : "#ddd", "stroke-width": 1.2, "paint-order": "stroke",
        "font-size": font(glyph.length > 1 ? 0.36 : 0.74),
      }, glyph));
  }
  // Tiles point at the opponent; on a flipped board everything turns.
  const atBottom = (game.players[owner]?.at_bottom !== false) !== view.flipped;
  const turned = (game.shape === "tile" && !atBottom) !== Boolean(info.upside_down);
  return { g, turned };
}

// A pit of a heap board: a hollow with its number of pieces, drawn as
// seeds while they fit and as a number always.
function drawPit(svg, [x, y], count, square) {
  const g = s("g", { class: "pit", "data-square": square, "data-count": count, transform: `translate(${x} ${y})` });
  g.append(s("circle", { r: S * 0.42, class: "hollow" }));
  const shown = Math.min(count, 12);
  for (let i = 0; i < shown; i++) {
    const a = i * 2.4, r = S * 0.09 * Math.sqrt(i + 0.5);
    g.append(s("circle", { class: "seed", cx: Math.cos(a) * r, cy: Math.sin(a) * r, r: S * 0.06 }));
  }
  g.append(s("text", { class: "count", y: S * 0.3 }, String(count)));
  svg.append(g);
}

// A column of a stack board: the pieces under the top peek out below it
// (at most five, the deepest drawn first), with the height written beside.
function drawStack(svg, [x, y], p) {
  const below = (p.below || []).slice(0, 5);
  const step = S * 0.13;
  for (let i = below.length - 1; i >= 0; i--) {
    const { g } = pieceShape(below[i].piece, below[i].owner, 0.92);
    g.setAttribute("transform", `translate(${x} ${y + (i + 1) * step - step})`);
    g.classList.add("under");
    svg.append(g);
  }
  drawPiece(svg, [x, y - (below.length ? step : 0)], p.piece, p.owner, p.square, p);
  if (p.below && p.below.length) {
    svg.append(s("text", { class: "height", x: x + S * 0.36, y: y - S * 0.34 }, String(p.below.length + 1)));
  }
}

// `numbered`: the piece's number and a pyramid's parts (Rithmomachia).
function drawPiece(svg, [x, y], piece, owner, square, numbered = {}) {
  const { g, turned } = pieceShape(piece, owner, 1, numbered);
  g.setAttribute("transform", `translate(${x} ${y})${turned ? " rotate(180)" : ""}`);
  if (square) g.setAttribute("data-square", square);
  svg.append(g);
}

function isLight(colour) {
  const m = colour.match(/^#([0-9a-f]{3,8})$/i);
  if (!m) return ["white", "ivory", "yellow", "beige", "wheat"].includes(colour.toLowerCase());
  let hex = m[1];
  if (hex.length <= 4) hex = [...hex].map((c) => c + c).join("");
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 150;
}

// A player's hand (for games with drops): pieces as buttons with counts.
function hand(player) {
  const { game, state, sel } = view;
  if (!game.hands || player >= game.players.length) return null;
  const drops = new Set(state.legal.filter((m) => m.drop).map((m) => m.piece));
  const items = (state.hands[player] || []).map(({ piece, count }) => {
    const { g, turned } = pieceShape(piece, player, 0.8);
    g.setAttribute("transform", `translate(${S / 2} ${S / 2})${turned ? " rotate(180)" : ""}`);
    const icon = s("svg", { viewBox: `0 0 ${S} ${S}`, width: 40, height: 40 }, g);
    const canDrop = player === state.side && drops.has(piece);
    return h("button", {
      class: sel.drop === piece && player === state.side ? "selected" : null,
      title: `${game.pieces[piece].name} ×${count}`,
      "data-hand": player, "data-piece": game.pieces[piece].name,
      disabled: !canDrop,
      onclick: () => clickHand(piece),
    }, icon, count > 1 ? h("span", { class: "count" }, String(count)) : null);
  });
  return h("div", { class: "hand", "data-player": player },
    h("span", { class: "who" }, `${game.players[player].name}'s hand`), items);
}

function statusText() {
  const { state, game } = view;
  if (state.result) return state.result.message;
  const mover = game.players[state.side].name;
  if (state.thinking && state.think_state === "queued") {
    return `${mover} (computer) waits for a free thinking thread…`;
  }
  if (state.thinking) return `${mover} (computer) is thinking…`;
  if (state.free) {
    return "Free opening: every player moves at any time until the first capture";
  }
  if (state.you.includes(state.side)) {
    const check = state.check.length ? " — check!" : "";
    return state.you.length > 1 ? `${mover} to move${check}` : `Your move (${mover})${check}`;
  }
  return state.you.length ? `Waiting for ${mover}` : `${mover} to move (you are watching)`;
}

function panel() {
  const { state, game, id } = view;
  const holdsSeat = state.you.length > 0;
  const status = h("p", { class: `status${state.result ? " over" : ""}`, id: "status" }, statusText());
  const chooser = choices();
  const moves = state.moves.length ? h("div", { class: "moves" }, h("ol", {},
    pairs(state.moves, game.players.length).map((line) => h("li", {}, line)))) : null;
  const typed = h("input", { id: "typed-move", placeholder: "or type a move, e.g. e2e4", autocomplete: "off" });
  const typedForm = h("form", { class: "typed", onsubmit: (e) => {
    e.preventDefault();
    if (typed.value.trim()) playMove(typed.value.trim());
  } }, typed, h("button", { type: "submit" }, "Play"));
  const buttons = h("div", { class: "buttons" },
    h("button", { id: "flip", onclick: () => { view.flipped = !view.flipped; render(); } }, "Flip board"),
    state.mode !== "online" && holdsSeat
      ? h("button", { id: "undo", disabled: state.moves.length === 0, onclick: () => send("undo", {}) }, "Undo")
      : null,
    holdsSeat && !state.result
      ? h("button", { id: "resign", onclick: () => { if (confirm("Resign this game?")) send("resign", {}); } }, "Resign")
      : null,
    h("button", { id: "new-game", onclick: () => go("/") }, "New game"),
    h("a", { id: "export", href: `/api/matches/${id}/export`, download: true }, "Export"));
  return h("aside", { class: "panel" },
    h("h1", {}, game.title),
    status, chooser, buttons, share(), moves, typedForm);
}

function pairs(moves, players) {
  const out = [];
  for (let i = 0; i < moves.length; i += players) out.push(moves.slice(i, i + players).join("  "));
  return out;
}

// When the squares entered make several moves (a promotion choice,
// Fanorona's approach or withdrawal) or a move that may go on (a capture
// chain one may stop), the player picks here.
function choices() {
  if (!selecting()) return null;
  const { next, complete } = progress();
  if (!complete.length) return null;
  const { game } = view;
  const label = (m) => {
    if (m.promotion !== null && m.promotion !== undefined) return `Promote to ${game.pieces[m.promotion].name}`;
    if (complete.some((o) => o.promotion !== null && o.promotion !== undefined)) return "Do not promote";
    if (m.captures.length) return `Capture ${m.captures.join(" ")}`;
    return m.text;
  };
  const prompt = next.length ? "Stop here, or click the next square:" : "Which move?";
  return h("div", { class: "chooser", id: "chooser" }, h("p", {}, prompt),
    complete.map((m) => h("button", { "data-move": m.text, onclick: () => playMove(m.text) }, label(m))),
    h("button", { onclick: () => { view.sel = { drop: null, path: [] }; render(); } }, "Cancel"));
}

// Links to give the other player and spectators (online matches).
function share() {
  const { id, state } = view;
  if (state.mode !== "online") return null;
  let invites = [];
  try { invites = JSON.parse(localStorage.getItem(inviteKey(id)) || "[]"); } catch { /* none */ }
  const link = (t) => `${location.origin}/match/${id}${t ? `?t=${t}` : ""}`;
  const field = (label, value, cls) => h("div", {}, h("div", {}, label),
    h("input", { readonly: true, value, class: cls, onclick: (e) => e.target.select() }));
  return h("div", { class: "share" },
    invites.map((i) => field(`Send this link to the player of ${i.player}:`, link(i.token), "invite")),
    field("Spectators can watch at:", link(""), "watch"));
}

route();
