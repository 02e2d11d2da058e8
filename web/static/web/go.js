// Go on the game page: the marking of dead stones by whole groups, the facts shown from the
// first move (komi, the rules, each side's prisoners), the running count beside the board,
// and a rejected marking said in words (the stones the computer disputes, whose turn it is).
// The functions of the first part are pure (rows of the board in, names out), so that the
// browser tests call them directly.

import { el } from "./site.js";
import { CELL, COLUMNS, MARGIN, pointXY, svg } from "./board.js";

const COLOUR_NAMES = { 1: "black", 2: "white" };
/** The rules this server plays Go by (README, "A game of Go"). */
export const RULES = "Area counting, positional superko, suicide not allowed";

// ------------------------------------------------------------------ pure functions
function nameOf(x, y, size) {
  return COLUMNS[x] + String(size - y);
}

/** The group a click on ``point`` marks (``rows``: the board's rows, top first, "." empty,
 * "1" black, "2" white): the stone's chain and the stones of its colour that share the chain's
 * empty region, found by a flood through empty points and that colour's stones, stopped by
 * the other colour (as GoGame.group_of). [] for an empty point. */
export function groupOf(rows, point) {
  const size = rows.length;
  const start = pointXY(point, size);
  if (!start) return [];
  const colour = rows[start[1]][start[0]];
  if (colour === ".") return [];
  const other = colour === "1" ? "2" : "1";
  const seen = new Set([start[1] * size + start[0]]);
  const stack = [start];
  const out = [];
  while (stack.length) {
    const [x, y] = stack.pop();
    if (rows[y][x] === colour) out.push(nameOf(x, y, size));
    for (const [nx, ny] of [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]]) {
      if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
      const key = ny * size + nx;
      if (seen.has(key) || rows[ny][nx] === other) continue;
      seen.add(key);
      stack.push([nx, ny]);
    }
  }
  return out.sort();
}

/** The stones marked dead after a click on ``point``: its whole group leaves the marking when
 * the stone clicked was marked dead (alive again), else joins it (dead). */
export function toggleGroup(marked, rows, point) {
  const group = groupOf(rows, point);
  if (!group.length) return [...marked];
  if (marked.includes(point)) return marked.filter((p) => !group.includes(p));
  return [...marked, ...group.filter((p) => !marked.includes(p))];
}

/** A player's name in the move list's sentences: "the computer" for the server's computers. */
function who(player) {
  if (!player) return "the other player";
  const username = player.user ? player.user.username : "";
  return /^computer\d+$/.test(username) ? "the computer" : player.name;
}

/** A rejection's words in the move list: "Marking rejected: the computer disputes C3, D4". */
export function rejectionWords(move, players) {
  const disputed = move.disputed || [];
  if (!disputed.length) return "Marking rejected";
  const player = (players || []).find((p) => p.seat === move.seat);
  return `Marking rejected: ${who(player)} disputes ${disputed.join(", ")}`;
}

/** While play resumes after a rejected marking (the last move): "Marking rejected: play
 * resumes, black to move"; null otherwise. */
export function resumeWords(state) {
  const moves = state.moves || [];
  const last = moves[moves.length - 1];
  if (!state.go || state.go.phase !== "playing" || state.status !== "in_progress") return null;
  if (!last || last.kind !== "decision" || last.choice !== "reject" || !state.to_move) return null;
  return `Marking rejected: play resumes, ${COLOUR_NAMES[state.to_move.colour]} to move`;
}

/** Komi and each side's prisoners, as the state has them (``captures``: by black, by white;
 * the dead stones taken off at the count included). */
export function facts(state) {
  const [black, white] = state.captures || [0, 0];
  return {
    komi: `Komi ${state.go.komi} (to white)`,
    rules: RULES,
    prisoners: `Prisoners: black has taken ${black}, white ${white}`,
  };
}

/** A count in words: "black 36, white 43.5 (komi included)". */
export function countWords(score) {
  return `black ${score.black}, white ${score.white} (komi included)`;
}

// ------------------------------------------------------------------ drawing
/** The Go panel beside the board: komi, the rules and the prisoners, from the first move (the
 * running count below them is gocount.js's ``#count-note``). */
export function drawGoFacts(state) {
  const box = document.getElementById("go-facts");
  if (!box || !state.go) return;
  const f = facts(state);
  box.replaceChildren(
    el("p", { id: "go-komi" }, f.komi),
    el("p", { id: "go-rules", class: "muted" }, f.rules),
    el("p", { id: "go-prisoners" }, f.prisoners));
}

/** On the board drawn in ``root`` (board.js's), the stones a rejected marking disputed: an
 * orange square around each, named in its title, under the clickable points. */
export function markDisputed(root, size, points) {
  if (!points || !points.length) return;
  const group = svg("g", { class: "disputed", "pointer-events": "none", fill: "none",
    stroke: "#d9822b", "stroke-width": 2.5 });
  const half = CELL * 0.5;
  for (const point of points) {
    const xy = pointXY(point, size);
    if (!xy) continue;
    const mark = svg("rect", { x: MARGIN + xy[0] * CELL - half, y: MARGIN + xy[1] * CELL - half,
      width: 2 * half, height: 2 * half, rx: 3, class: "disputed-mark", "data-point": point });
    const words = svg("title", {});
    words.textContent = `Disputed: ${point}`;
    mark.append(words);
    group.append(mark);
  }
  const hits = root.querySelector("g.points");
  if (hits) root.insertBefore(group, hits);
  else root.append(group);
}
