// guard.js: the warning before an edit that breaks the apps using the API.
import { h, gql, fill, action } from "./dom.js";
import { edited } from "./live.js";

/** guarded makes an edit after asking schemaChangesOfEdit what it breaks:
 * with BREAKING changes it lists them in box and waits for the person to
 * confirm (or cancel, which calls onCancel). apply makes the edit; the
 * page then re-renders what changed in place and announces done. */
export async function guarded(p, box, edit, apply, st, onCancel, done = "Saved.") {
  const d = await gql(`query($p: ID!, $e: ModelEditInput!) { schemaChangesOfEdit(projectId: $p, edit: $e) { criticality path message } }`, { p: p.id, e: edit });
  const breaking = d.schemaChangesOfEdit.filter((c) => c.criticality === "BREAKING");
  if (!breaking.length) { await apply(); return edited(done); }
  const yes = action(h("button", { type: "button", class: "danger", id: "confirmBreaking" }, "Make the change anyway"), st, async () => { await apply(); await edited(done); });
  const no = h("button", { type: "button", class: "secondary" }, "Cancel");
  no.addEventListener("click", () => { fill(box); if (onCancel) onCancel(); });
  fill(box, h("div", { class: "warning", role: "alert", id: "breakingWarning" },
    h("p", {}, h("strong", {}, "This change breaks apps that use the API:")),
    h("ul", {}, breaking.map((c) => h("li", {}, h("code", {}, c.path), " — ", c.message))), yes, " ", no));
  yes.focus();
}
