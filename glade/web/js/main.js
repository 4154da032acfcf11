// Routes: #/ lobby · #/play/<id>[/<token>] a table · #/watch/<id> spectator · #/replay/<id>[/<move>] · #/review/<id>
// · #/account log in, sign up, log out, password.
import { ApiError, api } from "./api.js";
import { claimSeat, loadAccount, me, mountAccountLink, onAccount, ownsToken, showAccount } from "./account.js";
import { esc, preferredLang, setLang, t } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showRatings } from "./leaderboard.js";
import { startNotify } from "./notify.js";
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

// An invite for a seat nobody has named yet: ask the player's name (the account's by default).
function askName() {
  return new Promise((resolve) => {
    app.innerHTML = `<section class="panel join-form"><h1></h1>
      <form><label class="field"><span></span><input name="name" maxlength="24" required></label>
      <button type="submit" class="primary"></button></form></section>`;
    app.querySelector("h1").textContent = t("lobby.joinTitle");
    app.querySelector("label span").textContent = t("lobby.yourName");
    app.querySelector("button").textContent = t("lobby.join");
    const input = app.querySelector("input");
    input.value = (me.user && me.user.name) || localStorage.getItem("glade.name") || "";
    input.focus();
    app.querySelector("form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      localStorage.setItem("glade.name", name);
      resolve(name);
    });
  });
}

// An invite link another browser already claimed (or a token of no seat): say so, offer to watch.
function offerToWatch(id, message) {
  app.innerHTML = `<section class="panel" data-testid="invite-claimed"><h1>${esc(t("account.inviteClaimedTitle"))}</h1>
    <p class="error" role="alert"></p>
    <p class="controls"><a class="button primary" data-testid="watch-instead" href="#/watch/${encodeURIComponent(id)}">${esc(t("account.watchInstead"))}</a>
      <a class="button" href="#/">${esc(t("nav.lobby"))}</a></p></section>`;
  // the server's sentence is English: a spent invite is said in the page's language
  const spent = !message || message.includes("already claimed");
  app.querySelector(".error").textContent = spent ? t("account.inviteClaimed") : message;
}

// Opening an invite link claims its seat for this browser (and account): the link's token is
// spent for a fresh seat credential kept here. A seat this browser already holds opens directly.
async function openInvite(id, token) {
  const play = `#/play/${encodeURIComponent(id)}`;
  if (ownsToken(id, token)) {
    location.replace(play);
    return;
  }
  let state;
  try {
    state = await api.state(id, token);
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) return offerToWatch(id, err.message);
    throw err;
  }
  const seat = Number.isInteger(state.seat) ? state.seat : state.view.seat;
  const info = (state.seats || [])[seat];
  let name = null;
  while (true) {
    if (info && info.kind === "human" && !info.name && !name) name = await askName();
    try {
      await claimSeat(id, token, name);
      break;
    } catch (err) {
      if (err instanceof ApiError && (err.status === 409 || err.status === 403)) return offerToWatch(id, err.message);
      toast(err.message || t("error.network"));
      if (!(err instanceof ApiError) || err.status !== 422) throw err;
      name = null; // a name the server refused: ask again
    }
  }
  location.replace(play);
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
      await openInvite(parts[1], parts[2]);
      return;
    }
    if (parts[0] === "account") {
      current = await showAccount(app, toast);
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
    mountAccountLink();
    if (current && current.rerender) current.rerender();
    else route();
  });
  window.addEventListener("hashchange", route);
  await loadAccount();
  mountAccountLink();
  onAccount(mountAccountLink);
  await route();
  startNotify();
}

boot();
