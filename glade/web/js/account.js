// Accounts (optional): who is logged in, the session's CSRF token, the account page (#/account),
// claiming seats, and the games of this player ("my games") for guests and accounts alike.
// The session itself is an HttpOnly cookie the page never reads; every state-changing request
// sends the CSRF token the server gave with the session (header X-CSRF-Token).
import { call, rememberSeat, seatsFor, setCsrf } from "./api.js";
import { esc, t } from "./i18n.js";

export const me = { user: null, csrf: null, loaded: false };
const listeners = new Set();
const SEATS = "glade.seats"; // api.js keeps this browser's seat credentials here

export function onAccount(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function changed() {
  for (const fn of listeners) fn(me);
}

function take(data) {
  me.user = (data && data.user) || null;
  me.csrf = (data && data.csrf) || null;
  setCsrf(me.csrf);
  me.loaded = true;
  changed();
}

export async function loadAccount() {
  try {
    take(await call("GET", "/api/account"));
  } catch (err) {
    me.loaded = true; // the server is away: play as a guest meanwhile
  }
  return me;
}

// ---------------------------------------------------------------- seats kept in this browser
function localSeats() {
  try {
    return JSON.parse(localStorage.getItem(SEATS) || "{}");
  } catch (err) {
    return {};
  }
}

export function heldTokens() {
  // [{id, token}] for every seat credential this browser keeps
  const out = [];
  for (const [id, entry] of Object.entries(localSeats())) {
    for (const token of Object.values((entry && entry.tokens) || {})) if (token) out.push({ id, token });
  }
  return out;
}

function forgetGames(ids) {
  const data = localSeats();
  for (const id of ids) delete data[id];
  localStorage.setItem(SEATS, JSON.stringify(data));
}

// Invite tokens this browser spent (they open nothing now): its own link opens its seat directly.
const CLAIMED = "glade.claimed";

function claimedHere() {
  try {
    return JSON.parse(localStorage.getItem(CLAIMED) || "{}");
  } catch (err) {
    return {};
  }
}

function rememberClaimed(id, token) {
  const data = claimedHere();
  data[id] = [...new Set([...(data[id] || []), token])].slice(-4);
  localStorage.setItem(CLAIMED, JSON.stringify(data));
}

export function ownsToken(id, token) {
  const held = Object.values(seatsFor(id).tokens || {});
  return held.includes(token) || (held.length > 0 && (claimedHere()[id] || []).includes(token));
}

// Claim a seat for this browser (and account): an invite token is spent for a fresh credential,
// which is kept here; without a token, an open seat of the table is taken.
export async function claimSeat(id, token, name) {
  const body = name ? { name } : {};
  const got = await call("POST", `/api/games/${encodeURIComponent(id)}/claim`, { body, token });
  rememberSeat(id, got.seat, got.token);
  if (token && token !== got.token) rememberClaimed(id, token);
  return got;
}

// This device's keys to the seats the account holds in a game (logged in on another device).
export async function fetchKeys(id) {
  const got = await call("POST", `/api/account/games/${encodeURIComponent(id)}/keys`);
  for (const [seat, token] of Object.entries(got.tokens)) rememberSeat(id, Number(seat), token);
  return got;
}

// Every game of this player: the account's from the server, plus the seats kept in this browser.
export async function myGames() {
  const games = new Map();
  if (me.user) {
    try {
      for (const g of (await call("GET", "/api/account/games")).games) games.set(g.id, g);
    } catch (err) {
      if (err.status === 401) take(null); // the session ended elsewhere
      else throw err;
    }
  }
  const held = heldTokens().filter((h) => !games.has(h.id)).slice(0, 100);
  if (held.length) {
    const data = await call("POST", "/api/my-games", { body: { games: held } });
    for (const g of data.games) games.set(g.id, { ...g, local: true });
  }
  const list = [...games.values()];
  list.sort((a, b) => Number(a.over) - Number(b.over) || Number(b.your_turn) - Number(a.your_turn) || (b.last_move_at || 0) - (a.last_move_at || 0));
  return list;
}

// ---------------------------------------------------------------- the account page
export async function showAccount(root, toast) {
  let busy = false;

  function render() {
    if (me.user) {
      root.innerHTML = `<section class="panel account" data-testid="account-panel" style="max-width:32rem">
        <h1>${esc(t("account.title"))}</h1>
        <p data-testid="account-name">${esc(t("account.loggedInAs", { name: me.user.name }))}</p>
        <p class="hint-text">${esc(t("account.seatsFollow"))}</p>
        <p class="controls"><a class="button" href="#/">${esc(t("account.toLobby"))}</a>
          <button type="button" data-logout>${esc(t("account.logout"))}</button>
          <button type="button" data-logout-all>${esc(t("account.logoutAll"))}</button></p>
        <form data-form="password" class="account-form" style="display:grid;gap:0.5rem">
          <h2>${esc(t("account.changePassword"))}</h2>
          <label class="field"><span>${esc(t("account.oldPassword"))}</span>
            <input name="old" type="password" autocomplete="current-password" required></label>
          <label class="field"><span>${esc(t("account.newPassword"))}</span>
            <input name="new" type="password" autocomplete="new-password" minlength="8" maxlength="200" required></label>
          <button type="submit">${esc(t("account.savePassword"))}</button>
        </form></section>`;
    } else {
      const form = (kind) => `<form data-form="${kind}" class="panel account-form" style="display:grid;gap:0.5rem">
          <h2>${esc(t(kind === "login" ? "account.login" : "account.signup"))}</h2>
          <label class="field"><span>${esc(t("account.name"))}</span>
            <input name="name" autocomplete="username" maxlength="24" required></label>
          <label class="field"><span>${esc(t("account.password"))}</span>
            <input name="password" type="password" autocomplete="${kind === "login" ? "current-password" : "new-password"}"
              ${kind === "login" ? "" : 'minlength="8"'} maxlength="200" required></label>
          ${kind === "signup" ? `<p class="hint-text">${esc(t("account.nameRules"))}</p>` : ""}
          <button type="submit" class="primary">${esc(t(kind === "login" ? "account.loginButton" : "account.signupButton"))}</button>
        </form>`;
      root.innerHTML = `<section class="account" data-testid="account-forms" style="max-width:32rem">
        <h1>${esc(t("account.title"))}</h1>
        <p class="hint-text">${esc(t("account.optional"))}</p>
        ${form("login")}${form("signup")}</section>`;
    }
    bind();
  }

  async function submit(kind, data) {
    if (busy) return;
    busy = true;
    try {
      if (kind === "login") take(await call("POST", "/api/account/login", { body: data }));
      else if (kind === "signup") take(await call("POST", "/api/account/signup", { body: data }));
      else if (kind === "password") {
        await call("POST", "/api/account/password", { body: data });
        toast(t("account.passwordChanged"), "info");
        render();
        return;
      }
      toast(t("account.welcome", { name: me.user.name }), "info");
      location.hash = "#/";
    } catch (err) {
      toast(err.message || t("error.network"));
    } finally {
      busy = false;
    }
  }

  async function logout(path) {
    let ids = [];
    try {
      // the account's games leave this browser with it (their seats stay the account's)
      ids = (await call("GET", "/api/account/games")).games.map((g) => g.id);
    } catch (err) {
      ids = [];
    }
    try {
      take(await call("POST", path));
    } catch (err) {
      toast(err.message || t("error.network"));
      return;
    }
    forgetGames(ids);
    toast(t("account.loggedOut"), "info");
    render();
  }

  function bind() {
    for (const f of root.querySelectorAll("form[data-form]")) {
      f.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const data = Object.fromEntries(new FormData(f).entries());
        if (data.name !== undefined) data.name = data.name.trim();
        submit(f.dataset.form, data);
      });
    }
    const out = root.querySelector("[data-logout]");
    if (out) out.addEventListener("click", () => logout("/api/account/logout"));
    const all = root.querySelector("[data-logout-all]");
    if (all) all.addEventListener("click", () => logout("/api/account/logout-everywhere"));
  }

  render();
  const off = onAccount(() => render());
  return { unmount: off, rerender: render };
}

// The account link in the top bar: "Log in" for a guest, the user's name when logged in.
export function mountAccountLink() {
  const nav = document.querySelector(".topnav");
  if (!nav) return;
  let link = document.getElementById("account-link");
  if (!link) {
    link = document.createElement("a");
    link.id = "account-link";
    link.href = "#/account";
    link.dataset.testid = "account-link";
    link.style.color = "inherit";
    nav.prepend(link);
  }
  link.textContent = me.user ? me.user.name : t("account.login");
  link.title = me.user ? t("account.loggedInAs", { name: me.user.name }) : t("account.login");
}
