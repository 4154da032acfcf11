// The web API of `glade serve`: the only module that talks to the server (HTTP and the table's
// WebSocket), with the one CSRF token of the session; and the seat credentials this browser keeps.
import { lang, refusal, t } from "../base/i18n.js";

export class ApiError extends Error {
  constructor(status, message, data) {
    super(message);
    this.status = status;
    // an engine refusal's code and params, for a page that words some params itself
    this.code = data && typeof data.code === "string" ? data.code : null;
    this.params = (data && data.params) || {};
  }
}

// The CSRF token of the logged-in session (net/session.js sets it from the account's answers):
// sent with every request that changes something, as the server asks of requests its session
// cookie authenticates.
let csrf = null;
export function setCsrf(token) {
  csrf = token || null;
}

// One request of the web API: its JSON answer, or an ApiError whose message is the refusal in the
// page's language (status 0 and an empty message when the server cannot be reached).
export async function call(method, path, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (csrf && method !== "GET") headers["X-CSRF-Token"] = csrf;
  let resp;
  try {
    resp = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, "");
  }
  let data = null;
  const text = await resp.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch (err) {
      data = { error: text };
    }
  }
  if (!resp.ok) {
    let message = data && (data.error || data.detail);
    if (Array.isArray(message)) message = message.map((d) => d.msg || JSON.stringify(d)).join("; ");
    message = typeof message === "string" ? message : "";
    throw new ApiError(resp.status, refusalText(resp.status, data, message), data);
  }
  return data;
}

// The sentence of a refused request in the page's language: an engine refusal by its code; an
// answer without a code (or a code this page has no words for) by its status on a Korean or
// Chinese page, the server's own English sentence on an English one.
const BY_STATUS = { 403: "error.forbidden", 404: "error.notFound", 409: "error.stale", 422: "error.refused", 429: "error.tooMany" };
export function refusalText(status, data, message) {
  const english = lang() === "en";
  const generic = t(BY_STATUS[status] || "error.refused");
  if (data && typeof data.code === "string") return refusal(data.code, data.params, english && message ? message : generic);
  return english && message ? message : generic;
}

const enc = encodeURIComponent;
const game = (id, rest = "") => `/api/games/${enc(id)}${rest}`;

export const api = {
  // tables and moves (docs/contract.md)
  create: (gameName, options, seats, { clock, rated } = {}) =>
    call("POST", "/api/games", { body: { game: gameName, options, seats, ...(clock ? { clock } : {}), ...(rated ? { rated: true } : {}) } }),
  state: (id, token) => call("GET", game(id), { token }),
  act: (id, token, action, version) => call("POST", game(id, "/actions"), { token, body: { action, version } }),
  log: (id) => call("GET", game(id, "/log")),
  past: (id, move) => call("GET", game(id, `/past/${Number(move)}`)),
  hint: (id, token) => call("GET", game(id, `/hint?lang=${enc(lang())}`), { token }),
  openGames: () => call("GET", "/api/lobby"),
  // a seat for this browser: an invite token spent for a fresh credential, or an open seat taken
  claim: (id, token, name) => call("POST", game(id, "/claim"), { body: name ? { name } : {}, token }),
  myGames: (held) => call("POST", "/api/my-games", { body: { games: held } }),
  // the table's clock, chat, rematch and leave
  social: (id) => call("GET", game(id, "/social")),
  chat: (id, token, text) => call("POST", game(id, "/chat"), { token, body: { text } }),
  rematch: (id, token) => call("POST", game(id, "/rematch"), { token }),
  // the offerer's own decline withdraws the offer
  declineRematch: (id, token) => call("POST", game(id, "/rematch/decline"), { token }),
  leave: (id, token) => call("POST", game(id, "/leave"), { token }),
  tableRatings: (id) => call("GET", game(id, "/ratings")),
  // the review of a finished game: started by POST, read by GET; the position after a best move
  startReview: (id) => call("POST", game(id, "/review")),
  review: (id) => call("GET", game(id, "/review")),
  reviewBest: (id, k) => call("GET", game(id, `/review/${Number(k)}/best`)),
  // ratings
  ratings: (gameName) => call("GET", `/api/ratings/${enc(gameName)}`),
  botRatings: () => call("GET", "/api/ratings/bots"),
  profile: (name) => call("GET", `/api/profiles/${enc(name)}`),
  // accounts
  account: () => call("GET", "/api/account"),
  login: (data) => call("POST", "/api/account/login", { body: data }),
  signup: (data) => call("POST", "/api/account/signup", { body: data }),
  changePassword: (data) => call("POST", "/api/account/password", { body: data }),
  logout: (everywhere) => call("POST", everywhere ? "/api/account/logout-everywhere" : "/api/account/logout"),
  accountGames: () => call("GET", "/api/account/games"),
  keys: (id) => call("POST", `/api/account/games/${enc(id)}/keys`),
};

