// landing.js: the landing page's forms. Sign-up and login set the board's
// HttpOnly mgq_jwt cookie (the page never sees the token's use); a guest
// project sets the mgq_session cookie. An invite link (/?invite=<token>)
// shows its invitation here; after sign-up or log-in the board offers it.
import { gql, publicGql } from "./dom.js";
import { inviteNotice, afterSignIn } from "./invite-landing.js";
import { startCard } from "./schema-start.js";

const $ = (id) => document.getElementById(id);

function onSubmit(formId, statusId, run) {
  $(formId).addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const st = $(statusId), btn = ev.target.querySelector("button");
    st.className = "status"; st.textContent = "Working…"; btn.disabled = true;
    try { await run(new FormData(ev.target)); }
    catch (e) { st.className = "status error"; st.textContent = e.message; btn.disabled = false; }
  });
}

onSubmit("signup", "signupStatus", async (f) => {
  await gql(`mutation($e: String!, $p: String!, $n: String) { signUp(email: $e, password: $p, name: $n) { user { id } } }`,
    { e: f.get("email"), p: f.get("password"), n: f.get("name") || null });
  location.assign(afterSignIn());
});

onSubmit("login", "loginStatus", async (f) => {
  await gql(`mutation($e: String!, $p: String!) { login(email: $e, password: $p) { user { id } } }`,
    { e: f.get("email"), p: f.get("password") });
  location.assign(afterSignIn());
});

onSubmit("guest", "guestStatus", async (f) => {
  const d = await publicGql(`mutation($n: String) { createGuestProject(name: $n) { projectId } }`, { n: f.get("name") || null });
  const id = d.createGuestProject.projectId;
  try { localStorage.setItem("mgq.guestProject", id); } catch { /* storage off: the address still opens it */ }
  location.assign("/board/projects/" + encodeURIComponent(id));
});

gql(`{ demo { previewUrl boardUrl } }`).then((d) => {
  if (!d.demo) return;
  $("demoPreview").href = d.demo.previewUrl;
  $("demo").hidden = false;
}).catch(() => {});

// Most teams bring a schema: its card comes first, for a guest project.
$("schemaStart").append(startCard(null));

inviteNotice();
