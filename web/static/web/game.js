// The game page: draws the board from the game's state (the API's GET games/{id}/), plays by
// clicking it, keeps itself current from the game's event stream, and steps through the moves
// (keyboard arrows) with the server's pictures of earlier positions. Hints (against the
// computer), the computer's analysis of a game over, and Go's count (territory, dead stones).

import { api, chatBox, el, follow, me, problem } from "./site.js";
import { setBox } from "./set.js";

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
// Colour 1 is white and colour 2 black in the Pente family (see PENTE above).
const CHOICES = { keep: "Keep", swap: "Swap", place_two: "Place two more", colour1: "Play white",
  colour2: "Play black", accept: "Accept the marking", reject: "Reject the marking" };
// A decision as the move list says it once made (its button says what it will do).
const CHOSEN = { keep: "Kept", swap: "Swapped", place_two: "Placed two more", colour1: "Chose white",
  colour2: "Chose black", accept: "Marking accepted", reject: "Marking rejected" };
// What each decision means, said once above its buttons (engine/game.py, the openings).
const EXPLAIN = {
  d: "Keep: your opponent keeps white and plays the next stone. Swap: you take white and play the next stone.",
  swap2: "Keep: you keep black and play the next stone. Swap: you take white and your opponent plays the next (black) stone. Place two more: you place a black and a white stone, then your opponent picks a colour.",
  colour: "Play white: you keep white and your opponent plays the next (black) stone. Play black: you take black and play the next stone.",
  marking: "Accept: the game is counted with these stones dead. Reject: play goes on.",
};
// A point's name (K10): what a hint or the analysis may ring on the board (not a pass, a
// decision or Go's marking).
const POINT = /^[A-HJ-T](1[0-9]|[1-9])$/;
// The analysis' judgements (games/bots/analysis.py), marked as chess sites mark them.
const JUDGEMENTS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
// The server's end reasons (engine.Termination), as "... won by <reason>".
const REASONS = { five: "five in a row", six: "six in a row", captures: "captures",
  draw: "the board is full", score: "the count", resign: "resignation", timeout: "time",
  forfeit: "forfeit", cancel: "cancelled" };

const page = JSON.parse(document.getElementById("game-page").textContent);
let S = JSON.parse(document.getElementById("game-state").textContent);
let shownAt = performance.now(); // when S's clocks were read
let before = null; // the rows before the last change, to show what the last move captured
let viewPly = null; // null: the game as it stands; a number: that earlier position
let pending = []; // Connect6's first stone, or the stones marked dead (Go), not yet sent
let busy = false;
let cursor = null; // the point the keyboard is on (an index), while the board has the focus
let hint = null; // the hint shown until the next move: {ply, points}
let hintSaid = ""; // its words in the notice, to take away with it
let analysis = null; // the computer's analysis, as GET games/{id}/analysis gives it
let analysisRetry = null; // the timer of the next look after a failed one
let analysisReading = false; // a GET of the analysis is on its way
let analysisAgain = false; // and its answer may be older than what came since: read again
let analysisEvents = 0; // how many analysis events the stream brought
let countPreview = null; // Go: the server's count with the stones crossed here, {key, ply, score}
let countTimer = null; // the wait before asking for it (the clicks are gathered)
// How long the clicks on stones are gathered before the count is asked for.
const COUNT_DELAY_MS = 250;

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

/** Whether the viewer may ask for a hint now: the server's offer, on their turn, and in Go in
 * the phases the server hints in (page.hint_phases: none while the dead stones are marked). */
function hintsNow() {
  return page.hints && myTurn() && (!S.go || page.hint_phases.includes(S.go.phase));
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
  const count = goCount();
  const dead = new Set(page.go && S.go ? [...(S.go.proposed_dead || []), ...(S.go.dead || [])] : []);
  const marking = page.go && S.go && S.go.phase === "marking";
  if (marking) pending.forEach((p) => dead.add(p));
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
        if (dead.has(point)) stone.setAttribute("opacity", 0.4);
        root.append(stone);
      } else if (count && count.dead.has(point)) {
        // Taken off at the count: shown faded where it stood.
        const [fill, stroke] = colours[count.dead.get(point)];
        root.append(svg("circle", { cx, cy, r: CELL * 0.45, fill, stroke, opacity: 0.4,
          class: "dead-stone", "data-point": point }));
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
  if (count) drawCount(root, count, dead);
  drawCountNote(count);
  if (hint && hint.ply === S.ply && playing()) {
    ringPoints(root, hint.points, "hint", "The computer's hint");
  }
  markSuggestion(root, (S.moves || []).length);
  // Clickable points on top.
  const hits = svg("g", { class: "points" });
  for (let index = 0; index < size * size; index++) {
    const x = index % size;
    const y = Math.floor(index / size);
    hits.append(svg("rect", { x: MARGIN + x * CELL - CELL / 2, y: MARGIN + y * CELL - CELL / 2,
      width: CELL, height: CELL, class: "pt", "data-point": name(index, size) }));
  }
  root.append(hits);
  if (cursor !== null && document.activeElement === boardBox) {
    root.append(svg("rect", { x: MARGIN + (cursor % size) * CELL - CELL / 2, y: MARGIN + Math.floor(cursor / size) * CELL - CELL / 2,
      width: CELL, height: CELL, class: "cursor", fill: "none", stroke: "#1f5fd6", "stroke-width": 2 }));
  }
  boardBox.replaceChildren(root);
}

