// The computer's analysis of a game over, on the game page: the panel (ask, progress, the chart
// of the chances, each player's judgements), the verdict on the move shown, and the computer's
// choice to ring on the board. It owns the analysis read and its reads on their way.

import { api, el, me, problem } from "./site.js";
import { svg } from "./board.js";
import { actionPoints, actionWords, moveText } from "./words.js";

// The analysis' judgements (games/bots/analysis.py), marked as chess sites mark them.
const JUDGEMENTS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
// The chart of the first side's chances, move by move (viewBox units; a margin for the dots).
const CHART_W = 300;
const CHART_H = 80;
const CHART_PAD = 4;

function percent(share) {
  return `${Math.round(share * 100)}%`;
}

/** ``game``: the page's owner (game.js): its state ``S``, ``page``, ``viewPly``, and
 * ``seatName(seat)``, ``teamOf(seat)``, ``sideName(seat)``, ``view(ply)``, ``drawMoves()``,
 * ``refreshSuggestion()``. */
export function computerAnalysis(game) {
  let analysis = null; // the computer's analysis, as GET games/{id}/analysis gives it
  let retry = null; // the timer of the next look after a failed one
  let reading = false; // a GET of the analysis is on its way
  let again = false; // and its answer may be older than what came since: read again
  let events = 0; // how many analysis events the stream brought

  /** Whether the server analyses this game: one over (or an imported record that reached its
   * end) that the computer analyses (``page.analysable``: the server's rule). */
  function analysable() {
    const S = game.S;
    const over = S.status === "finished" || (S.status === "archived" && Boolean(S.end_reason));
    return over && game.page.analysable;
  }

  /** The analysis of ``ply`` (null when there is none yet). */
  function analysed(ply) {
    const entry = analysis && analysis.plies ? analysis.plies[ply - 1] : null;
    return entry && entry.ply === ply ? entry : null;
  }

  function judgementMark(ply) {
    const entry = analysed(ply);
    if (!entry || !entry.judgement) return [];
    return [el("span", { class: `judgement ${entry.judgement}`, "aria-hidden": "true" }, JUDGEMENTS[entry.judgement]),
      el("span", { class: "visually-hidden" }, ` (${entry.judgement})`)];
  }

  /** The first side's winning chances (0..1) in an evaluation: the server's curve, 1 or 0 for
   * a forced win found. */
  function chances(evaluation) {
    if (evaluation.mate === "win") return 1;
    if (evaluation.mate === "loss") return 0;
    return 1 / (1 + Math.exp(-game.page.win_chance_slope * evaluation.cp));
  }

  /** The ring of the computer's choice on the board showing the position after ``ply``, when
   * the analysis has one that differs from the move played (null otherwise). */
  function suggestion(ply) {
    const entry = analysed(ply);
    if (!entry || !entry.best_move || entry.best_move === entry.move) return null;
    return { points: actionPoints(entry.best_move), kind: "suggested", title: "The computer's choice" };
  }

  /** Under the board: what the analysis says of the move shown. */
  function drawVerdict(ply) {
    const note = document.getElementById("analysis-note");
    const entry = analysed(ply);
    const move = (game.S.moves || [])[ply - 1];
    if (!entry || !move) {
      note.textContent = "";
      return;
    }
    // The evaluations are the first side's (seat 1's); said here for the side that moved.
    const mine = (evaluation) => (game.teamOf(1).includes(entry.seat) ? chances(evaluation) : 1 - chances(evaluation));
    const judged = entry.judgement;
    let text = `Move ${ply}, ${moveText(move)} by ${game.seatName(entry.seat)}`;
    text += judged ? `: ${judged === "inaccuracy" ? "an" : "a"} ${judged}.` : ".";
    let chancesText = `${game.sideName(entry.seat)}'s chances after it: ${percent(mine(entry.evaluation))}`;
    if (entry.best_move && entry.best_move !== entry.move) {
      const ringed = actionPoints(entry.best_move).length ? " (the green ring)" : "";
      text += ` The computer ${judged ? "preferred" : "would have played"} ${actionWords(entry.best_move)}${ringed}.`;
      if (entry.best_evaluation) chancesText += `; after the computer's: ${percent(mine(entry.best_evaluation))}`;
    } else if (entry.best_move) {
      text += " The computer's choice too.";
    }
    note.textContent = `${text} ${chancesText}.`;
  }

  function chartPlies() {
    return Math.max(1, (analysis.progress && analysis.progress.total) || 0, analysis.plies.length);
  }

  function chartX(ply) {
    return CHART_PAD + (ply / chartPlies()) * (CHART_W - 2 * CHART_PAD);
  }

  /** The chances after each move analysed (from even before the first), its judgements as
   * coloured dots, and the move shown as a line; a click on it shows that move. */
  function drawChart() {
    const plies = analysis.plies;
    const y = (share) => CHART_PAD + (1 - share) * (CHART_H - 2 * CHART_PAD);
    const last = plies.length ? chances(plies[plies.length - 1].evaluation) : 0.5;
    const root = svg("svg", { viewBox: `0 0 ${CHART_W} ${CHART_H}`, class: "chart winrate", role: "img",
      "aria-label": `${game.sideName(1)}'s chances after each move, as the computer sees them (${percent(last)} at the end); choose a move in the list to hear what it says of it.` });
    root.append(svg("rect", { x: 0, y: 0, width: CHART_W, height: CHART_H, fill: "#fff" }));
    const points = [[0, 0.5], ...plies.map((e) => [e.ply, chances(e.evaluation)])];
    const line = points.map(([ply, share]) => `${chartX(ply).toFixed(1)},${y(share).toFixed(1)}`).join(" ");
    const [start, end] = [chartX(0).toFixed(1), chartX(points[points.length - 1][0]).toFixed(1)];
    root.append(svg("polygon", { points: `${start},${y(0)} ${line} ${end},${y(0)}`, fill: "#f1dcc4" }));
    root.append(svg("line", { x1: 0, y1: CHART_H / 2, x2: CHART_W, y2: CHART_H / 2, stroke: "#b9ad97", "stroke-dasharray": "4 3" }));
    root.append(svg("polyline", { points: line, fill: "none", stroke: "#9a4b16", "stroke-width": 1.5 }));
    for (const entry of plies) {
      if (!entry.judgement) continue;
      root.append(svg("circle", { cx: chartX(entry.ply), cy: y(chances(entry.evaluation)), r: 3.5,
        class: `judgement-dot ${entry.judgement}`, "data-ply": entry.ply }));
    }
    const shown = game.shownPly();
    root.append(svg("line", { x1: chartX(shown), y1: 0, x2: chartX(shown), y2: CHART_H, class: "now",
      stroke: "#1f5fd6", "stroke-width": 1.5 }));
    root.addEventListener("click", (event) => {
      const box = root.getBoundingClientRect();
      const x = ((event.clientX - box.left) / box.width) * CHART_W;
      const ply = Math.round(((x - CHART_PAD) / (CHART_W - 2 * CHART_PAD)) * chartPlies());
      game.view(Math.max(1, Math.min(plies.length, ply)));
    });
    return root;
  }

  /** The chart's line at the move shown. */
  function markShown(ply) {
    const now = document.querySelector("#analysis .now");
    if (now && analysis && analysis.plies) {
      now.setAttribute("x1", chartX(ply));
      now.setAttribute("x2", chartX(ply));
    }
  }

  function summaryTable() {
    const heads = Object.entries({ inaccuracies: "?!", mistakes: "?", blunders: "??" }).map(([word, mark]) =>
      el("th", { class: "num", title: word }, el("span", { "aria-hidden": "true" }, mark), el("span", { class: "visually-hidden" }, word)));
    return el("table", { class: "analysis-summary" },
      el("thead", {}, el("tr", {}, el("th", {}, "Player"), ...heads)),
      el("tbody", {}, ...(analysis.summary || []).map((s) => el("tr", { "data-seat": s.seat }, el("td", { class: "name", title: s.name }, s.name),
        el("td", { class: "num" }, s.inaccuracies), el("td", { class: "num" }, s.mistakes), el("td", { class: "num" }, s.blunders)))));
  }

  /** The analysis panel (shown once the game is over): the button to ask for it (signed in),
   * its progress while it runs, then the chart, each player's judgements, and the legend. */
  function draw() {
    const panel = document.getElementById("analysis");
    panel.hidden = !analysable() && !analysis;
    if (panel.hidden) return;
    const out = [];
    const askButton = (label) => el("button", { type: "button", "data-action": "analyse", onclick: ask }, label);
    const status = analysis && analysis.status;
    if (!analysis) {
      out.push(el("p", { class: "muted" }, "The computer looks at every move and marks the mistakes."));
      out.push(me ? askButton("Ask for the computer's analysis")
        : el("p", {}, el("a", { href: panel.dataset.login }, "Sign in"), " to ask for it."));
    } else if (!analysis.plies) {
      out.push(el("p", { class: "muted" }, "Reading the analysis…"));
    } else if (status === "pending" || status === "running") {
      const { processed, total } = analysis.progress;
      out.push(el("progress", { max: Math.max(total, 1), value: processed, "aria-label": "The analysis' progress" }),
        el("p", { class: "muted", id: "analysis-progress" }, processed
          ? `Analysing: ${processed} of ${total} moves done.` : "Waiting for the computer…"));
    } else if (status === "failed") {
      out.push(el("p", { class: "error" }, analysis.error ? analysis.error.detail : "The analysis stopped."));
      if (me) out.push(askButton("Ask again"));
    }
    if (analysis && analysis.plies && analysis.plies.length) {
      out.push(el("p", { class: "muted legend" }, `${game.sideName(1)}'s chances, move by move:`),
        drawChart(), summaryTable(), el("p", { class: "muted legend" },
        "?! inaccuracy · ? mistake · ?? blunder. Choose a move to see the computer's choice on the board."));
    }
    document.getElementById("analysis-body").replaceChildren(...out);
  }

  function tell(text, bad = false) {
    const notice = document.getElementById("analysis-notice");
    notice.textContent = text;
    notice.classList.toggle("error", bad);
  }

  function show(data) {
    analysis = data;
    draw();
    game.drawMoves();
    game.refreshSuggestion();
  }

  /** Read the analysis (GET), once at a time: asked for again while a read is on its way, or
   * should an event come meanwhile (the answer may be older than it), it reads once more. */
  async function load() {
    clearTimeout(retry);
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    let result;
    do {
      again = false;
      const seen = events;
      result = await api(`games/${game.page.id}/analysis`);
      if (events !== seen) again = true;
    } while (again);
    reading = false;
    if (result.ok) {
      tell("");
      show(result.data);
    } else if (result.status === 404) {
      analysis = null; // none (any more)
      draw();
    } else {
      tell(problem(result), true);
      // Busy or unreachable for a moment: look again later.
      if (result.status === 0 || result.status === 429 || result.status >= 500) retry = setTimeout(load, 10000);
    }
  }

  /** The stream's ``analysis`` event (live/publishers.py): the analysis was asked for, moved
   * on by a batch of plies (``new_plies``), is done or failed, whoever asked. Its plies follow
   * those the page holds: they are added to them; otherwise (the page missed some) it reads
   * them all. */
  function onEvent(data) {
    events += 1;
    const held = analysis ? analysis.plies : [];
    const fresh = data.new_plies || [];
    const follows = held && held.length + fresh.length === data.progress.processed
      && (!fresh.length || fresh[0].ply === held.length + 1);
    if (!follows || reading) {
      load();
      return;
    }
    const { new_plies: _added, ...rest } = data;
    tell("");
    show({ ...analysis, ...rest, plies: [...held, ...fresh] });
  }

  /** Whether the analysis may have moved on unseen (the stream was away). */
  function moving() {
    return Boolean(analysis) && analysis.status !== "done";
  }

  async function ask(event) {
    const asked = event.currentTarget;
    asked.disabled = true;
    tell("");
    const seen = events;
    const result = await api(`games/${game.page.id}/analysis`, { method: "POST" });
    if (result.ok) {
      // The stream may have told more meanwhile (this answer may be older): read it then.
      if (events === seen) show(result.data);
      else load();
      return;
    }
    asked.disabled = false;
    tell(problem(result), true);
  }

  /** The page says an analysis exists (``status``): read it. */
  function start(status) {
    analysis = { status };
    load();
  }

  return { draw, drawVerdict, judgementMark, suggestion, markShown, onEvent, moving, load, start };
}
