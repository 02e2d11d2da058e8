// A hill's page: the staircase drawn again on each hill_changed of the hill's room (and when
// the stream connects), challenges to the members within reach, and the room's chat (its
// latest lines read again when the stream connects).

import { api, chatBox, follow, problem, say } from "./site.js";

const box = document.getElementById("hill-steps");
const slug = box.dataset.slug;
let reading = null;

async function refresh() {
  if (reading) return reading;
  reading = (async () => {
    const response = await fetch(`/hills/${encodeURIComponent(slug)}/steps/`, { credentials: "same-origin" });
    if (response.ok) box.innerHTML = await response.text();
  })();
  try { await reading; } finally { reading = null; }
}

const chat = chatBox(document.getElementById("room-chat"), document.getElementById("room-form"),
  `rooms/${box.dataset.room}/chat`, (text) => { document.getElementById("room-notice").textContent = text; });

follow(`rooms/${box.dataset.room}/events`, {
  hill_changed: refresh, reset: refresh, chat: chat.chat, chat_removed: chat.chat_removed,
}, { onOpen: () => { refresh(); chat.catchUp(); } });

const form = document.getElementById("hill-challenge");
box.addEventListener("click", async (event) => {
  const button = event.target.closest(".hill-challenge");
  if (!button || !form) return;
  const body = { opponent: button.dataset.opponent };
  for (const field of form.elements) {
    if (!field.name) continue;
    body[field.name] = field.type === "number" ? Number(field.value) : field.value;
  }
  button.disabled = true;
  const result = await api(`hills/${slug}/challenges`, { method: "POST", body });
  button.disabled = false;
  if (result.ok) say("hill-message", `Challenge sent to ${body.opponent}.`);
  else say("hill-message", problem(result), true);
});
