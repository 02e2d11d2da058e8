// The game page's players panel: each seat's name, colour, captures and clock (partners by
// team), and a turn-based game's deadline. Stateless: drawn from what it is given.

import { el } from "./site.js";
import { PENTE, palette } from "./board.js";
import { clockText, low } from "./clock.js";

/** A player's name, cut with an ellipsis where it does not fit (the whole name in its title). */
function nameNode(player) {
  const attrs = { class: "name", title: player.name };
  if (!player.user) return el("span", attrs, player.name);
  return el("a", { ...attrs, href: `/players/${encodeURIComponent(player.user.username)}/` }, player.name);
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

/** Draw the players of state ``S`` in #players: ``page`` (the page's facts), ``clock`` (a
 * clock.js GameClock reading S). */
export function drawPlayers(S, page, clock) {
  const playing = S.status === "in_progress";
  const colours = palette(page.go);

  function playerRow(p) {
    const [fill] = colours[p.colour] || PENTE[3];
    const toMove = playing && S.to_move && S.to_move.seat === p.seat;
    const ms = clock.remaining(p.seat);
    return el("div", { class: "player" + (toMove ? " to-move" : ""), "data-seat": p.seat },
      el("span", { class: "who" }, el("span", { class: "stone-dot", style: `background:${fill}` }), nameNode(p),
        page.captures && !S.partners ? el("span", { class: "muted" }, ` · ${p.captures} captured`) : null),
      el("span", { class: "clock" + (low(ms) ? " low" : ""), "data-clock": p.seat }, clockText(ms)));
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

  const box = document.getElementById("players");
  box.replaceChildren(...(S.partners ? teamGroups() : S.players.map(playerRow)));
  if (S.clock && S.clock.time_control === "turn" && S.clock.deadline && playing) {
    box.append(el("p", { class: "muted", id: "deadline" }, `Move by ${zoned(S.clock.deadline, page.time_zone)}`));
  }
}
