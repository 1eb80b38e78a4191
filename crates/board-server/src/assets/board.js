// The Grasshopper board. It draws what the server says and sends what the
// person clicks: the server holds the game, lists the legal moves and
// explains an illegal one; nothing here knows the rules.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const W = 760, H = 500;
const COL = 46, BAR_X = 296, BAR_W = 28, LEFT_X = 20, RIGHT_X = BAR_X + BAR_W;
const TOP = 36, BOTTOM = 464, TRI = 170, R = 20;
const TRAY_X = 624, TRAY_W = 122;

const ui = {
  state: null,      // the game as the server last described it
  info: null,       // /api/info
  selected: null,   // "bar" or a point number (as a string)
  flipped: false,
  paused: false,
  polling: null,
  going: false,
  shownError: null, // the engine error last shown beside the board
  shownWarning: null,
  branching: false, // the person chose to play on from an earlier move
  noGame: false,    // no game could be opened (the server is full)
  animate: false,   // the last move is new: let its checker arrive
  drag: null,       // a checker being dragged: { key, x, y }
  resignAsked: 0,   // when Resign was pressed once (a second press confirms)
  editing: null,    // the position editor's board: { points: [{color, count}] x 24 }
};

// Named levels, each a measured step above the one before it (matches
// between them: docs/results/board-levels-2026-12-02.md); "custom" is
// whatever the two fields below say.
const LEVELS = [
  { name: "beginner", label: "Beginner", limit: { kind: "depth", value: 1 } },
  { name: "easy", label: "Easy", limit: { kind: "depth", value: 2 } },
  { name: "club", label: "Club", limit: { kind: "depth", value: 4 } },
  { name: "strong", label: "Strong", limit: { kind: "depth", value: 6 } },
  { name: "strongest", label: "Strongest", limit: { kind: "movetime", value: 1000 } },
];

const $ = (id) => document.getElementById(id);

// ---- the server ----------------------------------------------------------

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let resp;
  try {
    resp = await fetch(path, init);
  } catch (e) {
    throw { status: 0, message: "the server cannot be reached: is grasshopper serve still running?" };
  }
  const text = await resp.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
  if (!resp.ok) {
    throw { status: resp.status, message: (data && data.error) || text || resp.statusText };
  }
  return data;
}

function gamePath(suffix) {
  return "/api/games/" + ui.state.id + (suffix ? "/" + suffix : "");
}

async function act(action, body) {
  const id = ui.state.id;
  const state = await api("POST", gamePath(action), body || {});
  if (ui.state && ui.state.id === id) show(state);
  return state;
}

// ---- helpers -------------------------------------------------------------

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Coordinates, turned round when the board is flipped.
const X = (x) => (ui.flipped ? W - x : x);
const Y = (y) => (ui.flipped ? H - y : y);
function box(x, y, w, h) {
  return { x: ui.flipped ? W - x - w : x, y: ui.flipped ? H - y - h : y, width: w, height: h };
}

// Where point p (1..24) stands: its column's left edge, and whether it
// hangs from the top. A = 1-6 bottom right (1 outermost), B = 7-12 bottom
// left, C = 13-18 top left, D = 19-24 top right (24 outermost).
function place(p) {
  if (p <= 6) return { x: RIGHT_X + (6 - p) * COL, top: false };
  if (p <= 12) return { x: LEFT_X + (12 - p) * COL, top: false };
  if (p <= 18) return { x: LEFT_X + (p - 13) * COL, top: true };
  return { x: RIGHT_X + (p - 19) * COL, top: true };
}

function moveParts(m) {
  if (m === "pass") return { from: "pass", to: "pass" };
  const [from, to] = m.split("/");
  return { from, to };
}

function sideAt(ply) {
  const s = ui.state;
  const other = s.first === "white" ? "black" : "white";
  return ply % 2 === 0 ? s.first : other;
}

function capital(s) { return s.charAt(0).toUpperCase() + s.slice(1); }

// Looking at an earlier move (a loaded record, or stepping back): the
// board is not played on unless the person chose "Play from here".
function reviewing() {
  const s = ui.state;
  return s.cursor < s.moves.length && !ui.branching;
}

function humanToMove() {
  const s = ui.state;
  return !s.outcome && !s.engine.thinking && s.seats[s.to_move] === "human" && !reviewing();
}

// ---- drawing -------------------------------------------------------------

function drawChecker(g, color, cx, cy, extra) {
  const c = el("circle", { cx: X(cx), cy: Y(cy), r: R, class: "checker " + color + (extra ? " " + extra : "") }, g);
  el("circle", { cx: X(cx), cy: Y(cy), r: R * 0.62, class: "checker-ring " + color }, g);
  return c;
}

function slabs(g, color, x, yBase, count, up, cls) {
  for (let i = 0; i < count; i++) {
    const y = up ? yBase - (i + 1) * 9 : yBase + i * 9;
    const b = box(x, y, 48, 8);
    el("rect", { ...b, rx: 2, class: "slab " + color + (cls ? " " + cls : "") }, g);
  }
}

function text(g, x, y, s, cls, anchor) {
  const t = el("text", { x: X(x), y: Y(y), class: cls || "", "text-anchor": anchor || "middle" }, g);
  t.textContent = s;
  return t;
}

