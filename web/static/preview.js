"use strict";
// The read-only preview: everything comes from /preview/{slug}/data with
// the share token of this page's address; nothing here can change the
// project, and for an account project nothing reaches its API.
const slug = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const token = new URLSearchParams(location.search).get("token") || "";
const el = (id) => document.getElementById(id);
const text = (tag, s, cls) => { const e = document.createElement(tag); e.textContent = s; if (cls) e.className = cls; return e; };
const cell = (v) => v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);

// refusal turns an error body (docs/reference/errors.md) into an Error that says what happened.
function refusal(status, b) {
  let msg = status + " " + (b.code || "error");
  if (b.detail) msg += ": " + b.detail;
  if (b.retryAfter) msg += " (retry in " + b.retryAfter + " s)";
  const e = new Error(msg);
  e.code = b.code || String(status);
  return e;
}

function sampleTable(smp) {
  const box = document.createElement("div");
  box.append(text("h3", "Sample: " + smp.operation + " (first " + smp.items.length + " of " + smp.total + ")"));
  for (const err of smp.errors) {
    const code = err.extensions && err.extensions.code ? err.extensions.code + ": " : "";
    box.append(text("div", code + err.message, "notready"));
  }
  if (!smp.items.length) return box;
  const cols = [];
  for (const it of smp.items) for (const k of Object.keys(it)) if (!cols.includes(k)) cols.push(k);
  const tbl = document.createElement("table");
  tbl.className = "sample";
  const wrap = document.createElement("div");
  wrap.className = "sample-scroll";
  wrap.tabIndex = 0; // it may scroll sideways: the keyboard must reach it
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", "Sample rows of " + smp.operation);
  const head = tbl.createTHead().insertRow();
  for (const c of cols) head.append(text("th", c));
  const body = tbl.createTBody();
  for (const it of smp.items) {
    const row = body.insertRow();
    for (const c of cols) {
      const td = text("td", cell(it[c]));
      td.title = td.textContent; // a long value is cut to a line; its whole text on hover
      row.append(td);
    }
  }
  wrap.append(tbl);
  box.append(wrap);
  return box;
}

function tableCard(t) {
  const card = document.createElement("section");
  card.className = "card";
  card.dataset.table = t.name;
  card.append(text("h2", t.name));
  card.append(text("div", t.ready ? "ready" : "not ready", t.ready ? "ready" : "notready"));
  const attrs = document.createElement("table");
  attrs.className = "attrs";
  for (const a of t.attributes) {
    const row = attrs.insertRow();
    row.append(text("td", a.name), text("td", a.type + (a.required ? "!" : ""), "muted"), text("td", a.mappingType.toLowerCase(), "muted"));
  }
  card.append(attrs);
  if (t.sample) card.append(sampleTable(t.sample));
  else card.append(text("div", "no list operation", "muted"));
  return card;
}

function render(d) {
  const p = d.project;
  document.title = p.name + " · mockgql preview";
  el("name").textContent = p.name;
  el("kind").textContent = p.kind.toLowerCase() + " project · read-only preview";
  if (p.expiresAt) el("expires").textContent = "expires " + new Date(p.expiresAt).toLocaleString();
  const tables = el("tables");
  for (const t of d.tables) tables.append(tableCard(t));
  if (d.relations.length) {
    el("relationsCard").hidden = false;
    for (const r of d.relations) {
      const row = el("relations").insertRow();
      row.append(text("td", r.sourceTable + "." + r.fieldName + " → " + r.targetTable + (r.inverseFieldName ? " (" + r.targetTable + "." + r.inverseFieldName + ")" : "")),
        text("td", r.cardinality.toLowerCase().replaceAll("_", "-"), "muted"),
        text("td", r.sourceTable + "." + r.sourceAttribute + " = " + r.targetTable + "." + r.targetAttribute, "muted"));
    }
  }
  el("schemaCard").hidden = false;
  el("sdl").textContent = d.sdl;
  if (p.queryable) runner(p, d.tables);
  else {
    el("api").hidden = false;
    el("apiNote").textContent = "The runtime of this project, " + p.runtimeUrl + ", answers only to its API keys; this preview link does not open it.";
  }
}

// runner is the query box of guest and session projects, whose share token
// is the runtime credential anyway.
function runner(p, tables) {
  el("runner").hidden = false;
  el("endpoint").textContent = p.runtimeUrl;
  const first = tables.find((t) => t.sample);
  el("query").value = first ? `{ ${first.sample.operation}(pageSize: 5) { total items { id } } }` : "{ __typename }";
  el("run").onclick = async () => {
    const r = await fetch(p.runtimeUrl, { method: "POST", credentials: "omit", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ query: el("query").value }) });
    el("result").textContent = JSON.stringify(await r.json().catch(() => ({ status: r.status })), null, 2);
  };
}

async function load() {
  const r = await fetch("/preview/" + encodeURIComponent(slug) + "/data?token=" + encodeURIComponent(token),
    { credentials: "omit", cache: "no-store" });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw refusal(r.status, body);
  render(body);
}

load().catch((e) => {
  el("error").hidden = false;
  el("error").dataset.code = e.code || "";
  el("error").textContent = "Cannot show the preview: " + e.message;
});
