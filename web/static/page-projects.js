// page-projects.js: the project list: create, rename, change slug, delete.
import { h, gql, publicGql, fill, field, status, action, card, when } from "./dom.js";
import { mayEdit, mayEditAccount, mayDeleteProject } from "./role.js";
import { go, onEdited, swap, edited } from "./live.js";
import { ask } from "./guard.js";
import { startCard } from "./schema-start.js";

const PROJECT = `id name slug kind myRole expiresAt createdAt tables { id } contract { version }`;

/** visibleProjects lists what this browser may open: an account's projects,
 * or, signed out, the adopted project or the guest session's project. */
async function visibleProjects(who) {
  if (who) return (await gql(`{ projects { ${PROJECT} } }`)).projects;
  const out = [];
  try { out.push(...(await gql(`{ projects { ${PROJECT} } }`)).projects); } catch { /* no board session */ }
  try {
    const d = await publicGql(`{ sessionProject { ${PROJECT} } }`);
    if (d.sessionProject && !out.some((p) => p.id === d.sessionProject.id)) out.push(d.sessionProject);
  } catch { /* no session */ }
  // The guest project this browser started (the API lists a session's
  // session project, not its guest project); its session cookie opens it.
  const guest = localStorage.getItem("mgq.guestProject");
  if (guest && !out.some((p) => p.id === guest)) {
    try {
      const d = await gql(`query($id: ID) { project(id: $id) { ${PROJECT} } }`, { id: guest });
      if (d.project) out.push(d.project);
    } catch { localStorage.removeItem("mgq.guestProject"); }
  }
  return out;
}

export async function projectsPage(main, who) {
  const list = await visibleProjects(who);
  document.title = "Projects · mockgql";
  fill(main, h("h1", {}, "Projects"),
    !who ? [signedOutNote(list.length), startCard(null)] : mayEditAccount(who) ? [startCard(who), createForm()] : viewerNote(who),
    listCard(list, who));
  // An edit re-renders the list in place (focus and scroll kept).
  onEdited(async (msg) => {
    const old = main.querySelector("#projectList");
    if (old) swap(old, listCard(await visibleProjects(who), who), msg);
  });
}

/** listCard is the card of the projects this browser may open. */
function listCard(list, who) {
  const rows = h("tbody");
  const table = h("div", { class: "scroll" }, h("table", { class: "data stack", id: "projects" },
    h("caption", { class: "muted" }, `${list.length} project${list.length === 1 ? "" : "s"}`),
    h("thead", {}, h("tr", {}, ["Name", "Kind", "Slug", "Tables", "Expires", "Actions"].map((t) => h("th", { scope: "col" }, t)))),
    rows));
  for (const p of list) rows.append(projectRow(p, who));
  const empty = mayEditAccount(who) ? "No projects yet: create one with the form above." : "No projects yet.";
  const el = card("Your projects", list.length ? table : h("p", {}, empty));
  el.id = "projectList";
  return el;
}

function signedOutNote(n) {
  return card("Not signed in", h("p", {}, n ? "These are the projects this browser holds without an account. "
    : "You are not signed in and this browser holds no guest project. ",
  h("a", { href: "/" }, "Sign up, log in or try without an account"), "."));
}

/** viewerNote tells a VIEWER why there is nothing to create here. */
function viewerNote(who) {
  return card("New project", h("p", { id: "createNeedsEditor" }, `Creating and renaming projects needs the Editor role in ${who.account.name}, deleting them the Admin role; ask an admin of the account.`));
}

function createForm() {
  const name = h("input", { type: "text", id: "newName", required: true });
  const slug = h("input", { type: "text", id: "newSlug", pattern: "[a-z0-9-]+" });
  const st = status();
  const btn = action(h("button", { type: "submit", id: "create" }, "Create project"), st, async () => {
    if (!name.value.trim()) throw new Error("A project needs a name.");
    const d = await gql(`mutation($n: String!, $s: String) { createProject(name: $n, slug: $s) { id } }`,
      { n: name.value.trim(), s: slug.value.trim() || null });
    go("/board/projects/" + encodeURIComponent(d.createProject.id));
  });
  return card("New project", h("form", { class: "row" }, field("Name", name),
    field("Slug (optional)", slug, "Lower-case letters, digits and dashes; used in /mock/{slug}/graphql."), btn), st);
}

function projectRow(p, who) {
  const st = status();
  const open = h("a", { href: "/board/projects/" + encodeURIComponent(p.id) }, p.name);
  const actions = h("td", {});
  if (who && p.kind === "ACCOUNT" && mayEdit(p)) {
    actions.append(editControls(p, st));
    // Deleting a project needs ADMIN: an editor is told, not offered it.
    actions.append(mayDeleteProject(p) ? deleteControl(p, st) : h("p", { class: "muted" }, "Deleting it needs the Admin role."));
  }
  actions.append(st);
  return h("tr", { dataset: { project: p.name } },
    h("th", { scope: "row" }, open), h("td", { "data-label": "Kind" }, p.kind.toLowerCase(), p.contract ? h("span", { class: "muted" }, ` · GraphQL schema v${p.contract.version}`) : null), h("td", { class: "mono", "data-label": "Slug" }, p.slug),
    h("td", { "data-label": "Tables" }, String(p.tables.length)), h("td", { "data-label": "Expires" }, p.expiresAt ? when(p.expiresAt) : "never"), actions);
}

function editControls(p, st) {
  const name = h("input", { type: "text", value: p.name, "aria-label": `New name of ${p.name}` });
  const slug = h("input", { type: "text", value: p.slug, "aria-label": `New slug of ${p.name}` });
  const save = action(h("button", { type: "button", class: "secondary" }, "Save"), st, async () => {
    await gql(`mutation($id: ID!, $n: String, $s: String) { updateProject(projectId: $id, name: $n, slug: $s) { id } }`,
      { id: p.id, n: name.value.trim() || null, s: slug.value.trim() !== p.slug ? slug.value.trim() : null });
    await edited(`Saved ${name.value.trim() || p.name}: /mock/${slug.value.trim() || p.slug}/graphql.`);
  });
  const box = h("details", {}, h("summary", {}, "Rename or change slug"),
    h("div", { class: "row" }, field("Name", name), field("Slug", slug, "Changing it breaks existing runtime URLs."), save));
  return box;
}

/** deleteControl asks, naming the project, before it deletes. */
function deleteControl(p, st) {
  const btn = h("button", { type: "button", class: "danger" }, "Delete…");
  const box = h("div", { class: "confirm" });
  btn.addEventListener("click", () => ask(box, {
    from: btn, question: `Delete the project “${p.name}” (/mock/${p.slug}/graphql)?`,
    detail: `Its model (${p.tables.length} table${p.tables.length === 1 ? "" : "s"}), API keys and mock data are lost, and apps calling its runtime are refused. The datasets stay in the data pool. This cannot be undone.`,
    yes: `Delete “${p.name}”`,
  }, st, async () => {
    await gql(`mutation($id: ID!) { deleteProject(projectId: $id) }`, { id: p.id });
    await edited(`Deleted the project ${p.name}.`);
  }));
  return h("div", {}, btn, box);
}
