// The game page: draws the board from the game's state (the API's GET games/{id}/), plays by
// clicking it, keeps itself current from the game's event stream, and steps through the moves
// (keyboard arrows, the move list) on the same board. Hints (against the
// computer), the computer's analysis of a game over, and Go's count (territory, dead stones).
//
// This module owns the page's state (``game`` below: the game's state ``S``, the position shown,
// the stones placed and not sent, the keyboard's point) and wires the parts, each a module of
// its own: board.js (the drawing), clock.js (the clocks), stream.js (the event stream),
// controls.js (the buttons and the acts sent), players.js, analysis.js, gocount.js (Go's count).

import { api, chatBox, el } from "./site.js";
import { drawBoard as boardSvg, pointName, ringPoints } from "./board.js";
import { GameClock } from "./clock.js";
import { followGame, stateReader } from "./stream.js";
import { gameControls } from "./controls.js";
import { drawPlayers } from "./players.js";
import { computerAnalysis } from "./analysis.js";
import { goCount } from "./gocount.js";
import { drawGoFacts, markDisputed, rejectionWords, resumeWords, toggleGroup } from "./go.js";
import { settingsPanel } from "./settings.js";
import { beep } from "./sound.js";
import { tabSignal } from "./tab.js";
import { REASONS, moveText } from "./words.js";
import { setBox } from "./set.js";

const page = JSON.parse(document.getElementById("game-page").textContent);
const boardBox = document.getElementById("board");

/** The page's state and what the parts ask of it. */
const game = {
  page,
  S: JSON.parse(document.getElementById("game-state").textContent),
  before: null, // the rows before the last change, to show what the last move captured
  viewPly: null, // null: the game as it stands; a number: that earlier position
  pending: [], // Connect6's first stone, or the stones marked dead (Go), not yet sent
  cursor: null, // the point the keyboard is on (an index), while the board has the focus
  ghost: null, // the point tapped once, to tap again to play it ("confirm moves on touch")
  touched: false, // whether the last press on the board was a finger's
  shownOrder: 0, // the order (stream.js askOrder) of the request whose answer is shown

  mySeat: () => (page.my_seats.length ? page.my_seats[0] : null),
  playing: () => game.S.status === "in_progress",
  myTurn: () => game.playing() && game.S.to_move && page.my_seats.includes(game.S.to_move.seat),
  marking: () => Boolean(page.go && game.S.go && game.S.go.phase === "marking"),
  seatName,
  teamOf,
  sideName: (seat) => teamOf(seat).map(seatName).join(" and "),
  /** The ply of the position shown. */
  shownPly: () => (game.viewPly === null ? (game.S.moves || []).length : game.viewPly),
  take,
  redraw,
  drawBoard,
  drawMoves,
  refreshSuggestion,
  view,
  say,
  notice,
  clearPending: () => { game.pending = []; },
};

// Confirm moves on touch: on by default on a touch screen, for boards over 13x13.
const settings = settingsPanel(document.getElementById("settings"), {
  "beep-low": false, "move-sound": false,
  "confirm-touch": window.matchMedia("(pointer: coarse)").matches && game.S.board.size > 13,
}, () => { game.ghost = null; redraw(); });
const tab = tabSignal();
const clock = new GameClock(game.S, { onLow: lowBeep() });
const controls = gameControls(game);
const analysis = computerAnalysis(game);
const count = goCount(game);
game.refresh = stateReader(page.id, take);

/** A beep each second of the viewer's last seconds on their clock, if they want it. */
function lowBeep() {
  let beeped = null; // the second last beeped
  return (seat, ms) => {
    const second = Math.ceil(ms / 1000);
    if (!settings["beep-low"] || !page.my_seats.includes(seat) || second === beeped || ms <= 0) return;
    beeped = second;
    beep({ hz: 660 });
  };
}

function seatName(seat) {
  const player = game.S.players.find((p) => p.seat === seat);
  return player ? player.name : `seat ${seat}`;
}

function teamOf(seat) {
  const player = game.S.players.find((p) => p.seat === seat);
  return player && player.team ? player.team : [seat];
}

