// app.js: the board's router and frame. Each address is one page that is a
// view of the management API; links are plain links (a full load), so the
// back button, new tabs and bookmarks work without a client-side router.
import { h, gql, fill, GqlError } from "./dom.js";
import { projectsPage } from "./page-projects.js";
import { dataPage } from "./page-data.js";
import { accountPage } from "./page-account.js";
import { projectPage } from "./page-project.js";
import { demoPage } from "./page-demo.js";
import { workspaceSwitcher, sessionEnded } from "./workspaces.js";
import { invitationPrompts } from "./invitations.js";

const main = document.getElementById("main");

/** whoAmI is the signed-in user and account, or null for a guest or board session. */
async function whoAmI() {
  try {
    const d = await gql(`{ me { id email name } account { id name plan myRole } }`);
    return d;
  } catch (e) {
    if (e instanceof GqlError && (e.code === "UNAUTHENTICATED" || e.code === "FORBIDDEN")) { sessionEnded(e); return null; }
    throw e;
  }
}

function frame(who) {
  const top = document.getElementById("top");
  const nav = h("nav", { "aria-label": "Board" },
    h("a", { href: "/board/projects" }, "Projects"),
    h("a", { href: "/board/data" }, "Data pool"),
    who ? h("a", { href: "/board/account" }, "Account") : null);
  for (const a of nav.querySelectorAll("a")) if (location.pathname.startsWith(a.getAttribute("href"))) a.setAttribute("aria-current", "page");
  const logout = h("button", { type: "button", id: "logout" }, "Log out");
  logout.addEventListener("click", async () => {
    await gql(`mutation { logout }`).catch(() => {});
    location.assign("/");
  });
  const right = who
    ? [workspaceSwitcher(who), h("span", { class: "who" }, who.me.email, " · ", who.account.plan.toLowerCase()), logout]
    : [h("a", { href: "/" }, "Sign up or log in")];
  top.append(nav, h("span", { class: "spacer" }), ...right);
}

async function route() {
  const parts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent); // ["board", ...]
  const who = await whoAmI();
  frame(who);
  await invitationPrompts(who);
  const [, section, id, tab] = parts;
  if (section === "projects" && id) return projectPage(main, who, id, tab || "model");
  if (section === "data") return dataPage(main, who);
  if (section === "account") return accountPage(main, who);
  if (section === "demo") return demoPage(main);
  return projectsPage(main, who);
}

route().catch((e) => {
  sessionEnded(e);
  fill(main, h("section", { class: "card" }, h("h1", {}, "Something went wrong"),
    h("p", { class: "status error" }, e.message), h("p", {}, h("a", { href: "/" }, "Back to the start page"))));
});
