// The game kept current: its state read again (one read at a time) and its event stream
// followed. The stream owns the read on its way.

import { api, follow } from "./site.js";

/** A function that reads the game's state (GET games/{id}/) and gives it to ``take(state,
 * {sent, arrived})`` (when it was asked for and came: the clock measures its offset to the
 * server's with them); called again while a read is on its way, it waits for that one. */
export function stateReader(gameId, take) {
  let reading = null;
  return async function refresh() {
    if (reading) return reading;
    reading = (async () => {
      const sent = Date.now();
      const result = await api(`games/${gameId}/`);
      if (result.ok) take(result.data, { sent, arrived: Date.now() });
    })();
    try { await reading; } finally { reading = null; }
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
