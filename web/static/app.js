// app.js: the board's router and frame. Each address is one page that is a
// view of the management API. Links inside the board move without a full
// load (history.pushState; back, forward and reload of any address work
// the same), so a project stays loaded while its tabs change; a link with
// a modifier key or target opens a new tab as usual.
import { h, gql, fill, GqlError } from "./dom.js";
import { projectsPage } from "./page-projects.js";
import { dataPage } from "./page-data.js";
import { accountPage } from "./page-account.js";
import { projectPage, leaveProject } from "./page-project.js";
import { demoPage } from "./page-demo.js";
import { leave, announce } from "./live.js";
import { workspaceSwitcher, sessionEnded } from "./workspaces.js";
import { invitationPrompts } from "./invitations.js";

const main = document.getElementById("main");
let who; // the signed-in user, read once per document (and again on go(path, true))

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
  top.querySelectorAll(":scope > :not(.brand)").forEach((e) => e.remove());
  const nav = h("nav", { "aria-label": "Board" },
    h("a", { href: "/board/projects" }, "Projects"),
    h("a", { href: "/board/data" }, "Data pool"),
    who ? h("a", { href: "/board/account" }, "Account") : null);
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

/** current marks the frame's link of the page shown. */
function current() {
  for (const a of document.querySelectorAll("#top nav a")) {
    if (location.pathname.startsWith(a.getAttribute("href"))) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

let routing = 0;
async function route(fresh) {
  const mine = ++routing;
  leave();
  if (who === undefined || fresh) {
    who = await whoAmI();
    frame(who);
    await invitationPrompts(who);
  }
  if (mine !== routing) return; // a later move won
  current();
  const parts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent); // ["board", ...]
  const [, section, id, tab] = parts;
  if (section === "projects" && id) return projectPage(main, who, id, tab || "model", fresh);
  leaveProject();
  if (section === "data") return dataPage(main, who);
  if (section === "account") return accountPage(main, who);
  if (section === "demo") return demoPage(main);
  return projectsPage(main, who);
}

/** failed shows why the page could not be shown, with a way to try
 * again (the user and the page read anew) and a way out. */
function failed(e) {
  sessionEnded(e);
  const retry = h("button", { type: "button", id: "retry" }, "Try again");
  retry.addEventListener("click", () => {
    fill(main, h("p", { role: "status" }, "Loading…"));
    route(true).catch(failed);
  });
  fill(main, h("section", { class: "card", id: "failed" }, h("h1", {}, "Something went wrong"),
    h("p", { class: "status error", role: "alert" }, e.message), h("div", { class: "row tight" }, retry, h("a", { href: "/" }, "Back to the start page"))));
}

/** move shows path: pushed onto the history unless it is the address shown. */
function move(path, fresh) {
  const url = new URL(path, location.href);
  const project = (p) => p.split("/").slice(0, 4).join("/"); // /board/projects/<id>
  const tabOnly = project(url.pathname) === project(location.pathname) && url.pathname.startsWith("/board/projects/");
  if (url.pathname + url.search !== location.pathname + location.search) history.pushState(null, "", url.pathname + url.search + url.hash);
  route(fresh).then(() => {
    if (tabOnly) return; // a tab of the same project: the tab link keeps the focus
    window.scrollTo(0, 0);
    main.focus({ preventScroll: true }); // a new page: reading starts at its content
    announce(document.title.replace(/ · mockgql$/, ""));
  }, failed);
}

// A plain click on a link to another board address moves in place.
document.addEventListener("click", (e) => {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = e.target.closest && e.target.closest("a[href]");
  if (!a || a.target || a.hasAttribute("download")) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith("/board/")) return;
  e.preventDefault();
  move(url.pathname + url.search + url.hash, false);
});
document.addEventListener("board:go", (e) => move(e.detail.path, e.detail.fresh));
window.addEventListener("popstate", () => route(false).catch(failed));

route(false).catch(failed);
