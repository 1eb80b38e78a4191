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
};

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
  const state = await api("POST", gamePath(action), body || {});
  show(state);
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

function humanToMove() {
  const s = ui.state;
  return !s.outcome && !s.engine.thinking && s.seats[s.to_move] === "human";
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
  const b = s.board;
  const legal = humanToMove() ? s.legal : [];
  const sources = new Set(legal.map((m) => moveParts(m).from));
  const targets = new Set(
    legal.map(moveParts).filter((p) => p.from === ui.selected).map((p) => p.to)
  );
  const last = s.cursor > 0 ? moveParts(s.moves[s.cursor - 1]) : null;

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
    el("polygon", { points: poly, class: cls }, layer);
    text(layer, at.x + COL / 2, at.top ? 19 : 489, key, "num");
    const dir = at.top ? 1 : -1;
    for (let i = 0; i < pt.count; i++) {
      const cy = base + dir * (R + 2 + i * 2 * R);
      drawChecker(layer, pt.color, at.x + COL / 2, cy, ui.selected === key ? "selected" : "");
    }
    if (targets.has(key)) {
      const cy = base + dir * (R + 2 + pt.count * 2 * R);
      el("circle", { cx: X(at.x + COL / 2), cy: Y(Math.min(Math.max(cy, TOP + R), BOTTOM - R)), r: 9, class: "dot" }, layer);
    }
    let hc = "hit";
    if (sources.has(key)) hc += " movable";
    if (ui.selected === key) hc += " selected";
    if (targets.has(key)) hc += " target";
    const hit = el("rect", { ...box(at.x, at.top ? 20 : BOTTOM - TRI - 14, COL, TRI + 30), class: hc, "data-point": key }, hits);
    hit.addEventListener("click", () => clickPoint(key, pt));
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
    const hit = el("rect", { ...box(x - 4, 270, 56, 206), class: hc, id: "pile-" + c }, hits);
    hit.addEventListener("click", () => clickPile(c));
  }
  const offHit = el("rect", { ...box(TRAY_X, 20, TRAY_W, 210), class: "hit" + (targets.has("off") ? " target" : ""), id: "off" }, hits);
  offHit.addEventListener("click", clickOff);
  if (s.outcome === null) {
    // Whose turn: a checker of the mover's colour on the bar.
    drawChecker(svg, s.to_move, BAR_X + BAR_W / 2, H / 2, "turn-marker");
  }
  svg.appendChild(hits); // on top of everything: they take the clicks
}

// ---- the rest of the page ------------------------------------------------

function describeScore(info) {
  if (!info || info.score_kind === null) return "";
  const v = info.score_white;
  if (info.score_kind === "mate") {
    return v > 0 ? "White wins in " + v : v < 0 ? "Black wins in " + -v : "decided";
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
  if (over) turn = "Game over";
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
  $("engine-move").disabled = !!over || s.engine.thinking;
  const demo = s.seats.white === "engine" && s.seats.black === "engine";
  $("pause").hidden = !demo;
  $("pause").textContent = ui.paused ? "Resume" : "Pause";
  $("undo").disabled = s.cursor === 0;
  $("first").disabled = $("prev").disabled = s.cursor === 0;
  $("next").disabled = $("last").disabled = s.cursor === s.moves.length;
  $("ply").textContent = "move " + s.cursor + " of " + s.moves.length;

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
    span.addEventListener("click", () => seek(i + 1));
    li.appendChild(span);
  });
  const cur = list.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });

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

  if (document.activeElement !== $("fen")) $("fen").value = s.fen;
  $("download").disabled = !s.record_ready;
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
  const before = ui.state;
  ui.state = state;
  if (!before || before.id !== state.id || before.cursor !== state.cursor || before.fen !== state.fen) ui.selected = null;
  try { sessionStorage.setItem("grasshopper-game", state.id); } catch (e) { /* private mode */ }
  render();
  drive();
}

// Asks the engine when it is to move, and watches it think.
function drive() {
  const s = ui.state;
  if (s.engine.thinking || s.engine.busy) {
    if (!ui.polling) {
      ui.polling = setTimeout(async () => {
        ui.polling = null;
        try { show(await api("GET", gamePath())); } catch (e) { fail(e); }
      }, 50);
    }
    return;
  }
  const engineTurn = !s.outcome && s.seats[s.to_move] === "engine" && s.cursor === s.moves.length;
  const demo = s.seats.white === "engine" && s.seats.black === "engine";
  if (!engineTurn || s.engine.error || ui.going || (demo && ui.paused)) return;
  ui.going = true;
  const id = s.id, version = s.version;
  setTimeout(async () => {
    ui.going = false;
    if (ui.state.id !== id || ui.state.version !== version) return drive();
    try { await act("go"); } catch (e) { fail(e); }
  }, demo ? 500 : 0);
}

function fail(e) {
  say(e.message || String(e), "error");
  if (e.status === 404) {
    // The server closed the game (a long pause) or was restarted.
    ui.state = null;
    newGame().then(() => say("The old game was closed by the server after a long pause; this is a new one.", "hint"));
  }
}

// ---- clicks --------------------------------------------------------------

async function play(move) {
  say("");
  ui.selected = null;
  try {
    await act("move", { move });
  } catch (e) {
    say((e.status === 422 ? move + " is illegal: " : "") + e.message, "error");
    render();
  }
}

