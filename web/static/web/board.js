// The board as an SVG drawing, from what it shows: pure of any page's state (everything it
// draws comes in its arguments), so a page may draw as many boards as it likes.

const SVG = "http://www.w3.org/2000/svg";
export const COLUMNS = "ABCDEFGHJKLMNOPQRST";
export const CELL = 24;
export const MARGIN = 30;
// Colours 1..6 of the Pente family (1 white, 2 black, as on Pente.org); Go: 1 black, 2 white.
export const PENTE = { 1: ["#ffffff", "#222"], 2: ["#111", "#000"], 3: ["#d62728", "#7a1516"],
  4: ["#1f5fd6", "#0f2f6b"], 5: ["#2ca02c", "#165016"], 6: ["#8e44ad", "#4a2359"] };
export const GO = { 1: PENTE[2], 2: PENTE[1] };
const STARS = { 9: [[2, 2], [6, 2], [4, 4], [2, 6], [6, 6]], 13: [[3, 3], [9, 3], [6, 6], [3, 9], [9, 9]],
  19: [[3, 3], [9, 3], [15, 3], [3, 9], [9, 9], [15, 9], [3, 15], [9, 15], [15, 15]] };

/** An SVG element with its attributes. */
export function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** A point's name (K10) from its index on a board of ``size``. */
export function pointName(index, size) {
  return COLUMNS[index % size] + String(size - Math.floor(index / size));
}

/** A point's [x, y] from its name; null off the board. */
export function pointXY(point, size) {
  const x = COLUMNS.indexOf(point[0]);
  const y = size - Number(point.slice(1));
  return x < 0 || x >= size || y < 0 || y >= size ? null : [x, y];
}

/** The colours of the stones of a game: Go's (1 black) or the Pente family's (1 white). */
export function palette(go) {
  return go ? GO : PENTE;
}

/** Rings on ``points`` of the board of ``size`` drawn in ``root``: the hint (blue, dashed) or
 * the computer's choice in the analysis (green). */
export function ringPoints(root, size, points, kind, title) {
  const hinted = kind === "hint";
  const group = svg("g", { class: kind, "pointer-events": "none" });
  for (const point of points) {
    const at = pointXY(point, size);
    if (!at) continue;
    const attrs = { cx: MARGIN + at[0] * CELL, cy: MARGIN + at[1] * CELL, r: CELL * 0.38,
      fill: hinted ? "rgba(31, 95, 214, .25)" : "none", stroke: hinted ? "#1f5fd6" : "#1e6b1e",
      "stroke-width": 3, "data-point": point };
    if (hinted) attrs["stroke-dasharray"] = "4 2";
    const ring = svg("circle", attrs);
    const words = svg("title", {});
    words.textContent = `${title}: ${point}`;
    ring.append(words);
    group.append(ring);
  }
  root.append(group);
  return group;
}

/** Go's count: territory as small squares of its owner's colour, and a red cross on every dead
 * stone (``dead``: the points marked; ``count.dead``: those the count took off). */
function drawCount(root, size, colours, count, dead) {
  const half = CELL * 0.14;
  const squares = svg("g", { class: "territory", "stroke-width": 1 });
  for (const [point, owner] of count.owner) {
    const at = pointXY(point, size);
    if (!at) continue;
    const [fill, stroke] = colours[owner];
    squares.append(svg("rect", { x: MARGIN + at[0] * CELL - half, y: MARGIN + at[1] * CELL - half,
      width: 2 * half, height: 2 * half, fill, stroke, class: `territory ${owner === 1 ? "black" : "white"}`,
      "data-point": point }));
  }
  root.append(squares);
  const arm = CELL * 0.2;
  const crosses = svg("g", { class: "dead", stroke: "#b3261e", "stroke-width": 2 });
  for (const point of new Set([...dead, ...count.dead.keys()])) {
    const at = pointXY(point, size);
    if (!at) continue;
    const [cx, cy] = [MARGIN + at[0] * CELL, MARGIN + at[1] * CELL];
    crosses.append(svg("path", { d: `M${cx - arm} ${cy - arm}L${cx + arm} ${cy + arm}M${cx - arm} ${cy + arm}L${cx + arm} ${cy - arm}`,
      class: "dead-mark", "data-point": point }));
  }
  root.append(crosses);
}

/**
 * The board as an <svg> element. ``board``:
 * - ``rows``: the board's rows of "." (empty) or a colour digit, top row first;
 * - ``label``: its aria-label; ``go``: Go's colours and marks;
 * - ``lastPoint``: the index of the last move's point (null: none);
 * - ``before``: the rows before the last move (its captures are crossed), or null;
 * - ``dead``: a Set of the points of stones shown dead (faded);
 * - ``count``: Go's count to draw, {owner: Map point->colour, dead: Map point->colour}, or null;
 * - ``ghosts``: points of stones placed but not sent (shown half clear), in ``ghostColour``;
 * - ``ghost``: a point tapped once, to tap again to play (shown half clear, ringed), or null;
 * - ``rings``: [{points, kind, title}] ringed (see ringPoints), in that order;
 * - ``cursor``: the index of the keyboard's point, or null;
 * - ``clickable``: points to click on top (``.pt`` squares with their ``data-point``).
 */
