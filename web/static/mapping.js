// mapping.js: the editor of one attribute's mapping: a field
// path picked from the dataset's paths with sample values beside each, a
// constant, a generator (generator-picker.js) or an expression.
import { h, field, select, uid } from "./dom.js";
import { generatorPicker } from "./generator-picker.js";

export const MAPPINGS = ["SOURCE", "CONSTANT", "GENERATED", "COMPUTED", "NONE"];

/** valueAt reads a dot path of a sample document. */
export function valueAt(doc, path) {
  let v = doc;
  for (const part of path.split(".")) {
    if (v === null || typeof v !== "object") return undefined;
    v = v[part];
  }
  return v;
}

/** show renders a sample value in one short line. */
export function show(v) {
  if (v === undefined) return "—";
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > 60 ? s.slice(0, 59) + "…" : s;
}

/** mappingEditor returns {el, value()} for an attribute's mapping; source is
 * the bound dataset (with fieldPaths and sampleDocuments) or null; onPath,
 * when given, hears each path the person picks. */
export function mappingEditor(attr, source, onPath) {
  const type = select(MAPPINGS.map((m) => [m, m.toLowerCase()]), attr ? attr.mappingType : (source ? "SOURCE" : "NONE"));
  const pane = h("div", { class: "mapping-pane" });
  const state = { path: attr && attr.sourceMapping ? attr.sourceMapping.path : "" };
  const constant = h("input", { type: "text", class: "mono", value: attr && attr.constantValue !== null && attr.constantValue !== undefined ? JSON.stringify(attr.constantValue) : "" });
  const expr = h("input", { type: "text", class: "mono", value: (attr && attr.computedExpression) || "" });
  let picker = null; // the generator picker, made when GENERATED is first chosen
  const render = () => {
    pane.replaceChildren();
    switch (type.value) {
      case "SOURCE": pane.append(pathPicker(source, state, onPath)); break;
      case "CONSTANT": pane.append(field("Constant value (JSON: \"text\", 12, true, null)", constant)); break;
      case "COMPUTED": pane.append(field("Expression (kept for documentation; not evaluated, not in the schema)", expr)); break;
      case "GENERATED":
        picker = picker || generatorPicker(attr && attr.generator);
        pane.append(picker.el);
        break;
      default: pane.append(h("p", { class: "muted" }, "No mapping: the field resolves to null."));
    }
  };
  type.addEventListener("change", render);
  render();
  const el = h("div", { class: "mapping" }, field("Mapping", type), pane);
  return {
    el,
    value() {
      const m = { mappingType: type.value };
      if (type.value === "SOURCE") {
        if (!state.path) throw new Error("Pick a field path for the SOURCE mapping.");
        m.sourceMapping = { path: state.path };
      }
      if (type.value === "CONSTANT") {
        try { m.constantValue = JSON.parse(constant.value || "null"); }
        catch { throw new Error("The constant is not JSON: write text in double quotes, e.g. \"EUR\"."); }
      }
      if (type.value === "COMPUTED") m.computedExpression = expr.value;
      if (type.value === "GENERATED") m.generator = picker.value();
      return m;
    },
  };
}

/** pathPicker lists the dataset's field paths, each with its sample values. */
function pathPicker(source, state, onPath) {
  if (!source) return h("p", { class: "status error" }, "Bind the table to a dataset first: choose it under “Dataset (importCode)” above and save the binding.");
  const labelId = uid("paths");
  const chosen = h("p", { class: "muted", "aria-live": "polite" }, state.path ? `Chosen: ${state.path}` : "No path chosen yet.");
  const list = h("div", { class: "paths", role: "group", "aria-labelledby": labelId });
  for (const path of source.fieldPaths) {
    const samples = source.sampleDocuments.map((d) => show(valueAt(d, path))).join(" · ");
    const b = h("button", { type: "button", "aria-pressed": String(path === state.path), dataset: { path } },
      h("span", {}, path), h("span", { class: "mono" }, samples));
    b.addEventListener("click", () => {
      state.path = path;
      for (const o of list.querySelectorAll("button")) o.setAttribute("aria-pressed", String(o === b));
      chosen.textContent = `Chosen: ${path}`;
      if (onPath) onPath(path);
    });
    list.append(b);
  }
  return h("div", {}, h("p", { id: labelId, class: "label" }, h("strong", {}, "Field path"), " (sample values beside each)"), list, chosen);
}
