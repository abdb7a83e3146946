// boot.js: the one classic script of the board, run before its modules.
// When a file of the module graph does not arrive (the network dropped, the
// server restarted or refused it), no module runs and the page would say
// "Loading…" for ever; the module script's error event (caught here, as
// error events do not bubble) makes it say so and offer to try again.
document.addEventListener("error", (e) => {
  const s = e.target;
  if (!(s instanceof HTMLScriptElement) || s.type !== "module") return;
  const main = document.getElementById("main");
  const card = document.createElement("section");
  card.className = "card";
  card.id = "loadFailed";
  const h1 = document.createElement("h1");
  h1.textContent = "The board did not load";
  const p = document.createElement("p");
  p.className = "status error";
  p.setAttribute("role", "alert");
  p.textContent = "A part of the board's code did not arrive: the connection dropped or the server did not answer.";
  const retry = document.createElement("button");
  retry.type = "button";
  retry.id = "reload";
  retry.textContent = "Try again";
  retry.addEventListener("click", () => location.reload());
  card.append(h1, p, retry);
  main.replaceChildren(card);
  retry.focus();
}, true);
