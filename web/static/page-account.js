// page-account.js: the account: plan, usage (requests used of the quota,
// when it resets), members and roles (invite, change role, remove — after
// a confirmation), the pending invitations (copy an invite link, revoke),
// and the signed-in user's password. Member edits re-render their card in
// place and announce the outcome.
import { h, gql, fill, field, select, status, action, card, when, copyButton } from "./dom.js";
import { ask } from "./guard.js";
import { swap, announce } from "./live.js";

const PLANS = ["STARTER", "PROFESSIONAL", "TEAM", "ENTERPRISE"];
const ROLES = ["VIEWER", "EDITOR", "ADMIN", "OWNER"];
const ACCOUNT = `{ account { id name plan myRole usage { requests quota period resetsAt }
  members { user { id email name } role } invitations { id email role createdAt expiresAt createdBy { id email name } } } }`;

export async function accountPage(main, who) {
  document.title = "Account · mockgql";
  if (!who) return fill(main, card("Account", h("p", {}, "You are not signed in. ", h("a", { href: "/" }, "Sign up or log in"), ".")));
  const a = (await gql(ACCOUNT)).account;
  const members = h("div", { id: "membersCard" });
  fill(main, h("h1", {}, a.name), planCard(a, a.myRole, who), members, passwordCard());
  renderMembers(members, a, who, status());
}

/** planCard shows the plan and usage; an owner changes the plan, and the
 * card, the header's plan and the signed-in user's record (who) follow in
 * place, without reloading the page. */
function planCard(a, role, who) {
  const u = a.usage;
  const st = status();
  const unlimited = u.quota <= 0 || a.plan === "ENTERPRISE";
  const kids = [
    h("p", {}, "Plan: ", h("strong", { id: "plan" }, a.plan.toLowerCase())),
    h("p", { id: "usage" }, unlimited ? `${u.requests.toLocaleString()} requests in the period ${u.period}; no quota.`
      : `${u.requests.toLocaleString()} of ${u.quota.toLocaleString()} requests used in the period ${u.period}; the quota resets ${when(u.resetsAt)}.`),
    unlimited ? null : h("progress", { max: u.quota, value: Math.min(u.requests, u.quota), "aria-label": "Quota used" }),
  ];
  if (role === "OWNER") {
    const plan = select(PLANS.map((p) => [p, p.toLowerCase()]), a.plan, { id: "planSelect" });
    kids.push(h("div", { class: "row" }, field("Change plan", plan, "Stands in for billing. API keys need Professional or above."),
      action(h("button", { type: "button", id: "setPlan" }, "Change plan"), st, async () => {
        await gql(`mutation($p: Plan!) { setPlan(plan: $p) { plan } }`, { p: plan.value });
        const fresh = (await gql(ACCOUNT)).account;
        if (who) who.account.plan = fresh.plan;
        const top = document.querySelector("#top .who");
        if (top && who) top.textContent = `${who.me.email} · ${fresh.plan.toLowerCase()}`;
        const msg = `The plan is now ${fresh.plan.toLowerCase()}.`;
        swap(el, planCard(fresh, fresh.myRole, who), msg);
        announce(msg);
      })), st);
  }
  const el = card("Plan and usage", kids);
  el.id = "planCard";
  return el;
}

/** renderMembers (re)draws the members card into box; st, the card's
 * live region, survives the redraw so the outcome of an edit stays read. */
function renderMembers(box, a, who, st) {
  const manage = a.myRole === "OWNER" || a.myRole === "ADMIN";
  const again = async (msg) => {
    const fresh = (await gql(ACCOUNT)).account;
    renderMembers(box, fresh, who, st);
    st.ok(msg);
  };
  const confirmBox = h("div", { id: "memberConfirm" });
  const rows = a.members.map((m) => memberRow(m, a, who, manage, st, confirmBox, again));
  if (manage) rows.push(...a.invitations.map((inv) => invitationRow(inv, a.myRole, st, confirmBox, again)));
  const kids = [h("div", { class: "scroll" }, h("table", { class: "data stack", id: "members" },
    h("thead", {}, h("tr", {}, ["Email", "Name", "Role", ""].map((c) => h("th", { scope: "col" }, c)))), h("tbody", {}, rows))),
  confirmBox];
  if (manage) kids.push(inviteForm(a.myRole, st, again));
  kids.push(st);
  fill(box, card("Members and roles", kids));
}

function memberRow(m, a, who, manage, st, confirmBox, again) {
  const cells = [h("th", { scope: "row", "data-label": "Email" }, m.user.email), h("td", { "data-label": "Name" }, m.user.name || "")];
  // An admin may neither change nor remove an owner, nor make one.
  if (!manage || m.user.id === who.me.id || (m.role === "OWNER" && a.myRole !== "OWNER")) {
    cells.push(h("td", { "data-label": "Role" }, m.role.toLowerCase() + (m.user.id === who.me.id ? " (you)" : "")), h("td", {}));
    return h("tr", {}, cells);
  }
  const r = select(grantable(a.myRole).map((x) => [x, x.toLowerCase()]), m.role, { "aria-label": `Role of ${m.user.email}` });
  r.addEventListener("change", () => gql(`mutation($u: ID!, $r: Role!) { setMemberRole(userId: $u, role: $r) { role } }`, { u: m.user.id, r: r.value })
    .then(() => st.ok(`${m.user.email} is now ${r.value.toLowerCase()}.`), (e) => { r.value = m.role; st.fail(e); }));
  const rm = h("button", { type: "button", class: "danger", "aria-label": `Remove ${m.user.email}` }, "Remove");
  rm.addEventListener("click", () => {
    // The keys they created outlive them unless revoked: the choice is part of the question.
    const keys = h("input", { type: "checkbox", id: "revokeMemberKeys", checked: true });
    const sent = a.invitations.filter((inv) => inv.createdBy && inv.createdBy.id === m.user.id).length;
    ask(confirmBox, { from: rm, question: `Remove ${m.user.email} from the workspace?`,
      detail: [h("span", {}, "They lose access at once: their open sessions for this workspace end on their next request. Their own workspace stays theirs. "),
        h("span", { id: "removeInvites" }, `The invitations they sent${sent ? ` (${sent} pending)` : ""} and the invite links they made are revoked too. `),
        h("label", { class: "check" }, keys, " Also revoke the API keys they created (otherwise those keep working)")],
      yes: "Remove member" }, st, async () => {
      const d = await gql(`mutation($u: ID!, $k: Boolean!) { removeMemberWithKeys(userId: $u, revokeKeys: $k) { revokedKeys } }`, { u: m.user.id, k: keys.checked });
      const n = d.removeMemberWithKeys.revokedKeys;
      await again(`${m.user.email} was removed${keys.checked ? `; ${n} key${n === 1 ? "" : "s"} they created ${n === 1 ? "was" : "were"} revoked` : "; the keys they created still work"}.`);
    });
  });
  cells.push(h("td", { "data-label": "Role" }, r), h("td", {}, rm));
  return h("tr", {}, cells);
}

