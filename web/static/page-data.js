// page-data.js: the data pool: datasets with their importCode, name,
// record count, variants, field paths and sample documents; import a JSON,
// NDJSON or CSV file by drag and drop or file picker, streamed through the
// upload route with a progress bar.
import { h, gql, fill, field, select, status, card, uid, action } from "./dom.js";
import { mayEditAccount } from "./role.js";

export async function dataPage(main, who) {
  document.title = "Data pool · mockgql";
  let pool = [];
  let err = null;
  try {
    pool = (await gql(`{ dataSources { importCode name owned fieldPaths recordCount variants { name recordCount } sampleDocuments(limit: 3) } }`)).dataSources;
  } catch (e) { err = e; }
  const edit = mayEditAccount(who);
  const list = h("div", { class: "grid", id: "datasets" }, pool.map((d) => datasetCard(d, edit)));
  fill(main, h("h1", {}, "Data pool"),
    h("p", { class: "muted" }, "The curated pool every project can bind its tables to, and your account's own uploads, which only its projects see. Counts and samples only: a dataset of a million rows shows three documents here."),
    edit ? uploadCard() : card("Import a dataset", who
      ? h("p", { id: "importNeedsEditor" }, `Importing and deleting datasets needs the Editor role in ${who.account.name}; ask an admin of the account.`)
      : h("p", {}, "Sign in to import datasets. ", h("a", { href: "/" }, "Sign up or log in"), ".")),
    err ? h("p", { class: "status error" }, err.message) : null,
    pool.length ? list : card("Datasets", h("p", {}, "No datasets yet.")));
}

/** datasetCard shows a dataset; with edit, an upload of the account's own can be deleted. */
function datasetCard(d, edit) {
  const el = card(d.name || d.importCode,
    h("p", {}, h("code", {}, d.importCode), ` · ${d.recordCount.toLocaleString()} records`),
    d.variants.length ? h("p", { class: "muted" }, "Variants: ", d.variants.map((v) => `${v.name} (${v.recordCount.toLocaleString()})`).join(", ")) : null,
    h("details", {}, h("summary", {}, `${d.fieldPaths.length} field paths`), h("ul", { class: "mono" }, d.fieldPaths.map((p) => h("li", {}, p)))),
    h("details", {}, h("summary", {}, "Sample documents"), d.sampleDocuments.map((doc) => h("pre", { tabindex: "0" }, JSON.stringify(doc, null, 2)))),
    h("p", { class: "muted" }, d.owned ? "Your account's upload." : "Curated pool."),
    d.owned && edit ? deleteDataset(d) : null);
  el.dataset.dataset = d.importCode;
  return el;
}

/** deleteDataset asks, naming the dataset, before it deletes one of the
 * account's own uploads; the server refuses while a table is bound to it
 * and names the tables, which the status line shows. */
function deleteDataset(d) {
  const st = status();
  const ask = h("button", { type: "button", class: "danger" }, `Delete ${d.importCode}…`);
  const box = h("div", { class: "warning", hidden: true, role: "alert" },
    h("p", {}, `Delete the dataset “${d.importCode}” (${d.recordCount.toLocaleString()} record${d.recordCount === 1 ? "" : "s"})? Its importCode cannot be used again.`));
  const yes = action(h("button", { type: "button", class: "danger" }, `Delete “${d.importCode}”`), st, async () => {
    await gql(`mutation($c: String!) { deleteDataset(importCode: $c) }`, { c: d.importCode });
    location.reload();
  });
  const no = h("button", { type: "button", class: "secondary" }, "Cancel");
  no.addEventListener("click", () => { box.hidden = true; ask.focus(); });
  ask.addEventListener("click", () => { box.hidden = false; yes.focus(); });
  box.append(yes, " ", no);
  return h("div", { class: "dataset-actions" }, ask, box, st);
}

const FORMATS = { json: "json", ndjson: "ndjson", jsonl: "ndjson", csv: "csv" };

function uploadCard() {
  const file = h("input", { type: "file", id: "dsFile", accept: ".json,.ndjson,.jsonl,.csv" });
  const code = h("input", { type: "text", id: "dsCode", required: true, placeholder: "products" });
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
    st.ok(`Chosen: ${f.name} (${f.size.toLocaleString()} bytes).`);
  };
  file.addEventListener("change", () => file.files[0] && choose(file.files[0]));
  const dropId = uid("drop");
  const drop = h("div", { class: "drop", id: dropId }, h("p", {}, "Drop a JSON, NDJSON or CSV file here, or use the file picker below."));
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); if (e.dataTransfer.files[0]) choose(e.dataTransfer.files[0]); });
  const go = h("button", { type: "submit", id: "dsUpload" }, "Import");
  const form = h("form", {}, drop, field("File", file),
    h("div", { class: "row" }, field("importCode", code, "Letters, digits, _ and -; tables bind to it."), field("Name (optional)", name),
      field("Format", format), field("Variant field (optional)", variant, "A field whose values split the rows into variants, e.g. market.")),
    go, progress, st);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!chosen) return st.fail("Choose a file first.");
    if (!code.value.trim()) return st.fail("Give the dataset an importCode.");
    go.disabled = true;
    upload(chosen, { code: code.value.trim(), name: name.value.trim(), format: format.value, variant: variant.value.trim() }, progress, st)
      .then(() => setTimeout(() => location.reload(), 900), () => {}).finally(() => { go.disabled = false; });
  });
  return card("Import a dataset", form);
}

/** upload streams the file to POST /datasets/{importCode}, showing progress. */
function upload(f, o, progress, st) {
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
        st.ok(`Imported ${body.importCode}: ${Number(body.recordCount).toLocaleString()} records.`);
        return resolve(body);
      }
      const msg = body.detail || body.message || body.code || `HTTP ${x.status}`;
      st.fail(`The import failed (${body.code || x.status}): ${msg}`);
      reject(new Error(msg));
    });
    x.addEventListener("error", () => { st.fail("The upload was interrupted; nothing was imported."); reject(new Error("network")); });
    x.send(f);
  });
}
