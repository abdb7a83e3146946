// guard.js: the board's one guard before an edit that breaks the apps
// using the API or loses something: a type change, a rename, deleting an
// attribute, table, relation, operation, dataset, key or project, revoking
// a key, removing a member. It names what breaks (schemaChangesOfEdit's
// BREAKING changes) and what is lost, and makes the edit only when the
// person confirms; Cancel changes nothing and gives the focus back.
import { h, gql, fill, action } from "./dom.js";
import { edited } from "./live.js";

/** ask shows, in box, a warning with question, the breaking changes (a
 * list of {path, message}), detail (what is lost: text, or elements), a button yes that runs
 * run, and Cancel (which empties box, calls onCancel and focuses from).
 * With breaking changes the warning is #breakingWarning and its button
 * #confirmBreaking; otherwise #confirmWarning and #confirmYes. */
export function ask(box, { question, breaking = [], detail, yes, from, onCancel }, st, run) {
  const broken = breaking.length > 0;
  const ok = action(h("button", { type: "button", class: "danger", id: broken ? "confirmBreaking" : "confirmYes" }, yes), st, async () => {
    await run();
    if (box.isConnected) fill(box);
  });
  const no = h("button", { type: "button", class: "secondary" }, "Cancel");
  no.addEventListener("click", () => {
    fill(box);
    if (onCancel) onCancel();
    if (from && from.isConnected) from.focus();
  });
  fill(box, h("div", { class: "warning", role: "alert", id: broken ? "breakingWarning" : "confirmWarning" },
    question ? h("p", {}, h("strong", {}, question)) : null,
    broken ? [h("p", {}, h("strong", {}, "This change breaks apps that use the API:")),
      h("ul", {}, breaking.map((c) => h("li", {}, h("code", {}, c.path), " — ", c.message)))] : null,
    detail ? (typeof detail === "string" ? h("p", {}, detail) : h("div", {}, detail)) : null,
    h("div", { class: "row tight" }, ok, no)));
  ok.focus();
}

/** guarded makes a model edit after asking schemaChangesOfEdit what it
 * breaks. With BREAKING changes, or with lost (what a delete loses: it is
 * always asked), it asks in box first; otherwise apply runs at once.
 * onCancel undoes the control's change (a select put back). The page then
 * re-renders what changed in place and announces done. */
export async function guarded(p, box, edit, apply, st, onCancel, done = "Saved.", lost = null) {
  const d = await gql(`query($p: ID!, $e: ModelEditInput!) { schemaChangesOfEdit(projectId: $p, edit: $e) { criticality path message } }`, { p: p.id, e: edit });
  const breaking = d.schemaChangesOfEdit.filter((c) => c.criticality === "BREAKING");
  if (!breaking.length && !lost) { await apply(); return edited(done); }
  const from = document.activeElement;
  ask(box, { question: lost ? lost.question : null, breaking, detail: lost ? lost.detail : null, yes: lost ? lost.yes : "Make the change anyway", from, onCancel },
    st, async () => { await apply(); await edited(done); });
}
