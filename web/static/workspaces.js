// workspaces.js: the header's workspace switcher (myAccounts, switchAccount)
// and the notice shown when the session's workspace refuses it (a removed
// member, a logged-out or revoked token: the API answers FORBIDDEN or
// UNAUTHENTICATED on the next request, and the board says so).
import { h, gql, fill } from "./dom.js";

/** workspaceSwitcher is the header's labelled <select> of every workspace
 * the signed-in user belongs to; choosing one signs the board in to it
 * (switchAccount sets a new cookie) and opens its projects. */
export function workspaceSwitcher(who) {
  const sel = h("select", { id: "workspace", "aria-describedby": "workspaceStatus" },
    h("option", { value: who.account.id, selected: true }, who.account.name));
  const note = h("span", { class: "sr-only", id: "workspaceStatus", role: "status", "aria-live": "polite" });
  gql(`{ myAccounts { id name myRole current } }`).then((d) => {
    fill(sel, d.myAccounts.map((w) => h("option", { value: w.id, selected: w.current }, `${w.name} (${w.myRole.toLowerCase()})`)));
  }).catch(() => {});
  sel.addEventListener("change", async () => {
    sel.disabled = true;
    note.textContent = "Switching workspace…";
    try {
      await gql(`mutation($a: ID!) { switchAccount(accountId: $a) { account { id } } }`, { a: sel.value });
      location.assign("/board/projects");
    } catch (e) {
      note.textContent = e.message;
      sessionEnded(e);
      sel.disabled = false;
    }
  });
  return h("div", { class: "switcher" }, h("label", { for: "workspace" }, "Workspace"), sel, note);
}

/** refusedSession says whether e is the refusal of a session that ended:
 * removed from the workspace, logged out elsewhere, password changed. */
export const refusedSession = (e) => !!e && (e.code === "FORBIDDEN" && /no longer a member/.test(e.message)
  || e.code === "UNAUTHENTICATED" && /session has ended|workspace of this session/.test(e.message));

/** sessionEnded shows, above the page, that the session's workspace no
 * longer lets this user in, with the way back. */
export function sessionEnded(e) {
  if (!refusedSession(e)) return;
  const box = document.getElementById("banner");
  if (!box || document.getElementById("sessionEnded")) return;
  fill(box, h("div", { class: "banner ended", id: "sessionEnded", role: "alert" },
    h("p", {}, h("strong", {}, "You no longer have access to this workspace. "),
      "You were removed from it, or this session was ended (log-out or a password change elsewhere). Nothing more can be changed from this page."),
    h("a", { class: "button", href: "/" }, "Log in again")));
}

window.addEventListener("mgq:refused", (ev) => sessionEnded(ev.detail));
