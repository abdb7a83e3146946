// tab-diagram.js: the tables and relations as an SVG diagram. Related
// tables are placed in rows by depth (a relation's target one row below its
// source), rows wrap at the screen's width, arrows run through the gaps
// between boxes, and labels sit on top with a halo, so that 20 or more
// tables stay readable; long attribute lists are cut with "… n more".
import { fill, card, h, count } from "./dom.js";
import { onLeave } from "./live.js";

const NS = "http://www.w3.org/2000/svg";
const W = 200, ROW = 16, HEAD = 24, MAXROWS = 8, GAPX = 70, GAPY = 56, MARGIN = 40;

function s(tag, attrs, ...kids) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return e;
}

/** layers puts each table one row below the tables that point at it
 * (breadth-first from the tables no relation targets), ordering each row by
 * where its parents sit, so that most arrows run down between neighbours. */
function layers(tables, relations) {
  const kids = new Map(tables.map((t) => [t.id, []]));
  const parents = new Map(tables.map((t) => [t.id, []]));
  for (const r of relations) {
    if (!kids.has(r.sourceTableId) || !kids.has(r.targetTableId) || r.sourceTableId === r.targetTableId) continue;
    kids.get(r.sourceTableId).push(r.targetTableId);
    parents.get(r.targetTableId).push(r.sourceTableId);
  }
  const depth = new Map();
  const visit = (roots) => {
    const queue = roots.filter((id) => !depth.has(id));
    queue.forEach((id) => depth.set(id, 0));
    while (queue.length) {
      const id = queue.shift();
      for (const k of kids.get(id)) if (!depth.has(k)) { depth.set(k, depth.get(id) + 1); queue.push(k); }
    }
  };
  visit(tables.filter((t) => !parents.get(t.id).length).map((t) => t.id));
  for (const t of tables) visit([t.id]); // cycles: start anywhere left
  const rows = [];
  for (const t of tables) (rows[depth.get(t.id)] ||= []).push(t);
  const at = new Map();
  return rows.filter(Boolean).map((row) => {
    const centre = (t) => { const ps = parents.get(t.id).filter((p) => at.has(p)); return ps.length ? ps.reduce((a, p) => a + at.get(p), 0) / ps.length : Infinity; };
    row.sort((a, b) => centre(a) - centre(b));
    row.forEach((t, i) => at.set(t.id, i));
    return row;
  });
}

/** diagram returns the SVG of a model; a row wider than the screen wraps.
 * Boxes sit on a grid, so the gaps between rows and columns are free of
 * boxes; an arrow that cannot go straight down to the next row runs along
 * those gaps (down its source's gap, across to a column gap, along it to the
 * gap above its target), so no arrow crosses a box however many tables. */
export function diagram(tables, relations, width) {
  const cols = columns(width);
  const boxH = (t) => HEAD + Math.min(t.attributes.length, MAXROWS + 1) * ROW + 8;
  const rows = layers(tables, relations).flatMap((row) => {
    const out = [];
    for (let i = 0; i < row.length; i += cols) out.push(row.slice(i, i + cols));
    return out;
  });
  const wide = Math.max(...rows.map((r) => r.length));
  const svgW = 2 * MARGIN + wide * (W + GAPX) - GAPX;
  const pos = new Map();
  // The gaps between columns, and the margins left and right of them: an
  // arrow there (shifted by up to 10 px) stays inside the drawing.
  const grid = { width: svgW, single: wide === 1, tops: [], bottoms: [], colGap: (i) => (i <= 0 ? MARGIN / 2 : i >= wide ? svgW - MARGIN / 2 : MARGIN + i * (W + GAPX) - GAPX / 2) };
  let y = 20;
  rows.forEach((row, r) => {
    const left = MARGIN + Math.floor((wide - row.length) / 2) * (W + GAPX); // centre short rows on the grid
    row.forEach((t, i) => pos.set(t.id, { x: left + i * (W + GAPX), y, h: boxH(t), t, row: r }));
    grid.tops.push(y);
    y += Math.max(...row.map(boxH));
    grid.bottoms.push(y);
    y += GAPY;
  });
  const svg = s("svg", { class: "diagram", viewBox: `0 0 ${svgW} ${y}`, role: "img", "aria-labelledby": "diagramTitle" },
    s("title", { id: "diagramTitle" }, `Diagram of ${count(tables.length, "table")} and ${count(relations.length, "relation")}`),
    s("defs", {}, s("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
      s("path", { d: "M0,0 L10,5 L0,10 z", fill: "#2748b8" }))));
  const edges = relations.map((r, i) => edge(pos.get(r.sourceTableId), pos.get(r.targetTableId), r, grid, ((i % 5) - 2) * 5));
  for (const e of edges) svg.append(e.path);
  for (const p of pos.values()) svg.append(node(p));
  for (const e of edges) svg.append(e.label); // on top, with a halo, so boxes never hide them
  svg.style.maxWidth = `${svgW}px`; // never drawn larger than life (CSSOM: allowed by the CSP)
  return svg;
}

/** columns is how many boxes a row of a diagram width px wide holds. */
const columns = (width) => Math.max(1, Math.floor((width - 2 * MARGIN + GAPX) / (W + GAPX)));

/** drawInto draws the diagram at the width of box, and draws it again
 * when box's width changes how many boxes fit in a row (a phone turned, a
 * window narrowed): a diagram drawn for 1280 px and shrunk to a phone's
 * width would be too small to read. It stops when the board moves on. */
