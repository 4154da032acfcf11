// An invite link (#/play/<id>/<token>, or the server's /?game=<id>#token=<token>): its seat is
// claimed for this browser (and account), asking the player's name when the seat has none; a
// link another browser already claimed offers to watch instead.
import { esc, t } from "../base/i18n.js";
import { toast } from "../base/ui.js";
import { ApiError, api } from "../net/api.js";
import { claimSeat, me, ownsToken } from "../net/session.js";

// The route of the server's invite link in the address (/?game=<id>#token=<token>; a spectator
// link is /?game=<id>), or null.
export function inviteRoute() {
  const params = new URLSearchParams(location.search);
  const id = params.get("game");
  if (!id) return null;
  const token = new URLSearchParams(location.hash.replace(/^#/, "")).get("token") || params.get("token");
  const enc = encodeURIComponent;
  return token ? `#/play/${enc(id)}/${enc(token)}` : `#/watch/${enc(id)}`;
}

// An invite for a seat nobody has named yet: ask the player's name (the account's by default).
function askName(root) {
  return new Promise((resolve) => {
    root.innerHTML = `<section class="panel join-form"><h1></h1>
      <form><label class="field"><span></span><input name="name" maxlength="24" required></label>
      <button type="submit" class="primary"></button></form></section>`;
    root.querySelector("h1").textContent = t("lobby.joinTitle");
    root.querySelector("label span").textContent = t("lobby.yourName");
    root.querySelector("button").textContent = t("lobby.join");
    const input = root.querySelector("input");
    input.value = (me.user && me.user.name) || localStorage.getItem("glade.name") || "";
    input.focus();
    root.querySelector("form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      localStorage.setItem("glade.name", name);
      resolve(name);
    });
  });
}

// An invite link another browser already claimed (or a token of no seat): say so, offer to watch.
function offerToWatch(root, id, err) {
  root.innerHTML = `<section class="panel" data-testid="invite-claimed"><h1>${esc(t("account.inviteClaimedTitle"))}</h1>
    <p class="error" role="alert"></p>
    <p class="controls"><a class="button primary" data-testid="watch-instead" href="#/watch/${encodeURIComponent(id)}">${esc(t("account.watchInstead"))}</a>
      <a class="button" href="#/">${esc(t("nav.lobby"))}</a></p></section>`;
  // a spent invite is said in the page's language; another refusal by its own sentence
  const spent = !err || !err.code || err.code === "server.seat.invite_spent";
  root.querySelector(".error").textContent = spent ? t("account.inviteClaimed") : err.message;
}

// Opening an invite link claims its seat for this browser (and account): the link's token is
// spent for a fresh seat credential kept here. A seat this browser already holds opens directly.
export async function showInvite(root, id, token) {
  const play = `#/play/${encodeURIComponent(id)}`;
  if (ownsToken(id, token)) {
    location.replace(play);
    return null;
  }
  let state;
  try {
    state = await api.state(id, token);
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) {
      offerToWatch(root, id, err);
      return null;
    }
    throw err;
  }
  const seat = Number.isInteger(state.seat) ? state.seat : state.view.seat;
  const info = (state.seats || [])[seat];
  let name = null;
  while (true) {
    if (info && info.kind === "human" && !info.name && !name) name = await askName(root);
    try {
      await claimSeat(id, token, name);
      break;
    } catch (err) {
      if (err instanceof ApiError && (err.status === 409 || err.status === 403)) {
        offerToWatch(root, id, err);
        return null;
      }
      toast(err.message || t("error.network"));
      if (!(err instanceof ApiError) || err.status !== 422) throw err;
      name = null; // a name the server refused: ask again
    }
  }
  location.replace(play);
  return null;
}
