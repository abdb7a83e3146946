// dom.js: the board's few helpers. Every element is made with h(), which
// sets text with text nodes and attributes with setAttribute, never HTML:
// a value from data is escaped by construction (no innerHTML anywhere).

/** h makes an element: h("a", {href: "/x", onclick: fn}, "text", child, [more]). */
export function h(tag, props, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (k === "value" || k === "checked" || k === "selected") e[k] = v;
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  append(e, kids);
  return e;
}

function append(e, kids) {
  for (const k of kids) {
    if (k === null || k === undefined || k === false) continue;
    if (Array.isArray(k)) append(e, k);
    else e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  }
}

let seq = 0;
/** uid returns a fresh element id. */
export const uid = (p = "f") => `u-${p}${++seq}`;

/** field is a labelled control: the visible label is its accessible name. */
export function field(label, control, hint) {
  const id = control.id || (control.id = uid());
  const hintEl = hint ? h("span", { class: "hint", id: id + "-hint" }, hint) : null;
  if (hintEl) control.setAttribute("aria-describedby", hintEl.id);
  return h("div", { class: "field" }, h("label", { for: id }, label), control, hintEl);
}

/** check is a labelled checkbox. */
export function check(label, checked, onchange, props = {}) {
  const box = h("input", { type: "checkbox", checked, onchange, ...props });
  return h("label", { class: "check" }, box, " ", label);
}

/** select makes a <select> of [value, text] pairs (or plain strings). */
export function select(options, value, props = {}) {
  return h("select", props, options.map((o) => {
    const [v, t] = Array.isArray(o) ? o : [o, o];
    return h("option", { value: v, selected: v === value }, t);
  }));
}

/** GqlError is a refusal of the API, with its code (docs/reference/errors.md). */
export class GqlError extends Error {
  constructor(message, code) { super(message); this.code = code; }
}

/** refused announces a refusal on window ("mgq:refused"), so that one
 * place (workspaces.js) can tell a session that ended, and returns it. */
function refused(err) {
  if (err.code === "FORBIDDEN" || err.code === "UNAUTHENTICATED") window.dispatchEvent(new CustomEvent("mgq:refused", { detail: err }));
  return err;
}

async function post(url, query, variables) {
  let r;
  try {
    r = await fetch(url, { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ query, variables }) });
  } catch { // the request never got an answer: offline, or the server is down or restarting
    throw new GqlError("The server could not be reached: check the connection, then try again.", "UNAVAILABLE");
  }
  let body;
  try { body = await r.json(); } catch { throw new GqlError(`the server answered ${r.status} without JSON`, "INTERNAL"); }
  if (body.errors && body.errors.length) {
    const e = body.errors[0];
    throw refused(new GqlError(e.message, (e.extensions && e.extensions.code) || body.code || "ERROR"));
  }
  if (!r.ok) throw refused(new GqlError(body.detail || body.message || body.code, body.code));
  return body.data;
}

/** gql runs a management API request (/graphql) with the board's cookie. */
export const gql = (query, variables) => post("/graphql", query, variables);
/** publicGql runs a public API request (/public-graphql) with the session cookie. */
export const publicGql = (query, variables) => post("/public-graphql", query, variables);

/** status is a live region for the outcome of an action. */
export function status() {
  const e = h("p", { class: "status", role: "status", "aria-live": "polite" });
  e.ok = (msg) => { e.className = "status ok"; e.textContent = msg; };
  e.fail = (err) => { e.className = "status error"; e.textContent = err instanceof Error ? err.message : String(err); };
  e.clear = () => { e.className = "status"; e.textContent = ""; };
  return e;
}

/** busy runs an action with its button disabled, reporting to st. */
export function action(button, st, fn) {
  button.addEventListener("click", async (ev) => {
    ev.preventDefault();
    button.disabled = true;
    st && st.clear();
    try { await fn(); } catch (e) { st ? st.fail(e) : console.error(e); } finally { button.disabled = false; }
  });
  return button;
}

/** copyButton copies text() to the clipboard and says so. */
export function copyButton(label, text) {
  const b = h("button", { type: "button", class: "secondary" }, label);
  b.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(text()); b.textContent = "Copied"; }
    catch { b.textContent = "Select and copy by hand"; }
    setTimeout(() => { b.textContent = label; }, 2000);
  });
  return b;
}

/** when formats a DateTime for people, or "never". */
export const when = (t) => (t ? new Date(t).toLocaleString() : "never");

/** section is a card with a heading. */
export function card(title, ...kids) {
  const id = uid("h");
  return h("section", { class: "card", "aria-labelledby": id }, h("h2", { id }, title), kids);
}

/** scroller is a horizontally scrolling box (a wide table) that the
 * keyboard reaches and screen readers name: a read-only table has no
 * control inside to scroll it into view. */
export function scroller(label, ...kids) {
  return h("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": label }, kids);
}

/** clear empties an element and appends kids. */
export function fill(e, ...kids) { e.replaceChildren(); append(e, kids); return e; }

/** count says n things with the right plural: count(1, "relation") is
 * "1 relation", count(3, "category", "categories") "3 categories". */
export const count = (n, one, many = one + "s") => `${Number(n).toLocaleString()} ${n === 1 ? one : many}`;
