// page-account.js: the account: plan, usage (requests used of the quota,
// when it resets), members and roles (invite, change role, remove).
import { h, gql, fill, field, select, status, action, card, when } from "./dom.js";

const PLANS = ["STARTER", "PROFESSIONAL", "TEAM", "ENTERPRISE"];
const ROLES = ["VIEWER", "EDITOR", "ADMIN", "OWNER"];

export async function accountPage(main, who) {
  document.title = "Account · mockgql";
  if (!who) return fill(main, card("Account", h("p", {}, "You are not signed in. ", h("a", { href: "/" }, "Sign up or log in"), ".")));
  const d = await gql(`{ account { id name plan myRole usage { requests quota period resetsAt } members { user { id email name } role } } }`);
  const a = d.account;
  const role = a.myRole;
  fill(main, h("h1", {}, a.name), planCard(a, role), membersCard(a, who, role));
}

function planCard(a, role) {
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
        location.reload();
      })), st);
  }
  return card("Plan and usage", kids);
}

function membersCard(a, who, role) {
  const st = status();
  const manage = role === "OWNER" || role === "ADMIN";
  const rows = a.members.map((m) => {
    const cells = [h("th", { scope: "row" }, m.user.email), h("td", {}, m.user.name || "")];
    if (manage && m.user.id !== who.me.id) {
      const r = select(ROLES.map((x) => [x, x.toLowerCase()]), m.role, { "aria-label": `Role of ${m.user.email}` });
      r.addEventListener("change", () => gql(`mutation($u: ID!, $r: Role!) { setMemberRole(userId: $u, role: $r) { role } }`, { u: m.user.id, r: r.value })
        .then(() => st.ok(`${m.user.email} is now ${r.value.toLowerCase()}.`), (e) => st.fail(e)));
      const rm = action(h("button", { type: "button", class: "danger", "aria-label": `Remove ${m.user.email}` }, "Remove"), st, async () => {
        await gql(`mutation($u: ID!) { removeMember(userId: $u) }`, { u: m.user.id }); location.reload();
      });
      cells.push(h("td", {}, r), h("td", {}, rm));
    } else cells.push(h("td", {}, m.role.toLowerCase() + (m.user.id === who.me.id ? " (you)" : "")), h("td", {}));
    return h("tr", {}, cells);
  });
  const kids = [h("div", { class: "scroll" }, h("table", { class: "data", id: "members" },
    h("thead", {}, h("tr", {}, ["Email", "Name", "Role", ""].map((c) => h("th", { scope: "col" }, c)))), h("tbody", {}, rows)))];
  if (manage) {
    const email = h("input", { type: "email", id: "inviteEmail", required: true });
    const r = select(ROLES.map((x) => [x, x.toLowerCase()]), "EDITOR", { id: "inviteRole" });
    kids.push(h("form", { class: "row" }, field("Invite by email", email, "They join when they sign up with this address."), field("Role", r),
      action(h("button", { type: "submit" }, "Invite"), st, async () => {
        await gql(`mutation($e: String!, $r: Role!) { inviteMember(email: $e, role: $r) { role } }`, { e: email.value, r: r.value }); location.reload();
      })));
  }
  kids.push(st);
  return card("Members and roles", kids);
}
