// live.js: edits in place and moves between pages without a full load.
//
// A page is a deck of cards, each made by one renderer from the page's
// data. After an edit the page reloads its data and re-renders, in place,
// the cards whose data changed and the one the person used: the window's
// scroll position, the focused control and the open <details> are kept,
// and the result is announced in the page's aria-live region (#announce)
// and shown in the status line nearest the control. The next feature adds
// a card, not a reload.

let editedHandler = null;
let leaving = [];
let lastTarget = null;

// The control a person used last: an edit's result is shown next to it and
// focus returns to it, even when a script clicked it without focusing.
for (const type of ["click", "change", "submit"]) document.addEventListener(type, (e) => { lastTarget = e.target; }, true);

/** go moves the board to path (a /board/... address) without a full
 * load: app.js's router renders it and pushes it onto the history. With
 * fresh, the signed-in user and the page's data are read again. */
export function go(path, fresh = false) {
  document.dispatchEvent(new CustomEvent("board:go", { detail: { path, fresh } }));
}

/** onEdited sets what edited() runs for the page shown: reload the data and
 * update its deck. The router clears it on every move. */
export function onEdited(fn) { editedHandler = fn; }

/** edited tells the page that an edit succeeded: the page re-renders what
 * changed and msg is announced. It never reloads the document. */
export async function edited(msg) {
  if (editedHandler) await editedHandler(msg);
  announce(msg);
}

/** onLeave runs fn when the board moves to another page or tab (timers,
 * GraphiQL's React root). */
export function onLeave(fn) { leaving.push(fn); }

/** leave runs and forgets the onLeave functions (the router calls it). */
export function leave() {
  const fns = leaving;
  leaving = [];
  editedHandler = null;
  for (const fn of fns) { try { fn(); } catch (e) { console.error(e); } }
}

/** announce says msg in the page's aria-live region; error marks a failure. */
export function announce(msg, error = false) {
  const el = document.getElementById("announce");
  if (!el) return;
  el.className = error ? "sr-only error" : "sr-only";
  el.textContent = "";
  // A new text node after a tick is announced even when msg repeats.
  setTimeout(() => { el.textContent = msg; }, 30);
}

/** deck renders cards into container and updates them in place; an
 * update with msg shows it in the status line nearest the control used
 * (edited() announces it). cardsOf(data)
 * returns [{key, deps, render}] in page order: key names a card across
 * updates, deps is what its content depends on (compared as JSON), render()
 * makes its element. With keepPlace the cards stay where they are among
 * the container's other children (swap). */
export function deck(container, cardsOf, keepPlace = false) {
  let shown = new Map(); // key → {deps, el}
  const update = (data, msg) => {
    const used = cardOf(lastTarget, shown);
    const y = window.scrollY;
    const focus = remember(document.activeElement && document.activeElement !== document.body ? document.activeElement : lastTarget, shown);
    const next = new Map();
    let prev = null;
    for (const c of cardsOf(data)) {
      const deps = JSON.stringify(c.deps === undefined ? null : c.deps);
      const old = shown.get(c.key);
      let el = old && old.deps === deps && c.key !== used ? old.el : null;
      if (!el) {
        el = c.render();
        if (old) restoreDetails(old.el, el);
        if (old) old.el.replaceWith(el);
      }
      if (!keepPlace && (el.previousElementSibling !== prev || el.parentNode !== container)) {
        if (prev) prev.after(el); else container.prepend(el);
      }
      next.set(c.key, { deps, el });
      prev = el;
    }
    for (const [key, o] of shown) if (!next.has(key)) o.el.remove();
    shown = next;
    window.scrollTo(window.scrollX, y);
    const ctl = focus && restoreFocus(focus, shown);
    if (msg) showNear(ctl, msg);
  };
  // adopt makes el, already on the page, the card key (re-rendered at the next update).
  const adopt = (key, el) => { shown.set(key, { deps: undefined, el }); };
  return { update, adopt };
}

/** cardOf is the key of the card that holds el. */
function cardOf(el, shown) {
  for (const [key, o] of shown) if (el && o.el.contains(el)) return key;
  return null;
}

/** signature names a control so that its re-rendered twin is found: tag,
 * a stable id, its accessible name or text, and the data-* of the nearest
 * element that names a row (an attribute, an operation, a key...). */
function signature(e) {
  const id = e.id && !e.id.startsWith("u-") ? e.id : "";
  const text = ["BUTTON", "SUMMARY", "A"].includes(e.tagName) ? e.textContent.trim() : "";
  const label = e.labels && e.labels[0] ? e.labels[0].textContent.trim() : "";
  const row = e.parentElement && e.parentElement.closest("[data-attribute],[data-operation],[data-key],[data-relation],[data-parameter],[data-path],[data-dataset],[data-project]");
  const names = row ? JSON.stringify({ ...row.dataset }) : "";
  return [e.tagName, id, e.getAttribute("aria-label") || "", e.getAttribute("name") || "", text, label, names].join("|");
}

/** remember locates el inside its card as {key, sig, nth}. */
function remember(el, shown) {
  const key = cardOf(el, shown);
  if (!key) return null;
  const root = shown.get(key).el;
  const sig = signature(el);
  const same = [...root.querySelectorAll(el.tagName)].filter((x) => signature(x) === sig);
  return { key, sig, tag: el.tagName, nth: Math.max(0, same.indexOf(el)) };
}

/** restoreFocus focuses the remembered control's twin (or its card's
 * heading when it is gone) without scrolling, and returns it. */
function restoreFocus(f, shown) {
  const o = shown.get(f.key);
  if (!o) { // the card is gone (a deleted table): the page keeps the focus
    const main = document.getElementById("main");
    if (main && document.activeElement === document.body) main.focus({ preventScroll: true });
    return null;
  }
  const same = [...o.el.querySelectorAll(f.tag)].filter((x) => signature(x) === f.sig);
  let el = same[Math.min(f.nth, same.length - 1)];
  if (!el) {
    el = o.el.querySelector("h2");
    if (el) el.setAttribute("tabindex", "-1");
  }
  if (el && document.activeElement !== el) el.focus({ preventScroll: true });
  return el;
}

/** restoreDetails opens in to the <details> open in from (matched by their
 * summary's text and order). */
function restoreDetails(from, to) {
  // Counts in a summary change with the edit ("3 without an attribute"): not part of its name.
  const sig = (d) => (d.querySelector("summary") || { textContent: "" }).textContent.trim().replace(/\d+/g, "#");
  const open = from.querySelectorAll("details[open]");
  if (!open.length) return;
  const all = [...to.querySelectorAll("details")];
  for (const d of open) {
    const twin = all.find((x) => !x.open && sig(x) === sig(d));
    if (twin) twin.open = true;
  }
}

/** showNear writes msg into the status line nearest el, inside its card. */
function showNear(el, msg) {
  for (let a = el && el.parentElement; a; a = a.parentElement) {
    const st = a.querySelector('[role="status"]');
    if (st) { if (st.ok) st.ok(msg); else st.textContent = msg; return; }
    if (a.classList.contains("card")) return;
  }
}

/** swap replaces old with fresh in place, as one card of a deck is: where
 * old was among its siblings, which need not be cards of a deck. */
export function swap(old, fresh, msg) {
  const d = deck(old.parentNode, () => [{ key: "x", render: () => fresh }], true);
  d.adopt("x", old);
  d.update(null, msg);
}
