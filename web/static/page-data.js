// page-data.js: the data pool: datasets with their importCode, name,
// record count, variants, field paths and sample documents; import a JSON,
// NDJSON or CSV file by drag and drop or file picker, streamed through the
// upload route with a progress bar.
import { h, gql, fill, field, select, status, card, uid, action, count } from "./dom.js";
import { ask } from "./guard.js";
import { mayEditAccount } from "./role.js";
import { deck, edited, onEdited, go } from "./live.js";
import { createApi, playgroundPath } from "./fields.js";
import { loadProject } from "./page-project.js";

const POOL = `{ dataSources { importCode name owned fieldPaths recordCount variants { name recordCount } sampleDocuments(limit: 3) } }`;

export async function dataPage(main, who) {
  document.title = "Data pool · mockgql";
  let pool = [];
  let err = null;
  try { pool = (await gql(POOL)).dataSources; } catch (e) { err = e; }
  const edit = mayEditAccount(who);
  const targets = edit ? await apiTargets() : [];
  const list = h("div", { class: "grid", id: "datasets" });
  const d = deck(list, (pool) => (pool.length ? pool.map((ds) => ({ key: ds.importCode, deps: ds, render: () => datasetCard(ds, edit, targets) }))
    : [{ key: "none", render: () => card("Datasets", h("p", {}, "No datasets yet: import a JSON, NDJSON or CSV file above.")) }]));
  d.update(pool);
  onEdited(async (msg) => d.update((await gql(POOL)).dataSources, msg));
  fill(main, h("h1", {}, "Data pool"),
    h("p", { class: "muted" }, "The curated pool every project can bind its tables to, and your account's own uploads, which only its projects see. Counts and samples only: a dataset of a million rows shows three documents here."),
    edit ? uploadCard(who) : card("Import a dataset", who
      ? h("p", { id: "importNeedsEditor" }, `Importing and deleting datasets needs the Editor role in ${who.account.name}; ask an admin of the account.`)
      : h("p", {}, "Sign in to import datasets. ", h("a", { href: "/" }, "Sign up or log in"), ".")),
    err ? h("p", { class: "status error" }, err.message) : null, list);
}

/** apiTargets are the projects an API can be made in, the one opened last first. */
async function apiTargets() {
  let list = [];
  try { list = (await gql(`{ projects { id name kind myRole } }`)).projects.filter((p) => ["EDITOR", "ADMIN", "OWNER"].includes(p.myRole)); } catch { /* none */ }
  const last = localStorage.getItem("mgq.lastProject");
  return list.sort((a, b) => (b.id === last) - (a.id === last));
}

/** datasetCard shows a dataset; with edit, an API is made from it in one
 * click and an upload of the account's own can be deleted. */
function datasetCard(d, edit, targets) {
  const el = card(d.name || d.importCode,
    h("p", {}, h("code", {}, d.importCode), ` · ${count(d.recordCount, "record")}`),
    d.variants.length ? h("p", { class: "muted" }, "Variants: ", d.variants.map((v) => `${v.name} (${v.recordCount.toLocaleString()})`).join(", ")) : null,
    h("details", {}, h("summary", {}, `${d.fieldPaths.length} field paths`), h("ul", { class: "mono" }, d.fieldPaths.map((p) => h("li", {}, p)))),
    h("details", {}, h("summary", {}, "Sample documents"), d.sampleDocuments.map((doc) => h("pre", { tabindex: "0" }, JSON.stringify(doc, null, 2)))),
    h("p", { class: "muted" }, d.owned ? "Your account's upload." : "Curated pool."),
    edit ? apiControl(d, targets) : null,
    d.owned && edit ? deleteDataset(d) : null);
  el.dataset.dataset = d.importCode;
  return el;
}

/** apiControl is "Create an API from this dataset": a table with every
 * field, bound, with its operations, in the project chosen (or a new one
 * named after the dataset); it lands on the playground with a query. */
function apiControl(d, targets) {
  const st = status();
  // An account's own upload is read by its account projects only (a guest or session project reads the curated pool).
  if (d.owned) targets = targets.filter((p) => p.kind === "ACCOUNT");
  const where = select([...targets.map((p) => [p.id, p.name]), ["", `a new project “${d.name || d.importCode}”`]], targets.length ? targets[0].id : "");
  const make = action(h("button", { type: "button", class: "create-api", dataset: { api: d.importCode } }, "Create an API from this dataset"), st, async () => {
    let pid = where.value;
    if (!pid) pid = (await gql(`mutation($n: String!) { createProject(name: $n) { id } }`, { n: d.name || d.importCode })).createProject.id;
    const t = await createApi(pid, d.importCode);
    const p = await loadProject(pid);
    st.ok(`Made ${t.name} in ${p.name}; opening the Playground…`);
    go(playgroundPath(p, p.tables.find((x) => x.id === t.id)));
  });
  return h("div", { class: "api-from-data" }, field("API in project", where, "A table with every field, its types inferred, and the default operations."), make, st);
}

/** deleteDataset asks, naming the dataset, before it deletes one of the
 * account's own uploads; the server refuses while a table is bound to it
 * and names the tables, which the status line shows. */
function deleteDataset(d) {
  const st = status();
  const box = h("div", { class: "confirm" });
  const btn = h("button", { type: "button", class: "danger" }, `Delete ${d.importCode}…`);
  btn.addEventListener("click", () => ask(box, {
    question: `Delete the dataset “${d.importCode}” (${d.recordCount.toLocaleString()} record${d.recordCount === 1 ? "" : "s"})?`,
    detail: "Its records are gone; the importCode can be used again for a new upload. A dataset a table reads is refused, naming the table.",
    yes: `Delete “${d.importCode}”`, from: btn,
  }, st, async () => {
    await gql(`mutation($c: String!) { deleteDataset(importCode: $c) }`, { c: d.importCode });
    await edited(`Deleted the dataset ${d.importCode}.`);
  }));
  return h("div", { class: "dataset-actions" }, btn, box, st);
}

