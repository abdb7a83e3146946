// openapi.js: the OpenAPI import wizard (paste or choose a file, pick the
// schemas, import) and the exports (OpenAPI JSON/YAML, the code package).
import { h, gql, field, status, action, card, fill, count } from "./dom.js";
import { go } from "./live.js";

export function openApiCard(p) {
  const doc = h("textarea", { id: "oaDoc", spellcheck: "false" });
  const file = h("input", { type: "file", id: "oaFile", accept: ".json,.yaml,.yml" });
  file.addEventListener("change", async () => { if (file.files[0]) doc.value = await file.files[0].text(); });
  const schemas = h("fieldset", { id: "oaSchemas", hidden: true }, h("legend", {}, "Schemas to import"));
  const st = status();
  const imp = action(h("button", { type: "button", id: "oaImport", hidden: true }, "Import selected"), st, async () => {
    const chosen = [...schemas.querySelectorAll("input:checked")].map((c) => c.value);
    const d = await gql(`mutation($p: ID!, $doc: String!, $s: [String!]) { importOpenApi(projectId: $p, document: $doc, schemas: $s) { name } }`, { p: p.id, doc: doc.value, s: chosen });
    st.ok("Imported: " + d.importOpenApi.map((t) => t.name).join(", ") + ". Bind them to data on the Model tab.");
    go("/board/projects/" + encodeURIComponent(p.id), true); // the Model tab, with the imported tables read
  });
  const read = action(h("button", { type: "button", id: "oaRead", class: "secondary" }, "Read schemas"), st, async () => {
    const d = await gql(`query($doc: String!) { openApiSchemas(document: $doc) { name importable properties } }`, { doc: doc.value });
    fill(schemas, h("legend", {}, "Schemas to import"), d.openApiSchemas.map((sc) => h("label", { class: "check" },
      h("input", { type: "checkbox", value: sc.name, checked: sc.importable, disabled: !sc.importable }),
      ` ${sc.name} ${sc.importable ? `(${count(sc.properties, "field")})` : "(not an object)"}`)));
    schemas.hidden = false; imp.hidden = false;
  });
  const el = card("Import tables from OpenAPI", h("p", { class: "muted" }, "OpenAPI 3.x or Swagger 2.0, JSON or YAML, up to 1 MB; up to 50 schemas an import. Tables come unbound: bind them on the Model tab."),
    field("OpenAPI file", file), field("Or paste the document", doc), read, schemas, imp, st);
  el.id = "wizard";
  return el;
}

/** download offers text as a file. */
function download(name, type, data) {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = h("a", { href: url, download: name }, name);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** exportCard downloads the OpenAPI document (VIEWER and above) and, with
 * edit, the code package (EDITOR and above, and the plan's say). */
export function exportCard(p, edit) {
  const st = status();
  const oa = (format) => action(h("button", { type: "button", class: "secondary" }, `OpenAPI ${format.toUpperCase()}`), st, async () => {
    const d = await gql(`query($p: ID!, $f: String) { exportOpenApi(projectId: $p, format: $f) }`, { p: p.id, f: format });
    download(`${p.slug}.openapi.${format}`, format === "json" ? "application/json" : "application/yaml", d.exportOpenApi);
    st.ok(`Downloaded ${p.slug}.openapi.${format}.`);
  });
  const code = edit && action(h("button", { type: "button", class: "secondary", id: "exportCode" }, "Go code package (zip)"), st, async () => {
    try {
      const d = await gql(`mutation($p: ID!) { exportCodePackage(projectId: $p, language: "go") }`, { p: p.id });
      const bin = Uint8Array.from(atob(d.exportCodePackage), (c) => c.charCodeAt(0));
      download(`${p.slug}-backend.zip`, "application/zip", bin);
      st.ok(`Downloaded ${p.slug}-backend.zip.`);
    } catch (e) {
      throw new Error(e.code === "FORBIDDEN" ? `Not available here: ${e.message} (code packages need the PROFESSIONAL plan or above and role EDITOR or above).` : e.message);
    }
  });
  return card("Export", h("p", { class: "muted" }, "The model as an OpenAPI 3.1 document, or as a Go backend (net/http handlers, a storage interface, tests)."),
    h("div", { class: "row" }, oa("json"), oa("yaml"), code),
    // A contract project's exports are of its materialised tables
    // (docs/using/contract.md, "Everything else works"): said plainly.
    p.contract ? h("p", { id: "exportContract" }, "This project serves an imported GraphQL schema. Both exports describe the tables made from it, not the schema itself: the Go code package does not serve your schema (its GraphQL API has other names and shapes), so it is no backend for this contract.") : null,
    edit ? null : h("p", { class: "muted", id: "codeNeedsEditor" }, "The Go code package needs the Editor role."), st);
}