function draw() {
  const s = ui.state;
  const svg = $("board");
  svg.replaceChildren();
  const b = ui.editing ? editorBoard() : s.board;
  const legal = humanToMove() && !ui.editing ? s.legal : [];
  const sources = new Set(legal.map((m) => moveParts(m).from));
  const targets = new Set(
    legal.map(moveParts).filter((p) => p.from === ui.selected).map((p) => p.to)
  );
  const last = s.cursor > 0 && !ui.editing ? moveParts(s.moves[s.cursor - 1]) : null;
  const hint = s.hint && humanToMove() ? moveParts(s.hint) : null;

  el("rect", { ...box(6, 6, 610, 488), rx: 10, class: "frame" }, svg);
  el("rect", { ...box(LEFT_X, 24, BAR_X - LEFT_X, 452), class: "felt" }, svg);
  el("rect", { ...box(RIGHT_X, 24, 600 - RIGHT_X, 452), class: "felt" }, svg);
  el("rect", { ...box(BAR_X, 6, BAR_W, 488), class: "bar" }, svg);

  // Quadrant names in the middle band.
  for (const q of b.quadrants) {
    const a = place(q.from), z = place(q.to);
    const mid = (Math.min(a.x, z.x) + Math.max(a.x, z.x) + COL) / 2;
    const y = a.top ? TOP + TRI + 22 : BOTTOM - TRI - 12;
    text(svg, mid, y, q.name + "  " + q.from + "\u2013" + q.to, "quadrant");
  }

  const layer = el("g", {}, svg);
  const hits = el("g", {}, svg);
  for (const pt of b.points) {
    const p = pt.point, key = String(p), at = place(p);
    const base = at.top ? TOP : BOTTOM;
    const tip = at.top ? TOP + TRI : BOTTOM - TRI;
    const shade = p % 2 === 0 ? "dark" : "light";
    const poly = [[at.x + 2, base], [at.x + COL - 2, base], [at.x + COL / 2, tip]]
      .map(([x, y]) => X(x) + "," + Y(y)).join(" ");
    let cls = "tri " + shade;
    if (last && (last.from === key || last.to === key)) cls += " last";
    if (hint && (hint.from === key || hint.to === key)) cls += " hinted";
    el("polygon", { points: poly, class: cls }, layer);
    text(layer, at.x + COL / 2, at.top ? 19 : 489, key, "num");
    const dir = at.top ? 1 : -1;
    for (let i = 0; i < pt.count; i++) {
      const cy = base + dir * (R + 2 + i * 2 * R);
      const arrived = ui.animate && last && last.to === key && i === pt.count - 1;
      drawChecker(layer, pt.color, at.x + COL / 2, cy, (ui.selected === key ? "selected" : "") + (arrived ? " arrived" : ""));
    }
    if (targets.has(key)) {
      const cy = base + dir * (R + 2 + pt.count * 2 * R);
      el("circle", { cx: X(at.x + COL / 2), cy: Y(Math.min(Math.max(cy, TOP + R), BOTTOM - R)), r: 9, class: "dot" }, layer);
    }
    let hc = "hit";
    if (sources.has(key)) hc += " movable";
    if (ui.selected === key) hc += " selected";
    if (targets.has(key)) hc += " target";
    const what = pt.count === 0 ? "empty" : pt.color + (pt.count === 2 ? " wall" : " checker");
    const hit = el("rect", { ...box(at.x, at.top ? 20 : BOTTOM - TRI - 14, COL, TRI + 30), class: hc, "data-point": key,
      role: "button", tabindex: "0", "aria-label": "point " + key + ": " + what + (targets.has(key) ? ", a target" : "") }, hits);
    hit.addEventListener("click", () => (ui.editing ? editPoint(p) : clickPoint(key, pt)));
    hit.addEventListener("pointerdown", (e) => startDrag(e, key, pt));
    hit.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickPoint(key, pt); } });
  }

  // The tray: borne-off walls (the score) above, checkers to enter below.
  const tray = el("g", {}, svg);
  el("rect", { ...box(TRAY_X - 8, 6, TRAY_W + 14, 488), rx: 10, class: "frame" }, tray);
  const offCls = "tray-zone" + (targets.has("off") ? " target" : "");
  el("rect", { ...box(TRAY_X, 20, TRAY_W, 210), rx: 6, class: offCls }, tray);
  text(tray, TRAY_X + TRAY_W / 2, 40, "score", "tray-title");
  for (const [i, c] of ["white", "black"].entries()) {
    const x = TRAY_X + 6 + i * 62;
    slabs(tray, c, x, 196, 2 * b.score[c], true);
    text(tray, x + 24, 220, String(b.score[c]), "tray-count");
  }
  el("rect", { ...box(TRAY_X, 244, TRAY_W, 236), rx: 6, class: "tray-zone" }, tray);
  text(tray, TRAY_X + TRAY_W / 2, 264, "to enter", "tray-title");
  for (const [i, c] of ["white", "black"].entries()) {
    const x = TRAY_X + 6 + i * 62;
    const mover = c === s.to_move;
    const sel = mover && ui.selected === "bar";
    slabs(tray, c, x, 446, b.to_enter[c], true, sel ? "selected" : "");
    text(tray, x + 24, 470, String(b.to_enter[c]), "tray-count");
    let hc = "hit";
    if (mover && sources.has("bar")) hc += " movable";
    if (sel) hc += " selected";
    const hit = el("rect", { ...box(x - 4, 270, 56, 206), class: hc, id: "pile-" + c,
      role: "button", tabindex: "0", "aria-label": c + "'s checkers to enter: " + b.to_enter[c] }, hits);
    hit.addEventListener("click", () => clickPile(c));
    hit.addEventListener("pointerdown", (e) => startDrag(e, "bar", { color: c }));
    hit.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickPile(c); } });
  }
  const offHit = el("rect", { ...box(TRAY_X, 20, TRAY_W, 210), class: "hit" + (targets.has("off") ? " target" : ""), id: "off",
    role: "button", tabindex: "0", "aria-label": "bear off (score)" }, hits);
  offHit.addEventListener("click", clickOff);
  offHit.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickOff(); } });
  if (s.outcome === null && !ui.editing) {
    // Whose turn: a checker of the mover's colour on the bar.
    drawChecker(svg, s.to_move, BAR_X + BAR_W / 2, H / 2, "turn-marker");
  }
  svg.appendChild(hits); // on top of everything: they take the clicks
}

// ---- sounds ------------------------------------------------------------------

// A short tick for a move (a lower one when the game ends), if the person
// asked for sounds; `ui.sounds` counts them.
function tick(freq) {
  if (!$("sounds").checked) return;
  ui.sounds = (ui.sounds || 0) + 1;
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    ui.audio = ui.audio || new Ctx();
    const o = ui.audio.createOscillator(), g = ui.audio.createGain();
    o.frequency.value = freq;
    g.gain.setValueAtTime(0.15, ui.audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, ui.audio.currentTime + 0.12);
    o.connect(g).connect(ui.audio.destination);
    o.start();
    o.stop(ui.audio.currentTime + 0.12);
  } catch (e) { /* no audio here: the move is on the board anyway */ }
}

