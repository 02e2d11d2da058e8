// A game's rematch (POST /api/games/{id}/rematch), for its players once it is over: a
// "Rematch" button; the rematch one asked for, waiting for the opponent (who may accept it
// here, by asking back, or decline it); and the new game, which both pages go to when it starts.
// Runs on its own beside the game page's script: it reads the page's embedded state and
// follows the game's stream (its end) and the player's own (the challenge's answers).

import { api, el, follow, goOnce, me, problem } from "./site.js";

const page = JSON.parse(document.getElementById("game-page").textContent);
const box = document.getElementById("rematch");
let over = JSON.parse(document.getElementById("game-state").textContent).status !== "in_progress";
let challenge = null; // the rematch asked by either player, open or accepted
let busy = false;

function draw(note = "", bad = false) {
  box.hidden = !over;
  if (!over) return;
  const parts = [];
  if (challenge && challenge.game) {
    parts.push(el("a", { class: "button", href: `/games/${challenge.game}/` }, "Go to the rematch"));
  } else if (challenge && challenge.created_by === me) {
    parts.push(
      el("span", { class: "muted" }, `Rematch asked: waiting for ${challenge.invitee}.`),
      el("button", { class: "secondary", onclick: () => act(`challenges/${challenge.id}/cancel`) }, "Withdraw"),
    );
  } else if (challenge) {
    parts.push(
      el("span", {}, `${challenge.created_by} asks for a rematch.`),
      el("button", { onclick: ask }, "Accept rematch"),
      el("button", { class: "secondary", onclick: () => act(`challenges/${challenge.id}/decline`) }, "Decline"),
    );
  } else {
    parts.push(el("button", { id: "rematch-button", onclick: ask, title: "The same options, the seats swapped" }, "Rematch"));
  }
  if (note) parts.push(el("span", { class: bad ? "error" : "muted" }, note));
  box.replaceChildren(...parts);
  for (const button of box.querySelectorAll("button")) button.disabled = busy;
}

function landed(data) {
  challenge = data && (data.status === "open" || data.status === "accepted") ? data : null;
}

async function ask() {
  await act(`games/${page.id}/rematch`);
}

async function act(path) {
  if (busy) return;
  busy = true;
  draw();
  const result = await api(path, { method: "POST" });
  busy = false;
  if (!result.ok) {
    draw(problem(result), true);
    return;
  }
  landed(result.data);
  // Accepted here (asking back, or against the computer): the new game starts now.
  if (challenge && challenge.game) goOnce(`/games/${challenge.game}/`);
  draw();
}

async function refresh() {
  if (!over) return;
  const result = await api(`games/${page.id}/rematch`);
  if (result.ok) landed(result.status === 204 ? null : result.data);
  draw();
}

// The game's end: by its event, or read when the stream connects (an end between the page's
// first read and the stream's start reaches no stream).
async function checkOver() {
  if (over) return;
  const result = await api(`games/${page.id}/`);
  if (result.ok && result.data && result.data.status !== "in_progress") {
    over = true;
    refresh();
  }
}

follow(`games/${page.id}/events`, {
  end: () => { over = true; refresh(); },
}, { onOpen: checkOver });
follow("me/events", {
  challenge_received: refresh, challenge_declined: refresh, challenge_cancelled: refresh,
  challenge_expired: refresh, challenge_accepted: refresh,
  game_started: (data) => {
    if (challenge && data && data.challenge === challenge.id) goOnce(`/games/${data.game}/`);
  },
}, { onOpen: refresh });
draw();
