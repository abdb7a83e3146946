// invite-landing.js: the start page of an invite link (/?invite=<token>):
// what the invitation is (invitationByLink needs no credential), kept
// across the sign-up or log-in that follows, after which the board shows
// it to accept. A visitor signed in already goes straight to the board.
import { h, gql } from "./dom.js";
import { linkToken } from "./invitations.js";

/** afterSignIn is where sign-up and log-in lead: the board, carrying the
 * invite link's token when the visit came with one. */
export function afterSignIn() {
  const t = linkToken();
  return "/board/projects" + (t ? "?invite=" + encodeURIComponent(t) : "");
}

/** inviteNotice shows the invitation of the visit's link above the forms. */
export async function inviteNotice() {
  const t = new URLSearchParams(location.search).get("invite");
  if (!t) return;
  linkToken(); // keep it for after the sign-up
  const start = document.getElementById("start");
  const box = h("section", { class: "card invite-notice", id: "inviteNotice", "aria-labelledby": "inviteH" });
  start.prepend(box);
  let inv = null;
  try { inv = (await gql(`query($t: String!) { invitationByLink(token: $t) { accountName invitedBy role } }`, { t })).invitationByLink; }
  catch (e) { box.append(h("h2", { id: "inviteH" }, "This invite link no longer works"), h("p", { class: "status error" }, e.message)); return; }
  const signedIn = await gql(`{ me { id } }`).then(() => true, () => false);
  if (signedIn) return location.assign(afterSignIn());
  box.append(h("h2", { id: "inviteH" }, `${inv.invitedBy} invited you to ${inv.accountName} as ${inv.role.toLowerCase()}`),
    h("p", {}, "Sign up (or log in, if you have an account) below; the invitation is shown next, to accept or decline."),
    // ADMIN and OWNER invitations answer only to the address they were sent to (docs/using/accounts.md).
    inv.role === "ADMIN" || inv.role === "OWNER" ? h("p", { id: "inviteBound" }, `Use the e-mail address this invitation was sent to: only that address can accept an ${inv.role.toLowerCase()} invitation.`) : null);
  document.getElementById("suEmail").focus();
}
