// role.js: the board's one answer to "may this user edit this project":
// Project.myRole, read with the project (docs/using/board.md, "Roles").
// Below EDITOR every tab is read-only: edit controls are not made at all,
// values show as text, and the banner says why and whom to ask.
import { h } from "./dom.js";

const EDITING = ["EDITOR", "ADMIN", "OWNER"];

/** mayEdit says whether the board's user may change project p: EDITOR and
 * above (a guest or session project's own session is OWNER). The server
 * refuses the edits of anyone else with FORBIDDEN whatever the board shows. */
export const mayEdit = (p) => EDITING.includes(p.myRole);

/** isAdmin says whether role is ADMIN or OWNER. */
export const isAdmin = (role) => role === "ADMIN" || role === "OWNER";

/** mayDeleteProject says whether the board's user may delete account
 * project p: ADMIN and above (docs/using/accounts.md, "Who may do what
 * with keys and projects"). */
export const mayDeleteProject = (p) => isAdmin(p.myRole);

/** mayManageKey says whether the user (who, from app.js) may revoke or
 * delete key k of project p: ADMIN and above any key, an EDITOR the keys
 * they created (ApiKey.createdBy). */
export const mayManageKey = (p, who, k) => isAdmin(p.myRole) || (mayEdit(p) && !!who && !!k.createdBy && k.createdBy.id === who.me.id);

/** mayEditAccount says whether the signed-in user (who, from app.js) may
 * create projects and import datasets in their account: Account.myRole,
 * EDITOR and above. */
export const mayEditAccount = (who) => !!who && EDITING.includes(who.account.myRole);

/** roleBanner is the project page's note to a user who may only read p,
 * or null when they may edit it. who is the signed-in user and account. */
export function roleBanner(p, who) {
  if (mayEdit(p)) return null;
  const account = who && who.account ? who.account.name : "the account";
  return h("div", { class: "banner readonly", id: "roleBanner", role: "region", "aria-label": "Your role" },
    h("p", {}, h("strong", {}, "You can view this project."),
      ` Editing needs the Editor role — ask an admin or the owner of ${account} to change your role under Account, then reload this page.`),
    h("p", { class: "muted" }, "You can still browse the model, the diagram and the schema, run queries in the Playground, export OpenAPI and read the request log."));
}
