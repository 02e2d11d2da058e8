// The home and play pages: their lists follow the main room's stream and the player's own
// stream (a challenge received, a game started: the player is taken to it), and the main
// room's chat.

import { chatBox, follow, goOnce, me } from "./site.js";

const region = document.querySelector("[data-live-region]");
let timer = null;

// Redraw the live region from a fresh copy of this page (at most once a second).
function refreshSoon() {
  if (timer || !region) return;
  timer = setTimeout(async () => {
    timer = null;
    const response = await fetch(window.location.href, { headers: { Accept: "text/html" } });
    if (!response.ok) return;
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = doc.querySelector("[data-live-region]");
    if (fresh) region.replaceChildren(...[...fresh.childNodes].map((n) => document.importNode(n, true)));
  }, 1000);
}

const chat = chatBox(document.getElementById("room-chat"), document.getElementById("room-form"),
  "rooms/main/chat", (text) => alert(text));

follow("rooms/main/events", {
  chat: chat.chat, chat_removed: chat.chat_removed,
  challenge_open: refreshSoon, challenge_updated: refreshSoon, challenge_gone: refreshSoon,
  game_started: refreshSoon, game_ended: refreshSoon,
});

if (me) {
  follow("me/events", {
    // A rated set starts its two games at once: go to the first, which links to the other.
    game_started: (data) => goOnce(`/games/${data.game}/`),
    challenge_received: refreshSoon, challenge_declined: refreshSoon, challenge_cancelled: refreshSoon,
    challenge_expired: refreshSoon, your_turn: refreshSoon, game_over: refreshSoon,
  });
}
