// The home and play pages: their lists follow the main room's stream and the player's own
// stream (a challenge received, a game started: the player is taken to it), seats taken in and
// given back to multi-player challenges, and the main room's chat.

import { api, chatBox, el, follow, goOnce, me, problem } from "./site.js";

const region = document.querySelector("[data-live-region]");
let timer = null;

// Redraw the live region from a fresh copy of this page (at most once a second).
export function refreshSoon(delay = 1000) {
  if (timer || !region) return;
  timer = setTimeout(async () => {
    timer = null;
    const response = await fetch(window.location.href, { headers: { Accept: "text/html" } });
    if (!response.ok) return;
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = doc.querySelector("[data-live-region]");
    if (fresh) region.replaceChildren(...[...fresh.childNodes].map((n) => document.importNode(n, true)));
    checkWatched();
  }, delay);
}

// One's own challenges, kept across page loads (this tab): when one of them is no longer
// waiting, ask the server whether it became a game and go to it. The "game started" event
// does that too, but an event sent while a page loads is lost; this check is not.
const WATCHED = "pente.watched-challenges";

function watched() {
  try { return JSON.parse(sessionStorage.getItem(WATCHED) || "[]"); } catch (err) { return []; }
}

function keep(ids) {
  sessionStorage.setItem(WATCHED, JSON.stringify([...new Set(ids)].slice(-20)));
}

export function watchChallenge(id) {
  keep([...watched(), id]);
  checkWatched();
}

let checking = false;
export async function checkWatched() {
  if (!me || checking) return;
  checking = true;
  try {
    // The rows of challenges one made or sits in (data-waiting), on the play or the home page.
    const listed = new Set([...document.querySelectorAll("li[data-challenge][data-waiting]")].map((n) => Number(n.dataset.challenge)));
    keep([...watched(), ...listed]);
    for (const id of watched()) {
      if (listed.has(id)) continue; // still waiting, as the page shows
      const result = await api(`challenges/${id}/`);
      if (result.ok && result.data && result.data.game) {
        keep(watched().filter((x) => x !== id));
        const game = await api(`games/${result.data.game}/`);
        if (game.ok && game.data && game.data.status === "in_progress") {
          goOnce(`/games/${result.data.game}/`);
          return;
        }
        continue;
      }
      if (!result.ok || (result.data && result.data.status !== "open")) keep(watched().filter((x) => x !== id));
    }
  } finally {
    checking = false;
  }
}

// Join and Leave a multi-player challenge: no reload (the stream that says the game started
// stays open); the lists redraw, and a seat taken is watched until its game starts. A refusal
// is said in the API's words beside the button.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-seat]");
  if (!button) return;
  const row = button.closest("[data-challenge]");
  const id = Number(row.dataset.challenge);
  const action = button.dataset.seat;
  button.disabled = true;
  const result = await api(`challenges/${id}/${action}`, { method: "POST" });
  button.disabled = false;
  if (!result.ok) {
    const said = row.querySelector(".refusal") || row.appendChild(el("span", { class: "refusal error", role: "alert" }));
    said.textContent = ` ${problem(result)}`;
    return;
  }
  if (result.data.game) {
    goOnce(`/games/${result.data.game}/`);
    return;
  }
  if (action === "join") watchChallenge(id);
  else keep(watched().filter((x) => x !== id));
  refreshSoon(0);
});

const chat = chatBox(document.getElementById("room-chat"), document.getElementById("room-form"),
  "rooms/main/chat", (text) => { document.getElementById("room-notice").textContent = text; });

follow("rooms/main/events", {
  chat: chat.chat, chat_removed: chat.chat_removed,
  challenge_open: refreshSoon, challenge_updated: refreshSoon, challenge_gone: refreshSoon,
  game_started: refreshSoon, game_ended: refreshSoon,
}, { onOpen: chat.catchUp });

if (me) {
  checkWatched();
  follow("me/events", {
    // A game of a challenge this tab made, joined or lists as waiting, or of a tournament:
    // go to it (a rated set starts its two games at once: the first, which links to the
    // other). A game started elsewhere (another tab's game against the computer) stays there.
    game_started: (data) => {
      const listed = document.querySelector(`li[data-challenge="${data.challenge}"][data-waiting]`);
      if (data.challenge != null && !watched().includes(data.challenge) && !listed) {
        refreshSoon();
        return;
      }
      keep(watched().filter((x) => x !== data.challenge));
      goOnce(`/games/${data.game}/`);
    },
    challenge_received: refreshSoon, challenge_declined: refreshSoon, challenge_cancelled: refreshSoon,
    challenge_expired: refreshSoon, your_turn: refreshSoon, game_over: refreshSoon,
  }, { onOpen: () => checkWatched() });
}

// "Your games": a live game's time left ticks down between redraws (each redraw brings the
// server's figure again).
function clockText(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return `${h ? h + ":" : ""}${mm}:${String(s).padStart(2, "0")}`;
}

setInterval(() => {
  for (const span of document.querySelectorAll(".time-left[data-live-ms]")) {
    if (!span.dataset.since) span.dataset.since = String(Date.now());
    span.textContent = clockText(Number(span.dataset.liveMs) - (Date.now() - Number(span.dataset.since)));
  }
}, 1000);