// ---- the position editor ---------------------------------------------------

// A click on a point while editing: empty, white checker, white wall, black
// checker, black wall, empty again.
const CYCLE = [[null, 0], ["white", 1], ["white", 2], ["black", 1], ["black", 2]];

function startEditing() {
  if (!ui.state) return;
  ui.editing = { points: ui.state.board.points.map((p) => ({ color: p.color, count: p.count })) };
  const b = ui.state.board;
  $("edit-side").value = ui.state.to_move;
  $("edit-enter-white").value = b.to_enter.white;
  $("edit-enter-black").value = b.to_enter.black;
  $("edit-score-white").value = b.score.white;
  $("edit-score-black").value = b.score.black;
  $("edit-run").value = b.run ? b.run.color[0] + b.run.count : "-";
  $("editor-fields").hidden = false;
  say("Editing: click a point to cycle empty, white, white wall, black, black wall.", "hint");
  render();
}

function editPoint(p) {
  const pt = ui.editing.points[p - 1];
  const i = CYCLE.findIndex(([c, n]) => c === pt.color && n === pt.count);
  const [color, count] = CYCLE[(i + 1) % CYCLE.length];
  ui.editing.points[p - 1] = { color, count };
  render();
}

function editorBoard() {
  const b = ui.state.board;
  const num = (id) => Math.max(0, parseInt($(id).value, 10) || 0);
  return {
    ...b,
    points: ui.editing.points.map((p, i) => ({ point: i + 1, color: p.color, count: p.count })),
    to_enter: { white: num("edit-enter-white"), black: num("edit-enter-black") },
    score: { white: num("edit-score-white"), black: num("edit-score-black") },
  };
}

// The position string of the editor's board: quadrants A to D (each from
// its lowest point), side, checkers to enter, score, run.
function editorFen() {
  const b = editorBoard();
  const ch = (p) => (p.count === 0 ? "." : p.color === "white" ? (p.count === 2 ? "W" : "w") : (p.count === 2 ? "B" : "b"));
  const quads = [0, 6, 12, 18].map((k) => b.points.slice(k, k + 6).map(ch).join(""));
  return quads.join("/") + " " + $("edit-side").value[0] + " " + b.to_enter.white + " " + b.to_enter.black + " " +
    b.score.white + "-" + b.score.black + " " + $("edit-run").value;
}

function stopEditing() {
  ui.editing = null;
  $("editor-fields").hidden = true;
  if (ui.state) render();
}

async function playEdited() {
  const fen = editorFen();
  const ok = await start({ fen });
  if (ok) stopEditing();
}

// ---- the rest of the page ------------------------------------------------

function describeScore(info) {
  if (!info || info.score_kind === null) return "";
  const v = info.score_white;
  if (info.score_kind === "mate") {
    return v > 0 ? "White wins in " + v + " (found by the search)" : v < 0 ? "Black wins in " + -v + " (found by the search)" : "decided";
  }
  const walls = (v / 100).toFixed(2);
  return (v > 0 ? "White +" + walls : v < 0 ? "Black +" + (-v / 100).toFixed(2) : "level 0.00") + " walls";
}

