// The game page: draws the board from the game's state (the API's GET games/{id}/), plays by
// clicking it, keeps itself current from the game's event stream, and steps through the moves
// (keyboard arrows) with the server's pictures of earlier positions.

import { api, chatBox, el, follow, problem } from "./site.js";

const SVG = "http://www.w3.org/2000/svg";
const COLUMNS = "ABCDEFGHJKLMNOPQRST";
const CELL = 24;
const MARGIN = 30;
// Colours 1..6 of the Pente family (1 white, 2 black, as on Pente.org); Go: 1 black, 2 white.
const PENTE = { 1: ["#ffffff", "#222"], 2: ["#111", "#000"], 3: ["#d62728", "#7a1516"],
  4: ["#1f5fd6", "#0f2f6b"], 5: ["#2ca02c", "#165016"], 6: ["#8e44ad", "#4a2359"] };
const GO = { 1: PENTE[2], 2: PENTE[1] };
const STARS = { 9: [[2, 2], [6, 2], [4, 4], [2, 6], [6, 6]], 13: [[3, 3], [9, 3], [6, 6], [3, 9], [9, 9]],
  19: [[3, 3], [9, 3], [15, 3], [3, 9], [9, 9], [15, 9], [3, 15], [9, 15], [15, 15]] };
const CHOICES = { keep: "Keep", swap: "Swap", place_two: "Place two more", colour1: "Play colour 1",
  colour2: "Play colour 2", accept: "Accept the marking", reject: "Reject the marking" };
const REASONS = { five: "five in a row", captures: "captures", resign: "resignation",
  resignation: "resignation", timeout: "time", time: "time", cancel: "cancelled", count: "the count" };

const page = JSON.parse(document.getElementById("game-page").textContent);
let S = JSON.parse(document.getElementById("game-state").textContent);
let shownAt = performance.now(); // when S's clocks were read
let before = null; // the rows before the last change, to show what the last move captured
let viewPly = null; // null: the game as it stands; a number: that earlier position
let pending = []; // Connect6's first stone, or the stones marked dead (Go), not yet sent
let busy = false;

const boardBox = document.getElementById("board");
const colours = page.go ? GO : PENTE;

function name(index, size) {
  return COLUMNS[index % size] + String(size - Math.floor(index / size));
}

function mySeat() {
  return page.my_seats.length ? page.my_seats[0] : null;
}

function playing() {
  return S.status === "in_progress";
}

function myTurn() {
  return playing() && S.to_move && page.my_seats.includes(S.to_move.seat);
}

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// ------------------------------------------------------------------ the board
function drawBoard() {
  const rows = S.board.rows;
  const size = rows.length;
  const px = CELL * (size - 1) + 2 * MARGIN;
  const root = svg("svg", { viewBox: `0 0 ${px} ${px}`, role: "img", "aria-label": `${S.variant} board` });
  root.append(svg("rect", { x: 0, y: 0, width: px, height: px, fill: "#e3b868" }));
  const grid = svg("g", { stroke: "#5a4a2a", "stroke-width": 1 });
  for (let i = 0; i < size; i++) {
    const c = MARGIN + i * CELL;
    const end = MARGIN + (size - 1) * CELL;
    grid.append(svg("line", { x1: MARGIN, y1: c, x2: end, y2: c }));
    grid.append(svg("line", { x1: c, y1: MARGIN, x2: c, y2: end }));
  }
  root.append(grid);
  for (const [x, y] of STARS[size] || []) {
    root.append(svg("circle", { cx: MARGIN + x * CELL, cy: MARGIN + y * CELL, r: 3, fill: "#5a4a2a" }));
  }
  const labels = svg("g", { "font-size": 10, fill: "#5a4a2a", "text-anchor": "middle", "font-family": "sans-serif" });
  for (let i = 0; i < size; i++) {
    const c = MARGIN + i * CELL;
    const col = svg("text", { x: c, y: MARGIN - 14 });
    col.textContent = COLUMNS[i];
    const row = svg("text", { x: MARGIN - 18, y: c + 4 });
    row.textContent = String(size - i);
    labels.append(col, row);
  }
  root.append(labels);
  const dead = new Set(page.go && S.go ? [...(S.go.proposed_dead || []), ...(S.go.dead || [])] : []);
  const marking = page.go && S.go && S.go.phase === "marking";
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const index = y * size + x;
      const ch = rows[y][x];
      const cx = MARGIN + x * CELL;
      const cy = MARGIN + y * CELL;
      const point = name(index, size);
      if (ch !== ".") {
        const [fill, stroke] = colours[Number(ch)] || PENTE[3];
        const stone = svg("circle", { cx, cy, r: CELL * 0.45, fill, stroke, "stroke-width": 1.2,
          class: "stone", "data-point": point, "data-colour": ch });
        if ((marking && pending.includes(point)) || dead.has(point)) stone.setAttribute("opacity", 0.4);
        root.append(stone);
      } else if (before && before[y] && before[y][x] !== ".") {
        const mark = svg("text", { x: cx, y: cy + 5, "text-anchor": "middle", "font-size": 16,
          fill: "#b3261e", class: "captured", "data-point": point });
        mark.textContent = "×";
        root.append(mark);
      }
      if (!marking && pending.includes(point)) {
        const [fill, stroke] = colours[S.to_move ? S.to_move.colour : 1] || PENTE[3];
        root.append(svg("circle", { cx, cy, r: CELL * 0.45, fill, stroke, class: "pending", "data-point": point }));
      }
    }
  }
  if (S.board.last_point !== null && S.board.last_point !== undefined) {
    const x = S.board.last_point % size;
    const y = Math.floor(S.board.last_point / size);
    const ch = rows[y][x];
    const light = ch === "." ? "#b3261e" : (page.go ? (ch === "1" ? "#fff" : "#000") : (ch === "1" ? "#b3261e" : "#fff"));
    root.append(svg("circle", { cx: MARGIN + x * CELL, cy: MARGIN + y * CELL, r: 4, fill: light, class: "last" }));
  }
  // Clickable points on top.
  const hits = svg("g", {});
  for (let index = 0; index < size * size; index++) {
    const x = index % size;
    const y = Math.floor(index / size);
    hits.append(svg("rect", { x: MARGIN + x * CELL - CELL / 2, y: MARGIN + y * CELL - CELL / 2,
      width: CELL, height: CELL, class: "pt", "data-point": name(index, size) }));
  }
  root.append(hits);
  boardBox.replaceChildren(root);
}

