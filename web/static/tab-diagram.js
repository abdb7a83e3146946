// tab-diagram.js: the tables and relations as an SVG diagram. Related
// tables are placed next to each other (breadth-first from the most
// connected table) on a grid whose width follows the screen, so that 20 or
// more tables stay readable; long attribute lists are cut with "… n more".
import { fill, card, h } from "./dom.js";

const NS = "http://www.w3.org/2000/svg";
const W = 200, ROW = 16, HEAD = 24, MAXROWS = 8, GAPX = 70, GAPY = 50;

function s(tag, attrs, ...kids) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return e;
}

/** order lists the tables so that related ones come together. */
function order(tables, relations) {
  const adj = new Map(tables.map((t) => [t.id, []]));
  for (const r of relations) { adj.get(r.sourceTableId)?.push(r.targetTableId); adj.get(r.targetTableId)?.push(r.sourceTableId); }
  const seen = new Set(), out = [];
  const byDegree = [...tables].sort((a, b) => adj.get(b.id).length - adj.get(a.id).length);
  for (const start of byDegree) {
    if (seen.has(start.id)) continue;
    const queue = [start.id];
    seen.add(start.id);
    while (queue.length) {
      const id = queue.shift();
      out.push(tables.find((t) => t.id === id));
      for (const n of adj.get(id)) if (!seen.has(n)) { seen.add(n); queue.push(n); }
    }
  }
  return out;
}

/** diagram returns the SVG of a model. */
export function diagram(tables, relations, width) {
  const cols = Math.max(1, Math.min(Math.floor((width + GAPX) / (W + GAPX)), Math.ceil(Math.sqrt(tables.length * 1.5))));
  const boxH = (t) => HEAD + Math.min(t.attributes.length, MAXROWS + 1) * ROW + 8;
  const ordered = order(tables, relations);
  const rowH = [];
  ordered.forEach((t, i) => { const r = Math.floor(i / cols); rowH[r] = Math.max(rowH[r] || 0, boxH(t)); });
  const pos = new Map();
  let y = 20;
  const rowY = rowH.map((hgt) => { const at = y; y += hgt + GAPY; return at; });
  ordered.forEach((t, i) => pos.set(t.id, { x: 20 + (i % cols) * (W + GAPX), y: rowY[Math.floor(i / cols)], h: boxH(t), t }));
  const svgW = 20 + cols * (W + GAPX) - GAPX + 20;
  const svg = s("svg", { class: "diagram", viewBox: `0 0 ${svgW} ${y}`, role: "img", "aria-labelledby": "diagramTitle" },
    s("title", { id: "diagramTitle" }, `Diagram of ${tables.length} tables and ${relations.length} relations`),
    s("defs", {}, s("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
      s("path", { d: "M0,0 L10,5 L0,10 z", fill: "#2748b8" }))));
  for (const r of relations) svg.append(edge(pos.get(r.sourceTableId), pos.get(r.targetTableId), r));
  for (const p of pos.values()) svg.append(node(p));
  svg.style.maxWidth = `${svgW}px`; // never drawn larger than life (CSSOM: allowed by the CSP)
  return svg;
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

function edge(a, b, r) {
  if (!a || !b) return s("g", {});
  const ax = a.x + W / 2, ay = a.y + a.h / 2, bx = b.x + W / 2, by = b.y + b.h / 2;
  const side = (p, tx, ty) => { // the point where the line to (tx,ty) leaves p's box
    const cx = p.x + W / 2, cy = p.y + p.h / 2, dx = tx - cx, dy = ty - cy;
    const k = Math.min(Math.abs((W / 2) / (dx || 1e-9)), Math.abs((p.h / 2) / (dy || 1e-9)));
    return [cx + dx * k, cy + dy * k];
  };
  const [x1, y1] = side(a, bx, by), [x2, y2] = side(b, ax, ay);
  const mx = (x1 + x2) / 2, my = (y1 + y2) / 2 - 20; // the curve's control point; its label sits above it
  const label = `${r.fieldName} ${r.cardinality === "ONE_TO_MANY" ? "1:n" : "1:1"}`;
  return s("g", {}, s("path", { class: "edge", d: `M${x1},${y1} Q${mx},${my} ${x2},${y2}`, "marker-end": "url(#arrow)" }),
    s("text", { class: "edge-label", x: mx, y: my - 2, "text-anchor": "middle" }, label));
}

export async function diagramTab(body, p) {
  const box = h("div", { class: "scroll" });
  fill(body, card(`Diagram: ${p.tables.length} tables, ${p.relations.length} relations`,
    p.tables.length ? box : h("p", {}, "No tables yet: add them on the Model tab."),
    h("p", { class: "muted" }, "Green: ready; red: not ready. Arrows go from a relation's source to its target, labelled with the field and cardinality.")));
  if (p.tables.length) box.append(diagram(p.tables, p.relations, Math.max(body.clientWidth, 360)));
}