function clickPoint(key, pt) {
  const s = ui.state;
  if (!humanToMove()) {
    say(s.outcome ? "The game is over." : s.engine.thinking ? "Wait: the engine is thinking." : "It is the engine's turn.", "hint");
    return;
  }
  const legal = s.legal.map(moveParts);
  if (ui.selected === null) {
    if (pt.color === s.to_move) {
      ui.selected = key;
      const n = legal.filter((m) => m.from === key).length;
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
  if (!humanToMove()) return clickPoint(null, {});
  if (color !== s.to_move) {
    say("That is " + color + "'s pile: " + s.to_move + " is to move.", "hint");
    return;
  }
  ui.selected = ui.selected === "bar" ? null : "bar";
  say(ui.selected && s.board.to_enter[color] === 0 ? capital(color) + " has no checker left to enter." : "", "hint");
  render();
}

function clickOff() {
  if (!humanToMove() || ui.selected === null) {
    say("To bear off, click one of your walls in D (19\u201324), then here.", "hint");
    return;
  }
  play(ui.selected + "/off");
}

async function seek(ply) {
  try { await act("seek", { ply }); } catch (e) { fail(e); }
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

function limit() {
  const kind = $("limit-kind").value;
  let value = parseInt($("limit-value").value, 10);
  if (!(value > 0)) value = kind === "depth" ? 4 : 500;
  return { kind, value };
}

function settings() {
  return { ...seats(), engine: parseInt($("engine").value || "0", 10), limit: limit() };
}

async function start(extra) {
  const old = ui.state;
  const body = { game: "grasshopper", ...settings(), ...extra };
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
    say("");
    show(state);
    return true;
  } catch (e) {
    say(e.message, "error");
    return false;
  }
}

function newGame() {
  return start({ checkers: parseInt($("checkers").value, 10) });
}

async function changeSettings() {
  if (!ui.state) return;
  try { await act("settings", settings()); } catch (e) { say(e.message, "error"); }
}

async function undo() {
  const s = ui.state;
  // Back to the last position where a person was to move (or one move back
  // when nobody or everybody is a person).
  const people = ["white", "black"].filter((c) => s.seats[c] === "human").length;
  let to = s.cursor - 1;
  if (people === 1) {
    while (to > 0 && s.seats[sideAt(to)] !== "human") to--;
  }
  if (to < 0) return;
  ui.paused = people === 0;
  try { await act("undo", { plies: s.cursor - to }); say(""); } catch (e) { fail(e); }
}

async function download() {
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
  if (params.get("checkers")) $("checkers").value = params.get("checkers");
  if (params.get("mode")) $("mode").value = params.get("mode");
  if (params.get("depth")) { $("limit-kind").value = "depth"; $("limit-value").value = params.get("depth"); }
  if (params.get("movetime")) { $("limit-kind").value = "movetime"; $("limit-value").value = params.get("movetime"); }
  if (params.get("flip")) ui.flipped = true;
  const fenParam = params.get("fen");

  $("new-game").addEventListener("click", newGame);
  $("mode").addEventListener("change", () => { ui.paused = false; changeSettings(); });
  $("engine").addEventListener("change", changeSettings);
  $("limit-kind").addEventListener("change", () => {
    $("limit-value").value = $("limit-kind").value === "depth" ? "4" : "500";
    changeSettings();
  });
  $("limit-value").addEventListener("change", changeSettings);
  $("show-analysis").addEventListener("change", render);
  $("pass").addEventListener("click", () => play("pass"));
  $("engine-move").addEventListener("click", async () => {
    try { say(""); await act("go"); } catch (e) { say(e.message, "error"); }
  });
  $("pause").addEventListener("click", () => { ui.paused = !ui.paused; render(); drive(); });
  $("undo").addEventListener("click", undo);
  $("flip").addEventListener("click", () => { ui.flipped = !ui.flipped; draw(); });
  $("first").addEventListener("click", () => seek(0));
  $("prev").addEventListener("click", () => seek(ui.state.cursor - 1));
  $("next").addEventListener("click", () => seek(ui.state.cursor + 1));
  $("last").addEventListener("click", () => seek(ui.state.moves.length));
  $("load-fen").addEventListener("click", () => start({ fen: $("fen").value }));
  $("download").addEventListener("click", download);
  $("load-record").addEventListener("click", () => loadRecord($("record-paste").value));
  $("record-file").addEventListener("change", () => {
    const f = $("record-file").files[0];
    if (!f) return;
    if (f.size > 200000) { say("That file is too large to be a game record.", "error"); return; }
    f.text().then(loadRecord);
  });

  // The same game again after a reload; a new one otherwise.
  let id = null;
  try { id = params.get("new") ? null : sessionStorage.getItem("grasshopper-game"); } catch (e) { id = null; }
  if (id) {
    try { show(await api("GET", "/api/games/" + id)); } catch (e) { id = null; }
  }
  if (fenParam) {
    if (!(await start({ fen: fenParam }))) await newGame();
  } else if (!id) await newGame();
  // Tell the server the page is still open (abandoned games are closed).
  setInterval(() => { if (ui.state) api("GET", gamePath()).then((s) => { if (s.version !== ui.state.version) show(s); }).catch(() => {}); }, 30000);
}

init();
