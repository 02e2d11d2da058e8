// A lesson's page: each step's board drawn as the game page draws it (board.js), the learner's
// clicks (one stone, a turn's stones, a stone to mark) or buttons (a decision, a pass) sent to
// the lessons' API, which plays them on the rules engine and answers right or wrong with a
// sentence; then the next step.

import { drawBoard, pointXY } from "./board.js";
import { api, el } from "./site.js";

const lesson = JSON.parse(document.getElementById("lesson-data").textContent);
const boardBox = document.getElementById("board");
const done = new Set(lesson.done);
let current = lesson.step_list.find((s) => !done.has(s.number)) || lesson.step_list[0];
let picked = []; // a turn's stones clicked so far (Connect6: two)
let answered = false;

function indexOf(point, size) {
  const at = pointXY(point, size);
  return at ? at[1] * size + at[0] : null;
}

function draw(rows, clickable, before = null) {
  const b = current.board;
  const last = b.last_point && rows === b.rows ? indexOf(b.last_point, b.size) : null;
  const ghostColour = b.to_move_colour || 1;
  boardBox.replaceChildren(drawBoard({ rows, go: b.go, lastPoint: last, before, ghosts: picked,
    ghostColour, clickable, label: `Step ${current.number} of the lesson` }));
}

function dots() {
  const list = document.getElementById("steps");
  list.replaceChildren(...lesson.step_list.map((s) => {
    const item = el("li", { class: "step-dot" + (done.has(s.number) ? " done" : "") +
      (s.number === current.number ? " current" : ""), "data-step": s.number,
      title: `Step ${s.number}${done.has(s.number) ? " (done)" : ""}` }, String(s.number));
    item.addEventListener("click", () => show(s));
    return item;
  }));
}

function say(text, kind) {
  const box = document.getElementById("feedback");
  box.textContent = text;
  box.className = "feedback " + (kind || "");
}

function choices() {
  const box = document.getElementById("choices");
  const b = current.board;
  const buttons = [];
  for (const word of b.decisions) {
    buttons.push(el("button", { type: "button", class: "choice", "data-move": word }, word));
  }
  if (b.can_pass) buttons.push(el("button", { type: "button", class: "choice", "data-move": "PASS" }, "Pass"));
  if (b.stones > 1) {
    buttons.push(el("button", { type: "button", id: "play-turn", disabled: "" }, "Play"));
  }
  box.replaceChildren(...buttons);
  for (const button of box.querySelectorAll("[data-move]")) {
    button.addEventListener("click", () => answer(button.dataset.move));
  }
  const play = document.getElementById("play-turn");
  if (play) play.addEventListener("click", () => answer(picked.join(" ")));
}

function show(step) {
  current = step;
  picked = [];
  answered = false;
  document.getElementById("step-title").textContent = `Step ${step.number} of ${lesson.step_list.length}` +
    (step.game !== lesson.game ? ` · ${step.game}` : "");
  document.getElementById("prompt").textContent = step.prompt;
  document.getElementById("refusal").textContent = "";
  document.getElementById("next").hidden = true;
  document.getElementById("retry").hidden = true;
  say("", "");
  choices();
  draw(step.board.rows, true);
  dots();
}

async function answer(move) {
  if (answered) return;
  answered = true;
  const result = await api(`learn/lessons/${lesson.slug}/steps/${current.number}/answer/`,
    { method: "POST", body: { move } });
  if (!result.ok) {
    answered = false;
    picked = [];
    say(result.data && result.data.detail ? result.data.detail : "The answer could not be sent.", "wrong");
    draw(current.board.rows, true);
    return;
  }
  const verdict = result.data;
  picked = [];
  for (const n of verdict.done) done.add(n);
  say(verdict.feedback, verdict.right ? "right" : "wrong");
  document.getElementById("refusal").textContent = verdict.refusal ? `The rules say: ${verdict.refusal}` : "";
  // The board after the move, its captures crossed (a refused move leaves it as it was).
  if (verdict.rows.length) draw(verdict.rows, false, current.board.rows);
  else draw(current.board.rows, false);
  for (const button of document.querySelectorAll("#choices button")) button.disabled = true;
  dots();
  if (verdict.right) {
    const next = lesson.step_list.find((s) => s.number === verdict.next_step);
    document.getElementById("next").hidden = !next;
    document.getElementById("complete").hidden = !verdict.completed;
  } else {
    document.getElementById("retry").hidden = false;
  }
}

boardBox.addEventListener("click", (event) => {
  const target = event.target.closest("[data-point]");
  if (!target || answered) return;
  const point = target.dataset.point;
  const b = current.board;
  if (b.action === "mark") { answer(point); return; }
  if (b.stones === 0 || target.classList.contains("taken")) return;
  if (b.stones === 1) { answer(point); return; }
  if (picked.includes(point)) picked = picked.filter((p) => p !== point);
  else if (picked.length < b.stones) picked.push(point);
  draw(b.rows, true);
  const play = document.getElementById("play-turn");
  if (play) play.disabled = picked.length !== b.stones;
});

document.getElementById("retry").addEventListener("click", () => show(current));
document.getElementById("next").addEventListener("click", () => {
  const next = lesson.step_list.find((s) => s.number === current.number + 1);
  if (next) show(next);
});
document.getElementById("complete").hidden = done.size !== lesson.step_list.length;
show(current);