// A WebSocket that reconnects with back-off. Each message is a JSON object with a "type":
// "state" (a push: onState), "resync" (pushes were lost: onResync), "pong", or a type another
// part of the page listens to with on(type, handler). A push without a type is a state (older
// servers). Messages of a socket that was replaced (retoken) are ignored, but for the answers
// to the actions sent on it (act). "connected" is dispatched after the first message of each
// new connection: from then on every push reaches this page, so a part that loaded something
// over HTTP re-reads it there, not to miss what was said while the socket was away.
export class LiveSocket {
  constructor(id, token, { onState, onStatus, onResync }) {
    this.id = id;
    this.token = token;
    this.onState = onState;
    this.onStatus = onStatus;
    this.onResync = onResync || (() => {});
    this.handlers = {};
    this.delay = 500;
    this.closed = false;
    this.refs = 0;
    this.waiting = new Map(); // ref -> {ws, resolve, reject}: actions sent, not yet answered
    this.open();
  }

  // Play an action on this socket, as POST …/actions would with `token` (the socket's own): a
  // promise of the push of the new state (which the page also gets through onState), null when
  // the push was lost (a resync follows), an ApiError when refused (status 0: the socket closed
  // first, the outcome unknown). Returns null at once when the socket is not open for `token`:
  // the caller POSTs instead.
  act(token, action, version) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN || token !== this.token) return null;
    this.refs += 1;
    const ref = this.refs;
    const answer = new Promise((resolve, reject) => this.waiting.set(ref, { ws, resolve, reject }));
    ws.send(JSON.stringify({ type: "action", ref, action, version }));
    return answer;
  }

  // An answer to act: {"acted": ref, "type": "state", ...} (the push of the new state),
  // {"type": "refused", "ref", "status", "error", "code", "params"}, or {"type": "acted", "ref"}.
  settle(ws, data) {
    let ref;
    if (data.type === "refused" || data.type === "acted") ref = data.ref;
    else if (data.acted !== undefined) ref = data.acted;
    else if (data.type === "resync") {
      this.settleAll(ws, (entry) => entry.resolve(null));
      return;
    } else return;
    const entry = this.waiting.get(ref);
    if (!entry || entry.ws !== ws) return;
    this.waiting.delete(ref);
    if (data.type === "refused") {
      const message = typeof data.error === "string" ? data.error : "";
      entry.reject(new ApiError(data.status, refusalText(data.status, data, message), data));
    } else entry.resolve(data);
    this.lingerDone(ws);
  }

  settleAll(ws, how) {
    for (const [ref, entry] of [...this.waiting]) {
      if (entry.ws !== ws) continue;
      this.waiting.delete(ref);
      how(entry);
    }
    this.lingerDone(ws);
  }

  // A replaced socket stays open until its actions are answered.
  lingerDone(ws) {
    if (ws === this.ws) return;
    for (const entry of this.waiting.values()) if (entry.ws === ws) return;
    ws.close();
  }

  on(type, handler) {
    (this.handlers[type] = this.handlers[type] || []).push(handler);
    return this;
  }

  dispatch(data) {
    const type = data && typeof data.type === "string" ? data.type : "state";
    if (type === "state") this.onState(data);
    else if (type === "resync") this.onResync(data);
    for (const handler of this.handlers[type] || []) handler(data);
  }

  open() {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    const ws = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(this.id)}/ws${q}`);
    this.ws = ws;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.delay = 500;
      this.onStatus("online");
    };
    ws.onmessage = (ev) => {
      let data;
      try {
        data = JSON.parse(ev.data);
        if (ws === this.ws) this.dispatch(data);
        if (ws === this.ws && !ws.greeted) {
          ws.greeted = true;
          this.dispatch({ type: "connected" });
        }
      } catch (err) {
        console.error(err);
      }
      if (data && typeof data === "object") this.settle(ws, data);
    };
    ws.onclose = () => {
      this.settleAll(ws, (entry) => entry.reject(new ApiError(0, "")));
      if (this.closed || ws !== this.ws) return;
      this.onStatus("offline");
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
    ws.onerror = () => ws.close();
  }

  // Listen as another seat (hot-seat: the seat on screen changed); the new socket's first push
  // is that seat's state.
  retoken(token) {
    if (token === this.token) return;
    this.token = token;
    const old = this.ws;
    this.ws = null;
    if (old) this.lingerDone(old); // closed now, or once its actions are answered
    this.open();
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}

// Seat tokens this browser holds, per game: {seat: token}. Names chosen at creation are kept too.
const KEY = "glade.seats";

function all() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch (err) {
    return {};
  }
}

// [{id, token}] for every seat credential this browser keeps.
export function heldTokens() {
  const out = [];
  for (const [id, entry] of Object.entries(all())) {
    for (const token of Object.values((entry && entry.tokens) || {})) if (token) out.push({ id, token });
  }
  return out;
}

// The account's games leave this browser with it when it logs out (their seats stay the account's).
export function forgetGames(ids) {
  const data = all();
  for (const id of ids) delete data[id];
  localStorage.setItem(KEY, JSON.stringify(data));
}

export function rememberSeat(id, seat, token) {
  const data = all();
  data[id] = data[id] || { tokens: {}, names: {} };
  data[id].tokens[seat] = token;
  localStorage.setItem(KEY, JSON.stringify(data));
}

export function rememberNames(id, names) {
  const data = all();
  data[id] = data[id] || { tokens: {}, names: {} };
  data[id].names = names;
  localStorage.setItem(KEY, JSON.stringify(data));
}

export function seatsFor(id) {
  return all()[id] || { tokens: {}, names: {} };
}
