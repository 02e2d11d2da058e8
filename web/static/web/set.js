// The game page's set box: which game of its set this is and the set's score ("Game 1 of 2 ·
// ann 1 - 0 bob"), at all times. A live set is played one game at a time: when game 1 is over
// the box counts down to game 2 ("Game 2 starts in 8 s") with a Ready button for each player
// (both ready: it starts at once), and takes the page to game 2 when it starts. A turn-based
// set has both games at once: the set's other game is shown beside this one, full size (drawn
// by board.js, as this one is).
//
// The set's state comes with the game's (``set``: see the API's game state); the box keeps
// itself current from the game's stream (``end``, ``set_next_game``, ``game_started``) and the
// set's endpoint (GET sets/{id}/), and follows the other game's stream for its board.

import { api, el, follow, goOnce, me, problem } from "./site.js";
import { drawBoard } from "./board.js";

// After the countdown's end with no word from the stream, the set is asked again this often.
const LATE_POLL_MS = 2000;

/** Show the set of the game ``state`` (the game page's state as the API gives it). */
export function setBox(state) {
  const box = document.getElementById("set-box");
  if (!box || !state || !state.set) return;
  const gameId = state.id;
  let set = { ...state.set, games: null }; // the set as it stands (``set`` of the state)
  let gameOver = state.status !== "in_progress";
  let ticking = null;
  let lastPoll = 0;
  let other = null; // the other game's board, when shown: {id, img, stream}
  // Whether this page saw the set wait for its next game (a countdown, or this game end): only
  // then does it take the players to the next game (not when game 1 is looked at later).
  let awaiting = Boolean(set.next_game_at) || (!gameOver && set.index < set.games_count);

  const names = () => [set.player1.username, set.player2.username];
  const myIndex = () => names().indexOf(me); // 0: player 1, 1: player 2, -1: not a player
  const countdownMs = () => (set.next_game_at ? Date.parse(set.next_game_at) - Date.now() : null);

  function draw() {
    const [p1, p2] = names();
    const [s1, s2] = set.score;
    const lines = [el("p", { id: "set-title" }, el("b", {}, `Game ${set.index} of ${set.games_count}`),
      ` · ${p1} ${s1} - ${s2} ${p2}`)];
    if (set.status === "finished") {
      const result = set.result === "draw" ? "a draw" : `${set.result === "player1" ? p1 : p2} wins`;
      lines.push(el("p", { id: "set-result" }, `Set over: ${result}.`));
    } else if (set.status === "cancelled") {
      lines.push(el("p", { id: "set-result" }, "Set cancelled."));
    }
    const left = countdownMs();
    if (left !== null && set.status === "in_progress") {
      const seconds = Math.max(0, Math.ceil(left / 1000));
      const next = set.index + 1;
      lines.push(el("p", { id: "set-countdown", class: "set-countdown" },
        seconds > 0 ? `Game ${next} starts in ${seconds} s` : `Game ${next} is starting…`));
      const mine = myIndex();
      if (mine >= 0 && !set.ready[mine]) {
        lines.push(el("button", { type: "button", id: "set-ready", onclick: ready }, "Ready"));
      } else if (mine >= 0) {
        const waiting = names()[1 - mine];
        lines.push(el("p", { class: "muted" }, `You are ready; waiting for ${waiting} (or the countdown).`));
      }
    } else if (set.other_game) {
      const label = set.index === 1 ? `Game ${set.index + 1} of this set` : `Game ${set.index - 1} of this set`;
      lines.push(el("p", {}, el("a", { id: "set-other-link", href: `/games/${set.other_game}/` }, label)));
    } else if (set.games_count > 1 && gameOver && set.status === "in_progress") {
      lines.push(el("p", { class: "muted" }, `Waiting for game ${set.index + 1} of the set…`));
    }
    lines.push(el("p", { id: "set-notice", class: "muted", "aria-live": "polite" }));
    box.replaceChildren(...lines);
    box.hidden = false;
    tick();
    showOther();
  }

  // The countdown ticks while it runs; past its end with no word, the set is asked again.
  function tick() {
    const left = countdownMs();
    if (left === null || set.status !== "in_progress") {
      if (ticking) { clearInterval(ticking); ticking = null; }
      return;
    }
    if (!ticking) ticking = setInterval(() => { redrawCountdown(); }, 250);
  }

  function redrawCountdown() {
    const line = document.getElementById("set-countdown");
    const left = countdownMs();
    if (!line || left === null) { tick(); return; }
    const seconds = Math.max(0, Math.ceil(left / 1000));
    line.textContent = seconds > 0 ? `Game ${set.index + 1} starts in ${seconds} s` : `Game ${set.index + 1} is starting…`;
    if (left < 0 && Date.now() - lastPoll > LATE_POLL_MS) {
      lastPoll = Date.now();
      reload();
    }
  }

  async function ready() {
    const button = document.getElementById("set-ready");
    if (button) button.disabled = true;
    const result = await api(`sets/${set.id}/ready`, { method: "POST" });
    if (!result.ok) {
      if (button) button.disabled = false;
      const notice = document.getElementById("set-notice");
      if (notice) notice.textContent = problem(result);
      reload();
      return;
    }
    take(result.data);
  }

  /** The set as GET sets/{id}/ gives it. */
  function take(detail) {
    const games = detail.games || [];
    const next = games.find((g) => g.set_index === set.index + 1);
    set = {
      ...set,
      status: detail.status, result: detail.result, score: detail.score,
      next_game_at: detail.next_game_at, ready: detail.ready, games,
      other_game: (games.find((g) => g.id !== gameId) || {}).id || null,
    };
    // This game is over and the set's next one has started: the players go to it.
    if (next && awaiting && gameOver && onePerTurn() && myIndex() >= 0) {
      goOnce(`/games/${next.id}/`);
      return;
    }
    draw();
  }

  async function reload() {
    const result = await api(`sets/${set.id}/`);
    if (result.ok) take(result.data);
  }

  // A set played one game at a time: live games (the other game, if any, came after this one).
  const onePerTurn = () => state.clock && state.clock.time_control === "live";

  /** A turn-based set: the other game beside this one, drawn as this board is (same look,
   * same size), kept current from its own stream. */
  function showOther() {
    const place = document.getElementById("set-other");
    if (!place || onePerTurn() || !set.other_game) return;
    if (other && other.id === set.other_game) return;
    const number = set.index === 1 ? 2 : 1;
    const href = `/games/${set.other_game}/`;
    const board = el("div", { class: "board-wrap set-other-board" });
    const status = el("p", { class: "muted", id: "set-other-status" });
    place.replaceChildren(el("h2", {}, el("a", { href }, `Game ${number} of the set`)), status,
      el("a", { href, "aria-label": `Open game ${number} of the set` }, board));
    place.hidden = false;
    document.querySelector("main")?.classList.add("with-set-other");
    const id = set.other_game;
    const redraw = async () => {
      const result = await api(`games/${id}/`);
      if (!result.ok) return;
      const st = result.data;
      board.replaceChildren(drawBoard({ rows: st.board.rows, label: `Game ${number} of the set`,
        go: st.go !== null, lastPoint: st.board.last_point, clickable: false }));
      status.textContent = st.status === "in_progress"
        ? (st.to_move ? `${st.to_move.name} to move` : "")
        : "Over";
    };
    const again = () => { redraw(); reload(); };
    other = { id, stream: follow(`games/${id}/events`, { move: redraw, undo: redraw, end: again, reset: redraw }, { onOpen: redraw }) };
  }

  follow(`games/${gameId}/events`, {
    end: () => { gameOver = true; reload(); },
    set_next_game: (data) => {
      if (data.set !== set.id) return;
      gameOver = true;
      awaiting = true;
      set = { ...set, next_game_at: data.next_game_at, ready: data.ready };
      reload();
    },
    game_started: (data) => {
      if (data.set !== set.id || data.previous !== gameId) return;
      if (myIndex() >= 0 && awaiting) goOnce(`/games/${data.game}/`);
      else reload();
    },
    reset: reload,
  }, { onOpen: reload });
  draw();
}
