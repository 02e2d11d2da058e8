// The game page's controls: the buttons of the seat (decisions, pass, Go's proposal, requests to
// undo or cancel, resign, a hint), the requests of the other side in words, and the acts sent
// to the server. It owns the act on its way and the hint shown.

import { api, el, problem } from "./site.js";
import { askOrder } from "./stream.js";
import { CHOICES, EXPLAIN, POINT, actionWords } from "./words.js";

function button(label, action, handler, secondary = false) {
  return el("button", { type: "button", class: secondary ? "secondary" : null, "data-action": action, onclick: handler }, label);
}

/** ``game``: the page's owner (game.js): its state ``S``, ``page``, ``pending``, and
 * ``playing()``, ``myTurn()``, ``mySeat()``, ``marking()``, ``seatName(seat)``, ``take(state)``,
 * ``refresh()``, ``redraw()``, ``say(text)``, ``notice(text)``, ``clearPending()``,
 * ``view(ply)``. */
export function gameControls(game) {
  let busy = false; // an act is on its way
  let hint = null; // the hint shown until the next move: {ply, points}
  let hintSaid = ""; // its words in the notice, to take away with it

  /** Send an act (POST games/{id}/<path>); its answer is the new state, a refusal is said. */
  async function send(path, body, method = "POST") {
    if (busy) return;
    busy = true;
    const order = askOrder();
    const sent = Date.now();
    const result = await api(`games/${game.page.id}/${path}`, { method, body: body === undefined ? {} : body });
    const arrived = Date.now();
    busy = false;
    if (result.ok && result.data && result.data.board) {
      game.notice("");
      game.take(result.data, { sent, arrived, order });
      return;
    }
    // A refused turn: its waiting stone (Connect6) goes too; the next turn starts afresh.
    if (path === "moves") game.clearPending();
    game.say(problem(result));
    await game.refresh();
    game.redraw();
  }

  /** Whether the viewer may ask for a hint now: the server's offer, on their turn, and in Go in
   * the phases the server hints in (page.hint_phases: none while the dead stones are marked). */
  function hintsNow() {
    const S = game.S;
    return game.page.hints && game.myTurn() && (!S.go || game.page.hint_phases.includes(S.go.phase));
  }

  /** The computer's move for the player to move (GET games/{id}/hint), ringed on the board and
   * said in the notice until the next move; a refusal is said instead (rated game, rate...). */
  async function askHint(event) {
    const asked = event.currentTarget;
    asked.disabled = true;
    const result = await api(`games/${game.page.id}/hint`);
    asked.disabled = false;
    if (!result.ok) {
      game.say(problem(result));
      return;
    }
    if (result.data.ply !== game.S.ply) return; // the game moved on meanwhile
    hint = { ply: result.data.ply, points: (result.data.points || []).filter((p) => POINT.test(p)) };
    hintSaid = `Hint: ${actionWords(result.data.move)}`;
    game.notice(hintSaid);
    game.view(null); // the hint is for the position as it stands
  }

  /** The hint's ring on the board as it stands (null: none). */
  function hintRing() {
    if (!hint || hint.ply !== game.S.ply || !game.playing()) return null;
    return { points: hint.points, kind: "hint", title: "The computer's hint" };
  }

  /** The game moved on: the hint goes, and its words. */
  function forgetHint() {
    if (!hint) return;
    hint = null;
    const notice = document.getElementById("notice");
    if (notice.textContent === hintSaid) notice.textContent = "";
    hintSaid = "";
  }

  /* Whether the viewer's seat may ask to take its last move back now: the server says whose
   * move may go back (``takeback_seat``: the player who just moved, never into the opening). */
  function undoAllowed(seat) {
    return seat !== null && game.playing() && game.S.takeback_seat === seat;
  }

  function explanation() {
    const choices = game.S.decisions_available || [];
    if (choices.includes("accept")) return EXPLAIN.marking;
    if (choices.includes("colour1")) return EXPLAIN.colour;
    if (choices.includes("keep")) return EXPLAIN[game.page.opening] || null;
    return null;
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

  /** The buttons of the viewer's seat (in #controls). */
  function draw() {
    const S = game.S;
    const box = document.getElementById("controls");
    const out = [];
    const seat = game.mySeat();
    if (seat !== null && game.playing()) {
      // A decision (the opening's, or Go's answer to the marking) is the seat to move's only.
      if (game.myTurn() && (S.decisions_available || []).length) {
        const why = explanation();
        if (why) out.push(el("p", { class: "muted explain", id: "decision-help" }, why));
        for (const choice of S.decisions_available) {
          // Go: a rejection names the stones the answerer clicked (game.js), if any.
          const disputed = choice === "reject" && game.pending.length ? { disputed: game.pending } : {};
          out.push(button(CHOICES[choice] || choice, choice, () => send("decision", { ply: S.ply, choice, ...disputed })));
        }
      }
      if (hintsNow()) {
        out.push(el("button", { type: "button", class: "secondary", "data-action": "hint",
          title: "The computer's move for you here, shown on the board", onclick: askHint }, "Hint"));
      }
      if (game.page.go && S.go && S.go.phase === "playing" && game.myTurn()) {
        out.push(button("Pass", "pass", () => send("moves", { ply: S.ply, point: "pass" })));
      }
      if (game.marking() && S.go.marking_seat === seat && S.go.proposed_dead == null) {
        out.push(button("Propose dead stones", "propose", () => send("dead", { ply: S.ply, points: game.pending })));
      }
      if (S.to_move && S.to_move.stones === 2 && game.pending.length === 1) {
        out.push(button("Clear stone", "clear", () => { game.clearPending(); game.redraw(); }, true));
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
    box.replaceChildren(...out);
  }

  /** A request of the other side, said in words beside the board (on a phone the buttons that
   * answer it are below the board). */
  function requestText() {
    const S = game.S;
    const seat = game.mySeat();
    if (seat === null || !game.playing()) return "";
    const lines = [];
    for (const [by, what] of [[S.undo_requested_by, "take back their last move"], [S.cancel_requested_by, "cancel the game"]]) {
      if (by === null || by === undefined) continue;
      if (game.page.my_seats.includes(by)) lines.push(`You asked to ${what.replace("their", "your")}: waiting for the answer.`);
      else lines.push(`${game.seatName(by)} asks to ${what}: agree or decline.`);
    }
    return lines.join(" ");
  }

  return { draw, requestText, send, hintRing, forgetHint };
}
