// tab-keys.js: the project's API keys: create (name, scope, expiry,
// maxActors), the value shown once, list (with active actors), revoke,
// delete; the plan gate. Managing keys needs EDITOR (role.js): below it,
// the tab says so and lists the allowed origins as text. An EDITOR creates
// RUNTIME keys and revokes or deletes the keys they created; ADMIN and
// OWNER everything (docs/using/accounts.md): the tab offers only that.
import { h, gql, fill, field, select, status, action, card, copyButton, when } from "./dom.js";
import { originsCard } from "./origins.js";
import { mayEdit, isAdmin, mayManageKey } from "./role.js";
import { swap, announce } from "./live.js";
import { ask } from "./guard.js";

export async function keysTab(body, p, who) {
  if (p.kind !== "ACCOUNT") {
    return fill(body, card("API keys", h("p", {}, `A ${p.kind.toLowerCase()} project has no API keys: its runtime answers to its share token, which is in its runtime URL:`),
      h("p", {}, h("code", {}, p.runtimeUrl)), p.kind === "SESSION" ? h("p", { id: "keysAfterKeep" }, who
        ? "Keep it in a workspace (the button at the top); its runtime then answers to API keys, which need the Professional plan or above."
        : "Sign up to keep this project; it then gets API keys on the Professional plan.") : null));
  }
  if (!mayEdit(p)) {
    return fill(body, card("API keys", h("p", { id: "keysNeedEditor" }, "Creating, listing and revoking this project's API keys needs the Editor role. ",
      "Ask an admin of the account for a key, or run queries in the Playground.")), originsCard(p, false));
  }
  if (who && who.account.plan === "STARTER") {
    return fill(body, card("API keys", h("p", { id: "planGate" }, "API keys are available on the Professional plan and above; your account is on Starter. ",
      h("a", { href: "/board/account" }, "Change the plan under Account"), ". Until then, run queries in the Playground.")));
  }
  const list = h("div", { id: "keyList" });
  // who is needed for "created by you" and the EDITOR's own keys.
  // refresh reads the keys again and re-renders their card in place,
  // saying msg next to the control used and in the page's live region.
  const refresh = async (msg) => {
    let fresh;
    try {
      const d = await gql(`query($p: ID!) { apiKeys(projectId: $p) { id name scope prefix expiresAt revoked maxActors activeActors createdAt lastUsedAt createdBy { id email name } } }`, { p: p.id });
      fresh = listCard(p, who, d.apiKeys, refresh);
    } catch (e) { fresh = card("Keys", h("p", { class: "status error" }, e.message)); }
    if (list.firstElementChild) swap(list.firstElementChild, fresh, msg); else list.append(fresh);
    if (msg) announce(msg);
  };
  await refresh();
  fill(body, createCard(p, refresh), list, originsCard(p, true));
}

function createCard(p, refresh) {
  const name = h("input", { type: "text", id: "keyName", required: true, placeholder: "web app dev" });
  const admin = isAdmin(p.myRole);
  const scope = select([["RUNTIME", "Runtime: queries the mock API"], ...(admin ? [["FULL", "Full: runtime and management API"], ["MANAGEMENT", "Management: management API only"]] : [])], "RUNTIME", { id: "keyScope" });
  const expires = h("input", { type: "datetime-local", id: "keyExpires" });
  const actors = h("input", { type: "number", id: "keyActors", min: 1, max: 1000, value: 5 });
  const shown = h("div", { id: "keyValueBox" });
  const st = status();
  const create = action(h("button", { type: "submit", id: "createKey" }, "Create key"), st, async () => {
    const d = await gql(`mutation($p: ID!, $n: String!, $s: ApiKeyScope!, $e: DateTime, $m: Int) { createApiKey(projectId: $p, name: $n, scope: $s, expiresAt: $e, maxActors: $m) { value key { prefix } } }`,
      { p: p.id, n: name.value.trim(), s: scope.value, e: expires.value ? new Date(expires.value).toISOString() : null, m: Number(actors.value) || null });
    const value = d.createApiKey.value;
    const copy = copyButton("Copy the key", () => value);
    copy.id = "copyKey";
    fill(shown, h("div", { class: "warning", role: "alert" },
      h("p", {}, h("strong", {}, "Copy this key now: it is shown only once.")),
      h("p", {}, h("code", { id: "keyValue" }, value), " ", copy),
      h("p", {}, "The key is a secret: it belongs in server-side code, CI secrets, or a dev-server proxy that adds the header — never in a front-end bundle."),
      h("p", {}, "It is in the list below by its prefix only.")));
    await refresh(`Created the key ${name.value.trim()}: copy it now, it is shown only once.`);
  });
  const scopeField = field("Scope", scope, admin ? null : "An editor creates Runtime keys; Full and Management keys need the Admin role.");
  scopeField.classList.add("wide"); // its options are long: on a phone it takes the whole line
  return card("Create an API key", h("form", {}, h("div", { class: "row" }, field("Key name", name), scopeField,
    field("Expires (optional)", expires, "After it, the key answers 401 API_KEY_EXPIRED."), field("Max actors", actors, "Concurrent actor tokens, 1 to 1000.")), create), st, shown);
}