async function drawPicture(ply) {
  const response = await fetch(`/api/games/${page.id}/board.svg?ply=${ply}`);
  if (!response.ok) return;
  const doc = new DOMParser().parseFromString(await response.text(), "image/svg+xml");
  const root = doc.documentElement;
  root.removeAttribute("width");
  root.removeAttribute("height");
  if (viewPly !== ply) return;
  const picture = document.importNode(root, true);
  markSuggestion(picture, ply);
  boardBox.replaceChildren(picture);
}

// ------------------------------------------------------------------ marks on the board
function pointXY(point, size) {
  const x = COLUMNS.indexOf(point[0]);
  const y = size - Number(point.slice(1));
  return x < 0 || x >= size || y < 0 || y >= size ? null : [x, y];
}

/** Rings on ``points`` of the board drawn in ``root`` (the same grid as the server's
 * pictures): the hint (blue, dashed) or the computer's choice in the analysis (green). */
function ringPoints(root, points, kind, title) {
  const size = S.board.rows.length;
  const hinted = kind === "hint";
  const group = svg("g", { class: kind, "pointer-events": "none" });
  for (const point of points) {
    const at = pointXY(point, size);
    if (!at) continue;
    const attrs = { cx: MARGIN + at[0] * CELL, cy: MARGIN + at[1] * CELL, r: CELL * 0.38,
      fill: hinted ? "rgba(31, 95, 214, .25)" : "none", stroke: hinted ? "#1f5fd6" : "#1e6b1e",
      "stroke-width": 3, "data-point": point };
    if (hinted) attrs["stroke-dasharray"] = "4 2";
    const ring = svg("circle", attrs);
    const words = svg("title", {});
    words.textContent = `${title}: ${point}`;
    ring.append(words);
    group.append(ring);
  }
  root.append(group);
}

/** The points of an action's text (K10, Connect6's K10 L11); none for a pass, a decision or
 * Go's marking (its names are stones to mark, not a place to play). */
function actionPoints(text) {
  const words = String(text || "").split(" ");
  return words.every((w) => POINT.test(w)) ? words : [];
}

/** An action of the engine (a hint, the analysis' best move) in the page's words. */
function actionWords(text) {
  const [word, ...rest] = String(text || "").split(" ");
  if (word === "PASS") return "pass";
  if (word === "MARK") return rest.length ? `dead stones: ${rest.join(" ")}` : "no dead stones";
  if (CHOICES[word]) return `“${CHOICES[word]}”`;
  return text;
}

/** On the board showing the position after ``ply``: the computer's choice instead of that
 * move, when the analysis has one that differs from it. */
function markSuggestion(root, ply) {
  const entry = analysed(ply);
  if (!entry || !entry.best_move || entry.best_move === entry.move) return;
  ringPoints(root, actionPoints(entry.best_move), "suggested", "The computer's choice");
}

/** The computer's choice, drawn again on the board as it is (after the analysis changed). */
function refreshSuggestion() {
  const root = boardBox.querySelector("svg");
  if (!root) return;
  root.querySelectorAll("g.suggested").forEach((g) => g.remove());
  markSuggestion(root, viewPly === null ? (S.moves || []).length : viewPly);
  // Below the clickable points, as drawBoard puts it.
  const added = root.querySelector("g.suggested");
  const hits = root.querySelector("g.points");
  if (added && hits) root.insertBefore(added, hits);
}

// ------------------------------------------------------------------ Go's count
/** Go's count to draw, in the marking phase (as proposed, or as the board stands) and once
 * counted: each territory point's owner, and the stones counted dead (point -> colour). */
function goCount() {
  const score = page.go && S.go && countScore();
  if (!score || !((playing() && marking()) || counted())) return null;
  const byColour = (black, white) => new Map([...(black || []).map((p) => [p, 1]), ...(white || []).map((p) => [p, 2])]);
  return { owner: byColour(score.black_territory, score.white_territory),
    dead: byColour(score.black_dead, score.white_dead) };
}

/** Whether the game was won on a count of its board: not an imported record's count made
 * elsewhere, after moves that stop before it (the board here is not that count). */
function counted() {
  return S.end_reason === "score" && Boolean(S.go) && S.go.phase === "over";
}