async function drawPicture(ply) {
  const response = await fetch(`/api/games/${page.id}/board.svg?ply=${ply}`);
  if (!response.ok) return;
  const doc = new DOMParser().parseFromString(await response.text(), "image/svg+xml");
  const root = doc.documentElement;
  root.removeAttribute("width");
  root.removeAttribute("height");
  if (viewPly === ply) boardBox.replaceChildren(document.importNode(root, true));
}

// ------------------------------------------------------------------ the panels
function clockText(ms) {
  if (ms === null || ms === undefined) return "";
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

function remaining(seat) {
  const clocks = S.clock && S.clock.clocks_ms;
  if (!clocks || !clocks.length || S.clock.time_control !== "live") return null;
  let ms = clocks[seat - 1];
  if (ms === undefined || ms === null) return null;
  if (playing() && S.to_move && S.to_move.seat === seat) ms -= performance.now() - shownAt;
  return ms;
}

function drawPlayers() {
  const box = document.getElementById("players");
  const rows = S.players.map((p) => {
    const [fill] = colours[p.colour] || PENTE[3];
    const who = p.user ? el("a", { href: `/players/${encodeURIComponent(p.user.username)}/` }, p.name) : p.name;
    const toMove = playing() && S.to_move && S.to_move.seat === p.seat;
    const ms = remaining(p.seat);
    return el("div", { class: "player" + (toMove ? " to-move" : ""), "data-seat": p.seat },
      el("span", {}, el("span", { class: "stone-dot", style: `background:${fill}` }), who,
        page.go ? null : el("span", { class: "muted" }, ` · ${p.captures} captured`)),
      el("span", { class: "clock" + (ms !== null && ms < 30000 ? " low" : ""), "data-clock": p.seat }, clockText(ms)));
  });
  box.replaceChildren(...rows);
  if (S.clock && S.clock.time_control === "turn" && S.clock.deadline && playing()) {
    box.append(el("p", { class: "muted" }, `Move by ${new Date(S.clock.deadline).toLocaleString()}`));
  }
}

function tickClocks() {
  if (!playing() || !S.to_move) return;
  const node = document.querySelector(`[data-clock="${S.to_move.seat}"]`);
  if (!node) return;
  const ms = remaining(S.to_move.seat);
  node.textContent = clockText(ms);
  node.classList.toggle("low", ms !== null && ms < 30000);
}

function resultText() {
  const winners = S.winners || [];
  const why = REASONS[S.end_reason] || S.end_reason || "";
  if (S.status === "cancelled") return "Cancelled";
  if (!winners.length) return why ? `Draw (${why})` : "Over";
  const names = winners.map((w) => w.name).join(" and ");
  return `${names} won${why ? ` by ${why}` : ""}`;
}

function statusText() {
  if (!playing()) {
    const score = page.go && S.go && S.go.score;
    return score ? `${resultText()} (black ${score.black}, white ${score.white})` : resultText();
  }
  if (page.go && S.go && S.go.phase === "marking") {
    if (page.my_seats.includes(S.go.marking_seat)) return "Mark the dead stones, then propose";
    return "Counting: the dead stones are being marked";
  }
  if (!S.to_move) return "Waiting";
  if (myTurn()) {
    if (S.pending_decision) return "Your decision";
    return S.to_move.stones === 2 ? "Your turn: place two stones" : "Your turn";
  }
  return `${S.to_move.name} to move`;
}

function button(label, action, handler, secondary = false) {
  return el("button", { type: "button", class: secondary ? "secondary" : null, "data-action": action, onclick: handler }, label);
}

function drawControls() {
  const box = document.getElementById("controls");
  const out = [];
  const seat = mySeat();
  if (seat !== null && playing()) {
    for (const choice of S.decisions_available || []) {
      if (myTurn() || choice === "accept" || choice === "reject") {
        out.push(button(CHOICES[choice] || choice, choice, () => send("decision", { ply: S.ply, choice })));
      }
    }
    if (page.go && S.go && S.go.phase === "playing" && myTurn()) {
      out.push(button("Pass", "pass", () => send("moves", { ply: S.ply, point: "pass" })));
    }
    if (page.go && S.go && S.go.phase === "marking" && S.go.marking_seat === seat) {
      out.push(button("Propose dead stones", "propose", () => send("dead", { ply: S.ply, points: pending })));
    }
    if (S.to_move && S.to_move.stones === 2 && pending.length === 1) {
      out.push(button("Clear stone", "clear", () => { pending = []; redraw(); }, true));
    }
    // Only the player who just moved may ask to take it back; a request is answered by the other.
    const moves = S.moves || [];
    const last = moves.length ? moves[moves.length - 1] : null;
    const requested = S.undo_requested_by !== null && S.undo_requested_by !== undefined;
    if (requested || (last && last.seat === seat && !myTurn())) {
      out.push(...requestButtons("undo", "undo", S.undo_requested_by, seat));
    }
    if (S.cancellable) out.push(...requestButtons("cancel", "cancel", S.cancel_requested_by, seat));
    out.push(button("Resign", "resign", () => {
      if (window.confirm("Resign this game?")) send("resign");
    }, true));
  }
  if (S.set_id && page.set_games > 1) {
    out.push(el("a", { id: "set-link", href: "#", onclick: (e) => { e.preventDefault(); openSet(); } },
      `Game ${S.set_index === 1 ? 2 : 1} of this set`));
  }
  box.replaceChildren(...out);
}

function requestButtons(what, path, requestedBy, seat) {
  if (requestedBy === null || requestedBy === undefined) {
    return [button(`Ask to ${what}`, `${what}-ask`, () => send(path), true)];
  }
  if (requestedBy === seat) {
    return [button(`Withdraw ${what} request`, `${what}-withdraw`, () => send(path, undefined, "DELETE"), true)];
  }
  return [button(`Agree to ${what}`, `${what}-agree`, () => send(path)),
    button(`Decline ${what}`, `${what}-decline`, () => send(path, undefined, "DELETE"), true)];
}

async function openSet() {
  const result = await api(`sets/${S.set_id}/`);
  if (!result.ok) return;
  const other = result.data.games.find((g) => g.id !== page.id);
  if (other) window.location.href = `/games/${other.id}/`;
}

function moveText(m) {
  if (m.kind === "decision" || (m.choice && !m.name)) return CHOICES[m.choice] || m.choice;
  if (m.kind === "pass") return "pass";
  return m.name || m.kind;
}

function drawMoves() {
  const list = document.getElementById("moves");
  const moves = S.moves || [];
  const current = viewPly === null ? moves.length : viewPly;
  list.replaceChildren(...moves.map((m, i) => el("li", {
    "data-ply": i + 1, class: i + 1 === current ? "current" : null,
    onclick: () => view(i + 1),
  }, moveText(m))));
  const last = list.lastElementChild;
  if (last && viewPly === null) last.scrollIntoView({ block: "nearest" });
  document.getElementById("ply-label").textContent = `${current} / ${moves.length}`;
  document.getElementById("picture").href = `/api/games/${page.id}/board.svg?ply=${current}`;
  // The explorer knows two-player tables: the position shown, in its moves' words.
  const explore = document.getElementById("explore");
  explore.hidden = S.players.length !== 2;
  const words = [];
  for (const m of moves.slice(0, current)) {
    if (m.kind === "mark") break; // Go's marking of dead stones: no longer a position to explore
    words.push(m.kind === "decision" ? m.choice : m.kind === "pass" ? "pass" : m.name);
  }
  explore.href = `/database/explorer/?game=${encodeURIComponent(S.variant)}&moves=${encodeURIComponent(words.join(","))}`;
}

function redraw() {
  if (viewPly === null) drawBoard();
  drawPlayers();
  drawControls();
  drawMoves();
  document.getElementById("status").textContent = statusText();
}

function take(state) {
  // A turn forward: the stones it took away are crossed; after an undo, nothing is.
  if ((state.moves || []).length > (S.moves || []).length) before = S.board.rows;
  else if (state.ply !== S.ply) before = null;
  if (state.ply !== S.ply) pending = [];
  S = state;
  shownAt = performance.now();
  redraw();
}

// ------------------------------------------------------------------ acting
async function send(path, body, method = "POST") {
  if (busy) return;
  busy = true;
  const result = await api(`games/${page.id}/${path}`, { method, body: body === undefined ? {} : body });
  busy = false;
  if (result.ok && result.data && result.data.board) {
    document.getElementById("notice").textContent = "";
    take(result.data);
    return;
  }
  document.getElementById("notice").textContent = problem(result);
  document.getElementById("notice").classList.add("error");
  await refresh();
}

function onPoint(point) {
  if (viewPly !== null) { view(null); return; }
  if (!playing()) return;
  if (page.go && S.go && S.go.phase === "marking") {
    if (S.go.marking_seat !== mySeat()) return;
    pending = pending.includes(point) ? pending.filter((p) => p !== point) : [...pending, point];
    redraw();
    return;
  }
  if (!myTurn() || S.pending_decision) return;
  if (S.to_move.stones === 2) {
    if (pending.includes(point)) { pending = pending.filter((p) => p !== point); redraw(); return; }
    pending = [...pending, point];
    if (pending.length < 2) { redraw(); return; }
    send("moves", { ply: S.ply, points: pending });
    return;
  }
  send("moves", { ply: S.ply, point });
}

boardBox.addEventListener("click", (event) => {
  const target = event.target.closest("[data-point]");
  if (target && boardBox.contains(target)) onPoint(target.dataset.point);
});

// ------------------------------------------------------------------ viewing earlier positions
function view(ply) {
  const total = (S.moves || []).length;
  if (ply !== null) ply = Math.max(0, Math.min(total, ply));
  if (ply === total) ply = null;
  viewPly = ply;
  if (ply === null) drawBoard();
  else drawPicture(ply);
  drawMoves();
}

document.getElementById("viewer").addEventListener("click", (event) => {
  const step = event.target.closest("[data-step]");
  if (!step) return;
  const total = (S.moves || []).length;
  const at = viewPly === null ? total : viewPly;
  view({ first: 0, back: at - 1, forward: at + 1, last: total }[step.dataset.step]);
});

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select")) return;
  const total = (S.moves || []).length;
  const at = viewPly === null ? total : viewPly;
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: total }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  view(to);
});

// ------------------------------------------------------------------ live
let refreshing = null;
async function refresh() {
  if (refreshing) return refreshing;
  refreshing = (async () => {
    const result = await api(`games/${page.id}/`);
    if (result.ok) take(result.data);
  })();
  try { await refreshing; } finally { refreshing = null; }
}

const chat = chatBox(document.getElementById("chat"), document.getElementById("chat-form"),
  `games/${page.id}/chat`, (text) => { document.getElementById("notice").textContent = text; });

async function loadChat() {
  const result = await api(`games/${page.id}/chat`);
  if (!result.ok || !result.data) return;
  const lines = Array.isArray(result.data) ? result.data : (result.data.results || result.data.lines || []);
  lines.forEach(chat.add);
}

const changed = () => refresh();
follow(`games/${page.id}/events`, {
  move: changed, undo: changed, request: changed, end: changed, reset: changed,
  chat: chat.chat, chat_removed: chat.chat_removed,
  spectators: (data) => {
    document.getElementById("spectators").textContent = data.count ? `· ${data.count} watching` : "";
  },
}, { onOpen: () => refresh() });

redraw();
loadChat();
setInterval(tickClocks, 250);