/** invitationRow is a pending invitation: who made it, its invite link
 * (offered only to who may give its role: an OWNER invitation's, to an
 * owner) and revoking it. */
function invitationRow(inv, myRole, st, confirmBox, again) {
  const linkBox = h("div", { class: "invite-link" });
  // ADMIN and OWNER invitations answer only to the invited address, link or not.
  const bound = inv.role === "ADMIN" || inv.role === "OWNER";
  const link = inv.role === "OWNER" && myRole !== "OWNER" ? null : action(h("button", { type: "button", class: "secondary", "aria-label": `Invite link for ${inv.email}` }, "Invite link"), st, async () => {
    const d = await gql(`mutation($i: ID!) { createInviteLink(invitationId: $i) { url expiresAt } }`, { i: inv.id });
    const url = d.createInviteLink.url;
    const input = h("input", { type: "text", readonly: true, value: url, "aria-label": `Invite link for ${inv.email}`, class: "mono" });
    fill(linkBox, h("div", { class: "inline" }, input, copyButton("Copy", () => url)),
      h("span", { class: "hint" }, `${bound ? `Works once, only for ${inv.email} (signed in with that address),` : "Works once, for whoever opens it,"} until ${when(d.createInviteLink.expiresAt)}. A new link replaces this one.`));
    input.select();
    st.ok(`An invite link for ${inv.email} is ready to copy.`);
  });
  const revoke = h("button", { type: "button", class: "danger", "aria-label": `Revoke the invitation of ${inv.email}` }, "Revoke");
  revoke.addEventListener("click", () => ask(confirmBox, { from: revoke, question: `Revoke the invitation of ${inv.email}?`,
    detail: "It can no longer be accepted, and its invite link stops working.", yes: "Revoke invitation" }, st, async () => {
      await gql(`mutation($i: ID!) { revokeInvitation(invitationId: $i) }`, { i: inv.id });
      await again(`The invitation of ${inv.email} was revoked.`);
    }));
  return h("tr", { class: "pending", dataset: { invitation: inv.id } },
    h("th", { scope: "row", "data-label": "Email" }, inv.email),
    h("td", { "data-label": "Name" }, h("span", { class: "badge" }, "invited"), ` until ${new Date(inv.expiresAt).toLocaleDateString()}`,
      inv.createdBy ? h("span", { class: "hint" }, ` by ${inv.createdBy.name || inv.createdBy.email}`) : null),
    h("td", { "data-label": "Role" }, inv.role.toLowerCase()),
    h("td", {}, h("div", { class: "row tight" }, link, revoke), linkBox));
}

/** grantable lists the roles a member with role myRole may give: an owner
 * any, an admin any but owner. */
function grantable(myRole) {
  return myRole === "OWNER" ? ROLES : ROLES.filter((x) => x !== "OWNER");
}

function inviteForm(myRole, st, again) {
  const email = h("input", { type: "email", id: "inviteEmail", required: true, autocomplete: "off" });
  const r = select(grantable(myRole).map((x) => [x, x.toLowerCase()]), "EDITOR", { id: "inviteRole" });
  return h("form", { class: "row" }, field("Invite by email", email, "They see the invitation after they sign up or log in with this address, and accept or decline it. Or copy its invite link."),
    field("Role", r),
    action(h("button", { type: "submit", id: "invite" }, "Invite"), st, async () => {
      if (!email.reportValidity()) return;
      const d = await gql(`mutation($e: String!, $r: Role!) { inviteMember(email: $e, role: $r) { user { email } state } }`, { e: email.value, r: r.value });
      await again(`Invitation to ${d.inviteMember.user.email} is pending until they accept it.`);
    }));
}

function passwordCard() {
  const st = status();
  const cur = h("input", { type: "password", id: "curPassword", autocomplete: "current-password", required: true });
  const next = h("input", { type: "password", id: "newPassword", autocomplete: "new-password", required: true, minlength: 8 });
  return card("Password", h("form", { class: "row" }, field("Current password", cur), field("New password", next, "At least 8 characters. Every other session of yours, in every workspace, ends."),
    action(h("button", { type: "submit", id: "changePassword" }, "Change password"), st, async () => {
      if (!cur.reportValidity() || !next.reportValidity()) return;
      await gql(`mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) { token } }`, { c: cur.value, n: next.value });
      cur.value = next.value = "";
      st.ok("Password changed. Your other sessions were signed out; this one goes on.");
    })), st);
}
