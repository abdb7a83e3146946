// fault-rules.js: the field rules of fault settings (docs/using/faults.md#field-errors)
// as rows of the Faults form: a path, a message, a code, and a rate or a
// count; rules are added and removed here and saved with the form. A
// rule's extensions and sandbox are not edited on the board: they are
// kept as they were.
import { h, uid } from "./dom.js";

/** RULE_FIELDS selects FieldRule. */
export const RULE_FIELDS = "fieldRules { path message code extensions rate count sandbox }";

/** describeRules is the rules in a few words, "" for none. */
export function describeRules(rules) {
  if (!rules || !rules.length) return "";
  return `field errors at ${rules.map((r) => r.path).join(", ")}`;
}

/** ruleField is a labelled control of a rule row, with a place for the
 * API's refusal of it. */
function ruleField(label, control, hint) {
  const id = control.id || (control.id = uid("rule"));
  const err = h("span", { class: "field-error", id: id + "-err", "aria-live": "polite" });
  const hintEl = hint ? h("span", { class: "hint", id: id + "-hint" }, hint) : null;
  control.setAttribute("aria-describedby", [hintEl && hintEl.id, err.id].filter(Boolean).join(" "));
  const el = h("div", { class: "field" }, h("label", { for: id }, label), control, hintEl, err);
  el.fail = (msg) => { err.textContent = msg; control.setAttribute("aria-invalid", "true"); };
  el.ok = () => { err.textContent = ""; control.removeAttribute("aria-invalid"); };
  return el;
}

/** fieldRulesEditor edits rules (FaultSettings.fieldRules) with the codes
 * codes offers. It returns the element, read() (the FieldRuleInput list,
 * or null after marking a value that is no number), ok() (clear the
 * marks) and fail(error) (mark the rule and field a BAD_USER_INPUT names;
 * false when it names none). */
export function fieldRulesEditor(rules, codes) {
  const list = h("div", { class: "rule-list" });
  const rows = [];
  const empty = h("p", { class: "muted rule-empty" }, "No field errors: every field answers.");
  const renumber = () => {
    rows.forEach((r, i) => {
      r.legend.replaceChildren(`Field error ${i + 1}`);
      r.remove.replaceChildren(`Remove field error ${i + 1}`);
    });
    empty.hidden = rows.length > 0;
  };
  const add = (r) => {
    const ctl = {
      path: h("input", { type: "text", value: r ? r.path : "", placeholder: "Product.price", spellcheck: "false", dataset: { rule: "path" } }),
      message: h("input", { type: "text", value: r && r.message ? r.message : "", maxlength: 512, dataset: { rule: "message" } }),
      code: h("select", { dataset: { rule: "code" } }, codes.map((c) => h("option", { value: c, selected: r ? r.code === c : c === "INTERNAL" }, c))),
      rate: h("input", { type: "number", min: 0, max: 100, step: "any", value: r ? +(r.rate * 100).toFixed(4) : 100, dataset: { rule: "rate" } }),
      count: h("input", { type: "number", min: 0, step: 1, value: r ? r.count : 0, dataset: { rule: "count" } }),
    };
    // A count replaces the rate: show it as the API will read it back.
    ctl.count.addEventListener("input", () => { if (Number(ctl.count.value) > 0) ctl.rate.value = 0; });
    const fields = {
      path: ruleField("Field path", ctl.path, "Type.field, *.field or Query.a.b"),
      message: ruleField("Message", ctl.message, "Empty: injected fault: field=<path>"),
      code: ruleField("Code", ctl.code),
      rate: ruleField("Rate (%)", ctl.rate, "Share of requests that get it"),
      count: ruleField("Count", ctl.count, "Above 0: only the first requests, rate 0"),
    };
    const legend = h("legend", {});
    const remove = h("button", { type: "button", class: "secondary", dataset: { ruleRemove: "" } });
    const row = { ctl, fields, legend, remove, keep: r ? { extensions: r.extensions ?? null, sandbox: r.sandbox ?? null } : {} };
    row.el = h("fieldset", { class: "rule" }, legend, h("div", { class: "row" }, Object.values(fields), remove));
    remove.addEventListener("click", () => {
      rows.splice(rows.indexOf(row), 1);
      row.el.remove();
      renumber();
    });
    rows.push(row);
    list.append(row.el);
    renumber();
    return row;
  };
  (rules || []).forEach(add);
  renumber();
  const addButton = h("button", { type: "button", class: "secondary", dataset: { ruleAdd: "" } }, "Add field error");
  addButton.addEventListener("click", () => add(null).ctl.path.focus());
  const el = h("div", { class: "field-rules" },
    h("p", { class: "muted" }, "Field errors: the field answers null with an error that names it by path; a non-null field nulls its nearest nullable parent."),
    list, empty, h("div", { class: "row tight" }, addButton));
  const ok = () => rows.forEach((r) => Object.values(r.fields).forEach((f) => f.ok()));
  const read = () => {
    let bad = false;
    const out = rows.map((r) => {
      const rate = r.ctl.rate.value.trim() === "" ? 0 : Number(r.ctl.rate.value);
      const count = r.ctl.count.value.trim() === "" ? 0 : Number(r.ctl.count.value);
      if (Number.isNaN(rate)) { r.fields.rate.fail("A number from 0 to 100, please."); bad = true; }
      if (!Number.isInteger(count)) { r.fields.count.fail("A whole number, please."); bad = true; }
      return { path: r.ctl.path.value.trim(), message: r.ctl.message.value || null, code: r.ctl.code.value,
        rate: count > 0 ? 0 : rate / 100, count, ...r.keep };
    });
    return bad ? null : out;
  };
  // The API names a rule as faults.fieldRules[i], then its field.
  const fail = (e) => {
    const m = /fieldRules\[(\d+)\](?:\.(\w+))?/.exec(e.message || "");
    const row = m && rows[Number(m[1])];
    if (!row) return false;
    const key = { path: "path", message: "message", code: "code", rate: "rate", count: "count" }[m[2]] || (m[2] ? "path" : "rate");
    row.fields[key].fail(e.message);
    return true;
  };
  return { el, read, ok, fail };
}