// ------------------------------------------------------------------ the board
function drawBoard() {
  const S = game.S;
  const marking = game.marking();
  const shown = count.toDraw();
  const dead = new Set(page.go && S.go ? [...(S.go.proposed_dead || []), ...(S.go.dead || [])] : []);
  // Marking, the stones clicked are dead; answering a marking, they are the ones disputed.
  const answering = marking && answeringHere();
  if (marking && !answering) game.pending.forEach((p) => dead.add(p));
  const rings = [controls.hintRing(), analysis.suggestion((S.moves || []).length)].filter(Boolean);
  const root = boardSvg({
    rows: S.board.rows, label: `${S.variant} board`, go: page.go, lastPoint: S.board.last_point,
    before: game.before, dead, count: shown, ghosts: marking ? [] : game.pending,
    ghostColour: S.to_move ? S.to_move.colour : 1, ghost: game.ghost, rings,
    cursor: document.activeElement === boardBox ? game.cursor : null,
  });
  if (page.go && S.go && game.playing()) {
    markDisputed(root, S.board.rows.length, answering ? game.pending : S.go.disputed);
  }
  count.drawNote(shown);
  boardBox.replaceChildren(root);
}

/** The position after ``ply`` (GET games/{id}/position), drawn on the same board as the game
 * (its look and size), with the computer's choice there; not played on: a click goes back. */
async function drawAt(ply) {
  const result = await api(`games/${page.id}/position?ply=${ply}`);
  if (!result.ok || game.viewPly !== ply) return;
  const ring = analysis.suggestion(ply);
  boardBox.replaceChildren(boardSvg({
    rows: result.data.rows, label: `${game.S.variant} board after move ${ply}`, go: page.go,
    lastPoint: result.data.last_point, rings: ring ? [ring] : [], clickable: false,
  }));
}

/** On the board showing the position after ``ply``: the computer's choice instead of that
 * move, when the analysis has one that differs from it. */
function markSuggestion(root, ply) {
  const ring = analysis.suggestion(ply);
  if (ring) ringPoints(root, game.S.board.rows.length, ring.points, ring.kind, ring.title);
}

/** The computer's choice, drawn again on the board as it is (after the analysis changed). */
function refreshSuggestion() {
  const root = boardBox.querySelector("svg");
  if (!root) return;
  root.querySelectorAll("g.suggested").forEach((g) => g.remove());
  markSuggestion(root, game.shownPly());
  // Below the clickable points, as drawBoard puts it.
  const added = root.querySelector("g.suggested");
  const hits = root.querySelector("g.points");
  if (added && hits) root.insertBefore(added, hits);
}

// ------------------------------------------------------------------ the status and the moves
function resultText() {
  const S = game.S;
  const winners = S.winners || [];
  const why = REASONS[S.end_reason] || S.end_reason || "";
  const absent = (S.absent_seats || []).map(seatName).join(" and ");
  if (S.end_reason === "aborted") {
    return `Aborted: ${absent || "a player"} placed no first stone in time (no result, not rated)`;
  }
  if (S.status === "cancelled") return "Cancelled";
  if (S.end_reason === "forfeit" && !winners.length) return "Double forfeit: neither player came";
  const names = winners.map((w) => w.name).join(" and ");
  if (S.end_reason === "recorded") return winners.length ? `${names} won (as recorded)` : "Draw (as recorded)";
  if (!winners.length) return why ? `Draw (${why})` : "Over";
  return `${names} won${why ? ` by ${why}` : ""}`;
}

function statusText() {
  const S = game.S;
  if (!game.playing()) {
    // A count recorded elsewhere is not the board's: no figures from the board then.
    const score = page.go && S.go && (S.end_reason !== "score" || count.counted()) && S.go.score;
    return score ? `${resultText()} (black ${score.black}, white ${score.white})` : resultText();
  }
  if (game.marking()) {
    const marker = seatName(S.go.marking_seat);
    if (S.go.proposed_dead === null || S.go.proposed_dead === undefined) {
      if (page.my_seats.includes(S.go.marking_seat)) return "Mark the dead stones, then propose";
      return `Counting: ${marker} is marking the dead stones`;
    }
    if (game.myTurn()) return "Accept or reject the dead stones marked";
    if (page.my_seats.includes(S.go.marking_seat)) return `Waiting for ${S.to_move ? S.to_move.name : "your opponent"} to accept or reject your marking`;
    return `Counting: ${marker} proposed the dead stones`;
  }
  if (!S.to_move) return "Waiting";
  const resumed = page.go && resumeWords(S);
  if (resumed) return resumed;
  if (game.myTurn()) {
    if (S.pending_decision) return "Your decision";
    return S.to_move.stones === 2 ? "Your turn: place two stones" : "Your turn";
  }
  return `${S.to_move.name} to move`;
}

