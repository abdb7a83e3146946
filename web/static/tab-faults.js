// tab-faults.js: latency and error injection on the API design tab
// (docs/using/faults.md): the project's "Faults" panel and
// each operation's own settings, saved with setFaults and cleared with
// faults: null. Below EDITOR (role.js) the settings show as text only.
import { h, gql, uid, status, action, card, copyButton } from "./dom.js";
import { RULE_FIELDS, describeRules, fieldRulesEditor } from "./fault-rules.js";

/** FAULT_FIELDS selects FaultSettings (Project.faults, Operation.faults). */
export const FAULT_FIELDS = `faults { latencyMinMs latencyMaxMs errorRate errorCode httpStatus seed ${RULE_FIELDS} }`;

// The choices of FaultSettings.errorCode and .httpStatus (management.graphql).
const CODES = ["INTERNAL", "UNAVAILABLE", "QUERY_TIMEOUT", "NOT_READY", "BAD_USER_INPUT", "FORBIDDEN", "NOT_FOUND",
  "LIMIT_REACHED", "CONFLICT", "UNAUTHENTICATED", "TOO_MANY_REQUESTS"];
const STATUSES = [[400, "Bad Request"], [401, "UNAUTHENTICATED"], [403, "API_KEY_SCOPE_INSUFFICIENT"], [404, "PROJECT_NOT_FOUND"],
  [413, "PAYLOAD_TOO_LARGE"], [429, "TOO_MANY_REQUESTS"], [500, "INTERNAL"], [503, "UNAVAILABLE"]];

/** describeFaults is settings in a few words, "none" for null. */
export function describeFaults(f) {
  if (!f) return "none";
  const parts = [];
  if (f.latencyMaxMs > 0) parts.push(f.latencyMinMs === f.latencyMaxMs ? `latency ${f.latencyMaxMs} ms` : `latency ${f.latencyMinMs}–${f.latencyMaxMs} ms`);
  if (f.errorRate > 0) parts.push(`${+(f.errorRate * 100).toFixed(2)}% ${f.errorCode || "HTTP " + f.httpStatus}`);
  if (describeRules(f.fieldRules)) parts.push(describeRules(f.fieldRules));
  return parts.length ? `${parts.join(", ")} · seed ${f.seed}` : `nothing injected · seed ${f.seed}`;
}

/** headerOf is the X-Mock-Fault value that forces what f injects, or an example. */
function headerOf(f) {
  const parts = [];
  if (f && f.latencyMaxMs > 0) parts.push(`latency=${f.latencyMaxMs}ms`);
  if (f && f.errorCode) parts.push(`error=${f.errorCode}`);
  if (f && f.httpStatus) parts.push(`status=${f.httpStatus}`);
  return parts.length ? parts.join(";") : "error=INTERNAL";
}

/** errorSelect chooses a GraphQL error code or an HTTP status. */
function errorSelect(f) {
  const cur = f && f.errorCode ? `code:${f.errorCode}` : f && f.httpStatus ? `status:${f.httpStatus}` : "";
  const opt = (v, t) => h("option", { value: v, selected: v === cur }, t);
  return h("select", {}, opt("", "— none —"),
    h("optgroup", { label: "GraphQL error (HTTP 200, errors[0].extensions.code)" }, CODES.map((c) => opt(`code:${c}`, c))),
    h("optgroup", { label: "HTTP status (with the error body)" }, STATUSES.map(([s, c]) => opt(`status:${s}`, `${s} ${c}`))));
}

/** labelled is a field with a visible label, a hint and a place for the
 * API's refusal of this field (shown next to it, read with it). */
function labelled(label, control, hint) {
  const id = control.id || (control.id = uid("flt"));
  const err = h("span", { class: "field-error", id: id + "-err", "aria-live": "polite" });
  const hintEl = hint ? h("span", { class: "hint", id: id + "-hint" }, hint) : null;
  control.setAttribute("aria-describedby", [hintEl && hintEl.id, err.id].filter(Boolean).join(" "));
  const el = h("div", { class: "field" }, h("label", { for: id }, label), control, hintEl, err);
  el.fail = (msg) => { err.textContent = msg; control.setAttribute("aria-invalid", "true"); };
  el.ok = () => { err.textContent = ""; control.removeAttribute("aria-invalid"); };
  return el;
}