/** Territory as small squares of its owner's colour, and a red cross on every dead stone. */
function drawCount(root, count, dead) {
  const size = S.board.rows.length;
  const half = CELL * 0.14;
  const squares = svg("g", { class: "territory", "stroke-width": 1 });
  for (const [point, owner] of count.owner) {
    const at = pointXY(point, size);
    if (!at) continue;
    const [fill, stroke] = colours[owner];
    squares.append(svg("rect", { x: MARGIN + at[0] * CELL - half, y: MARGIN + at[1] * CELL - half,
      width: 2 * half, height: 2 * half, fill, stroke, class: `territory ${owner === 1 ? "black" : "white"}`,
      "data-point": point }));
  }
  root.append(squares);
  const arm = CELL * 0.2;
  const crosses = svg("g", { class: "dead", stroke: "#b3261e", "stroke-width": 2 });
  for (const point of new Set([...dead, ...count.dead.keys()])) {
    const at = pointXY(point, size);
    if (!at) continue;
    const [cx, cy] = [MARGIN + at[0] * CELL, MARGIN + at[1] * CELL];
    crosses.append(svg("path", { d: `M${cx - arm} ${cy - arm}L${cx + arm} ${cy + arm}M${cx - arm} ${cy + arm}L${cx + arm} ${cy - arm}`,
      class: "dead-mark", "data-point": point }));
  }
  root.append(crosses);
}

/** Whether the marker is crossing stones not proposed yet (the count then follows them). */
function markingHere() {
  return marking() && S.go.proposed_dead == null && S.go.marking_seat === mySeat();
}

/** The count shown: while stones are crossed here, the server's count with them dead (the last
 * one it gave while the next is on its way); otherwise the state's. */
function countScore() {
  if (markingHere() && pending.length && countPreview && countPreview.ply === S.ply) return countPreview.score;
  return S.go.score;
}

/** Ask for the count with the stones crossed here dead (GET games/{id}/count), once the clicks
 * stop for ``COUNT_DELAY_MS``; none crossed is the count as the board stands, the state's. */
function previewCount() {
  clearTimeout(countTimer);
  if (!markingHere() || !pending.length) {
    countPreview = null;
    return;
  }
  countTimer = setTimeout(async () => {
    const key = [...pending].sort().join(",");
    const ply = S.ply;
    const result = await api(`games/${page.id}/count?dead=${encodeURIComponent(key)}`);
    // Crossed otherwise meanwhile (a newer request is coming), or the game moved on.
    if (key !== [...pending].sort().join(",") || ply !== S.ply) return;
    if (!result.ok) {
      say(problem(result));
      return;
    }
    countPreview = { key, ply, score: result.data };
    if (viewPly === null) drawBoard();
  }, COUNT_DELAY_MS);
}

