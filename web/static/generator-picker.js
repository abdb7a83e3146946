// generator-picker.js: a GENERATED mapping's generator. A searchable list
// of every kind by category (Query.generatorCatalog: description, a sample,
// words to search by — "isbn" finds productisbn), the chosen kind's options
// as labelled fields (min, max, …, each with its type and default), and a
// live preview of the values the first records get (Query.generatorPreview),
// with the server's refusal shown under the option it names.
import { h, gql, field, select, uid } from "./dom.js";
import { show } from "./mapping.js";

/** COMMON are the categories listed first. */
const COMMON = ["person", "address", "company", "commerce", "internet", "lorem", "number", "date"];
/** SHOWN bounds the list: a search narrows it. */
const SHOWN = 60;

let catalog = null;
/** generatorCatalog reads the catalog once per page. */
function generatorCatalog() {
  if (!catalog) {
    catalog = gql(`{ generatorCatalog { kind category description keywords options { name type description default required choices } sample } }`).then((d) => d.generatorCatalog);
    catalog.catch(() => { catalog = null; });
  }
  return catalog;
}

/** matches reports whether g matches every word of the search q. */
function matches(g, q) {
  const text = [g.kind, g.category, g.description, ...g.keywords].join(" ").toLowerCase();
  return q.toLowerCase().split(/\s+/).filter(Boolean).every((w) => text.includes(w));
}

/** optionControl is a labelled control for option o with its current value v. */
function optionControl(o, v) {
  const def = o.default !== null && o.default !== undefined && o.default !== "" ? `default ${o.default}` : o.required ? "required" : "optional";
  const hint = [o.description, def].filter(Boolean).join("; ");
  let c;
  if (o.choices.length) c = select([["", o.required ? "choose…" : `default${o.default ? ` (${o.default})` : ""}`], ...o.choices], v === undefined ? "" : String(v));
  else if (o.type === "bool") c = select([["", `default${o.default ? ` (${o.default})` : ""}`], "true", "false"], v === undefined ? "" : String(v));
  else if (/^(u?int|float)/.test(o.type)) c = h("input", { type: "number", step: /^float/.test(o.type) ? "any" : "1", value: v === undefined ? "" : String(v), placeholder: o.default || "" });
  else c = h("input", { type: "text", value: v === undefined ? "" : Array.isArray(v) ? v.join(", ") : String(v), placeholder: o.default || "" });
  c.dataset.option = o.name;
  const f = field(`${o.name} (${o.type === "[]string" ? "list, comma-separated" : o.type})`, c, hint);
  const e = h("span", { class: "field-error", id: uid("err"), hidden: true });
  c.setAttribute("aria-describedby", `${c.getAttribute("aria-describedby")} ${e.id}`);
  f.append(e);
  return f;
}

/** optionValue reads option o's control: undefined when left empty. */
function optionValue(o, c) {
  const s = c.value.trim();
  if (s === "") return undefined;
  if (o.type === "bool") return s === "true";
  if (/^(u?int|float)/.test(o.type) && !o.choices.length) return Number(s);
  if (o.type === "[]string") return s.split(",").map((x) => x.trim()).filter(Boolean);
  return s;
}

/** generatorPicker returns {el, value()} for a generator {kind, options}
 * (gen null: person.email). value() is {kind, options}. */