function drawMoves() {
  const S = game.S;
  const list = document.getElementById("moves");
  const moves = S.moves || [];
  const current = game.shownPly();
  // Each move is a button: reachable by Tab, Enter or Space shows that position.
  // The analysis' judgement follows the move: a mark, and its word for a screen reader.
  list.replaceChildren(...moves.map((m, i) => el("li", {
    "data-ply": i + 1, class: i + 1 === current ? "current" : null,
  }, el("button", { type: "button", class: "link", "aria-current": i + 1 === current ? "step" : null,
    onclick: () => view(i + 1) }, m.disputed ? rejectionWords(m, S.players) : moveText(m),
    ...analysis.judgementMark(i + 1)))));
  const last = list.lastElementChild;
  // The list scrolls to its last move, never the page (scrollIntoView would, on a phone).
  if (last && game.viewPly === null) list.scrollTop = list.scrollHeight;
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
  analysis.drawVerdict(current);
  analysis.markShown(current);
}

function redraw() {
  if (game.viewPly === null) drawBoard();
  drawPlayers(game.S, page, clock);
  if (page.go) drawGoFacts(game.S);
  controls.draw();
  drawMoves();
  analysis.draw();
  document.getElementById("status").textContent = statusText();
  document.getElementById("requests").textContent = controls.requestText();
  tab.show(Boolean(game.myTurn()));
}

/** A new state of the game (the API's): taken, and the page drawn from it; ``timing``: when
 * it was asked for and came, and in what order ({sent, arrived, order}: clock.js, stream.js). */
function take(state, timing = {}) {
  // An answer overtaken on its way: the state shown is newer (asked for later).
  if (timing.order !== undefined) {
    if (timing.order < game.shownOrder) return;
    game.shownOrder = timing.order;
  }
  const S = game.S;
  // A turn forward: the stones it took away are crossed; after an undo, nothing is.
  if ((state.moves || []).length > (S.moves || []).length) game.before = S.board.rows;
  else if (state.ply !== S.ply) game.before = null;
  if (state.ply !== S.ply) {
    game.pending = [];
    game.ghost = null;
    controls.forgetHint();
    count.forget();
  }
  const moved = (state.moves || []).length > (S.moves || []).length;
  game.S = state;
  clock.read(state, timing);
  redraw();
  // The other side moved and it is the viewer's turn: the sound, if they want it.
  if (moved && game.myTurn() && settings["move-sound"]) beep({ hz: 520, ms: 90 });
}

function say(text) {
  const box = document.getElementById("notice");
  box.textContent = text;
  box.classList.add("error");
}

function notice(text) {
  const box = document.getElementById("notice");
  box.textContent = text;
  box.classList.remove("error");
}

// ------------------------------------------------------------------ playing on the board
function occupied(point) {
  return (game.S.board.stones || []).some((s) => s.name === point);
}

/** Whether the viewer answers a marking of Go's dead stones now (their clicks name the stones
 * they dispute). */
function answeringHere() {
  const S = game.S;
  return game.marking() && S.go.proposed_dead != null && game.myTurn();
}

function onPoint(point) {
  const S = game.S;
  if (game.viewPly !== null) { view(null); return; }
  if (!game.playing()) return;
  if (page.go && S.go && S.go.phase === "marking") {
    if (S.go.marking_seat !== game.mySeat() && !answeringHere()) return;
    if (!game.pending.includes(point) && !occupied(point)) return; // only stones are dead
    // A click marks the stone's whole group dead, or alive again (go.js).
    game.pending = toggleGroup(game.pending, S.board.rows, point);
    count.ask();
    redraw();
    return;
  }
  if (!game.myTurn() || S.pending_decision) return;
  // Confirm moves on touch: a first tap shows the stone, a second on it plays it.
  if (game.touched && settings["confirm-touch"] && game.ghost !== point && !game.pending.includes(point)) {
    game.ghost = point;
    drawBoard();
    return;
  }
  game.ghost = null;
  if (S.to_move.stones === 2) {
    if (game.pending.includes(point)) { game.pending = game.pending.filter((p) => p !== point); redraw(); return; }
    if (occupied(point)) {
      say("That point is taken.");
      return;
    }
    game.pending = [...game.pending, point];
    if (game.pending.length < 2) { redraw(); return; }
    controls.send("moves", { ply: S.ply, points: game.pending });
    return;
  }
  controls.send("moves", { ply: S.ply, point });
}

