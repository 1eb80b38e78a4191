// The backgammon board. The server holds the game, rolls the dice and
// lists every legal way to play them (step by step); this page draws the
// board, lets the person pick a checker and then its target among those
// steps, and sends the whole move once it is confirmed.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const W = 760, H = 500;
const COL = 46, BAR_X = 296, BAR_W = 28, LEFT_X = 20, RIGHT_X = BAR_X + BAR_W;
const TOP = 36, BOTTOM = 464, TRI = 170, R = 19;
const TRAY_X = 624, TRAY_W = 122;

const ui = {
  state: null,     // the game as the server last described it
  info: null,      // /api/info
  chosen: [],      // the steps played so far this turn: [from, to] in the mover's numbering
  selected: null,  // the mover's point (25: bar) picked, waiting for its target
  flipped: false,
  going: false,    // an engine decision is being asked for
};

const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let resp;
  try { resp = await fetch(path, init); } catch (e) {
    throw { status: 0, message: "the server cannot be reached: is grasshopper serve still running?" };
  }
  const text = await resp.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
  if (!resp.ok) throw { status: resp.status, message: (data && data.error) || text || resp.statusText };
  return data;
}

async function act(action, body) {
  const id = ui.state.id;
  const state = await api("POST", "/api/games/" + id + "/" + action,
    Object.assign({ version: ui.state.version }, body || {}));
  if (ui.state && ui.state.id === id) show(state);
  return state;
}

function say(msg, kind) {
  $("message").textContent = msg || "";
  $("message").className = kind || "";
}

function capital(s) { return s.charAt(0).toUpperCase() + s.slice(1); }

// ---- the position with the chosen steps played -----------------------------

function mover() { return ui.state.due.side; }

// Counts per colour in its own numbering, after the chosen steps.
function counts() {
  const b = ui.state.board;
  const c = { white: b.white.slice(), black: b.black.slice() };
  if (ui.state.due.kind !== "move") return c;
  const me = mover(), them = me === "white" ? "black" : "white";
  for (const [from, to] of ui.chosen) {
    c[me][from] -= 1;
    c[me][to] += 1;
    if (to > 0 && c[them][25 - to] === 1) { c[them][25 - to] = 0; c[them][25] += 1; }
  }
  return c;
}

// The legal sequences that begin with the chosen steps.
function matching() {
  const legal = ui.state.legal || [];
  const k = ui.chosen.length;
  return legal.filter((p) => ui.chosen.every((s, i) => p.steps[i] && p.steps[i][0] === s[0] && p.steps[i][1] === s[1]) && p.steps.length >= k);
}

// The next steps the person may play: from -> [to...].
function nextSteps() {
  const k = ui.chosen.length;
  const next = new Map();
  for (const p of matching()) {
    if (p.steps.length <= k) continue;
    const [f, t] = p.steps[k];
    if (!next.has(f)) next.set(f, []);
    if (!next.get(f).includes(t)) next.get(f).push(t);
  }
  return next;
}

function complete() {
  return matching().find((p) => p.steps.length === ui.chosen.length);
}

function personToMove() {
  const s = ui.state;
  return s && s.due.kind === "move" && s.legal && s.seats[s.due.side] === "human";
}

// ---- drawing ---------------------------------------------------------------

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
const X = (x) => (ui.flipped ? W - x : x);
function text(g, x, y, s, cls, anchor) {
  const t = el("text", { x, y, class: cls, "text-anchor": anchor || "middle" }, g);
  t.textContent = s;
  return t;
}

// White's numbering: 1-6 bottom right, 7-12 bottom left, 13-18 top left, 19-24 top right.
function pointX(d) {
  if (d <= 6) return RIGHT_X + (6 - d) * COL;
  if (d <= 12) return LEFT_X + (12 - d) * COL;
  if (d <= 18) return LEFT_X + (d - 13) * COL;
  return RIGHT_X + (d - 19) * COL;
}

// The mover's place for a point shown in White's numbering.
function own(d) { return mover() === "white" ? d : 25 - d; }
function shown(i) { return mover() === "white" ? i : 25 - i; }