const num = (v, props) => h("input", { type: "number", inputmode: "numeric", value: v, ...props });

/** faultsForm edits one scope's settings: the project's (o null) or an
 * operation's. onSaved(faults) gets the settings read back. */
export function faultsForm(p, o, f, onSaved) {
  const ctl = {
    min: num(f ? f.latencyMinMs : 0, { min: 0, max: 10000, step: 1, "data-fault": "latencyMinMs" }),
    max: num(f ? f.latencyMaxMs : 0, { min: 0, max: 10000, step: 1, "data-fault": "latencyMaxMs" }),
    rate: num(f ? +(f.errorRate * 100).toFixed(4) : 0, { min: 0, max: 100, step: "any", "data-fault": "errorRate" }),
    error: errorSelect(f),
    seed: num(f ? f.seed : 0, { step: 1, "data-fault": "seed" }),
  };
  ctl.error.dataset.fault = "error";
  const fields = {
    min: labelled("Latency min (ms)", ctl.min, "0 to 10000"),
    max: labelled("Latency max (ms)", ctl.max, "Equal to min: fixed; 0 and 0: none"),
    rate: labelled("Error rate (%)", ctl.rate, "Share of requests answered with the error"),
    error: labelled("Error", ctl.error),
    seed: labelled("Seed", ctl.seed, "Same seed, same requests: same faults"),
  };
  let rules = fieldRulesEditor(f ? f.fieldRules : [], CODES);
  const scope = o ? `operation ${o.name}` : "the project";
  const box = h("fieldset", { class: "faults-form", dataset: { faults: o ? o.name : "project" } },
    h("legend", {}, o ? `Faults of ${o.name}` : "Faults of the project"),
    h("div", { class: "row" }, Object.values(fields)), rules.el);
  const st = status();
  const done = (faults, msg) => { onSaved(faults); st.ok(msg); };
  const save = action(h("button", { type: "button", dataset: { faultsSave: o ? o.name : "project" } }, "Save faults"), st, async () => {
    Object.values(fields).forEach((x) => x.ok());
    rules.ok();
    const input = readForm(ctl, fields);
    const fieldRules = rules.read();
    if (!input || !fieldRules) return;
    try {
      const d = await setFaults(p, o, { ...input, fieldRules });
      done(d, `Saved for ${scope}: ${describeFaults(d)}. The sequence of draws restarts.`);
    } catch (e) { if (!rules.fail(e) && !showFieldError(e, fields)) throw e; }
  });
  const clear = action(h("button", { type: "button", class: "secondary", dataset: { faultsClear: o ? o.name : "project" } }, "Clear"), st, async () => {
    await setFaults(p, o, null);
    Object.values(fields).forEach((x) => x.ok());
    ctl.min.value = ctl.max.value = ctl.rate.value = ctl.seed.value = 0;
    ctl.error.value = "";
    rules.el.replaceWith((rules = fieldRulesEditor([], CODES)).el);
    done(null, o ? `Cleared: ${o.name} follows the project's settings.` : "Cleared: the project injects nothing.");
  });
  return h("div", {}, box, h("div", { class: "row tight" }, save, clear), st);
}

/** readForm is the FaultSettingsInput of the form, or null after marking a
 * value that is no whole number (the API checks the ranges). */
function readForm(ctl, fields) {
  const whole = (key, input) => {
    const v = input.value.trim() === "" ? 0 : Number(input.value);
    if (!Number.isInteger(v)) { fields[key].fail("A whole number, please."); return null; }
    return v;
  };
  const min = whole("min", ctl.min), max = whole("max", ctl.max), seed = whole("seed", ctl.seed);
  const rate = ctl.rate.value.trim() === "" ? 0 : Number(ctl.rate.value);
  if (Number.isNaN(rate)) { fields.rate.fail("A number from 0 to 100, please."); return null; }
  if (min === null || max === null || seed === null) return null;
  const [kind, value] = ctl.error.value.split(":");
  return { latencyMinMs: min, latencyMaxMs: max, errorRate: rate / 100, seed,
    errorCode: kind === "code" ? value : null, httpStatus: kind === "status" ? Number(value) : null };
}