export function drawBoard({ rows, label = "board", go = false, lastPoint = null, before = null,
  dead = new Set(), count = null, ghosts = [], ghostColour = 1, ghost = null, rings = [], cursor = null,
  clickable = true }) {
  const colours = palette(go);
  const size = rows.length;
  const px = CELL * (size - 1) + 2 * MARGIN;
  const root = svg("svg", { viewBox: `0 0 ${px} ${px}`, role: "img", "aria-label": label });
  root.append(svg("rect", { x: 0, y: 0, width: px, height: px, fill: "#e3b868" }));
  const grid = svg("g", { stroke: "#5a4a2a", "stroke-width": 1 });
  for (let i = 0; i < size; i++) {
    const c = MARGIN + i * CELL;
    const end = MARGIN + (size - 1) * CELL;
    grid.append(svg("line", { x1: MARGIN, y1: c, x2: end, y2: c }));
    grid.append(svg("line", { x1: c, y1: MARGIN, x2: c, y2: end }));
  }
  root.append(grid);
  for (const [x, y] of STARS[size] || []) {
    root.append(svg("circle", { cx: MARGIN + x * CELL, cy: MARGIN + y * CELL, r: 3, fill: "#5a4a2a" }));
  }
  const labels = svg("g", { "font-size": 10, fill: "#5a4a2a", "text-anchor": "middle", "font-family": "sans-serif" });
  for (let i = 0; i < size; i++) {
    const c = MARGIN + i * CELL;
    const col = svg("text", { x: c, y: MARGIN - 14 });
    col.textContent = COLUMNS[i];
    const row = svg("text", { x: MARGIN - 18, y: c + 4 });
    row.textContent = String(size - i);
    labels.append(col, row);
  }
  root.append(labels);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const ch = rows[y][x];
      const cx = MARGIN + x * CELL;
      const cy = MARGIN + y * CELL;
      const point = pointName(y * size + x, size);
      if (ch !== ".") {
        const [fill, stroke] = colours[Number(ch)] || PENTE[3];
        const stone = svg("circle", { cx, cy, r: CELL * 0.45, fill, stroke, "stroke-width": 1.2,
          class: "stone", "data-point": point, "data-colour": ch });
        if (dead.has(point)) stone.setAttribute("opacity", 0.4);
        root.append(stone);
      } else if (count && count.dead.has(point)) {
        // Taken off at the count: shown faded where it stood.
        const [fill, stroke] = colours[count.dead.get(point)];
        root.append(svg("circle", { cx, cy, r: CELL * 0.45, fill, stroke, opacity: 0.4,
          class: "dead-stone", "data-point": point }));
      } else if (before && before[y] && before[y][x] !== ".") {
        const mark = svg("text", { x: cx, y: cy + 5, "text-anchor": "middle", "font-size": 16,
          fill: "#b3261e", class: "captured", "data-point": point });
        mark.textContent = "×";
        root.append(mark);
      }
      if (ghosts.includes(point) || ghost === point) {
        const [fill, stroke] = colours[ghostColour] || PENTE[3];
        root.append(svg("circle", { cx, cy, r: CELL * 0.45, fill, stroke, "stroke-width": 1.5,
          class: ghost === point ? "ghost" : "pending", "data-point": point }));
      }
    }
  }
  if (lastPoint !== null && lastPoint !== undefined) {
    const x = lastPoint % size;
    const y = Math.floor(lastPoint / size);
    const ch = rows[y][x];
    const light = ch === "." ? "#b3261e" : (go ? (ch === "1" ? "#fff" : "#000") : (ch === "1" ? "#b3261e" : "#fff"));
    root.append(svg("circle", { cx: MARGIN + x * CELL, cy: MARGIN + y * CELL, r: 4, fill: light, class: "last" }));
  }
  if (count) drawCount(root, size, colours, count, dead);
  for (const ring of rings) ringPoints(root, size, ring.points, ring.kind, ring.title);
  if (clickable) {
    // Clickable points on top.
    const hits = svg("g", { class: "points" });
    for (let index = 0; index < size * size; index++) {
      const x = index % size;
      const y = Math.floor(index / size);
      // A point with a stone is ``taken``: no hover mark greys it.
      hits.append(svg("rect", { x: MARGIN + x * CELL - CELL / 2, y: MARGIN + y * CELL - CELL / 2,
        width: CELL, height: CELL, class: rows[y][x] === "." ? "pt" : "pt taken", "data-point": pointName(index, size) }));
    }
    root.append(hits);
  }
  if (cursor !== null) {
    root.append(svg("rect", { x: MARGIN + (cursor % size) * CELL - CELL / 2, y: MARGIN + Math.floor(cursor / size) * CELL - CELL / 2,
      width: CELL, height: CELL, class: "cursor", fill: "none", stroke: "#1f5fd6", "stroke-width": 2 }));
  }
  return root;
}
