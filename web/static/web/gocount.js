// Go's count on the game page: the territory and the dead stones to draw while the dead stones
// are marked and once counted, the server's count with the stones crossed here (asked for once
// the clicks stop), and the note under the board. It owns that count asked for.

import { api, problem } from "./site.js";

// How long the clicks on stones are gathered before the count is asked for.
const COUNT_DELAY_MS = 250;

/** ``game``: the page's owner (game.js): its state ``S``, ``page``, ``pending`` (the stones
 * crossed here), ``viewPly``, and ``playing()``, ``marking()``, ``mySeat()``, ``say(text)``,
 * ``drawBoard()``. */
export function goCount(game) {
  let preview = null; // the server's count with the stones crossed here, {key, ply, score}
  let timer = null; // the wait before asking for it (the clicks are gathered)

  /** Whether the game was won on a count of its board: not an imported record's count made
   * elsewhere, after moves that stop before it (the board here is not that count). */
  function counted() {
    const S = game.S;
    return S.end_reason === "score" && Boolean(S.go) && S.go.phase === "over";
  }

  /** Whether the marker is crossing stones not proposed yet (the count then follows them). */
  function markingHere() {
    const S = game.S;
    return game.marking() && S.go.proposed_dead == null && S.go.marking_seat === game.mySeat();
  }

  /** The count shown: while stones are crossed here, the server's count with them dead (the
   * last one it gave while the next is on its way); otherwise the state's. */
  function score() {
    if (markingHere() && game.pending.length && preview && preview.ply === game.S.ply) return preview.score;
    return game.S.go.score;
  }

  /** The count to draw, in the marking phase (as proposed, or as the board stands) and once
   * counted: each territory point's owner, and the stones counted dead (point -> colour). */
  function toDraw() {
    const shown = game.page.go && game.S.go && score();
    if (!shown || !((game.playing() && game.marking()) || counted())) return null;
    const byColour = (black, white) => new Map([...(black || []).map((p) => [p, 1]), ...(white || []).map((p) => [p, 2])]);
    return { owner: byColour(shown.black_territory, shown.white_territory),
      dead: byColour(shown.black_dead, shown.white_dead) };
  }

  /** Ask for the count with the stones crossed here dead (GET games/{id}/count), once the
   * clicks stop for ``COUNT_DELAY_MS``; none crossed is the count as the board stands. */
  function ask() {
    clearTimeout(timer);
    if (!markingHere() || !game.pending.length) {
      preview = null;
      return;
    }
    timer = setTimeout(async () => {
      const key = [...game.pending].sort().join(",");
      const ply = game.S.ply;
      const result = await api(`games/${game.page.id}/count?dead=${encodeURIComponent(key)}`);
      // Crossed otherwise meanwhile (a newer request is coming), or the game moved on.
      if (key !== [...game.pending].sort().join(",") || ply !== game.S.ply) return;
      if (!result.ok) {
        game.say(problem(result));
        return;
      }
      preview = { key, ply, score: result.data };
      if (game.viewPly === null) game.drawBoard();
    }, COUNT_DELAY_MS);
  }

  /** The game moved on: the count asked for is forgotten. */
  function forget() {
    clearTimeout(timer);
    preview = null;
  }

  /** Under the board, what the count's marks mean (and the count while marking). */
  function drawNote(count) {
    const note = document.getElementById("count-note");
    if (!note) return;
    note.hidden = !count || game.viewPly !== null;
    if (!count) return;
    const S = game.S;
    const shown = score();
    const legend = "Small squares are each side's territory; crossed stones are dead.";
    if (counted()) {
      note.textContent = `${legend} Black ${shown.black}, white ${shown.white} (komi included).`;
      return;
    }
    let basis = S.go.proposed_dead == null ? "as the board stands" : "with the stones marked dead";
    if (shown !== S.go.score) basis = "with the stones you crossed (not proposed yet)";
    note.textContent = `The count ${basis}: black ${shown.black}, white ${shown.white} (komi included). ${legend}`;
  }

  return { counted, toDraw, ask, forget, drawNote };
}
