// The player page's rating history: one rating (a game and category, chosen in the list or by
// a click on its small chart in the table) drawn as a chart with axes and dates, its value at
// each date shown on hover, from GET /api/players/{name}/ratings/history. Drawn by uPlot
// (web/static/vendor/uplot, loaded by the page before this module as the global uPlot).

const box = document.getElementById("rating-history");
const pick = document.getElementById("rating-chart-pick");
const area = document.getElementById("rating-chart");
const note = document.getElementById("rating-chart-note");
const player = box.dataset.player;
let chart = null;

async function history(game, category) {
  const changes = [];
  let url = `/api/players/${encodeURIComponent(player)}/ratings/history?game=${encodeURIComponent(game)}&category=${encodeURIComponent(category)}&page_size=500`;
  while (url) {
    const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (!response.ok) throw new Error(`The server answered ${response.status}.`);
    const page = await response.json();
    changes.push(...page.results);
    url = page.next;
  }
  return changes;
}

function signed(n) {
  return (n >= 0 ? "+" : "−") + Math.abs(Math.round(n));
}

async function draw() {
  const [game, category] = pick.value.split("|");
  let changes;
  try {
    changes = await history(game, category);
  } catch (err) {
    note.textContent = err.message;
    return;
  }
  if (chart) { chart.destroy(); chart = null; }
  if (!changes.length) { note.textContent = "No rated result yet."; return; }
  // The rating before the first change (shown an hour before it, the rating it was then),
  // then after each: one point per rated set.
  const first = changes[0];
  const xs = [Date.parse(first.time) / 1000 - 3600, ...changes.map((c) => Date.parse(c.time) / 1000)];
  const ys = [first.rating_before, ...changes.map((c) => c.rating_after)];
  const width = Math.max(280, Math.min(area.parentElement.clientWidth || 640, 900));
  chart = new window.uPlot({
    width,
    height: 260,
    title: `${player}: ${game} · ${category}`,
    scales: { x: { time: true } },
    axes: [
      { label: "Date" },
      { label: "Rating", size: 60 },
    ],
    series: [
      { label: "Date", value: (u, v) => (v == null ? "—" : new Date(v * 1000).toLocaleDateString()) },
      {
        label: "Rating",
        stroke: "#9a4b16",
        width: 2,
        points: { show: changes.length < 60 },
        value: (u, v, si, i) => {
          if (v == null) return "—";
          const change = i ? changes[i - 1] : null;
          return change ? `${Math.round(v)} (${signed(change.change)}, ${change.result} v ${change.opponent})` : `${Math.round(v)}`;
        },
      },
    ],
  }, [xs, ys], area);
  area.setAttribute("aria-label", `${game} ${category} rating history: ${changes.length} rated results, now ${Math.round(ys[ys.length - 1])}`);
  note.textContent = `${changes.length} rated result${changes.length === 1 ? "" : "s"}. Point at the line for a date's rating.`;
}

pick.addEventListener("change", draw);
for (const link of document.querySelectorAll("#ratings a[data-chart]")) {
  link.addEventListener("click", () => {
    pick.value = link.dataset.chart;
    draw();
  });
}
area.setAttribute("role", "img");
draw();
