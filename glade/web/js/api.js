import { refusal } from "./i18n.js";

// The web API of `glade serve` (contract: POST/GET games, actions, log, WebSocket) and local seat tokens.
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function call(method, path, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let resp;
  try {
    resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
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
    // an engine refusal carries its code: the player reads it in the page's language
    if (data && typeof data.code === "string") message = refusal(data.code, data.params, message);
    throw new ApiError(resp.status, message);
  }
  return data;
}

export const api = {
  create: (game, options, seats, clock) =>
    call("POST", "/api/games", { body: clock ? { game, options, seats, clock } : { game, options, seats } }),
  state: (id, token) => call("GET", `/api/games/${encodeURIComponent(id)}`, { token }),
  act: (id, token, action, version) =>
    call("POST", `/api/games/${encodeURIComponent(id)}/actions`, { token, body: { action, version } }),
  log: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/log`),
  past: (id, move) => call("GET", `/api/games/${encodeURIComponent(id)}/past/${Number(move)}`),
  hint: (id, token) => call("GET", `/api/games/${encodeURIComponent(id)}/hint`, { token }),
  openGames: () => call("GET", "/api/lobby"),
  // Without a token: take any open human seat. With the invite token of an unnamed seat: name it.
  join: (id, name, token) => call("POST", `/api/games/${encodeURIComponent(id)}/join`, { body: { name }, token }),
};

// A WebSocket that reconnects with back-off and calls onState for every pushed state; a message
// with another "type" (chat, clock, rematch) goes to the handlers given with on(type, handler).
export class LiveSocket {
  constructor(id, token, { onState, onStatus }) {
    this.id = id;
    this.token = token;
    this.onState = onState;
    this.onStatus = onStatus;
    this.handlers = {};
    this.delay = 500;
    this.closed = false;
    this.open();
  }

  open() {
    if (this.closed) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    const ws = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(this.id)}/ws${q}`);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.onStatus("online");
    };
    ws.onmessage = (ev) => {
      try {
        const message = JSON.parse(ev.data);
        if (message && typeof message.type === "string" && message.type !== "state") {
          for (const handler of this.handlers[message.type] || []) handler(message);
          return;
        }
        this.onState(message);
      } catch (err) {
        console.error(err);
      }
    };
    ws.onclose = () => {
      if (this.closed) return;
      this.onStatus("offline");
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
    ws.onerror = () => ws.close();
  }

  on(type, handler) {
    (this.handlers[type] = this.handlers[type] || []).push(handler);
    return this;
  }

  // Test and debugging hook: drop the connection as a network failure would.
  drop() {
    if (this.ws) this.ws.close();
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