function stack(g, color, cx, baseY, n, up) {
  const shownN = Math.min(n, 5);
  for (let k = 0; k < shownN; k++) {
    const cy = up ? baseY - R - k * 2 * R : baseY + R + k * 2 * R;
    el("circle", { cx, cy, r: R - 1, class: "checker " + color }, g);
  }
  if (n > 5) {
    const cy = up ? baseY - R - 4 * 2 * R : baseY + R + 4 * 2 * R;
    text(g, cx, cy, String(n), "count " + color);
  }
}

function draw() {
  const svg = $("board");
  svg.replaceChildren();
  const s = ui.state;
  if (!s) return;
  const c = counts();
  const moving = personToMove();
  const next = moving ? nextSteps() : new Map();
  const targets = moving && ui.selected !== null ? (next.get(ui.selected) || []) : [];
  el("rect", { x: 0, y: 0, width: W, height: H, class: "frame" }, svg);
  el("rect", { x: LEFT_X, y: TOP, width: 580, height: BOTTOM - TOP, class: "felt" }, svg);
  el("rect", { x: X(BAR_X + (ui.flipped ? BAR_W : 0)), y: TOP, width: BAR_W, height: BOTTOM - TOP, class: "bar" }, svg);
  for (let d = 1; d <= 24; d++) {
    const g = el("g", { id: "bg-p-" + d, role: "button", tabindex: "0" }, svg);
    const x = X(pointX(d) + (ui.flipped ? COL : 0));
    const top = d >= 13;
    const y0 = top ? TOP : BOTTOM;
    const tip = top ? TOP + TRI : BOTTOM - TRI;
    el("polygon", { points: `${x},${y0} ${x + COL},${y0} ${x + COL / 2},${tip}`, class: "tri " + (d % 2 ? "dark" : "light") }, g);
    text(g, x + COL / 2, top ? TOP - 12 : BOTTOM + 14, String(d), "num");
    const color = c.white[d] > 0 ? "white" : c.black[25 - d] > 0 ? "black" : null;
    const n = color === "white" ? c.white[d] : color === "black" ? c.black[25 - d] : 0;
    if (n) stack(g, color, x + COL / 2, y0, n, !top);
    const hit = el("rect", { x, y: top ? TOP : BOTTOM - TRI - 40, width: COL, height: TRI + 40, class: "hit" }, g);
    if (moving) {
      const i = own(d);
      if (targets.includes(i)) hit.setAttribute("class", "hit target");
      else if (ui.selected === i) hit.setAttribute("class", "hit selected");
      else if (ui.selected === null && next.has(i)) hit.setAttribute("class", "hit movable");
      g.setAttribute("aria-label", "point " + d + (n ? ": " + n + " " + color : ""));
      g.addEventListener("click", () => clickPlace(own(d)));
    }
  }
  // The bars: White's checkers wait on the upper half, Black's on the lower.
  for (const color of ["white", "black"]) {
    const g = el("g", { id: "bg-bar-" + color, role: "button", tabindex: "0" }, svg);
    const n = c[color][25];
    const cx = X(BAR_X + BAR_W / 2);
    const upper = color === "white";
    const y = upper ? H / 2 - 30 : H / 2 + 30;
    if (n) {
      el("circle", { cx, cy: y, r: R - 1, class: "checker " + color }, g);
      if (n > 1) text(g, cx, y, String(n), "count " + color);
    }
    const hit = el("rect", { x: X(BAR_X + (ui.flipped ? BAR_W : 0)), y: upper ? TOP : H / 2, width: BAR_W, height: H / 2 - TOP, class: "hit" }, g);
    if (moving && color === mover()) {
      if (ui.selected === 25) hit.setAttribute("class", "hit selected");
      else if (ui.selected === null && next.has(25)) hit.setAttribute("class", "hit movable");
      g.addEventListener("click", () => clickPlace(25));
    }
  }
  // The trays: borne-off checkers, White's below, Black's above; the pips beside.
  for (const color of ["white", "black"]) {
    const g = el("g", { id: "bg-off-" + color, role: "button", tabindex: "0" }, svg);
    const below = color === "white";
    const y = below ? H / 2 + 40 : TOP;
    const zone = el("rect", { x: X(TRAY_X + (ui.flipped ? TRAY_W : 0)), y, width: TRAY_W, height: H / 2 - TOP - 40, class: "tray-zone" }, g);
    const off = c[color][0];
    text(g, X(TRAY_X + TRAY_W / 2), below ? y + 16 : y + 16, capital(color) + " off: " + off, "tray-title");
    for (let k = 0; k < off; k++) {
      el("rect", { x: X(TRAY_X + 8 + (ui.flipped ? 106 : 0)) + (k % 5) * 21, y: y + 28 + Math.floor(k / 5) * 14, width: 18, height: 10, class: "slab " + color }, g);
    }
    text(g, X(TRAY_X + TRAY_W / 2), below ? y + 100 : y + 100, "pips " + pipsOf(c, color), "pips");
    if (moving && color === mover() && targets.includes(0)) {
      zone.setAttribute("class", "tray-zone target");
      g.addEventListener("click", () => clickPlace(0));
    }
  }
  drawCube(svg);
  drawDice(svg);
}

