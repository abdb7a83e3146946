// page-project.js: one project's pages (tabs), its loading, and the banner
// of a session project (countdown, "Sign up to keep this project").
import { h, gql, fill, field, status, action, copyButton } from "./dom.js";
import { modelTab } from "./tab-model.js";
import { diagramTab } from "./tab-diagram.js";
import { designTab } from "./tab-design.js";
import { playgroundTab } from "./tab-playground.js";
import { keysTab } from "./tab-keys.js";
import { logTab } from "./tab-log.js";
import { FAULT_FIELDS } from "./tab-faults.js";
import { schemaTab, CONTRACT_FIELDS } from "./tab-schema.js";
import { mayEdit, roleBanner } from "./role.js";
import { go, onEdited, announce } from "./live.js";

export const PROJECT_FIELDS = `id name slug kind myRole runtimeUrl allowedOrigins previewUrl previewSharing shareToken expiresAt createdAt ${FAULT_FIELDS}
  tables { id name ready notReadyReason source { importCode variant }
    attributes { id name type sortable filterable required mappingType sourceMapping { path } constantValue computedExpression generator { kind options } } }
  relations { id sourceTableId targetTableId direction cardinality sourceAttribute targetAttribute fieldName inverseFieldName }
  operations { id tableId name kind enabled parameters { name attribute operator } options { relay where orderBy subscriptions } ${FAULT_FIELDS} }
  views { id tableId kind name }
  ${CONTRACT_FIELDS}`;

/** loadProject reads the whole project, or throws. */
export async function loadProject(id) {
  const d = await gql(`query($id: ID) { project(id: $id) { ${PROJECT_FIELDS} } }`, { id });
  if (!d.project) throw new Error("This project does not exist, or this browser may not open it.");
  return d.project;
}

const TABS = [["model", "Model"], ["diagram", "Diagram"], ["design", "API design"], ["playground", "Playground"], ["log", "Request log"], ["keys", "API keys"]];
const RENDER = { model: modelTab, schema: schemaTab, diagram: diagramTab, design: designTab, playground: playgroundTab, log: logTab, keys: keysTab };

/** tabsOf is project p's tabs: a project that serves an imported schema
 * (Project.contract) has a Schema tab after Model. */
const tabsOf = (p) => (p.contract ? [TABS[0], ["schema", "Schema"], ...TABS.slice(1)] : TABS);

// shown is the project on the page, kept while its tabs change: a tab
// switch renders the tab from it without reading the project again.
let shown = null; // {id, p, who, shell, tabs, body}

/** leaveProject forgets the project shown (the router moved elsewhere). */
export function leaveProject() {
  shown = null;
  fill(document.getElementById("banner"));
}

/** projectPage shows tab of project id; the project is read when it is not
 * the one shown (or fresh asks for it again). */