/** Under the board, what the count's marks mean (and the count while marking). */
function drawCountNote(count) {
  const note = document.getElementById("count-note");
  if (!note) return;
  note.hidden = !count || viewPly !== null;
  if (!count) return;
  const score = countScore();
  const legend = "Small squares are each side's territory; crossed stones are dead.";
  if (counted()) {
    note.textContent = `${legend} Black ${score.black}, white ${score.white} (komi included).`;
    return;
  }
  let basis = S.go.proposed_dead == null ? "as the board stands" : "with the stones marked dead";
  if (score !== S.go.score) basis = "with the stones you crossed (not proposed yet)";
  note.textContent = `The count ${basis}: black ${score.black}, white ${score.white} (komi included). ${legend}`;
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

/** A player's name, cut with an ellipsis where it does not fit (the whole name in its title). */
function nameNode(player) {
  const attrs = { class: "name", title: player.name };
  if (!player.user) return el("span", attrs, player.name);
  return el("a", { ...attrs, href: `/players/${encodeURIComponent(player.user.username)}/` }, player.name);
}

function playerRow(p) {
  const [fill] = colours[p.colour] || PENTE[3];
  const toMove = playing() && S.to_move && S.to_move.seat === p.seat;
  const ms = remaining(p.seat);
  return el("div", { class: "player" + (toMove ? " to-move" : ""), "data-seat": p.seat },
    el("span", { class: "who" }, el("span", { class: "stone-dot", style: `background:${fill}` }), nameNode(p),
      page.captures && !S.partners ? el("span", { class: "muted" }, ` · ${p.captures} captured`) : null),
    el("span", { class: "clock" + (ms !== null && ms < 30000 ? " low" : ""), "data-clock": p.seat }, clockText(ms)));
}

/** Partners: the players grouped by team (Team 1: seats 1 & 3, Team 2: seats 2 & 4, as the
 * state's ``team`` says), each team with the captures it shares. */
function teamGroups() {
  const teams = [];
  for (const p of S.players) {
    const key = (p.team || [p.seat]).join(",");
    let team = teams.find((t) => t.key === key);
    if (!team) teams.push(team = { key, players: [] });
    team.players.push(p);
  }
  return teams.map((team, i) => {
    const heading = `team-${i + 1}`;
    const captured = page.captures ? ` · ${team.players[0].captures} captured` : "";
    return el("div", { class: "team", role: "group", "aria-labelledby": heading, "data-team": i + 1 },
      el("h4", { id: heading }, `Team ${i + 1}`, el("span", { class: "muted" }, captured)),
      ...team.players.map(playerRow));
  });
}

/** A time in the time zone of the viewer's account (UTC for a stranger), which it names, as
 * the tournament pages do; in UTC should the browser not know that zone. */
function zoned(time) {
  const options = { dateStyle: "medium", timeStyle: "short" };
  for (const zone of [page.time_zone, "UTC"]) {
    try {
      return `${new Intl.DateTimeFormat(undefined, { ...options, timeZone: zone }).format(new Date(time))} ${zone}`;
    } catch (err) {
      // RangeError: a zone this browser does not know.
    }
  }
  return new Date(time).toISOString();
}

function drawPlayers() {
  const box = document.getElementById("players");
  box.replaceChildren(...(S.partners ? teamGroups() : S.players.map(playerRow)));
  if (S.clock && S.clock.time_control === "turn" && S.clock.deadline && playing()) {
    box.append(el("p", { class: "muted", id: "deadline" }, `Move by ${zoned(S.clock.deadline)}`));
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
  const names = winners.map((w) => w.name).join(" and ");
  if (S.end_reason === "recorded") return winners.length ? `${names} won (as recorded)` : "Draw (as recorded)";
  if (!winners.length) return why ? `Draw (${why})` : "Over";
  return `${names} won${why ? ` by ${why}` : ""}`;
}

function statusText() {
  if (!playing()) {
    // A count recorded elsewhere is not the board's: no figures from the board then.
    const score = page.go && S.go && (S.end_reason !== "score" || counted()) && S.go.score;
    return score ? `${resultText()} (black ${score.black}, white ${score.white})` : resultText();
  }
  if (marking()) {
    const marker = seatName(S.go.marking_seat);
    if (S.go.proposed_dead === null || S.go.proposed_dead === undefined) {
      if (page.my_seats.includes(S.go.marking_seat)) return "Mark the dead stones, then propose";
      return `Counting: ${marker} is marking the dead stones`;
    }
    if (myTurn()) return "Accept or reject the dead stones marked";
    if (page.my_seats.includes(S.go.marking_seat)) return `Waiting for ${S.to_move ? S.to_move.name : "your opponent"} to accept or reject your marking`;
    return `Counting: ${marker} proposed the dead stones`;
  }
  if (!S.to_move) return "Waiting";
  if (myTurn()) {
    if (S.pending_decision) return "Your decision";
    return S.to_move.stones === 2 ? "Your turn: place two stones" : "Your turn";
  }
  return `${S.to_move.name} to move`;
}

function marking() {
  return Boolean(page.go && S.go && S.go.phase === "marking");
}

function seatName(seat) {
  const player = S.players.find((p) => p.seat === seat);
  return player ? player.name : `seat ${seat}`;
}

/* Whether the viewer's seat may ask to take its last move back now: the server says whose
 * move may go back (``takeback_seat``: the player who just moved, never into the opening). */
function undoAllowed(seat) {
  return seat !== null && playing() && S.takeback_seat === seat;
}

function explanation() {
  const choices = S.decisions_available || [];
  if (choices.includes("accept")) return EXPLAIN.marking;
  if (choices.includes("colour1")) return EXPLAIN.colour;
  if (choices.includes("keep")) return EXPLAIN[page.opening] || null;
  return null;
}

function button(label, action, handler, secondary = false) {
  return el("button", { type: "button", class: secondary ? "secondary" : null, "data-action": action, onclick: handler }, label);
}

function drawControls() {
  const box = document.getElementById("controls");
  const out = [];
  const seat = mySeat();
  if (seat !== null && playing()) {
    // A decision (the opening's, or Go's answer to the marking) is the seat to move's only.
    if (myTurn() && (S.decisions_available || []).length) {
      const why = explanation();
      if (why) out.push(el("p", { class: "muted explain", id: "decision-help" }, why));
      for (const choice of S.decisions_available) {
        out.push(button(CHOICES[choice] || choice, choice, () => send("decision", { ply: S.ply, choice })));
      }
    }
    if (hintsNow()) {
      out.push(el("button", { type: "button", class: "secondary", "data-action": "hint",
        title: "The computer's move for you here, shown on the board", onclick: askHint }, "Hint"));
    }
    if (page.go && S.go && S.go.phase === "playing" && myTurn()) {
      out.push(button("Pass", "pass", () => send("moves", { ply: S.ply, point: "pass" })));
    }
    if (marking() && S.go.marking_seat === seat && S.go.proposed_dead == null) {
      out.push(button("Propose dead stones", "propose", () => send("dead", { ply: S.ply, points: pending })));
    }
    if (S.to_move && S.to_move.stones === 2 && pending.length === 1) {
      out.push(button("Clear stone", "clear", () => { pending = []; redraw(); }, true));
    }
    // Only the player who just moved may ask to take it back, past the opening (the server's
    // rule); a request is answered by the other.
    const requested = S.undo_requested_by !== null && S.undo_requested_by !== undefined;
    if (requested || undoAllowed(seat)) {
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
  if (m.kind === "mark") return m.choice ? `dead stones: ${m.choice}` : "no dead stones";
  if (m.kind === "decision" || (m.choice && !m.name)) return CHOSEN[m.choice] || m.choice;
  if (m.kind === "pass") return "pass";
  return m.name || m.kind;
}

function drawMoves() {
  const list = document.getElementById("moves");
  const moves = S.moves || [];
  const current = viewPly === null ? moves.length : viewPly;
  // Each move is a button: reachable by Tab, Enter or Space shows that position.
  // The analysis' judgement follows the move: a mark, and its word for a screen reader.
  list.replaceChildren(...moves.map((m, i) => el("li", {
    "data-ply": i + 1, class: i + 1 === current ? "current" : null,
  }, el("button", { type: "button", class: "link", "aria-current": i + 1 === current ? "step" : null,
    onclick: () => view(i + 1) }, moveText(m), ...judgementMark(analysed(i + 1))))));
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
  drawVerdict(current);
  const now = document.querySelector("#analysis .now");
  if (now && analysis && analysis.plies) {
    now.setAttribute("x1", chartX(current));
    now.setAttribute("x2", chartX(current));
  }
}

/** A request of the other side, said in words beside the board (on a phone the buttons that
 * answer it are below the board). */
function requestText() {
  const seat = mySeat();
  if (seat === null || !playing()) return "";
  const lines = [];
  for (const [by, what] of [[S.undo_requested_by, "take back their last move"], [S.cancel_requested_by, "cancel the game"]]) {
    if (by === null || by === undefined) continue;
    if (page.my_seats.includes(by)) lines.push(`You asked to ${what.replace("their", "your")}: waiting for the answer.`);
    else lines.push(`${seatName(by)} asks to ${what}: agree or decline.`);
  }
  return lines.join(" ");
}

function redraw() {
  if (viewPly === null) drawBoard();
  drawPlayers();
  drawControls();
  drawMoves();
  drawAnalysis();
  document.getElementById("status").textContent = statusText();
  document.getElementById("requests").textContent = requestText();
}

function take(state) {
  // A turn forward: the stones it took away are crossed; after an undo, nothing is.
  if ((state.moves || []).length > (S.moves || []).length) before = S.board.rows;
  else if (state.ply !== S.ply) before = null;
  if (state.ply !== S.ply) {
    pending = [];
    if (hint) forgetHint();
    clearTimeout(countTimer);
    countPreview = null;
  }
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
    document.getElementById("notice").classList.remove("error");
    take(result.data);
    return;
  }
  // A refused turn: its waiting stone (Connect6) goes too; the next turn starts afresh.
  if (path === "moves") pending = [];
  say(problem(result));
  await refresh();
  redraw();
}

function say(text) {
  const notice = document.getElementById("notice");
  notice.textContent = text;
  notice.classList.add("error");
}

function occupied(point) {
  return (S.board.stones || []).some((s) => s.name === point);
}

function onPoint(point) {
  if (viewPly !== null) { view(null); return; }
  if (!playing()) return;
  if (page.go && S.go && S.go.phase === "marking") {
    if (S.go.marking_seat !== mySeat()) return;
    if (!pending.includes(point) && !occupied(point)) return; // only stones are dead
    pending = pending.includes(point) ? pending.filter((p) => p !== point) : [...pending, point];
    previewCount();
    redraw();
    return;
  }
  if (!myTurn() || S.pending_decision) return;
  if (S.to_move.stones === 2) {
    if (pending.includes(point)) { pending = pending.filter((p) => p !== point); redraw(); return; }
    if (occupied(point)) {
      say("That point is taken.");
      return;
    }
    pending = [...pending, point];
    if (pending.length < 2) { redraw(); return; }
    send("moves", { ply: S.ply, points: pending });
    return;
  }
  send("moves", { ply: S.ply, point });
}

boardBox.addEventListener("click", (event) => {
  if (viewPly !== null) { view(null); return; }
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
  else {
    drawPicture(ply);
    drawCountNote(null); // the count is the final position's
  }
  drawMoves();
}

// ------------------------------------------------------------------ hints
/** The computer's move for the player to move (GET games/{id}/hint), ringed on the board and
 * said in the notice until the next move; a refusal is said instead (rated game, rate...). */
async function askHint(event) {
  const asked = event.currentTarget;
  asked.disabled = true;
  const result = await api(`games/${page.id}/hint`);
  asked.disabled = false;
  if (!result.ok) {
    say(problem(result));
    return;
  }
  if (result.data.ply !== S.ply) return; // the game moved on meanwhile
  hint = { ply: result.data.ply, points: (result.data.points || []).filter((p) => POINT.test(p)) };
  hintSaid = `Hint: ${actionWords(result.data.move)}`;
  const notice = document.getElementById("notice");
  notice.textContent = hintSaid;
  notice.classList.remove("error");
  view(null); // the hint is for the position as it stands
}

function forgetHint() {
  hint = null;
  const notice = document.getElementById("notice");
  if (notice.textContent === hintSaid) notice.textContent = "";
  hintSaid = "";
}

// ------------------------------------------------------------------ the computer's analysis
/** Whether the server analyses this game: one over (or an imported record that reached its
 * end) that the computer analyses (``page.analysable``: the server's rule). */
function analysable() {
  const over = S.status === "finished" || (S.status === "archived" && Boolean(S.end_reason));
  return over && page.analysable;
}

/** The analysis of ``ply`` (null when there is none yet). */
function analysed(ply) {
  const entry = analysis && analysis.plies ? analysis.plies[ply - 1] : null;
  return entry && entry.ply === ply ? entry : null;
}

function judgementMark(entry) {
  if (!entry || !entry.judgement) return [];
  return [el("span", { class: `judgement ${entry.judgement}`, "aria-hidden": "true" }, JUDGEMENTS[entry.judgement]),
    el("span", { class: "visually-hidden" }, ` (${entry.judgement})`)];
}

/** The first side's winning chances (0..1) in an evaluation: the server's curve, 1 or 0 for a
 * forced win found. */
function chances(evaluation) {
  if (evaluation.mate === "win") return 1;
  if (evaluation.mate === "loss") return 0;
  return 1 / (1 + Math.exp(-page.win_chance_slope * evaluation.cp));
}

function percent(share) {
  return `${Math.round(share * 100)}%`;
}

function teamOf(seat) {
  const player = S.players.find((p) => p.seat === seat);
  return player && player.team ? player.team : [seat];
}

/** A seat's side in words: its player (and partner). */
function sideName(seat) {
  return teamOf(seat).map(seatName).join(" and ");
}

/** Under the board: what the analysis says of the move shown (the last one, or the one chosen
 * in the list). */
function drawVerdict(ply) {
  const note = document.getElementById("analysis-note");
  const entry = analysed(ply);
  const move = (S.moves || [])[ply - 1];
  if (!entry || !move) {
    note.textContent = "";
    return;
  }
  // The evaluations are the first side's (seat 1's); said here for the side that moved.
  const mine = (evaluation) => (teamOf(1).includes(entry.seat) ? chances(evaluation) : 1 - chances(evaluation));
  const judged = entry.judgement;
  let text = `Move ${ply}, ${moveText(move)} by ${seatName(entry.seat)}`;
  text += judged ? `: ${judged === "inaccuracy" ? "an" : "a"} ${judged}.` : ".";
  let chancesText = `${sideName(entry.seat)}'s chances after it: ${percent(mine(entry.evaluation))}`;
  if (entry.best_move && entry.best_move !== entry.move) {
    const ringed = actionPoints(entry.best_move).length ? " (the green ring)" : "";
    text += ` The computer ${judged ? "preferred" : "would have played"} ${actionWords(entry.best_move)}${ringed}.`;
    if (entry.best_evaluation) chancesText += `; after the computer's: ${percent(mine(entry.best_evaluation))}`;
  } else if (entry.best_move) {
    text += " The computer's choice too.";
  }
  note.textContent = `${text} ${chancesText}.`;
}

// The chart of the first side's chances, move by move (viewBox units; a margin for the dots).
const CHART_W = 300;
const CHART_H = 80;
const CHART_PAD = 4;

function chartPlies() {
  return Math.max(1, (analysis.progress && analysis.progress.total) || 0, analysis.plies.length);
}

function chartX(ply) {
  return CHART_PAD + (ply / chartPlies()) * (CHART_W - 2 * CHART_PAD);
}

/** The chances after each move analysed (from even before the first), its judgements as
 * coloured dots, and the move shown as a line; a click on it shows that move. */
function drawChart() {
  const plies = analysis.plies;
  const y = (share) => CHART_PAD + (1 - share) * (CHART_H - 2 * CHART_PAD);
  const last = plies.length ? chances(plies[plies.length - 1].evaluation) : 0.5;
  const root = svg("svg", { viewBox: `0 0 ${CHART_W} ${CHART_H}`, class: "chart winrate", role: "img",
    "aria-label": `${sideName(1)}'s chances after each move, as the computer sees them (${percent(last)} at the end); choose a move in the list to hear what it says of it.` });
  root.append(svg("rect", { x: 0, y: 0, width: CHART_W, height: CHART_H, fill: "#fff" }));
  const points = [[0, 0.5], ...plies.map((e) => [e.ply, chances(e.evaluation)])];
  const line = points.map(([ply, share]) => `${chartX(ply).toFixed(1)},${y(share).toFixed(1)}`).join(" ");
  const [start, end] = [chartX(0).toFixed(1), chartX(points[points.length - 1][0]).toFixed(1)];
  root.append(svg("polygon", { points: `${start},${y(0)} ${line} ${end},${y(0)}`, fill: "#f1dcc4" }));
  root.append(svg("line", { x1: 0, y1: CHART_H / 2, x2: CHART_W, y2: CHART_H / 2, stroke: "#b9ad97", "stroke-dasharray": "4 3" }));
  root.append(svg("polyline", { points: line, fill: "none", stroke: "#9a4b16", "stroke-width": 1.5 }));
  for (const entry of plies) {
    if (!entry.judgement) continue;
    root.append(svg("circle", { cx: chartX(entry.ply), cy: y(chances(entry.evaluation)), r: 3.5,
      class: `judgement-dot ${entry.judgement}`, "data-ply": entry.ply }));
  }
  const shown = viewPly === null ? (S.moves || []).length : viewPly;
  root.append(svg("line", { x1: chartX(shown), y1: 0, x2: chartX(shown), y2: CHART_H, class: "now",
    stroke: "#1f5fd6", "stroke-width": 1.5 }));
  root.addEventListener("click", (event) => {
    const box = root.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * CHART_W;
    const ply = Math.round(((x - CHART_PAD) / (CHART_W - 2 * CHART_PAD)) * chartPlies());
    view(Math.max(1, Math.min(plies.length, ply)));
  });
  return root;
}

function summaryTable() {
  const heads = Object.entries({ inaccuracies: "?!", mistakes: "?", blunders: "??" }).map(([word, mark]) =>
    el("th", { class: "num", title: word }, el("span", { "aria-hidden": "true" }, mark), el("span", { class: "visually-hidden" }, word)));
  return el("table", { class: "analysis-summary" },
    el("thead", {}, el("tr", {}, el("th", {}, "Player"), ...heads)),
    el("tbody", {}, ...(analysis.summary || []).map((s) => el("tr", { "data-seat": s.seat }, el("td", { class: "name", title: s.name }, s.name),
      el("td", { class: "num" }, s.inaccuracies), el("td", { class: "num" }, s.mistakes), el("td", { class: "num" }, s.blunders)))));
}

/** The analysis panel (shown once the game is over): the button to ask for it (signed in), its
 * progress while it runs, then the chart, each player's judgements, and the legend. */
function drawAnalysis() {
  const panel = document.getElementById("analysis");
  panel.hidden = !analysable() && !analysis;
  if (panel.hidden) return;
  const out = [];
  const ask = (label) => el("button", { type: "button", "data-action": "analyse", onclick: askAnalysis }, label);
  const status = analysis && analysis.status;
  if (!analysis) {
    out.push(el("p", { class: "muted" }, "The computer looks at every move and marks the mistakes."));
    out.push(me ? ask("Ask for the computer's analysis")
      : el("p", {}, el("a", { href: panel.dataset.login }, "Sign in"), " to ask for it."));
  } else if (!analysis.plies) {
    out.push(el("p", { class: "muted" }, "Reading the analysis…"));
  } else if (status === "pending" || status === "running") {
    const { processed, total } = analysis.progress;
    out.push(el("progress", { max: Math.max(total, 1), value: processed, "aria-label": "The analysis' progress" }),
      el("p", { class: "muted", id: "analysis-progress" }, processed
        ? `Analysing: ${processed} of ${total} moves done.` : "Waiting for the computer…"));
  } else if (status === "failed") {
    out.push(el("p", { class: "error" }, analysis.error ? analysis.error.detail : "The analysis stopped."));
    if (me) out.push(ask("Ask again"));
  }
  if (analysis && analysis.plies && analysis.plies.length) {
    out.push(el("p", { class: "muted legend" }, `${sideName(1)}'s chances, move by move:`),
      drawChart(), summaryTable(), el("p", { class: "muted legend" },
      "?! inaccuracy · ? mistake · ?? blunder. Choose a move to see the computer's choice on the board."));
  }
  document.getElementById("analysis-body").replaceChildren(...out);
}

function sayAnalysis(text, bad = false) {
  const notice = document.getElementById("analysis-notice");
  notice.textContent = text;
  notice.classList.toggle("error", bad);
}

function showAnalysis(data) {
  analysis = data;
  drawAnalysis();
  drawMoves();
  refreshSuggestion();
}

/** Read the analysis (GET), once at a time: asked for again while a read is on its way, or
 * should an event come meanwhile (the answer may be older than it), it reads once more. */
async function loadAnalysis() {
  clearTimeout(analysisRetry);
  if (analysisReading) {
    analysisAgain = true;
    return;
  }
  analysisReading = true;
  let result;
  do {
    analysisAgain = false;
    const seen = analysisEvents;
    result = await api(`games/${page.id}/analysis`);
    if (analysisEvents !== seen) analysisAgain = true;
  } while (analysisAgain);
  analysisReading = false;
  if (result.ok) {
    sayAnalysis("");
    showAnalysis(result.data);
  } else if (result.status === 404) {
    analysis = null; // none (any more)
    drawAnalysis();
  } else {
    sayAnalysis(problem(result), true);
    // Busy or unreachable for a moment: look again later.
    if (result.status === 0 || result.status === 429 || result.status >= 500) analysisRetry = setTimeout(loadAnalysis, 10000);
  }
}

/** The stream's ``analysis`` event (live/publishers.py): the analysis was asked for, moved on
 * by a batch of plies (``new_plies``), is done or failed, whoever asked. Its plies follow those
 * the page holds: they are added to them; otherwise (the page missed some) it reads them all. */
function onAnalysisEvent(data) {
  analysisEvents += 1;
  const held = analysis ? analysis.plies : [];
  const fresh = data.new_plies || [];
  const follows = held && held.length + fresh.length === data.progress.processed
    && (!fresh.length || fresh[0].ply === held.length + 1);
  if (!follows || analysisReading) {
    loadAnalysis();
    return;
  }
  const { new_plies: _added, ...rest } = data;
  sayAnalysis("");
  showAnalysis({ ...analysis, ...rest, plies: [...held, ...fresh] });
}

/** Whether the analysis may have moved on unseen (the stream was away). */
function analysisMoving() {
  return Boolean(analysis) && analysis.status !== "done";
}

async function askAnalysis(event) {
  const asked = event.currentTarget;
  asked.disabled = true;
  sayAnalysis("");
  const seen = analysisEvents;
  const result = await api(`games/${page.id}/analysis`, { method: "POST" });
  if (result.ok) {
    // The stream may have told more meanwhile (this answer may be older): read it then.
    if (analysisEvents === seen) showAnalysis(result.data);
    else loadAnalysis();
    return;
  }
  asked.disabled = false;
  sayAnalysis(problem(result), true);
}

document.getElementById("viewer").addEventListener("click", (event) => {
  const step = event.target.closest("[data-step]");
  if (!step) return;
  const total = (S.moves || []).length;
  const at = viewPly === null ? total : viewPly;
  view({ first: 0, back: at - 1, forward: at + 1, last: total }[step.dataset.step]);
});

// The keyboard on the board (it takes the focus with Tab): the arrows choose a point, Enter or
// Space plays it (as a click would). Elsewhere the arrows step through the moves.
const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
function onBoardKey(event) {
  if (viewPly !== null) return false;
  const size = S.board.rows.length;
  if (cursor === null) cursor = Math.floor((size * size) / 2);
  const step = STEPS[event.key];
  if (step) {
    const x = Math.max(0, Math.min(size - 1, (cursor % size) + step[0]));
    const y = Math.max(0, Math.min(size - 1, Math.floor(cursor / size) + step[1]));
    cursor = y * size + x;
  } else if (event.key === "Enter" || event.key === " ") {
    onPoint(name(cursor, size));
  } else {
    return false;
  }
  event.preventDefault();
  document.getElementById("cursor-note").textContent = name(cursor, size);
  drawBoard();
  return true;
}
// Not redrawn on focus: a click's mousedown focuses the board, and a board redrawn between
// mousedown and mouseup would lose the click.
boardBox.addEventListener("blur", () => {
  const mark = boardBox.querySelector(".cursor");
  if (mark) mark.remove();
});

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select")) return;
  if (event.target === boardBox && onBoardKey(event)) return;
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
// Connected again (or told it missed events): the game, and an analysis that may have moved on.
const caughtUp = () => {
  refresh();
  if (analysisMoving()) loadAnalysis();
};
follow(`games/${page.id}/events`, {
  move: changed, undo: changed, request: changed, end: changed, reset: caughtUp,
  chat: chat.chat, chat_removed: chat.chat_removed, analysis: onAnalysisEvent,
  spectators: (data) => {
    document.getElementById("spectators").textContent = data.count ? `· ${data.count} watching` : "";
  },
}, { onOpen: caughtUp });

if (page.analysis) {
  analysis = { status: page.analysis };
  loadAnalysis();
}
redraw();
loadChat();
setInterval(tickClocks, 250);
setBox(S);