const FORMATS = { json: "json", ndjson: "ndjson", jsonl: "ndjson", csv: "csv" };

/** size says n bytes as people read it: 1048576 → "1 MB". */
export function size(n) {
  const units = [[1 << 30, "GB"], [1 << 20, "MB"], [1 << 10, "KB"]];
  for (const [u, name] of units) if (n >= u) return `${(n / u).toFixed(1).replace(/\.0$/, "")} ${name}`;
  return `${n} byte${n === 1 ? "" : "s"}`;
}

/** readable rewrites the byte counts of a server message as sizes. */
const readable = (msg) => msg.replace(/(\d{4,}) bytes/g, (_, n) => size(Number(n)));

/** sizeHint is what to do about an upload refused for its size, on this plan. */
const sizeHint = (code, who) => (code === "PAYLOAD_TOO_LARGE" || code === "LIMIT_REACHED"
  ? ` ${who ? `${who.account.name} is on the ${who.account.plan.toLowerCase()} plan, and the` : "The"} room for an account's own datasets depends on the plan: delete a dataset below, or change the plan under Account.` : "");

/** wide gives a field room for its whole option text (it wraps to a line of its own on a phone). */
const wide = (f) => { f.classList.add("wide"); return f; };

function uploadCard(who) {
  const file = h("input", { type: "file", id: "dsFile", accept: ".json,.ndjson,.jsonl,.csv" });
  const code = h("input", { type: "text", id: "dsCode", required: true, placeholder: "my_books" });
  const name = h("input", { type: "text", id: "dsName" });
  const format = select([["json", "JSON (an array of objects)"], ["ndjson", "NDJSON (one object a line)"], ["csv", "CSV (a header line)"]], "json", { id: "dsFormat" });
  const variant = h("input", { type: "text", id: "dsVariant", placeholder: "market" });
  const progress = h("progress", { class: "progress", id: "dsProgress", max: 100, value: 0, hidden: true, "aria-label": "Upload progress" });
  const st = status();
  st.id = "dsStatus";
  let chosen = null;
  const choose = (f) => {
    chosen = f;
    const ext = f.name.split(".").pop().toLowerCase();
    if (FORMATS[ext]) format.value = FORMATS[ext];
    if (!code.value) code.value = f.name.replace(/\.[^.]*$/, "").toLowerCase().replace(/[^a-z0-9_]+/g, "_");
    st.ok(`Chosen: ${f.name} (${size(f.size)}).`);
  };
  file.addEventListener("change", () => file.files[0] && choose(file.files[0]));
  const dropId = uid("drop");
  const drop = h("div", { class: "drop", id: dropId }, h("p", {}, "Drop a JSON, NDJSON or CSV file here, or use the file picker below."));
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); if (e.dataTransfer.files[0]) choose(e.dataTransfer.files[0]); });
  const send = h("button", { type: "submit", id: "dsUpload" }, "Import");
  const form = h("form", {}, drop, field("File", file),
    h("div", { class: "row" }, field("Import code", code, "Letters, digits, _ and -; tables bind to it."), field("Name (optional)", name),
      wide(field("Format", format)), field("Variant field (optional)", variant, "A field whose values split the rows into variants, e.g. market.")),
    send, progress, st);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!chosen) return st.fail("Choose a file first.");
    if (!code.value.trim()) return st.fail("Give the dataset an importCode.");
    send.disabled = true;
    upload(chosen, { code: code.value.trim(), name: name.value.trim(), format: format.value, variant: variant.value.trim() }, progress, st, who)
      .then((body) => edited(`Imported ${body.importCode}: ${count(Number(body.recordCount), "record")}. It is in the list below.`), () => {})
      .finally(() => { send.disabled = false; });
  });
  return card("Import a dataset", form);
}

/** upload streams the file to POST /datasets/{importCode}, showing progress. */
function upload(f, o, progress, st, who) {
  const q = new URLSearchParams({ format: o.format });
  if (o.name) q.set("name", o.name);
  if (o.variant) q.set("variantField", o.variant);
  return new Promise((resolve, reject) => {
    const x = new XMLHttpRequest();
    x.open("POST", `/datasets/${encodeURIComponent(o.code)}?${q}`);
    x.setRequestHeader("Accept", "application/json");
    x.setRequestHeader("Content-Type", o.format === "csv" ? "text/csv" : o.format === "ndjson" ? "application/x-ndjson" : "application/json");
    progress.hidden = false; progress.value = 0;
    x.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) { progress.value = Math.round((e.loaded / e.total) * 100); st.ok(`Uploading: ${progress.value}%`); }
    });
    x.addEventListener("load", () => {
      let body = {};
      try { body = JSON.parse(x.responseText); } catch { /* not JSON */ }
      if (x.status === 200) {
        progress.value = 100;
        st.ok(`Imported ${body.importCode}: ${count(Number(body.recordCount), "record")}.`);
        return resolve(body);
      }
      const msg = body.detail || body.message || body.code || `HTTP ${x.status}`;
      st.fail(`The import failed (${body.code || x.status}): ${readable(msg)}${/[.!?]$/.test(msg) ? "" : "."}${sizeHint(body.code, who)}`);
      reject(new Error(msg));
    });
    x.addEventListener("error", () => { st.fail("The upload was interrupted; nothing was imported."); reject(new Error("network")); });
    x.send(f);
  });
}