function render() {
  const s = ui.state;
  document.body.dataset.game = s.id;
  document.body.dataset.toMove = s.to_move;
  const over = s.outcome;
  const who = (c) => (s.seats[c] === "engine" ? "engine" : (s.seats.white === "human" && s.seats.black === "human") ? "" : "you");
  let turn;
  if (ui.editing) turn = "Editing a position";
  else if (reviewing()) turn = "Looking at move " + s.cursor + " of " + s.moves.length;
  else if (over) turn = "Game over";
  else if (s.engine.thinking && s.seats[s.to_move] === "human") turn = "The engine looks for a hint\u2026";
  else if (s.engine.thinking) turn = capital(s.to_move) + " (engine) is thinking\u2026";
  else {
    const w = who(s.to_move);
    turn = capital(s.to_move) + " to move" + (w ? " (" + w + ")" : "");
  }
  $("turn").textContent = turn;
  $("turn").className = over ? "turn-over" : "turn-" + s.to_move;

  // The banner: the rules' end, or how a loaded record ended.
  const banner = $("banner");
  let bannerText = null;
  if (over) bannerText = over.text + " (" + over.result + ")";
  else if (s.loaded && !s.diverged && s.cursor === s.moves.length && s.loaded.termination !== "normal") {
    bannerText = "Record ends: " + (s.loaded.detail || s.loaded.termination) + " (" + s.loaded.result + ")";
  }
  banner.hidden = bannerText === null;
  banner.textContent = bannerText || "";
  banner.className = over ? (over.winner ? "win-" + over.winner : "draw") : "record-end";

  $("run").textContent = "Score: White " + s.board.score.white + ", Black " + s.board.score.black + ". Run: " + s.board.run_text + ".";

  const passOnly = humanToMove() && s.legal.length === 1 && s.legal[0] === "pass";
  $("pass").hidden = !passOnly;
  $("play-here").hidden = !(s.cursor < s.moves.length && !ui.branching && !over);
  const vsEngine = s.seats.white !== s.seats.black;
  $("hint").hidden = $("resign").hidden = !humanToMove();
  $("hint").disabled = !!s.hint;
  if (Date.now() - ui.resignAsked > 4000) ui.resignAsked = 0;
  $("resign").textContent = ui.resignAsked ? "Really resign?" : "Resign";
  $("resign").classList.toggle("asked", !!ui.resignAsked);
  $("move-now").hidden = !(s.engine.thinking && s.seats[s.to_move] === "engine");
  $("show-analysis").closest("label").title = vsEngine ? "Hidden by default while you play the engine" : "";
  const lv = LEVELS.find((l) => l.limit.kind === s.limit.kind && l.limit.value === s.limit.value);
  if (document.activeElement !== $("level")) $("level").value = lv ? lv.name : "custom";
  $("checkers").value = String(s.size);
  if (document.activeElement !== $("limit-value") && document.activeElement !== $("limit-kind")) {
    $("limit-kind").value = s.limit.kind;
    $("limit-value").value = String(s.limit.value);
  }
  $("flip").disabled = false;
  $("engine-move").disabled = !!over || s.engine.thinking;
  const demo = s.seats.white === "engine" && s.seats.black === "engine";
  $("pause").hidden = !demo;
  $("pause").textContent = ui.paused ? "Resume" : "Pause";
  $("undo").disabled = s.cursor === 0;
  $("first").disabled = $("prev").disabled = s.cursor === 0;
  $("next").disabled = $("last").disabled = s.cursor === s.moves.length;
  $("ply").textContent = "move " + s.cursor + " of " + s.moves.length;
  $("engine-move").disabled = !!over || s.engine.thinking || reviewing();

  const values = analysisValues(s);
  const marks = mistakes(s, values);
  drawGraph(s, values, marks);
  // Move list: numbered pairs in the project's notation.
  const list = $("moves");
  list.replaceChildren();
  let li = null;
  s.moves.forEach((m, i) => {
    const side = sideAt(i);
    if (side === "white" || li === null) {
      li = document.createElement("li");
      li.value = s.first === "white" ? Math.floor(i / 2) + 1 : Math.floor((i + 1) / 2) + 1;
      if (side === "black") {
        const gap = document.createElement("span");
        gap.className = "gap";
        gap.textContent = "\u2026";
        li.appendChild(gap);
      }
      list.appendChild(li);
    }
    const span = document.createElement("span");
    span.className = "move" + (i + 1 === s.cursor ? " current" : "") + (i >= s.cursor ? " future" : "");
    span.textContent = m;
    span.dataset.ply = i + 1;
    if (s.notes[i]) span.title = s.notes[i];
    const mark = marks[i];
    if (mark) {
      span.classList.add(mark.kind);
      span.title = mark.kind + ": loses " + mark.loss.toFixed(2) + " walls (the engine preferred " + mark.best + ")";
    }
    span.addEventListener("click", () => seek(i + 1));
    li.appendChild(span);
  });
  // Scroll the list itself: scrollIntoView would scroll the page too, and
  // on a phone carry the board out of view.
  const cur = list.querySelector(".current");
  if (cur) {
    const top = cur.offsetTop, bottom = top + cur.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }

  // The engine's score and line.
  const info = s.engine.info;
  const ei = $("engine-info");
  ei.hidden = !$("show-analysis").checked;
  ei.textContent = info
    ? [info.depth !== null ? "depth " + info.depth : "", describeScore(info), info.pv.length ? "line: " + info.pv.join(" ") : ""].filter(Boolean).join(" \u00b7 ")
    : "";
  const es = $("engine-status");
  es.textContent = s.engine.error ? s.engine.error : "";
  es.className = s.engine.error ? "error" : "";
  if (s.engine.error && s.engine.error !== ui.shownError) {
    // Beside the board too (on a phone the panel is far below).
    say(s.engine.error + ". Press \u201cEngine move\u201d to try again.", "error");
  }
  ui.shownError = s.engine.error;
  if (s.engine.warning && s.engine.warning !== ui.shownWarning) say(capital(s.engine.warning) + ".", "hint");
  ui.shownWarning = s.engine.warning;
  if (s.hint && humanToMove() && !$("message").textContent) say("Hint: " + s.hint + " (marked on the board).", "hint");

  if (document.activeElement !== $("fen")) $("fen").value = s.fen;
  $("download").disabled = !s.record_ready;
  $("copy-link").disabled = $("copy-fen").disabled = false;
  $("download").title = s.record_ready ? "" : "A record needs a result: finish the game first (the position string keeps an unfinished one).";
  const l = s.loaded;
  $("loaded").textContent = l ? "Loaded: " + l.white + " vs " + l.black + (l.event ? ", " + l.event : "") + (l.date ? ", " + l.date : "") + ": " + l.result + (s.diverged ? " (changed since)" : "") : "";

  const mode = s.seats.white === "human" ? (s.seats.black === "human" ? "both" : "white") : (s.seats.black === "human" ? "black" : "demo");
  if (document.activeElement !== $("mode")) $("mode").value = mode;
  if (document.activeElement !== $("engine")) $("engine").value = String(s.engine.index);
  draw();
}

function say(msg, kind) {
  const m = $("message");
  m.textContent = msg || "";
  m.className = kind || "";
}

function show(state) {
  ui.shown = (ui.shown || 0) + 1;
  const before = ui.state;
  ui.state = state;
  ui.noGame = false;
  if (!before || before.id !== state.id || before.cursor !== state.cursor || before.fen !== state.fen) ui.selected = null;
  if (!before || before.id !== state.id || state.cursor === state.moves.length) ui.branching = false;
  ui.animate = !!before && before.id === state.id && state.cursor > before.cursor && state.cursor - before.cursor <= 2;
  if (ui.animate && state.moves.length > before.moves.length) tick(state.outcome ? 330 : 660);
  try { sessionStorage.setItem("grasshopper-game", state.id); } catch (e) { /* private mode */ }
  // The address names the game: a reload, or the link, opens it again.
  const url = "?game=" + state.id + (ui.flipped ? "&flip=1" : "");
  if (location.search !== url) history.replaceState(null, "", url);
  render();
  announcePasses(before, state);
  drive();
}

// Says who passed for want of a move (the server plays a forced pass).
function announcePasses(before, s) {
  if (!before || before.id !== s.id || s.moves.length <= before.moves.length) return;
  for (let i = before.moves.length; i < s.moves.length; i++) {
    if (s.notes[i] !== "forced pass" || i + 1 !== s.cursor && i + 2 !== s.cursor) continue;
    const side = sideAt(i);
    const who = s.seats[side] === "engine" ? capital(side) + " (engine) has" : capital(side) + " has";
    say(who + " no legal move and passes.", "hint");
  }
}