/** setFaults saves a scope's settings and returns them as read back. */
async function setFaults(p, o, faults) {
  const d = await gql(`mutation($p: ID!, $o: ID, $f: FaultSettingsInput) { setFaults(projectId: $p, operationId: $o, faults: $f) { ${FAULT_FIELDS} operations { id ${FAULT_FIELDS} } } }`,
    { p: p.id, o: o ? o.id : null, f: faults });
  return o ? d.setFaults.operations.find((x) => x.id === o.id).faults : d.setFaults.faults;
}

// The API names the field it refuses (faults.latencyMinMs …); the form's
// error select stands for errorCode and httpStatus.
const FIELD_OF = [["latencyMinMs", "min"], ["latencyMaxMs", "max"], ["errorRate", "rate"], ["errorCode", "error"], ["httpStatus", "error"], ["seed", "seed"]];

/** showFieldError puts a BAD_USER_INPUT next to the field it names. */
function showFieldError(e, fields) {
  if (e.code !== "BAD_USER_INPUT") return false;
  const hit = FIELD_OF.find(([name]) => e.message.includes(name));
  if (!hit) return false;
  fields[hit[1]].fail(e.message);
  return true;
}

/** faultsCard is the project's "Faults" panel with the X-Mock-Fault hint;
 * without edit, the settings in words and no form. */
export function faultsCard(p, edit) {
  const header = h("code", { id: "faultHeader" }, `X-Mock-Fault: ${headerOf(p.faults)}`);
  const now = h("p", { id: "projectFaults" }, "Now: ", describeFaults(p.faults));
  const form = edit && faultsForm(p, null, p.faults, (f) => {
    p.faults = f;
    now.replaceChildren("Now: ", describeFaults(f));
    header.textContent = `X-Mock-Fault: ${headerOf(f)}`;
  });
  const copy = copyButton("Copy header", () => header.textContent);
  copy.id = "copyFaultHeader";
  const el = card("Faults",
    h("p", { class: "muted" }, "Make the runtime answer late or with an error, to build loading and error states. Only runtime requests (",
      h("code", {}, `/mock/${p.slug}/graphql`), ") get them; never the board, the preview or the management API. An operation's own settings (in its row above) replace these for requests that select it."),
    now, form,
    h("div", { class: "fault-hint" },
      h("p", {}, "To force one fault on a single request, whatever the settings, send the header:"),
      h("p", { class: "row tight" }, header, copy),
      h("p", { class: "muted" }, "Parts: ", h("code", {}, "latency=800ms"), ", ", h("code", {}, "error=INTERNAL"), ", ", h("code", {}, "status=503"),
        ", ", h("code", {}, "field=Product.price"), " (a field error; with error=, its code), joined with ", h("code", {}, ";"), "; or ", h("code", {}, "none"),
        " to skip the settings for that request.")));
  el.id = "faults";
  return el;
}

/** operationFaults is an operation's own settings, folded in its row; the
 * form is made when first unfolded (a project has up to hundreds of rows).
 * Without edit, the settings in words. */
export function operationFaults(p, o, edit) {
  const own = (f) => (f ? describeFaults(f) : "the project's");
  const sum = h("span", { class: "faults-now" }, own(o.faults));
  if (!edit) return h("span", { class: "op-faults", dataset: { operationFaults: o.name } }, "Faults: ", sum);
  const el = h("details", { class: "op-faults", dataset: { operationFaults: o.name } }, h("summary", {}, "Faults: ", sum));
  el.addEventListener("toggle", () => {
    if (el.open && el.children.length === 1) el.append(faultsForm(p, o, o.faults, (f) => { o.faults = f; sum.textContent = own(f); }));
  });
  return el;
}