function clicked(target) {
  if (game.viewPly !== null) { view(null); return; }
  const point = target && target.closest("[data-point]");
  if (point && boardBox.contains(point)) onPoint(point.dataset.point);
}

// A press and its release on the same point is a click even when the board was drawn anew
// between them (a state arrived): the browser fires no click then, the pressed point gone.
let pressed = null; // the point pressed, while the pointer is down
boardBox.addEventListener("pointerdown", (event) => {
  game.touched = event.pointerType === "touch";
  pressed = event.target.closest("[data-point]");
});
boardBox.addEventListener("pointerup", (event) => {
  const before = pressed;
  pressed = null;
  if (!before || before.isConnected) return; // the browser's own click follows
  const target = event.target.closest("[data-point]");
  if (target && target.dataset.point === before.dataset.point) clicked(target);
});
boardBox.addEventListener("click", (event) => clicked(event.target));

// ------------------------------------------------------------------ viewing earlier positions
function view(ply) {
  const total = (game.S.moves || []).length;
  if (ply !== null) ply = Math.max(0, Math.min(total, ply));
  if (ply === total) ply = null;
  game.viewPly = ply;
  if (ply === null) drawBoard();
  else {
    drawAt(ply);
    count.drawNote(null); // the count is the final position's
  }
  drawMoves();
}

document.getElementById("viewer").addEventListener("click", (event) => {
  const step = event.target.closest("[data-step]");
  if (!step) return;
  const total = (game.S.moves || []).length;
  const at = game.shownPly();
  view({ first: 0, back: at - 1, forward: at + 1, last: total }[step.dataset.step]);
});

// The keyboard on the board (it takes the focus with Tab): the arrows choose a point, Enter or
// Space plays it (as a click would). Elsewhere the arrows step through the moves.
const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
function onBoardKey(event) {
  if (game.viewPly !== null) return false;
  const size = game.S.board.rows.length;
  if (game.cursor === null) game.cursor = Math.floor((size * size) / 2);
  const step = STEPS[event.key];
  if (step) {
    const x = Math.max(0, Math.min(size - 1, (game.cursor % size) + step[0]));
    const y = Math.max(0, Math.min(size - 1, Math.floor(game.cursor / size) + step[1]));
    game.cursor = y * size + x;
  } else if (event.key === "Enter" || event.key === " ") {
    onPoint(pointName(game.cursor, size));
  } else {
    return false;
  }
  event.preventDefault();
  document.getElementById("cursor-note").textContent = pointName(game.cursor, size);
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
  const total = (game.S.moves || []).length;
  const at = game.shownPly();
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: total }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  view(to);
});

// ------------------------------------------------------------------ live
const chat = chatBox(document.getElementById("chat"), document.getElementById("chat-form"),
  `games/${page.id}/chat`, (text) => { document.getElementById("notice").textContent = text; });

// Connected (again), or told it missed events: the game, its chat (a line said between the
// page's first read and the stream's start reaches no stream), and an analysis that may have
// moved on.
const caughtUp = () => {
  game.refresh();
  chat.catchUp();
  if (analysis.moving()) analysis.load();
};
followGame(page.id, {
  changed: () => game.refresh(), caughtUp, chat: chat.chat, chatRemoved: chat.chat_removed,
  analysis: analysis.onEvent,
  spectators: (n) => { document.getElementById("spectators").textContent = n ? `· ${n} watching` : ""; },
});

// Back to this page from the browser's memory (bfcache): its clocks run on from the time they
// were computed; the state is read again for what happened meanwhile.
window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  clock.tick();
  game.refresh();
});

if (page.analysis) analysis.start(page.analysis);
redraw();
chat.catchUp();
clock.start(250);
setBox(game.S);