export function generatorPicker(gen) {
  const state = { kind: (gen && gen.kind) || "person.email", options: (gen && gen.options) || {} };
  const search = h("input", { type: "search", id: uid("gsearch"), autocomplete: "off" });
  const cat = select([["", "All categories"]], "", { id: uid("gcat") });
  const list = h("div", { class: "paths kinds", role: "group", "aria-label": "Generator kinds" });
  const more = h("p", { class: "muted" });
  const chosen = h("p", { class: "gen-chosen", "aria-live": "polite" });
  const opts = h("div", { class: "row gen-options" });
  const err = h("p", { class: "status error", role: "alert", hidden: true });
  const preview = h("ul", { class: "gen-preview mono", "aria-live": "polite", "aria-label": "Preview of the first records' values" });
  let all = [], controls = [], timer = 0, seq = 0;
  const info = () => all.find((g) => g.kind === state.kind);

  const renderList = () => {
    const q = search.value.trim();
    const hits = all.filter((g) => (!cat.value || g.category === cat.value) && (!q || matches(g, q)));
    list.replaceChildren(...hits.slice(0, SHOWN).map((g) => {
      const b = h("button", { type: "button", "aria-pressed": String(g.kind === state.kind), dataset: { kind: g.kind } },
        h("span", {}, h("strong", {}, g.kind), " ", h("span", { class: "muted" }, g.description)),
        h("span", { class: "mono" }, g.sample === null ? "needs options" : show(g.sample)));
      b.addEventListener("click", () => choose(g.kind, {}));
      return b;
    }));
    more.textContent = !hits.length ? "No generator matches: try another word (email, city, price, isbn…)."
      : hits.length > SHOWN ? `${SHOWN} of ${hits.length} shown: type more to narrow.` : `${hits.length} generator${hits.length === 1 ? "" : "s"}.`;
  };
  const renderOptions = () => {
    const g = info();
    chosen.replaceChildren("Chosen: ", h("code", {}, state.kind), g ? ` — ${g.description}` : "");
    controls = [];
    opts.replaceChildren(...(g ? g.options : []).map((o) => {
      const f = optionControl(o, state.options[o.name]);
      const c = f.querySelector("[data-option]");
      controls.push([o, c, f]);
      c.addEventListener("input", refresh);
      c.addEventListener("change", refresh);
      return f;
    }));
    if (g && !g.options.length) opts.append(h("p", { class: "muted" }, "It takes no options."));
  };
  const choose = (kind, options) => {
    state.kind = kind;
    state.options = options;
    for (const b of list.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.kind === kind));
    renderOptions();
    refresh();
  };
  // refresh reads the options and asks for a preview (debounced).
  function refresh() {
    state.options = {};
    for (const [o, c] of controls) { const v = optionValue(o, c); if (v !== undefined) state.options[o.name] = v; }
    clearTimeout(timer);
    timer = setTimeout(runPreview, 200);
  }
  const runPreview = async () => {
    const mine = ++seq;
    try {
      const d = await gql(`query($k: String!, $o: JSON) { generatorPreview(kind: $k, options: $o, count: 5) }`, { k: state.kind, o: state.options });
      if (mine !== seq) return;
      showError(null);
      preview.replaceChildren(...d.generatorPreview.map((v) => h("li", {}, show(v))));
    } catch (e) {
      if (mine !== seq) return;
      showError(e.message);
      preview.replaceChildren();
    }
  };
  // showError puts the server's message under the option it names, else under the options.
  const showError = (msg) => {
    err.hidden = true;
    for (const [, c, f] of controls) { f.querySelector(".field-error").hidden = true; c.removeAttribute("aria-invalid"); }
    if (!msg) return;
    const hit = controls.find(([o]) => new RegExp(`\\b${o.name}\\b`).test(msg));
    if (!hit) { err.hidden = false; err.textContent = msg; return; }
    const [, c, f] = hit;
    const s = f.querySelector(".field-error");
    s.textContent = msg;
    s.hidden = false;
    c.setAttribute("aria-invalid", "true"); // the message is in its description (aria-describedby)
  };
  search.addEventListener("input", renderList);
  cat.addEventListener("change", renderList);
  generatorCatalog().then((c) => {
    all = c;
    const counts = {};
    for (const g of c) counts[g.category] = (counts[g.category] || 0) + 1;
    const cats = Object.keys(counts).sort((a, b) => (COMMON.includes(a) ? COMMON.indexOf(a) : 99) - (COMMON.includes(b) ? COMMON.indexOf(b) : 99) || a.localeCompare(b));
    cat.append(...cats.map((k) => h("option", { value: k }, `${k} (${counts[k]})`)));
    renderList();
    renderOptions();
    runPreview();
  }, (e) => { err.hidden = false; err.textContent = e.message; });
  const el = h("div", { class: "generator" },
    h("div", { class: "row" }, field("Search generators", search, "A word: email, city, price, isbn… e.g. number.int with min 1 and max 9."), field("Category", cat)),
    list, more, chosen, h("div", { class: "gen-options-box" }, h("h4", {}, "Options"), opts), err,
    h("p", { class: "label" }, h("strong", {}, "Preview"), " (the first five records)"), preview);
  return { el, value: () => ({ kind: state.kind, options: Object.keys(state.options).length ? state.options : null }) };
}
