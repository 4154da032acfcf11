// Routes: #/ lobby · #/play/<id>[/<token>] a table · #/watch/<id> spectator · #/replay/<id>[/<move>] · #/review/<id>.
import { api, rememberSeat } from "./api.js";
import { preferredLang, setLang, t } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showRatings } from "./leaderboard.js";
import { showReplay } from "./replay.js";
import { showReview } from "./review.js";
import { showTable } from "./table.js";

const app = document.getElementById("app");
let current = null; // the mounted page: {unmount(), rerender()}

export function toast(message, kind = "error") {
  const el = document.getElementById("toast");
  el.textContent = message;
  el.className = `toast ${kind}`;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (el.hidden = true), kind === "error" ? 7000 : 3500);
}

function inviteLink() {
  // The server's invite links: /?game=<id>#token=<token>; spectator links: /?game=<id>.
  const params = new URLSearchParams(location.search);
  const id = params.get("game");
  if (!id) return null;
  const token = new URLSearchParams(location.hash.replace(/^#/, "")).get("token") || params.get("token");
  const enc = encodeURIComponent;
  return token ? `#/play/${enc(id)}/${enc(token)}` : `#/watch/${enc(id)}`;
}

// An invite for a seat nobody has named yet: ask the player's name, then claim the seat.
function askName(id, token) {
  return new Promise((resolve) => {
    app.innerHTML = `<section class="panel join-form"><h1></h1>
      <form><label class="field"><span></span><input name="name" maxlength="24" required></label>
      <button type="submit" class="primary"></button></form></section>`;
    app.querySelector("h1").textContent = t("lobby.joinTitle");
    app.querySelector("label span").textContent = t("lobby.yourName");
    app.querySelector("button").textContent = t("lobby.join");
    const input = app.querySelector("input");
    input.value = localStorage.getItem("glade.name") || "";
    input.focus();
    app.querySelector("form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      localStorage.setItem("glade.name", name);
      try {
        await api.join(id, name, token);
        resolve();
      } catch (err) {
        toast(err.message || t("error.network"));
      }
    });
  });
}

async function route() {
  if (current) current.unmount();
  current = null;
  app.innerHTML = "";
  const invite = inviteLink();
  if (invite) history.replaceState(null, "", `${location.pathname}${invite}`);
  const parts = (location.hash.replace(/^#\/?/, "") || "").split("/").filter(Boolean).map(decodeURIComponent);
  try {
    if (parts[0] === "play" && parts[1] && parts[2]) {
      const state = await api.state(parts[1], parts[2]);
      const seat = Number.isInteger(state.seat) ? state.seat : state.view.seat;
      const info = (state.seats || [])[seat];
      if (info && info.kind === "human" && !info.name) await askName(parts[1], parts[2]);
      if (Number.isInteger(seat)) rememberSeat(parts[1], seat, parts[2]);
      location.replace(`#/play/${encodeURIComponent(parts[1])}`);
      return;
    }
    if (parts[0] === "play" && parts[1]) current = await showTable(app, parts[1], { spectator: false });
    else if (parts[0] === "watch" && parts[1]) current = await showTable(app, parts[1], { spectator: true });
    else if (parts[0] === "replay" && parts[1]) current = await showReplay(app, parts[1], parts[2]);
    else if (parts[0] === "review" && parts[1]) current = await showReview(app, parts[1]);
    else if (parts[0] === "leaderboard" || parts[0] === "profile") current = await showRatings(app, parts);
    else current = await showLobby(app);
  } catch (err) {
    console.error(err);
    app.innerHTML = `<section class="panel"><p class="error" role="alert"></p><p><a href="#/">${t("nav.lobby")}</a></p></section>`;
    app.querySelector(".error").textContent = err.message || t("error.network");
  }
}

async function boot() {
  const select = document.getElementById("lang-select");
  await setLang(preferredLang());
  select.value = document.documentElement.lang;
  select.addEventListener("change", async () => {
    await setLang(select.value);
    if (current && current.rerender) current.rerender();
    else route();
  });
  window.addEventListener("hashchange", route);
  await route();
}

boot();
