// invitations.js: the pending invitations of the signed-in user, shown
// above every board page after sign-up or log-in ("Ann invited you to Shop
// as viewer — Accept / Decline"), including the one an invite link
// carried (?invite=<token>, kept in sessionStorage across the sign-up).
import { h, gql, fill, status, action } from "./dom.js";

const KEY = "mgq.invite";

/** linkToken returns the invite link token this visit carries, if any. */
export function linkToken() {
  const t = new URLSearchParams(location.search).get("invite");
  try {
    if (t) sessionStorage.setItem(KEY, t);
    return t || sessionStorage.getItem(KEY);
  } catch { return t; }
}

function forgetToken() { try { sessionStorage.removeItem(KEY); } catch { /* storage off */ } }

/** invitationPrompts adds a region before main listing the user's pending
 * invitations, each with Accept and Decline; it shows nothing when none. */
export async function invitationPrompts(who) {
  const old = document.getElementById("invitations");
  if (old) old.remove(); // called again when the board reads who anew
  if (!who) return;
  const token = linkToken();
  const d = await gql(`{ myInvitations { id role accountName invitedBy } }`).catch(() => ({ myInvitations: [] }));
  const list = d.myInvitations.map((inv) => ({ inv }));
  if (token) {
    const l = await gql(`query($t: String!) { invitationByLink(token: $t) { id role accountName invitedBy } }`, { t: token }).catch(() => null);
    if (l && l.invitationByLink && !list.some((x) => x.inv.id === l.invitationByLink.id)) list.unshift({ inv: l.invitationByLink, token });
    if (!l || !l.invitationByLink) forgetToken();
  }
  if (!list.length) return;
  const box = h("aside", { class: "invites", id: "invitations", "aria-label": "Invitations" }, list.map((x) => prompt(x, who)));
  document.getElementById("main").before(box);
}

function prompt({ inv, token }, who) {
  const st = status();
  const row = h("div", { class: "invite", dataset: { invitation: inv.id } });
  const args = token ? { t: token } : { i: inv.id };
  const vars = token ? "$t: String" : "$i: ID";
  const arg = token ? "token: $t" : "invitationId: $i";
  const accept = action(h("button", { type: "button", class: "accept" }, "Accept"), st, async () => {
    const d = await gql(`mutation(${vars}) { acceptInvitation(${arg}) { id name myRole } }`, args);
    if (token) forgetToken();
    const w = d.acceptInvitation;
    const go = action(h("button", { type: "button", class: "switch" }, `Switch to ${w.name}`), st, async () => {
      await gql(`mutation($a: ID!) { switchAccount(accountId: $a) { account { id } } }`, { a: w.id });
      location.assign("/board/projects");
    });
    fill(row, h("p", {}, h("strong", {}, `You joined ${w.name} as ${w.myRole.toLowerCase()}.`),
      " It is now in the workspace menu at the top."), go, st);
    go.focus();
  });
  const decline = action(h("button", { type: "button", class: "secondary decline" }, "Decline"), st, async () => {
    await gql(`mutation(${vars}) { declineInvitation(${arg}) }`, args);
    if (token) forgetToken();
    fill(row, h("p", {}, `You declined the invitation to ${inv.accountName}.`));
  });
  fill(row, h("p", {}, h("strong", {}, `${inv.invitedBy} invited you to ${inv.accountName} as ${inv.role.toLowerCase()}.`),
    " Accept to add it to your workspaces; you can switch to it at any time from the menu at the top."),
  h("div", { class: "row tight" }, accept, decline), st);
  return row;
}