// Asks the engine when it is to move, and watches it think.
function drive() {
  const s = ui.state;
  if (s.engine.thinking || s.engine.busy) {
    if (!ui.polling) {
      const id = s.id;
      ui.polling = setTimeout(async () => {
        ui.polling = null;
        if (!ui.state || ui.state.id !== id) return;
        try {
          const fresh = await api("GET", gamePath());
          if (ui.state && ui.state.id === id) show(fresh);
        } catch (e) { fail(e, id); }
      }, 50);
    }
    return;
  }
  const engineTurn = !s.outcome && s.seats[s.to_move] === "engine" && s.cursor === s.moves.length;
  const demo = s.seats.white === "engine" && s.seats.black === "engine";
  if (!engineTurn || s.engine.error || ui.going || ui.analysing || (demo && ui.paused) || ui.branching) return;
  ui.going = true;
  const id = s.id, version = s.version;
  setTimeout(async () => {
    ui.going = false;
    if (!ui.state || ui.state.id !== id || ui.state.version !== version) return ui.state && drive();
    try { await act("go"); } catch (e) { fail(e, id); }
  }, demo ? 500 : 0);
}

// An answer about game `id` failed: about another game than the one shown
// (a New game meanwhile), it is old news and ignored.
function fail(e, id) {
  if (id && (!ui.state || ui.state.id !== id)) return;
  say(e.message || String(e), "error");
  if (e.status === 404 && ui.state) {
    // The server has lost the game (kept in memory only, and closed after
    // a long pause or a restart): go on from the position on the page.
    const fen = ui.state.fen;
    start({ fen }).then((ok) => ok && say("The server had closed this game after a long pause; it goes on from the same position (its earlier moves are not kept).", "hint"));
  }
}

// ---- clicks --------------------------------------------------------------

async function play(move) {
  say("");
  ui.selected = null;
  const id = ui.state.id;
  try {
    await act("move", { move, version: ui.state.version });
  } catch (e) {
    if (e.status === 409 && ui.state.id === id) {
      // Another tab changed the game: show it as it is now.
      try { show(await api("GET", gamePath())); } catch (e2) { /* the message says enough */ }
      say(e.message, "error");
      return;
    }
    const illegal = e.status === 422 && !e.message.includes(move);
    say((illegal ? move + " is illegal: " : "") + e.message, "error");
    render();
  }
}

function clickPoint(key, pt) {
  const s = ui.state;
  if (reviewing()) {
    say("You are looking at an earlier move: \u25B6| goes back to the game, \u201cPlay from here\u201d plays on from this move (the later moves are dropped).", "hint");
    return;
  }
  if (!humanToMove()) {
    say(s.outcome ? "The game is over." : s.engine.thinking ? "Wait: the engine is thinking." : "It is the engine's turn.", "hint");
    return;
  }
  const legal = s.legal.map((m) => ({ ...moveParts(m), move: m }));
  if (ui.selected === null) {
    if (pt.color === s.to_move) {
      const n = legal.filter((m) => m.from === key).length;
      if (n === 1 && $("one-tap").checked) return play(legal.find((m) => m.from === key).move);
      ui.selected = key;
      say(n ? "" : "The checker on " + key + " has no legal move: click a point to see why.", "hint");
    } else if (pt.color) {
      say("That is " + pt.color + "'s checker: " + s.to_move + " is to move.", "hint");
    } else {
      say("Click one of " + s.to_move + "'s checkers, or the pile to enter.", "hint");
    }
    render();
    return;
  }
  if (ui.selected === key) {
    ui.selected = null;
    say("");
    render();
    return;
  }
  const target = legal.some((m) => m.from === ui.selected && m.to === key);
  if (!target && pt.color === s.to_move && legal.some((m) => m.from === key)) {
    ui.selected = key;
    say("");
    render();
    return;
  }
  play(ui.selected + "/" + key);
}

function clickPile(color) {
  const s = ui.state;
  if (ui.editing) { say("Set the checkers to enter in the fields beside the board.", "hint"); return; }
  if (!humanToMove()) return clickPoint(null, {});
  if (color !== s.to_move) {
    say("That is " + color + "'s pile: " + s.to_move + " is to move.", "hint");
    return;
  }
  const entries = s.legal.filter((m) => moveParts(m).from === "bar");
  if (ui.selected !== "bar" && entries.length === 1 && $("one-tap").checked) return play(entries[0]);
  ui.selected = ui.selected === "bar" ? null : "bar";
  say(ui.selected && s.board.to_enter[color] === 0 ? capital(color) + " has no checker left to enter." : "", "hint");
  render();
}

function clickOff() {
  if (ui.editing) { say("Set the score in the fields beside the board.", "hint"); return; }
  if (!humanToMove() || ui.selected === null) {
    say("To bear off, click one of your walls in D (19\u201324), then here.", "hint");
    return;
  }
  play(ui.selected + "/off");
}

// Drag and drop: press on a movable checker (or the pile), let go over a
// target. A press without a move stays a click.
function startDrag(e, key, pt) {
  if (!humanToMove() || ui.editing || e.button !== 0) return;
  const s = ui.state;
  if (key === "bar" ? pt.color !== s.to_move : pt.color !== s.to_move) return;
  ui.drag = { key, pt, x: e.clientX, y: e.clientY };
}

function endDrag(e) {
  const d = ui.drag;
  ui.drag = null;
  if (!d || Math.hypot(e.clientX - d.x, e.clientY - d.y) < 12 || !humanToMove()) return;
  const under = document.elementFromPoint(e.clientX, e.clientY);
  const to = under && (under.dataset.point || (under.id === "off" ? "off" : null));
  if (!to || to === d.key) return;
  play(d.key + "/" + to);
}

async function resign() {
  if (!ui.state || !humanToMove()) return;
  if (!ui.resignAsked) {
    ui.resignAsked = Date.now();
    say("Press \u201cReally resign?\u201d to give the game up.", "hint");
    render();
    setTimeout(() => { if (ui.state) render(); }, 4100);
    return;
  }
  ui.resignAsked = 0;
  try { await act("resign"); say(""); } catch (e) { say(e.message, "error"); }
}

async function askHint() {
  if (!ui.state || !humanToMove()) return;
  try { say(""); await act("hint"); } catch (e) { say(e.message, "error"); }
}

// "Move now": the engine's search is stopped and it is asked again for a
// move at depth 1, played at once.
async function moveNow() {
  const s = ui.state;
  if (!s || !s.engine.thinking) return;
  const id = s.id, lim = s.limit;
  ui.going = true; // drive() must not ask at the old strength meanwhile
  try {
    await act("undo", { plies: 0 });
    await act("settings", { limit: { kind: "depth", value: 1 } });
    await waitIdle(id);
    await act("go");
    await act("settings", { limit: lim });
  } catch (e) { fail(e, id); } finally { ui.going = false; }
}

