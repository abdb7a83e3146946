// page-project.js: one project's pages (tabs), its loading, and the banner
// of a session project (countdown, "Sign up to keep this project").
import { h, gql, fill, field, status, action } from "./dom.js";
import { modelTab } from "./tab-model.js";
import { diagramTab } from "./tab-diagram.js";
import { designTab } from "./tab-design.js";
import { playgroundTab } from "./tab-playground.js";
import { keysTab } from "./tab-keys.js";
import { logTab } from "./tab-log.js";
import { FAULT_FIELDS } from "./tab-faults.js";
import { mayEdit, roleBanner } from "./role.js";

export const PROJECT_FIELDS = `id name slug kind myRole runtimeUrl allowedOrigins previewUrl previewSharing shareToken expiresAt createdAt ${FAULT_FIELDS}
  tables { id name ready notReadyReason source { importCode variant }
    attributes { id name type sortable filterable required mappingType sourceMapping { path } constantValue computedExpression generator { kind options } } }
  relations { id sourceTableId targetTableId direction cardinality sourceAttribute targetAttribute fieldName inverseFieldName }
  operations { id tableId name kind enabled parameters { name attribute operator } options { relay where orderBy } ${FAULT_FIELDS} }
  views { id tableId kind name }`;

/** loadProject reads the whole project, or throws. */
export async function loadProject(id) {
  const d = await gql(`query($id: ID) { project(id: $id) { ${PROJECT_FIELDS} } }`, { id });
  if (!d.project) throw new Error("This project does not exist, or this browser may not open it.");
  return d.project;
}

const TABS = [["model", "Model"], ["diagram", "Diagram"], ["design", "API design"], ["playground", "Playground"], ["log", "Request log"], ["keys", "API keys"]];
const RENDER = { model: modelTab, diagram: diagramTab, design: designTab, playground: playgroundTab, log: logTab, keys: keysTab };

export async function projectPage(main, who, id, tab) {
  let p = await loadProject(id);
  if (mayEdit(p) && p.tables.some((t) => !p.views.some((v) => v.tableId === t.id))) {
    // A table without views gets generateMissingViews' defaults when first opened.
    await gql(`mutation($p: ID!) { generateMissingViews(projectId: $p) { id } }`, { p: p.id }).then(async () => { p = await loadProject(id); }).catch(() => {});
  }
  document.title = `${p.name} · mockgql`;
  if (p.kind === "SESSION") banner(p, who);
  const base = "/board/projects/" + encodeURIComponent(p.id);
  const tabs = h("nav", { class: "tabs", "aria-label": "Project" }, TABS.map(([key, label]) =>
    h("a", { href: key === "model" ? base : `${base}/${key}`, "aria-current": key === tab ? "page" : null }, label)));
  const body = h("div", { id: "tab" });
  fill(main, h("h1", {}, p.name),
    h("p", { class: "muted" }, `${p.kind.toLowerCase()} project · `, h("code", {}, `/mock/${p.slug}/graphql`),
      p.expiresAt ? ` · expires ${new Date(p.expiresAt).toLocaleString()}` : "",
      ` · your role: ${p.myRole.toLowerCase()}`),
    roleBanner(p, who), tabs, body);
  const render = RENDER[tab] || modelTab;
  await render(body, p, who);
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
  setInterval(tick, 1000);
  const form = h("form", { class: "row", hidden: true, id: "keepForm" });
  const email = h("input", { type: "email", id: "keepEmail", autocomplete: "email", required: true });
  const pw = h("input", { type: "password", id: "keepPassword", autocomplete: "new-password", required: true, minlength: 8 });
  const st = status();
  const go = action(h("button", { type: "submit", id: "keepSubmit" }, "Create account and keep it"), st, async () => {
    await gql(`mutation($e: String!, $p: String!) { signUp(email: $e, password: $p) { user { id } } }`, { e: email.value, p: pw.value });
    location.reload();
  });
  form.append(field("Email", email), field("Password", pw, "At least 8 characters."), go);
  const cta = h("button", { type: "button", id: "keep" }, "Sign up to keep this project");
  cta.addEventListener("click", () => { form.hidden = false; cta.hidden = true; email.focus(); });
  const bar = h("div", { class: "banner", role: "region", "aria-label": "Project expiry" },
    h("span", {}, "This project is deleted in ", left, " unless you sign up."), who ? null : cta, form, st);
  fill(document.getElementById("banner"), bar);
}
