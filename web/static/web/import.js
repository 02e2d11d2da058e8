// The import page: the records of a file or of the text box go to POST /api/games/import (a
// job, 202); the job is then read every second (GET /api/games/imports/{id}) until it is done
// or failed, showing its progress, the games imported and each refused record's reason.

import { api, el, problem, say } from "./site.js";

const form = document.getElementById("import-form");
const fileInput = document.getElementById("import-file");
const textBox = document.getElementById("import-text");
const startButton = document.getElementById("import-start");
const maxBytes = JSON.parse(document.getElementById("import-max-bytes").textContent);
const SHOWN_GAMES = 50;

async function recordsText() {
  const file = fileInput.files && fileInput.files[0];
  if (file) {
    if (file.size > maxBytes) throw new Error(`${file.name} is larger than the ${maxBytes} bytes an import takes: split it.`);
    return file.text();
  }
  return textBox.value;
}

function show(job) {
  document.getElementById("import-job").hidden = false;
  document.getElementById("import-job-id").textContent = `#${job.id}`;
  const progress = document.getElementById("import-progress");
  const { processed, total } = job.progress;
  progress.max = Math.max(1, total);
  progress.value = processed;
  const words = { queued: "Waiting for its turn…", running: "Importing…", done: "Done.", failed: "Stopped." };
  document.getElementById("import-status").textContent =
    `${processed} of ${total} record${total === 1 ? "" : "s"} read. ${words[job.status] || job.status}`;
  let summary = `${job.imported} imported, ${job.refused} refused.`;
  if (job.error) summary += ` ${job.error}`;
  say("import-summary", summary, job.status === "failed");
  document.getElementById("import-games").replaceChildren(
    ...job.games.slice(0, SHOWN_GAMES).map((id) => el("li", {}, el("a", { href: `/games/${id}/` }, `Game #${id}`))),
    ...(job.games.length > SHOWN_GAMES ? [el("li", { class: "muted" }, `and ${job.games.length - SHOWN_GAMES} more, in the game database`)] : []),
  );
  const table = document.getElementById("import-refusals");
  const refused = job.refusals.length > 0;
  table.hidden = !refused;
  document.getElementById("import-refused-title").hidden = !refused;
  table.tBodies[0].replaceChildren(...job.refusals.map((r) => el("tr", { "data-code": r.code },
    el("td", { class: "num" }, r.record), el("td", { class: "num" }, r.line ?? "—"), el("td", {}, r.detail))));
  if (job.refusals_truncated) {
    table.tBodies[0].append(el("tr", {}, el("td", { colspan: 3, class: "muted" }, "More records were refused than are listed.")));
  }
}

async function follow(id) {
  for (;;) {
    const result = await api(`games/imports/${id}`);
    if (!result.ok) { say("import-notice", problem(result), true); return; }
    show(result.data);
    if (result.data.status === "done" || result.data.status === "failed") return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  let text;
  try {
    text = await recordsText();
  } catch (err) {
    say("import-notice", err.message, true);
    return;
  }
  if (!text.trim()) { say("import-notice", "Choose a file or paste some records first.", true); return; }
  startButton.disabled = true;
  say("import-notice", "Sending…");
  try {
    const result = await api("games/import", { method: "POST", body: { text } });
    if (!result.ok) { say("import-notice", problem(result), true); return; }
    say("import-notice", "");
    show(result.data);
    await follow(result.data.id);
  } finally {
    startButton.disabled = false;
  }
});