// Waits until the engine of game `id` has let go of a stopped search.
async function waitIdle(id) {
  for (let i = 0; i < 1200; i++) {
    const s = await api("GET", "/api/games/" + id);
    if (!s.engine.busy) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw { status: 0, message: "the engine did not finish its search within a minute" };
}

// ---- after the game: the analysis -----------------------------------------

const SURE = 20; // a won position, in walls, for the graph and the losses

// The value of each position from White's side, in walls (null: not yet
// analysed): the engine's score, a win found by its search as +-SURE, and
// the end of the game as it ended.
function analysisValues(s) {
  const v = new Array(s.moves.length + 1).fill(null);
  for (const a of s.analysis || []) {
    if (a.score_kind === "mate") v[a.ply] = a.score_white > 0 ? SURE : a.score_white < 0 ? -SURE : 0;
    else if (a.score_kind === "cp") v[a.ply] = Math.max(-SURE, Math.min(SURE, a.score_white / 100));
  }
  if (s.outcome && s.cursor === s.moves.length) {
    v[s.moves.length] = s.outcome.winner === "white" ? SURE : s.outcome.winner === "black" ? -SURE : 0;
  }
  return v;
}

// The moves that gave value away: at least 1 wall a mistake, 3 a blunder.
function mistakes(s, v) {
  const best = {};
  for (const a of s.analysis || []) best[a.ply] = a.best;
  const out = {};
  for (let i = 0; i < s.moves.length; i++) {
    if (v[i] === null || v[i + 1] === null || s.notes[i] === "forced pass" || s.moves[i] === best[i]) continue;
    const loss = (sideAt(i) === "white" ? 1 : -1) * (v[i] - v[i + 1]);
    if (loss >= 1) out[i] = { kind: loss >= 3 ? "blunder" : "mistake", loss, best: best[i] };
  }
  return out;
}

function drawGraph(s, v, marks) {
  const g = $("graph");
  g.replaceChildren();
  const known = v.filter((x) => x !== null).length;
  // An <svg> has no `hidden` property: the attribute itself.
  g.toggleAttribute("hidden", known < 2);
  if (known < 2) return;
  const Wg = 300, Hg = 90, n = Math.max(1, v.length - 1);
  const xy = (i) => [4 + (i / n) * (Wg - 8), Hg / 2 - (Math.max(-5, Math.min(5, v[i])) / 5) * (Hg / 2 - 6)];
  el("rect", { x: 0, y: 0, width: Wg, height: Hg, class: "graph-bg" }, g);
  el("line", { x1: 0, y1: Hg / 2, x2: Wg, y2: Hg / 2, class: "graph-axis" }, g);
  const pts = v.map((x, i) => (x === null ? null : xy(i).join(","))).filter(Boolean).join(" ");
  el("polyline", { points: pts, class: "graph-line" }, g);
  for (const i of Object.keys(marks)) {
    const k = Number(i) + 1;
    if (v[k] === null) continue;
    const [x, y] = xy(k);
    el("circle", { cx: x, cy: y, r: 4, class: "graph-" + marks[i].kind, "data-ply": k }, g);
  }
  if (s.cursor <= n) {
    const [x] = xy(s.cursor);
    el("line", { x1: x, y1: 0, x2: x, y2: Hg, class: "graph-cursor" }, g);
  }
}

// Asks the engine for the value of every position of the game, one after
// the other, then shows the graph and marks the mistakes.
async function analyse() {
  const s0 = ui.state;
  if (!s0 || s0.engine.thinking || ui.analysing) return;
  const id = s0.id;
  const depth = s0.limit.kind === "depth" ? s0.limit.value : 4;
  ui.analysing = true;
  $("analyse").disabled = true;
  try {
    const done = new Set((s0.analysis || []).map((a) => a.ply));
    const n = s0.moves.length;
    for (let k = 0; k <= n; k++) {
      if (!ui.state || ui.state.id !== id) return;
      if (done.has(k) || (k === n && s0.outcome)) continue;
      say("Analysing: position " + k + " of " + n + "\u2026", "hint");
      await act("analyse", { ply: k, depth });
      show(await waitIdle(id));
    }
    const marks = mistakes(ui.state, analysisValues(ui.state));
    const count = (kind) => Object.values(marks).filter((m) => m.kind === kind).length;
    say("Analysis done (depth " + depth + "): " + count("mistake") + " mistakes, " + count("blunder") + " blunders, marked in the moves and the graph.", "hint");
  } catch (e) { fail(e, id); } finally {
    ui.analysing = false;
    $("analyse").disabled = false;
  }
}

async function seek(ply) {
  if (!ui.state || ply < 0 || ply > ui.state.moves.length) return;
  const id = ui.state.id;
  try { await act("seek", { ply }); } catch (e) { fail(e, id); }
}

// ---- settings and games ---------------------------------------------------

function seats() {
  switch ($("mode").value) {
    case "black": return { white: "engine", black: "human" };
    case "both": return { white: "human", black: "human" };
    case "demo": return { white: "engine", black: "engine" };
    default: return { white: "human", black: "engine" };
  }
}

// The strength in the panel, or null (and a message) when it is out of range.
function limit() {
  const kind = $("limit-kind").value;
  const text = $("limit-value").value.trim();
  const value = Number(text);
  const lim = ui.info ? ui.info.limits : { max_depth: 64, max_movetime: 60000 };
  const [lo, hi] = kind === "depth" ? [1, lim.max_depth] : [10, lim.max_movetime];
  if (!/^[0-9]+$/.test(text) || value < lo || value > hi) {
    say((kind === "depth" ? "Search depth" : "Time per move") + " \u201c" + text + "\u201d: expected a whole number from " + lo + " to " + hi + (kind === "depth" ? "" : " ms") + ".", "error");
    return null;
  }
  return { kind, value };
}

function settings() {
  const l = limit();
  if (!l) return null;
  return { ...seats(), engine: parseInt($("engine").value || "0", 10), limit: l };
}

async function start(extra) {
  const old = ui.state;
  const set = settings();
  if (!set) return false;
  const body = { game: "grasshopper", ...set, ...extra };
  try {
    let state;
    try {
      state = await api("POST", "/api/games", body);
    } catch (e) {
      // The server is full: this page's old game makes room.
      if (e.status !== 503 || !old) throw e;
      await api("DELETE", "/api/games/" + old.id).catch(() => {});
      state = await api("POST", "/api/games", body);
    }
    if (old && old.id !== state.id) api("DELETE", "/api/games/" + old.id).catch(() => {});
    ui.paused = false;
    ui.branching = false;
    say("");
    $("retry").hidden = true;
    show(state);
    return true;
  } catch (e) {
    say(e.message, "error");
    if (!ui.state) noGame();
    return false;
  }
}

// No game could be opened (the server is full): an empty board, every
// game button off, and a way to try again.
function noGame() {
  ui.noGame = true;
  $("board").replaceChildren();
  $("turn").textContent = "No game";
  $("turn").className = "turn-over";
  for (const b of ["pass", "play-here"]) $(b).hidden = true;
  for (const b of ["engine-move", "undo", "flip", "first", "prev", "next", "last", "download", "copy-link", "copy-fen"]) $(b).disabled = true;
  $("retry").hidden = false;
}

function newGame() {
  return start({ checkers: parseInt($("checkers").value, 10) });
}

async function changeSettings() {
  if (!ui.state) return;
  const set = settings();
  if (!set) {
    // Back to what the game uses: the field never shows a value not in force.
    $("limit-kind").value = ui.state.limit.kind;
    $("limit-value").value = String(ui.state.limit.value);
    return;
  }
  try { await act("settings", set); say(""); } catch (e) { say(e.message, "error"); }
}

async function undo() {
  const s = ui.state;
  if (!s) return;
  // Back to the last position where a person was to move (or one move back
  // when nobody or everybody is a person).
  const people = ["white", "black"].filter((c) => s.seats[c] === "human").length;
  let to = s.cursor - 1;
  // Never back to a pass the server played for want of a move.
  const skip = (k) => s.notes[k] === "forced pass" || (people === 1 && s.seats[sideAt(k)] !== "human");
  while (to > 0 && skip(to)) to--;
  if (to < 0) return;
  ui.paused = people === 0;
  try { await act("undo", { plies: s.cursor - to }); say(""); } catch (e) { fail(e, s.id); }
}

async function download() {
  if (!ui.state) return;
  try {
    const resp = await fetch(gamePath("record"));
    const textBody = await resp.text();
    if (!resp.ok) throw { message: JSON.parse(textBody).error };
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([textBody], { type: "text/plain" }));
    a.download = "grasshopper-" + ui.state.id + ".pgn";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  } catch (e) { say(e.message, "error"); }
}

