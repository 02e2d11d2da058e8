// The game kept current: its state read again (one read at a time) and its event stream
// followed. The stream owns the read on its way and the order of the answers.

import { api, follow } from "./site.js";

let asked = 0;

/** A number for a request about to be sent, larger than every earlier request's. A state is
 * taken only if no state asked for later was taken first: an answer overtaken on its way (a
 * read sent before a move and back after the move's answer) would undo the move on the page. */
export function askOrder() {
  asked += 1;
  return asked;
}

/** A function that reads the game's state (GET games/{id}/) and gives it to ``take(state,
 * {sent, arrived, order})`` (when it was asked for and came: the clock measures its offset to
 * the server's with them; ``order``: askOrder's). Called again while a read is on its way, it
 * reads once more after that one: what changed meanwhile may have missed it. */
export function stateReader(gameId, take) {
  let reading = null; // the read on its way
  let again = null; // the read asked for while it was on its way
  async function read() {
    const order = askOrder();
    const sent = Date.now();
    const result = await api(`games/${gameId}/`);
    if (result.ok) take(result.data, { sent, arrived: Date.now(), order });
  }
  return function refresh() {
    if (!reading) {
      reading = read().finally(() => { reading = null; });
      return reading;
    }
    if (!again) again = reading.catch(() => {}).then(() => { again = null; return refresh(); });
    return again;
  };
}

/**
 * Follow the game's event stream (live/publishers.py). ``on``:
 * - ``changed()``: a move, an undo, a request or the end: the state is to be read again;
 * - ``caughtUp()``: connected again, or told events were missed;
 * - ``chat``, ``chatRemoved``: the chat's events (site.js chatBox);
 * - ``analysis(data)``: the computer's analysis moved on;
 * - ``spectators(count)``: how many are watching;
 * - ``other``: more handlers by event kind (added by other parts of the page).
 */
export function followGame(gameId, { changed, caughtUp, chat, chatRemoved, analysis, spectators, other = {} }) {
  return follow(`games/${gameId}/events`, {
    move: changed, undo: changed, request: changed, end: changed, reset: caughtUp,
    chat, chat_removed: chatRemoved, analysis,
    spectators: (data) => spectators(data.count),
    ...other,
  }, { onOpen: caughtUp });
}
