// The new-game form: challenge the computer (the game starts at once), a named player or
// anyone (an open invitation, of two to six players or partners, which computers may fill);
// fields that do not apply to the choice are hidden (the page says which apply to which game
// and table) and are not sent.

import { api, goOnce, problem, showWhen } from "./site.js";
import { refreshSoon, watchChallenge } from "./home.js";

const form = document.getElementById("challenge-form");

/** What the notice says of an open challenge just posted (the API's answer). */
function posted(challenge) {
  const level = challenge.computer_level;
  const wait = level ? Math.round((Date.parse(challenge.computer_due_at) - Date.parse(challenge.created_at)) / 1000) : 0;
  if (challenge.seats <= 2) {
    const computer = level ? ` If nobody has in ${wait} s, computer level ${level} takes it.` : "";
    return `Your challenge is posted: the game starts when someone accepts it.${computer}`;
  }
  const table = challenge.partners ? `partners (${challenge.seats} players)` : `${challenge.seats} players`;
  const computers = level ? ` Seats still empty after ${wait} s go to computers (level ${level} first).` : "";
  return `Your invitation to ${table} is posted: the game starts when every seat is taken.${computers}`;
}

/** Whether a field of the form applies to the choices made: shown (see showWhen). */
const applies = (field) => !field.closest("[hidden]");

/** The game's options that apply to the choices made, as the API takes them. */
function options(f) {
  const body = {};
  if (applies(f.seat_wanted) && f.seat_wanted.value) body.seat_wanted = Number(f.seat_wanted.value);
  if (applies(f.tournament_rule)) body.tournament_rule = f.tournament_rule.checked;
  if (applies(f.adjacent_only)) body.adjacent_only = f.adjacent_only.checked;
  if (applies(f.restriction)) {
    body.restriction = f.restriction.value;
    if (applies(f.restriction_rating) && f.restriction_rating.value !== "") {
      body.restriction_rating = Number(f.restriction_rating.value);
    }
  }
  return body;
}

if (form) {
  showWhen(form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (form.querySelector('button[type="submit"]').disabled) return;
    const f = form.elements;
    const opponent = f.opponent.value;
    const body = { variant: f.variant.value, time_control: f.time_control.value, ...options(f) };
    if (body.time_control === "live") {
      body.initial_minutes = Number(f.initial_minutes.value);
      body.increment_seconds = Number(f.increment_seconds.value);
    } else if (body.time_control === "turn") {
      body.days_per_move = Number(f.days_per_move.value);
    }
    const notice = document.getElementById("challenge-notice");
    if (opponent === "player" && !f.invitee.value.trim()) {
      // An empty name would make an open challenge to everyone: never sent.
      notice.textContent = "Type the name of the player to challenge.";
      notice.classList.add("error");
      f.invitee.focus();
      return;
    }
    if (opponent === "computer") body.invitee = f.level.value;
    else {
      if (opponent === "player") body.invitee = f.invitee.value.trim();
      body.rated = f.rated.checked;
      if (f.message.value.trim()) body.message = f.message.value.trim();
    }
    if (opponent === "open") {
      // More than two seats, or partners; the API says what it refuses (a rated one, a game
      // without multi-player tables).
      if (f.seats.value === "partners") Object.assign(body, { seats: 4, partners: true });
      else body.seats = Number(f.seats.value);
      if (f.computer_level.value) {
        body.computer_level = Number(f.computer_level.value);
        if (f.computer_wait_seconds.value !== "") body.computer_wait_seconds = Number(f.computer_wait_seconds.value);
      }
    }
    notice.classList.remove("error");
    notice.textContent = "Sending…";
    // One request at a time: Start stays disabled until the answer (a double click makes one
    // game; the server's Idempotency-Key check backs this up).
    const start = form.querySelector('button[type="submit"]');
    start.disabled = true;
    const result = await api("challenges/", { method: "POST", body });
    start.disabled = false;
    if (!result.ok) {
      notice.textContent = problem(result);
      notice.classList.add("error");
      return;
    }
    if (result.data.game) {
      goOnce(`/games/${result.data.game}/`);
      return;
    }
    notice.textContent = opponent === "open" ? posted(result.data)
      : `Challenge sent to ${body.invitee}: the game starts when they accept.`;
    // No reload (it would close the stream that says the game started): the lists redraw
    // themselves, and the challenge is watched until it is taken up.
    watchChallenge(result.data.id);
    refreshSoon(0);
  });
}