async function loadRecord(textBody) {
  if (!textBody.trim()) { say("Paste a record, or choose a file.", "hint"); return; }
  if (await start({ record: textBody })) say("Record loaded: step through it with \u25C0 \u25B6, or click a move.", "hint");
}

async function init() {
  for (let n = 2; n <= 14; n += 2) {
    const o = document.createElement("option");
    o.value = o.textContent = String(n);
    $("checkers").appendChild(o);
  }
  $("checkers").value = "14";
  try { ui.info = await api("GET", "/api/info"); } catch (e) { say(e.message, "error"); return; }
  for (const e of ui.info.engines) {
    const o = document.createElement("option");
    o.value = String(e.index);
    o.textContent = e.name;
    $("engine").appendChild(o);
  }
  const params = new URLSearchParams(location.search);
  // The address's settings, checked: a value the panel cannot show is
  // refused with a word, never left blank.
  const refused = [];
  const pick = (sel, value, what) => {
    if ([...$(sel).options].some((o) => o.value === value)) $(sel).value = value;
    else refused.push(what + " \u201c" + value + "\u201d");
  };
  if (params.get("checkers")) pick("checkers", params.get("checkers"), "checkers");
  if (params.get("mode")) pick("mode", params.get("mode"), "mode");
  if (params.get("depth")) { $("limit-kind").value = "depth"; $("limit-value").value = params.get("depth"); }
  if (params.get("movetime")) { $("limit-kind").value = "movetime"; $("limit-value").value = params.get("movetime"); }
  if (params.get("flip")) ui.flipped = true;
  const fenParam = params.get("fen");

  const need = (f) => () => { if (ui.state) f(); };
  $("new-game").addEventListener("click", newGame);
  $("retry").addEventListener("click", async () => {
    if (await newGame()) say("");
  });
  $("mode").addEventListener("change", () => { ui.paused = false; changeSettings(); });
  $("engine").addEventListener("change", changeSettings);
  $("limit-kind").addEventListener("change", () => {
    $("limit-value").value = $("limit-kind").value === "depth" ? "4" : "500";
    changeSettings();
  });
  $("limit-value").addEventListener("change", changeSettings);
  $("show-analysis").addEventListener("change", need(render));
  $("pass").addEventListener("click", need(() => play("pass")));
  $("play-here").addEventListener("click", need(() => {
    ui.branching = true;
    say("Play on from move " + ui.state.cursor + ": your next move replaces the " + (ui.state.moves.length - ui.state.cursor) + " later ones.", "hint");
    render();
    drive();
  }));
  $("engine-move").addEventListener("click", need(async () => {
    try { say(""); await act("go"); } catch (e) { say(e.message, "error"); }
  }));
  $("pause").addEventListener("click", need(() => { ui.paused = !ui.paused; render(); drive(); }));
  $("undo").addEventListener("click", undo);
  const flip = need(() => { ui.flipped = !ui.flipped; show(ui.state); });
  $("flip").addEventListener("click", flip);
  $("first").addEventListener("click", need(() => seek(0)));
  $("prev").addEventListener("click", need(() => seek(ui.state.cursor - 1)));
  $("next").addEventListener("click", need(() => seek(ui.state.cursor + 1)));
  $("last").addEventListener("click", need(() => seek(ui.state.moves.length)));
  $("load-fen").addEventListener("click", () => {
    const fen = $("fen").value.trim();
    if (!fen) { say("Type or paste a position string first.", "hint"); return; }
    start({ fen });
  });
  $("download").addEventListener("click", download);
  $("resign").addEventListener("click", resign);
  $("analyse").addEventListener("click", analyse);
  try { $("sounds").checked = localStorage.getItem("grasshopper-sounds") === "1"; } catch (e) { /* private mode */ }
  $("sounds").addEventListener("change", () => {
    try { localStorage.setItem("grasshopper-sounds", $("sounds").checked ? "1" : "0"); } catch (e) { /* private mode */ }
  });
  $("edit-start").addEventListener("click", startEditing);
  $("edit-cancel").addEventListener("click", stopEditing);
  $("edit-clear").addEventListener("click", () => {
    if (!ui.editing) return;
    ui.editing.points = ui.editing.points.map(() => ({ color: null, count: 0 }));
    render();
  });
  $("edit-play").addEventListener("click", playEdited);
  for (const id of ["edit-enter-white", "edit-enter-black", "edit-score-white", "edit-score-black"]) {
    $(id).addEventListener("input", () => ui.editing && render());
  }
  $("hint").addEventListener("click", askHint);
  $("move-now").addEventListener("click", moveNow);
  window.addEventListener("pointerup", endDrag);
  for (const l of LEVELS) {
    const o = document.createElement("option");
    o.value = l.name;
    o.textContent = l.label + " (" + (l.limit.kind === "depth" ? "depth " + l.limit.value : l.limit.value + " ms") + ")";
    $("level").insertBefore(o, $("level").lastElementChild);
  }
  $("level").addEventListener("change", () => {
    const l = LEVELS.find((x) => x.name === $("level").value);
    if (!l) return;
    $("limit-kind").value = l.limit.kind;
    $("limit-value").value = String(l.limit.value);
    changeSettings();
  });
  if (params.get("level")) {
    const l = LEVELS.find((x) => x.name === params.get("level"));
    if (l) { $("limit-kind").value = l.limit.kind; $("limit-value").value = String(l.limit.value); } else refused.push("level \u201c" + params.get("level") + "\u201d");
  }
  $("move-input").addEventListener("keydown", (e) => {
    if (e.key !== "Enter" || !ui.state) return;
    const m = $("move-input").value.trim();
    if (!m) return;
    if (!humanToMove()) { say("It is not your turn.", "hint"); return; }
    $("move-input").value = "";
    play(m);
  });
  $("copy-fen").addEventListener("click", need(() => copy(ui.state.fen, "The position string")));
  $("copy-link").addEventListener("click", need(() => copy(linkToPosition(), "A link to this position")));
  $("load-record").addEventListener("click", () => loadRecord($("record-paste").value));
  $("record-file").addEventListener("change", () => {
    const f = $("record-file").files[0];
    if (!f) return;
    if (f.size > 200000) { say("That file is too large to be a game record.", "error"); return; }
    f.text().then(loadRecord);
  });
  document.addEventListener("keydown", keys);

  // The game the address names (a reload, a link), else this tab's last
  // one; a new game otherwise.
  let id = params.get("game");
  if (!id && !params.get("new")) {
    try { id = sessionStorage.getItem("grasshopper-game"); } catch (e) { id = null; }
  }
  let opened = false;
  if (id && !fenParam) {
    try {
      const s = await api("POST", "/api/games/" + id + "/open", {});
      // A backgammon game has its own page.
      if (s.game === "backgammon") { location.replace("/backgammon?game=" + encodeURIComponent(id)); return; }
      show(s);
      opened = true;
    } catch (e) {
      if (params.get("game")) refused.push("game " + id + " (" + e.message + ")");
    }
  }
  if (fenParam) {
    try {
      const body = { game: "grasshopper", ...settings(), fen: fenParam };
      show(await api("POST", "/api/games", body));
      opened = true;
    } catch (e) { refused.push("position \u201c" + fenParam + "\u201d (" + e.message + ")"); }
  }
  if (!opened) await newGame();
  if (refused.length) say("The address's " + refused.join(", ") + " could not be used" + (ui.state ? ": this is a new game." : "."), "error");
  // Tell the server the page is still open, and see what another tab did.
  setInterval(() => { if (document.visibilityState === "visible") refresh(); }, 3000);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") refresh(); });
  // A closed tab frees its place on the server at once when the server
  // keeps games on disk (a reload, or the link, opens it again).
  window.addEventListener("pagehide", () => {
    if (ui.state && ui.info && ui.info.keeps_games) {
      fetch("/api/games/" + ui.state.id, { method: "DELETE", keepalive: true }).catch(() => {});
    }
  });
}