function listCard(p, who, keys, refresh) {
  const st = status();
  const box = h("div", { class: "confirm", id: "keyConfirm" });
  /** guard asks before a revoke or delete, naming the key and what stops. */
  const guard = (btn, question, detail, yes, run) => { btn.addEventListener("click", () => ask(box, { from: btn, question, detail, yes }, st, run)); return btn; };
  if (!keys.length) return card("Keys", h("p", { class: "muted", id: "noKeys" }, "No keys yet: create one with the form above; it is shown once, then listed here by its prefix."));
  const rows = keys.map((k) => {
    const may = mayManageKey(p, who, k);
    const what = `the ${k.scope.toLowerCase()} key “${k.name}” (${k.prefix}…)`;
    const stops = k.scope === "MANAGEMENT" ? "Scripts that use it get 401 API_KEY_INVALID from the management API at once" : "Apps and scripts that use it get 401 API_KEY_INVALID at once";
    const revoke = k.revoked || !may ? null : guard(h("button", { type: "button", class: "secondary", "aria-label": `Revoke ${k.name}` }, "Revoke"),
      `Revoke ${what}?`, `${stops}, and its ${k.activeActors} active actor token${k.activeActors === 1 ? "" : "s"} stop working. It stays listed as revoked; this cannot be undone.`, `Revoke ${k.name}`, async () => {
        await gql(`mutation($id: ID!) { revokeApiKey(keyId: $id) { id } }`, { id: k.id }); await refresh(`Revoked ${k.name}: it no longer opens the runtime.`);
      });
    const del = !may ? null : guard(h("button", { type: "button", class: "danger", "aria-label": `Delete ${k.name}` }, "Delete"),
      `Delete ${what}?`, `${k.revoked ? "It is revoked already; it" : `${stops}; it`} disappears from this list, with its record of use. This cannot be undone.`, `Delete ${k.name}`, async () => {
        await gql(`mutation($id: ID!) { deleteApiKey(keyId: $id) }`, { id: k.id }); await refresh(`Deleted ${k.name}.`);
      });
    const td = (label, v, cls) => h("td", { "data-label": label, class: cls }, v);
    return h("tr", { dataset: { key: k.name } }, h("th", { scope: "row" }, k.name), td("Prefix", k.prefix + "…", "mono"), td("Scope", k.scope.toLowerCase()),
      td("Expires", k.expiresAt ? when(k.expiresAt) : "never"), td("State", k.revoked ? "revoked" : "active", k.revoked ? "notready" : ""),
      td("Created by", k.createdBy ? (who && k.createdBy.id === who.me.id ? "you" : k.createdBy.name ? `${k.createdBy.name} (${k.createdBy.email})` : k.createdBy.email) : "unknown"),
      td("Last used", k.lastUsedAt ? when(k.lastUsedAt) : "never"), td("Active actors", `${k.activeActors} of ${k.maxActors}`),
      h("td", {}, may ? h("div", { class: "row tight" }, revoke, del) : h("span", { class: "muted" }, "An admin can revoke it.")));
  });
  return card(`Keys (${keys.length})`, h("div", { class: "scroll" }, h("table", { class: "data stack", id: "keys" },
    h("thead", {}, h("tr", {}, ["Name", "Prefix", "Scope", "Expires", "State", "Created by", "Last used", "Active actors", ""].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, rows))), box, st);
}