export function drawInto(box, tables, relations) {
  let cols = 0;
  const draw = () => {
    const width = box.clientWidth || 360; // not laid out (hidden): a phone's width
    if (columns(width) === cols) return;
    cols = columns(width);
    box.replaceChildren(diagram(tables, relations, width));
  };
  draw();
  const seen = new ResizeObserver(() => (box.isConnected ? draw() : seen.disconnect()));
  seen.observe(box);
  onLeave(() => seen.disconnect());
}

function node({ x, y, h: hgt, t }) {
  const g = s("g", { class: "node", transform: `translate(${x},${y})`, "data-table": t.name });
  g.append(s("rect", { width: W, height: hgt, rx: 6 }), s("rect", { width: W, height: HEAD, rx: 6, class: t.ready ? "head ready" : "head notready" }));
  g.append(s("text", { x: 8, y: 17, class: "title" }, clip(t.name, 22), t.ready ? "" : " (not ready)"));
  const shown = t.attributes.length > MAXROWS + 1 ? t.attributes.slice(0, MAXROWS) : t.attributes;
  shown.forEach((a, i) => g.append(s("text", { x: 8, y: HEAD + 14 + i * ROW }, clip(a.name, 18), s("tspan", { fill: "#525a6b" }, " ", a.type.toLowerCase()))));
  if (shown.length < t.attributes.length) g.append(s("text", { x: 8, y: HEAD + 14 + MAXROWS * ROW, fill: "#525a6b" }, `… ${t.attributes.length - MAXROWS} more`));
  return g;
}

const clip = (str, n) => (str.length > n ? str.slice(0, n - 1) + "…" : str);

/** edge draws a relation from box a to box b. To the next row it is one
 * curve through the gap between the rows; otherwise it runs along the
 * grid's gaps, shifted by off so that arrows sharing a gap stay apart, and
 * its label, by its target, names the source table too (on a phone, one
 * box a row, most arrows take that way). */
function edge(a, b, r, grid, off) {
  let label = `${r.fieldName} ${r.cardinality === "ONE_TO_MANY" ? "1:n" : "1:1"}`;
  if (!a || !b) return { path: s("g", {}), label: s("g", {}) };
  let d, lx, ly, anchor = "middle";
  const x1 = a.x + W / 2 + off, x2 = b.x + W / 2 + off;
  if (a === b) {
    const x = a.x + W, y = a.y + 10;
    d = `M${x},${y} c40,0 40,30 0,30`; lx = x + 30; ly = y - 4;
  } else if (b.row === a.row + 1) { // the next row: one curve through the gap between them
    const y1 = a.y + a.h, y2 = b.y, gy = grid.bottoms[a.row] + GAPY / 2;
    d = `M${x1},${y1} V${gy - 12} C${x1},${gy} ${x2},${gy} ${x2},${gy + 12} V${y2}`;
    // One box a row (a phone), beside the arrow: labels of arrows around
    // the boxes come into the same gap from the left.
    if (grid.single) { lx = x1 + 6; ly = gy + 4; anchor = "start"; } else { lx = (x1 + x2) / 2; ly = gy - 3; }
  } else { // any other row, or the same one: along the gaps
    const y1 = a.y + a.h, gy1 = grid.bottoms[a.row] + GAPY / 2 + off / 2;
    const down = b.row > a.row;
    const y2 = down ? b.y : b.y + b.h; // enter from above going down, from below otherwise
    const gy2 = down ? grid.tops[b.row] - GAPY / 2 + off / 2 : grid.bottoms[b.row] + GAPY / 2 - off / 2;
    const col = Math.round((b.x - MARGIN) / (W + GAPX)); // the target's column
    const gx = grid.colGap(b.x < a.x ? col + 1 : col) + off; // the gap beside it, on the source's side
    d = `M${x1},${y1} V${gy1} H${gx} V${gy2} H${x2} V${y2}`;
    // Beside the target's arrow, on the side it comes from.
    lx = gx < x2 ? x2 - 6 : x2 + 6; ly = gy2 - 3; anchor = gx < x2 ? "end" : "start";
    label = `${clip(a.t.name, 22)}.${label}`;
  }
  // Kept inside the drawing (its width guessed at 6.5 px a character of 11 px text).
  const est = label.length * 6.5, [lo, hi] = anchor === "start" ? [0, est] : anchor === "end" ? [est, 0] : [est / 2, est / 2];
  lx = Math.min(Math.max(lx, 4 + lo), grid.width - 4 - hi);
  return { path: s("path", { class: "edge", d, "marker-end": "url(#arrow)" }),
    label: s("text", { class: "edge-label", x: lx, y: ly, "text-anchor": anchor }, label) };
}

export async function diagramTab(body, p) {
  const box = h("div", { class: "scroll" });
  fill(body, card(`Diagram: ${count(p.tables.length, "table")}, ${count(p.relations.length, "relation")}`,
    p.tables.length ? box : h("p", {}, "No tables yet: add them on the ", h("a", { href: `/board/projects/${encodeURIComponent(p.id)}` }, "Model tab"), "."),
    h("p", { class: "muted" }, "Green: ready; red: not ready. Arrows go from a relation's source to its target, labelled with the field and cardinality; an arrow that runs around other tables names its source too (Source.field).")));
  // A contract table's hidden link keys (__key…) are the engine's, not the schema's.
  const tables = p.contract ? p.tables.map((t) => ({ ...t, attributes: t.attributes.filter((a) => !a.name.startsWith("__")) })) : p.tables;
  if (p.tables.length) drawInto(box, tables, p.relations);
}