// Asks for the game; shows it if it changed.
function refresh() {
  if (!ui.state || ui.polling) return;
  const id = ui.state.id, shown = ui.shown;
  api("GET", gamePath()).then((s) => {
    // Anything shown meanwhile is newer than this answer.
    if (ui.shown === shown && ui.state && ui.state.id === id && s.version !== ui.state.version) show(s);
  }).catch((e) => fail(e, id));
}

// A link anybody can open: the position string in the address.
function linkToPosition() {
  return location.origin + location.pathname + "?fen=" + encodeURIComponent(ui.state.fen);
}

// Copies text to the clipboard, and shows it to copy by hand as well.
function copy(textValue, what) {
  const out = $("copy-out");
  out.hidden = false;
  out.value = textValue;
  out.select();
  const done = () => say(what + " is copied.", "hint");
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(textValue).then(done, () => say(what + " is selected below: copy it.", "hint"));
  } else say(what + " is selected below: copy it.", "hint");
}

// Keys: arrows step through the moves, Home/End to the ends, F flips.
function keys(e) {
  const t = e.target;
  if (!ui.state || e.ctrlKey || e.metaKey || e.altKey) return;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
  const k = e.key;
  if (k === "ArrowLeft") seek(ui.state.cursor - 1);
  else if (k === "ArrowRight") seek(ui.state.cursor + 1);
  else if (k === "Home") seek(0);
  else if (k === "End") seek(ui.state.moves.length);
  else if (k === "f" || k === "F") $("flip").click();
  else if (k === "Escape") { ui.selected = null; render(); }
  else return;
  e.preventDefault();
}

init();