function pipsOf(c, color) {
  let n = 0;
  for (let i = 1; i <= 25; i++) n += i * c[color][i];
  return n;
}

function drawCube(svg) {
  const s = ui.state;
  if (!s.cube_in_play) return;
  const y = s.cube.owner === "white" ? H - 70 : s.cube.owner === "black" ? 30 : H / 2 - 20;
  const x = X(TRAY_X + TRAY_W / 2 - 20);
  const g = el("g", { id: "bg-cube" }, svg);
  el("rect", { x, y, width: 40, height: 40, rx: 6, class: "cube" }, g);
  const v = s.cube.offered ? 2 * s.cube.value : s.cube.value;
  text(g, x + 20, y + 21, s.cube.owner === null && !s.cube.offered && v === 1 ? "64" : String(v), "cube-text");
  g.setAttribute("aria-label", "the cube: " + v + (s.cube.owner ? ", " + s.cube.owner + "'s" : ", centred"));
}

function drawDice(svg) {
  const s = ui.state;
  if (!s.dice) return;
  const [a, b] = s.dice;
  const values = a === b ? [a, a, a, a] : [a, b];
  const used = ui.chosen.length;
  const left = s.on_roll === "white" ? RIGHT_X + 60 : LEFT_X + 60;
  const g = el("g", { id: "bg-dice" }, svg);
  values.forEach((v, k) => {
    const x = X(left + k * 46), y = H / 2 - 18;
    el("rect", { x, y, width: 36, height: 36, rx: 6, class: "die" + (k < used && a === b ? " used" : "") }, g);
    const spots = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [0, 2], [2, 0], [2, 2]],
      5: [[0, 0], [0, 2], [1, 1], [2, 0], [2, 2]], 6: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]] }[v];
    for (const [i, j] of spots) el("circle", { cx: x + 8 + i * 10, cy: y + 8 + j * 10, r: 3.2, class: "pip" }, g);
  });
  g.setAttribute("aria-label", "the dice: " + a + " and " + b);
}

// ---- the page around the board ----------------------------------------------

function who(side) {
  const seats = ui.state.seats;
  if (seats.white === "human" && seats.black === "human") return capital(side);
  return capital(side) + (seats[side] === "human" ? " (you)" : " (engine)");
}

