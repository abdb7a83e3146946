// origins.js: an account project's allowed origins (Project.allowedOrigins):
// the pages on other origins whose browsers may call its runtime (CORS),
// saved with updateProject(allowedOrigins:). Guest and session projects
// answer every origin and have no list.
import { h, gql, fill, field, status, action, card } from "./dom.js";

/** originsCard edits p.allowedOrigins: one labelled input per origin, add,
 * remove, save; the server validates and answers the normalized list.
 * Without edit it lists them. */
export function originsCard(p, edit) {
  if (!edit) {
    const o = p.allowedOrigins || [];
    return card("Allowed origins (browsers)", h("p", { class: "muted" }, "Pages on these origins may call this project's runtime from a browser (CORS)."),
      o.length ? h("ul", { id: "originList" }, o.map((x) => h("li", { class: "mono" }, x))) : h("p", { id: "originList" }, "None: no page on another origin may call the runtime."));
  }
  const list = h("div", { id: "originList" });
  const st = status();
  st.id = "originStatus";
  const rows = [];
  const row = (value) => {
    const input = h("input", { type: "text", value, placeholder: "http://localhost:5173", spellcheck: "false", autocomplete: "off" });
    const item = h("div", { class: "row tight" });
    const remove = h("button", { type: "button", class: "secondary" }, "Remove");
    remove.addEventListener("click", () => { rows.splice(rows.indexOf(input), 1); item.remove(); relabel(); });
    rows.push(input);
    fill(item, field("", input), remove);
    list.append(item);
    relabel();
  };
  const relabel = () => rows.forEach((input, i) => {
    input.closest(".field").querySelector("label").textContent = `Allowed origin ${i + 1}`;
    input.closest(".row").querySelector("button").setAttribute("aria-label", `Remove allowed origin ${i + 1}`);
  });
  (p.allowedOrigins || []).forEach(row);
  const add = h("button", { type: "button", id: "addOrigin", class: "secondary" }, "Add origin");
  add.addEventListener("click", () => { row(""); rows[rows.length - 1].focus(); });
  const save = action(h("button", { type: "button", id: "saveOrigins" }, "Save origins"), st, async () => {
    const origins = rows.map((i) => i.value.trim()).filter(Boolean);
    const d = await gql(`mutation($p: ID!, $o: [String!]) { updateProject(projectId: $p, allowedOrigins: $o) { allowedOrigins } }`, { p: p.id, o: origins });
    p.allowedOrigins = d.updateProject.allowedOrigins;
    rows.splice(0); list.replaceChildren();
    p.allowedOrigins.forEach(row);
    st.ok(p.allowedOrigins.length ? `Saved: ${p.allowedOrigins.join(", ")}` : "Saved: no page on another origin may call the runtime.");
  });
  return card("Allowed origins (browsers)",
    h("p", { class: "muted" }, "Pages on these origins may call this project's runtime from a browser (CORS), e.g. your dev server ",
      h("code", {}, "http://localhost:5173"), ". Each is scheme://host[:port], without a path; \"*\" is not allowed: an API key belongs in server-side code, so only your own pages are opened. Changes reach the runtime within 5 seconds."),
    list, h("div", { class: "row tight" }, add, save), st);
}