export async function projectPage(main, who, id, tab, fresh) {
  if (!shown || shown.id !== id || fresh || !main.contains(shown.shell)) shown = await openProject(main, who, id);
  const { p, tabs } = shown;
  for (const a of tabs.querySelectorAll("a")) {
    if (a.dataset.tab === tab || (!RENDER[tab] && a.dataset.tab === "model")) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  document.title = `${p.name} · mockgql`;
  // The tab renders into a fresh box that holds the old tab's content until
  // the new one fills it: no blank "Loading…" between tabs, and a render
  // overtaken by a later click fills a box no longer on the page.
  const next = h("div", { id: "tab", "aria-busy": "true" });
  next.append(...shown.body.childNodes);
  shown.body.replaceWith(next);
  shown.body = next;
  const state = shown;
  onEdited(async (msg) => {
    state.p = await loadProject(id);
    if (state.update) state.update(state.p, msg);
    else await (RENDER[tab] || modelTab)(next, state.p, who);
  });
  state.update = null;
  // Only the tab on the page hands over its update (an overtaken render's box is gone).
  await (RENDER[tab] || modelTab)(next, p, who, (update) => { if (state.body === next) state.update = update; });
  next.removeAttribute("aria-busy");
}

/** openProject reads the project and draws its frame: name, runtime path,
 * role banner and tabs. */
async function openProject(main, who, id) {
  let p = await loadProject(id);
  if (mayEdit(p) && p.tables.some((t) => !p.views.some((v) => v.tableId === t.id))) {
    // A table without views gets generateMissingViews' defaults when first opened.
    await gql(`mutation($p: ID!) { generateMissingViews(projectId: $p) { id } }`, { p: p.id }).then(async () => { p = await loadProject(id); }).catch(() => {});
  }
  fill(document.getElementById("banner"));
  if (p.kind === "SESSION") banner(p, who);
  else if (kept && kept.id === p.id) keptBanner(p, who);
  try { localStorage.setItem("mgq.lastProject", p.id); } catch { /* private mode: no default target */ }
  const base = "/board/projects/" + encodeURIComponent(p.id);
  const tabs = h("nav", { class: "tabs", "aria-label": "Project" }, tabsOf(p).map(([key, label]) =>
    h("a", { href: key === "model" ? base : `${base}/${key}`, dataset: { tab: key } }, label)));
  const body = h("div", { id: "tab" });
  const shell = h("div", { class: "project" }, h("h1", {}, p.name),
    h("p", { class: "muted" }, `${p.kind.toLowerCase()} project`,
      p.expiresAt ? ` · expires ${new Date(p.expiresAt).toLocaleString()}` : "",
      ` · your role: ${p.myRole.toLowerCase()}`),
    runtimeBox(p, base), roleBanner(p, who), tabs, body);
  fill(main, shell);
  return { id, p, who, shell, tabs, body };
}

/** runtimeBox is the project's runtime URL in its header: copy it, open
 * it in GraphiQL (the runtime's own page), and what opens it — the share
 * token in the URL (guest and session projects) or an API key. */
export function runtimeBox(p, base) {
  const copy = copyButton("Copy the runtime URL", () => p.runtimeUrl);
  copy.id = "copyRuntimeUrl";
  const opens = p.kind === "ACCOUNT"
    ? ["Answers to API keys (", h("code", {}, "Authorization: Bearer"), "): ", h("a", { href: `${base}/keys` }, "API keys"), "."]
    : ["The share token in it opens the runtime: whoever has the URL can call it."];
  return h("div", { class: "runtime", id: "runtime", role: "region", "aria-label": "Runtime URL" },
    h("span", { class: "runtime-label" }, "Runtime URL"), h("code", { id: "runtimeUrl" }, p.runtimeUrl),
    h("span", { class: "row tight" }, copy, h("a", { class: "button secondary", id: "openGraphiql", href: p.runtimeUrl, target: "_blank", rel: "noopener" }, "Open in GraphiQL")),
    h("span", { class: "muted" }, ...opens));
}

/** banner shows a session project's time left and runs the sign-up that
 * transfers it into a new account (signUp with the board session). */
function banner(p, who) {
  const left = h("strong", { id: "countdown" });
  const tick = () => {
    const s = Math.max(0, Math.floor((new Date(p.expiresAt) - Date.now()) / 1000));
    left.textContent = `${Math.floor(s / 3600)}h ${String(Math.floor(s / 60) % 60).padStart(2, "0")}m ${String(s % 60).padStart(2, "0")}s`;
  };
  tick();
  const timer = setInterval(() => (left.isConnected ? tick() : clearInterval(timer)), 1000);
  const form = h("form", { class: "row", hidden: true, id: "keepForm" });
  const email = h("input", { type: "email", id: "keepEmail", autocomplete: "email", required: true });
  const pw = h("input", { type: "password", id: "keepPassword", autocomplete: "new-password", required: true, minlength: 8 });
  const st = status();
  const keep = action(h("button", { type: "submit", id: "keepSubmit" }, "Create account and keep it"), st, async () => {
    await gql(`mutation($e: String!, $p: String!) { signUp(email: $e, password: $p) { user { id } } }`, { e: email.value, p: pw.value });
    go(location.pathname, true); // the project is now the new account's: read it and the user again
  });
  form.append(field("Email", email), field("Password", pw, "At least 8 characters."), keep);
  const cta = h("button", { type: "button", id: "keep" }, "Sign up to keep this project");
  cta.addEventListener("click", () => { form.hidden = false; cta.hidden = true; email.focus(); });
  const bar = h("div", { class: "banner", role: "region", "aria-label": "Project expiry" },
    h("span", {}, "This project is deleted in ", left, who ? " unless you keep it in a workspace." : " unless you sign up."),
    who ? keepControls(p, who, st) : cta, form, st);
  fill(document.getElementById("banner"), bar);
}

// kept is the project a signed-in person just kept ({id, workspace}): its
// page then says what changed (keptBanner).
let kept = null;

/** keepControls are a signed-in person's way to keep a session project
 * (keepSessionProject): one button for the only workspace where they may
 * (EDITOR and above), or a workspace select and a button for several. */
function keepControls(p, who, st) {
  const box = h("span", { class: "row tight", id: "keepIn" });
  gql(`{ myAccounts { id name plan myRole current } }`).then((d) => {
    const ws = d.myAccounts.filter((w) => w.myRole !== "VIEWER").sort((a, b) => b.current - a.current);
    if (!ws.length) {
      fill(box, h("span", {}, "Keeping it needs role editor or higher in a workspace; yours are all viewer."));
      return;
    }
    const sel = ws.length > 1 ? h("select", { id: "keepAccount" }, ws.map((w) => h("option", { value: w.id }, w.name))) : null;
    const btn = h("button", { type: "button", id: "keepInWorkspace" }, sel ? "Keep it" : `Keep it in ${ws[0].name}`);
    action(btn, st, async () => {
      const w = sel ? ws.find((x) => x.id === sel.value) : ws[0];
      await gql(`mutation($p: ID!, $a: ID) { keepSessionProject(projectId: $p, accountId: $a) { id } }`, { p: p.id, a: w.id });
      // The board follows the project into its workspace, where it is listed now.
      if (!w.current) await gql(`mutation($a: ID!) { switchAccount(accountId: $a) { account { id } } }`, { a: w.id });
      kept = { id: p.id, workspace: w.name };
      go(location.pathname, true);
    });
    fill(box, sel ? [h("label", { for: "keepAccount" }, "Keep it in"), sel] : null, btn);
  }).catch((e) => st.fail(e));
  return box;
}

/** keptBanner says what keeping a session project changed and what to do
 * next: it is an account project now, its runtime answers only to API
 * keys (the assistant's share-token URL stops working), and how to get a
 * key on this plan. */
function keptBanner(p, who) {
  const base = "/board/projects/" + encodeURIComponent(p.id);
  const plan = who.account.plan;
  const keys = plan === "STARTER"
    ? [h("strong", {}, "API keys need the Professional plan or above"), `; ${kept.workspace} is on ${plan.toLowerCase()}. `,
      h("a", { href: "/board/account" }, "Change the plan under Account"), " (the owner can), then create a key under ",
      h("a", { href: `${base}/keys` }, "API keys"), ". Until then, the ", h("a", { href: `${base}/playground` }, "Playground"), " runs queries without a key."]
    : ["Create a key under ", h("a", { href: `${base}/keys` }, "API keys"), " and send it as ", h("code", {}, "Authorization: Bearer <key>"), "."];
  const close = h("button", { type: "button", class: "secondary", id: "keptDismiss" }, "Got it");
  close.addEventListener("click", () => { kept = null; fill(document.getElementById("banner")); });
  const bar = h("div", { class: "banner kept", id: "kept", role: "region", "aria-label": "Project kept" },
    h("p", {}, h("strong", {}, `Kept in ${kept.workspace}. `), `${p.name} is now an account project of ${kept.workspace}: it no longer expires and is listed under `,
      h("a", { href: "/board/projects" }, "Projects"), "."),
    h("p", {}, "Its runtime now answers only to API keys, so the URL with the share token the assistant handed out stops working (401). The runtime URL is ",
      h("code", { id: "keptRuntimeUrl" }, p.runtimeUrl), " ", copyButton("Copy", () => p.runtimeUrl), "."),
    h("p", { id: "keptKeys" }, ...keys), close);
  fill(document.getElementById("banner"), bar);
  announce(`Kept in ${kept.workspace}: now an account project; its runtime answers only to API keys.`);
}