function render() {
  const s = ui.state;
  draw();
  const due = s.due;
  const human = due.side && s.seats[due.side] === "human";
  const turn = $("turn");
  turn.className = due.side ? "turn-" + due.side : "turn-over";
  turn.textContent = {
    cube: due.side ? who(due.side) + ": double or roll" : "",
    take: due.side ? who(due.side) + ": take or drop?" : "",
    move: due.side ? who(due.side) + " to play " + (s.dice || []).join("-") : "",
    game_over: "Game over",
    over: s.length ? "Match over" : "Game over",
  }[due.kind];
  const score = s.length
    ? s.length + "-point match: White " + s.score.white + ", Black " + s.score.black + (s.crawford ? " (Crawford game)" : "")
    : "Money game (Jacoby rule): White " + s.score.white + ", Black " + s.score.black;
  $("score").textContent = score + " \u00b7 pips: White " + s.board.pips.white + ", Black " + s.board.pips.black;
  $("bg-roll").hidden = !(human && due.kind === "cube");
  $("bg-double").hidden = !(human && due.kind === "cube");
  $("bg-take").hidden = !(human && due.kind === "take");
  $("bg-drop").hidden = !(human && due.kind === "take");
  const moving = personToMove();
  $("bg-confirm").hidden = !(moving && complete());
  $("bg-undo").hidden = !(moving && ui.chosen.length > 0);
  const bothEngines = s.seats.white === "engine" && s.seats.black === "engine";
  $("bg-hint").hidden = !(human && ["cube", "take", "move"].includes(due.kind) && $("engine").options.length > 0);
  $("bg-next").hidden = !(due.kind === "game_over" && !bothEngines);
  const anyHuman = s.seats.white === "human" || s.seats.black === "human";
  $("bg-review").hidden = !(anyHuman && (due.kind === "game_over" || due.kind === "over") && !s.review && $("engine").options.length > 0);
  renderReview(s.review);
  $("bg-download").hidden = due.kind !== "over" || Boolean(s.set_up_from);
  $("bg-download").href = "/api/games/" + s.id + "/record";
  const banner = $("banner");
  if (due.kind === "game_over" || due.kind === "over") {
    let msg = s.result ? s.result.text : "";
    if (s.match_winner) msg += ". " + who(s.match_winner) + " wins the match " + s.score[s.match_winner] + "-" + s.score[s.match_winner === "white" ? "black" : "white"];
    else if (due.kind === "game_over") msg += ". Score: White " + s.score.white + ", Black " + s.score.black;
    banner.textContent = msg;
    banner.hidden = false;
  } else {
    banner.hidden = true;
  }
  const log = $("log");
  log.replaceChildren();
  for (const line of s.log) {
    const li = document.createElement("li");
    li.textContent = line;
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;
  $("position").value = s.position;
  if (s.error) say(s.error, "error");
  else if (s.hint) say(s.hint, "hint");
  else if (!due.side) say("");
  else if (due.kind === "take" && human) say(who(due.side === "white" ? "black" : "white") + " doubles to " + 2 * s.cube.value + ": take or drop?", "hint");
  else if (moving && ui.chosen.length === 0) say("Click a checker, then its target (a checker with one move goes at once).", "hint");
  else if (human && due.kind === "cube") say("Double, or roll the dice.", "hint");
  else if (!moving) say("");
}

// The after-game review: the person's moves that lost more than the
// threshold, each with the engine's better move.
function renderReview(review) {
  $("review-section").hidden = !review;
  if (!review) return;
  const n = review.marked.length;
  $("review-note").textContent = review.checked + " moves checked; " + n +
    " lost more than " + review.threshold + " (equity, by the engine)" + (n ? ":" : ".");
  const list = $("review");
  list.replaceChildren();
  for (const m of review.marked) {
    const li = document.createElement("li");
    li.textContent = capital(m.side) + " " + m.dice.join("") + ": played " + m.played +
      ", better " + m.best + " (" + (m.at_least ? "at least " : "") + "\u2212" + m.loss.toFixed(3) + ")";
    list.appendChild(li);
  }
}

function show(state) {
  const fresh = !ui.state || ui.state.version !== state.version || ui.state.id !== state.id;
  ui.state = state;
  if (fresh) { ui.chosen = []; ui.selected = null; }
  const u = new URL(location.href);
  if (u.searchParams.get("game") !== state.id) {
    u.searchParams.set("game", state.id);
    history.replaceState(null, "", u);
  }
  render();
  drive();
}

// The engine's decisions one at a time, a little apart so each can be seen.
function drive() {
  const s = ui.state;
  if (ui.going || !s) return;
  const engineDue = s.due.side && s.seats[s.due.side] === "engine";
  const bothEngines = s.seats.white === "engine" && s.seats.black === "engine";
  if (!engineDue && !(s.due.kind === "game_over" && bothEngines)) return;
  ui.going = true;
  const id = s.id;
  setTimeout(async () => {
    try {
      // Another game (or a replay) is shown now: drive that one instead
      // (this one is driven again when it is shown again).
      if (!ui.state || ui.state.id !== id) { ui.going = false; drive(); return; }
      say(s.due.kind === "game_over" ? "" : "The engine is thinking\u2026", "hint");
      ui.going = false;
      if (s.due.kind === "game_over") await act("next");
      else await act("go");
    } catch (e) {
      ui.going = false;
      say(e.message, "error");
    }
  }, 250);
}

// ---- replaying an imported .mat file ------------------------------------------

// The server reads the file (GNU Backgammon's or JellyFish's .mat) and
// replays it by the rules; the page steps through the positions it sends.
async function importMat() {
  const file = $("mat-file").files[0];
  const text = file ? await file.text() : $("mat-text").value;
  if (!text.trim()) { say("Choose a .mat file or paste one.", "error"); return; }
  try {
    const mat = await api("POST", "/api/mat", { text });
    const back = ui.replay ? ui.replay.back : ui.state;
    ui.replay = { mat, game: 0, step: 0, back };
    const select = $("replay-game");
    select.replaceChildren();
    mat.games.forEach((g, k) => {
      const o = document.createElement("option");
      o.value = String(k);
      o.textContent = "Game " + (k + 1) + " (" + g.score.white + "-" + g.score.black + ")";
      select.appendChild(o);
    });
    $("mat-file").value = "";
    say("");
    showReplay();
  } catch (e) { say(e.message, "error"); }
}

function replayStep(to) {
  const r = ui.replay;
  const n = r.mat.games[r.game].steps.length;
  r.step = Math.max(0, Math.min(n - 1, to));
  showReplay();
}

function showReplay() {
  const r = ui.replay;
  const g = r.mat.games[r.game];
  const v = g.steps[r.step];
  ui.state = Object.assign({}, v, {
    due: { kind: "replay" },
    seats: { white: "human", black: "human" },
    cube_in_play: true,
    legal: null,
  });
  ui.chosen = [];
  ui.selected = null;
  draw();
  $("replay").hidden = false;
  $("replay-game").value = String(r.game);
  $("replay-at").textContent = "Move " + (r.step + 1) + " of " + g.steps.length + ": " + v.text;
  $("replay-play").disabled = !v.playable;
  $("turn").className = "turn-over";
  $("turn").textContent = "Replay: game " + (r.game + 1) + " of " + r.mat.games.length;
  $("score").textContent = (v.length ? v.length + "-point match: " : "Money: ") + r.mat.names.white +
    " (White) " + v.score.white + ", " + r.mat.names.black + " (Black) " + v.score.black +
    (v.crawford ? " (Crawford game)" : "") + " \u00b7 pips: White " + v.board.pips.white + ", Black " + v.board.pips.black;
  for (const id of ["bg-roll", "bg-double", "bg-take", "bg-drop", "bg-confirm", "bg-undo", "bg-next", "bg-hint", "bg-review", "bg-download", "banner"]) $(id).hidden = true;
  const log = $("log");
  log.replaceChildren();
  g.steps.forEach((s, k) => {
    const li = document.createElement("li");
    li.textContent = s.text;
    if (k === r.step) li.className = "current";
    li.addEventListener("click", () => replayStep(k));
    log.appendChild(li);
  });
  // The list scrolls to the current move; the page stays where it is.
  const current = log.querySelector(".current");
  if (current) log.scrollTop = Math.max(0, current.offsetTop - log.offsetTop - log.clientHeight / 2);
  $("position").value = v.position;
  say("");
}

// Leaves the replay: back to the game that was in play, as it is now.
async function closeReplay() {
  const back = ui.replay && ui.replay.back;
  ui.replay = null;
  $("replay").hidden = true;
  ui.state = null;
  try {
    if (back) { show(await api("POST", "/api/games/" + back.id + "/open", {})); return; }
  } catch (e) { /* a new game instead */ }
  newGame();
}

// A game from the replay's position, with the chosen seats and engine.
function playFromHere() {
  const v = ui.replay.mat.games[ui.replay.game].steps[ui.replay.step];
  const back = ui.replay.back;
  ui.replay = null;
  $("replay").hidden = true;
  ui.state = back;
  newGame(v.position);
}

function refresh() { if (ui.replay) showReplay(); else if (ui.state) render(); }

// ---- clicks ----------------------------------------------------------------

function playStep(from, to) {
  ui.chosen.push([from, to]);
  ui.selected = null;
  say(complete() && nextSteps().size === 0 ? "Confirm the move, or undo it." : "", "hint");
  render();
}

function clickPlace(i) {
  if (!personToMove()) return;
  const next = nextSteps();
  if (ui.selected !== null && (next.get(ui.selected) || []).includes(i)) {
    playStep(ui.selected, i);
    return;
  }
  if (next.has(i)) {
    const targets = next.get(i);
    // A die is used at once when only one target fits.
    if (targets.length === 1) playStep(i, targets[0]);
    else { ui.selected = i; render(); }
    return;
  }
  ui.selected = null;
  const c = counts()[mover()];
  say(c[i] > 0 ? "That checker cannot move with the dice left." : "Click one of your checkers.", "hint");
  render();
}

async function confirmMove() {
  const p = complete();
  if (!p) return;
  const text = ui.chosen.map(([f, t]) => place(f) + "/" + place(t)).join(" ");
  try { await act("move", { move: text }); } catch (e) { say(e.message, "error"); }
}

function place(i) { return i === 25 ? "bar" : i === 0 ? "off" : String(i); }

function seats() {
  const mode = $("mode").value;
  return {
    white: { white: "human", black: "engine", both: "human", demo: "engine" }[mode],
    black: { white: "engine", black: "human", both: "human", demo: "engine" }[mode],
  };
}

// A new game from the settings, or (`position`: the text of a GNU
// Backgammon ID or an XGID) from a position whose match state gives the
// length and score.
async function newGame(position) {
  const body = Object.assign({
    game: "backgammon",
    cube: $("cube-on").checked,
    engine: Number($("engine").value),
  }, seats());
  if (typeof position === "string") body.position = position;
  else body.length = Number($("length").value);
  try {
    if (typeof position === "string") {
      // Checked by the server before the game in play is left.
      show(await api("POST", "/api/games", body).then((s) => {
        if (ui.state) api("DELETE", "/api/games/" + ui.state.id).catch(() => {});
        return s;
      }));
      return;
    }
    if (ui.state) api("DELETE", "/api/games/" + ui.state.id).catch(() => {});
    ui.state = null;
    say("");
    show(await api("POST", "/api/games", body));
  } catch (e) { say(e.message, "error"); }
}

async function init() {
  try { ui.info = await api("GET", "/api/info"); } catch (e) { say(e.message, "error"); return; }
  for (const e of ui.info.engines.filter((e) => e.game === "backgammon")) {
    const o = document.createElement("option");
    o.value = String(e.index);
    o.textContent = e.name;
    $("engine").appendChild(o);
  }
  const params = new URLSearchParams(location.search);
  if (params.get("mode")) $("mode").value = params.get("mode");
  if (params.get("length")) $("length").value = params.get("length");
  $("new-game").addEventListener("click", () => newGame());
  $("setup").addEventListener("click", () => newGame($("setup-text").value));
  $("flip").addEventListener("click", () => { ui.flipped = !ui.flipped; refresh(); });
  $("mat-import").addEventListener("click", importMat);
  $("replay-first").addEventListener("click", () => replayStep(0));
  $("replay-prev").addEventListener("click", () => replayStep(ui.replay.step - 1));
  $("replay-next").addEventListener("click", () => replayStep(ui.replay.step + 1));
  $("replay-last").addEventListener("click", () => replayStep(Infinity));
  $("replay-game").addEventListener("change", () => {
    ui.replay.game = Number($("replay-game").value);
    ui.replay.step = 0;
    showReplay();
  });
  $("replay-play").addEventListener("click", playFromHere);
  $("replay-close").addEventListener("click", closeReplay);
  const simple = (id, action) => $(id).addEventListener("click", async () => {
    try { say(""); await act(action); } catch (e) { say(e.message, "error"); }
  });
  simple("bg-roll", "roll");
  simple("bg-double", "double");
  simple("bg-take", "take");
  simple("bg-drop", "drop");
  simple("bg-next", "next");
  simple("bg-hint", "hint");
  $("bg-review").addEventListener("click", async () => {
    try { say("The engine is reviewing the moves\u2026", "hint"); await act("review"); } catch (e) { say(e.message, "error"); }
  });
  $("bg-confirm").addEventListener("click", confirmMove);
  $("bg-undo").addEventListener("click", () => { ui.chosen = []; ui.selected = null; say(""); render(); });
  const id = params.get("game");
  if (id) {
    try {
      const s = await api("POST", "/api/games/" + id + "/open", {});
      if (s.game === "backgammon") { show(s); return; }
    } catch (e) { /* a new game instead */ }
  }
  if ($("engine").options.length === 0) {
    say("No backgammon engine: start the server with an engine given proto=ubgi.", "error");
    $("mode").value = "both";
  }
  await newGame();
}

init();
