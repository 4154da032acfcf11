// Who is playing in this browser: the account logged in (optional), the seats claimed here, and
// every game of this player ("my games") for guests and accounts alike. The session itself is an
// HttpOnly cookie the page never reads; net/api.js keeps its CSRF token.
import { api, forgetGames, heldTokens, rememberSeat, seatsFor, setCsrf } from "./api.js";

export const me = { user: null, loaded: false };
const listeners = new Set();

export function onAccount(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// An answer of the account's API ({user, csrf}, or null when logged out).
function take(data) {
  me.user = (data && data.user) || null;
  setCsrf(data && data.csrf);
  me.loaded = true;
  for (const fn of listeners) fn(me);
}

export async function loadAccount() {
  try {
    take(await api.account());
  } catch (err) {
    me.loaded = true; // the server is away: play as a guest meanwhile
  }
  return me;
}

export async function logIn(data) {
  take(await api.login(data));
}

export async function signUp(data) {
  take(await api.signup(data));
}

// Log out here (or everywhere): the account's games leave this browser with it.
export async function logOut(everywhere) {
  let ids = [];
  try {
    ids = (await api.accountGames()).games.map((g) => g.id);
  } catch (err) {
    ids = [];
  }
  take(await api.logout(everywhere));
  forgetGames(ids);
}

// ---------------------------------------------------------------- seats claimed in this browser
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
  const got = await api.claim(id, token, name);
  rememberSeat(id, got.seat, got.token);
  if (token && token !== got.token) rememberClaimed(id, token);
  return got;
}

// This device's keys to the seats the account holds in a game (logged in on another device).
export async function fetchKeys(id) {
  const got = await api.keys(id);
  for (const [seat, token] of Object.entries(got.tokens)) rememberSeat(id, Number(seat), token);
  return got;
}

// Every game of this player: the account's from the server, plus the seats kept in this browser.
export async function myGames() {
  const games = new Map();
  if (me.user) {
    try {
      for (const g of (await api.accountGames()).games) games.set(g.id, g);
    } catch (err) {
      if (err.status === 401) take(null); // the session ended elsewhere
      else throw err;
    }
  }
  const held = heldTokens().filter((h) => !games.has(h.id)).slice(0, 100);
  if (held.length) {
    const data = await api.myGames(held);
    for (const g of data.games) games.set(g.id, { ...g, local: true });
  }
  const list = [...games.values()];
  list.sort((a, b) => Number(a.over) - Number(b.over) || Number(b.your_turn) - Number(a.your_turn) || (b.last_move_at || 0) - (a.last_move_at || 0));
  return list;
}
