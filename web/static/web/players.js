// The game page's players panel: each seat's name, colour, captures and clock (partners by
// team), and a turn-based game's deadline. Stateless: drawn from what it is given.

import { el } from "./site.js";
import { PENTE, palette } from "./board.js";
import { clockText } from "./clock.js";

/** A player's name, cut with an ellipsis where it does not fit (the whole name in its title). */
function nameNode(player, crowns = {}) {
  const attrs = { class: "name", title: player.name };
  if (!player.user) return el("span", attrs, player.name);
  const link = el("a", { ...attrs, href: `/players/${encodeURIComponent(player.user.username)}/` }, player.name);
  const shade = crowns[player.user.username];
  if (!shade) return link;
  // A king of a hill (hills): the crown, darker with each hill conquered.
  const crown = el("span", { class: `crown crown-${shade}`, title: "King of the Hill", "aria-label": "King of the Hill" }, "\u265b");
  return el("span", {}, link, crown);
}

/** A time in the time zone of the viewer's account (UTC for a stranger), which it names, as
 * the tournament pages do; in UTC should the browser not know that zone. */
function zoned(time, zone) {
  const options = { dateStyle: "medium", timeStyle: "short" };
  for (const z of [zone, "UTC"]) {
    try {
      return `${new Intl.DateTimeFormat(undefined, { ...options, timeZone: z }).format(new Date(time))} ${z}`;
    } catch (err) {
      // RangeError: a zone this browser does not know.
    }
  }
  return new Date(time).toISOString();
}

/** Captured stones in words: "4 stones (2 pairs) captured" (pairs where only pairs are taken). */
export function capturedText(stones, pairs) {
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const inPairs = pairs && stones > 0 && stones % 2 === 0 ? ` (${plural(stones / 2, "pair")})` : "";
  return `${plural(stones, "stone")}${inPairs} captured`;
}

/** Draw the players of state ``S`` in #players: ``page`` (the page's facts), ``clock`` (a
 * clock.js GameClock reading S). */
export function drawPlayers(S, page, clock) {
  const playing = S.status === "in_progress";
  const colours = palette(page.go);

  function playerRow(p) {
    const [fill] = colours[p.colour] || PENTE[3];
    const toMove = playing && S.to_move && S.to_move.seat === p.seat;
    const shown = clock.shown(p.seat);
    return el("div", { class: "player" + (toMove ? " to-move" : ""), "data-seat": p.seat },
      el("span", { class: "who" }, el("span", { class: "stone-dot", style: `background:${fill}` }), nameNode(p, page.crowns),
        page.captures && !S.partners ? el("span", { class: "muted" }, ` · ${capturedText(p.captures, page.capture_pairs)}`) : null),
      el("span", { class: "clock" + (shown.low ? " low" : "") + (shown.text === "waiting" ? " waiting" : ""),
        "data-clock": p.seat, "data-ms": shown.ms === null ? null : Math.round(shown.ms) }, shown.text));
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
      const captured = page.captures ? ` · ${capturedText(team.players[0].captures, page.capture_pairs)}` : "";
      return el("div", { class: "team", role: "group", "aria-labelledby": heading, "data-team": i + 1 },
        el("h4", { id: heading }, `Team ${i + 1}`, el("span", { class: "muted" }, captured)),
        ...team.players.map(playerRow));
    });
  }

  const box = document.getElementById("players");
  box.replaceChildren(...(S.partners ? teamGroups() : S.players.map(playerRow)));
  const startLeft = clock.startLeft();
  if (startLeft !== null) {
    box.append(el("p", { class: "muted", id: "start-window", "data-start-left": "" },
      "Time left to place a first stone: ", el("span", { class: "left" }, clockText(startLeft)),
      " (else the game is aborted)"));
  }
  if (S.clock && S.clock.time_control === "turn" && S.clock.deadline && playing) {
    box.append(el("p", { class: "muted", id: "deadline" }, `Move by ${zoned(S.clock.deadline, page.time_zone)}`));
  }
}
