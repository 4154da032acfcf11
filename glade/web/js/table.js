// A game table: live state over the WebSocket, actions, hot-seat switching, scores, log, hint, end screen.
import { ApiError, LiveSocket, api, seatsFor } from "./api.js";
import * as harmonies from "./harmonies.js";
import { esc, t } from "./i18n.js";
import * as livingForest from "./living_forest.js";
import { botLabel } from "./lobby.js";
import { toast } from "./main.js";
import { mountSocial } from "./social.js";

const MODULES = { harmonies, "living-forest": livingForest };

function canonical(action) {
  const keys = Object.keys(action).sort();
  return JSON.stringify(keys.map((k) => [k, action[k]]));
}

async function hasHintRoute() {
  try {
    const resp = await fetch("/openapi.json");
    if (!resp.ok) return false;
    const schema = await resp.json();
    return Object.keys(schema.paths || {}).some((p) => /^\/api\/games\/\{[^}]+\}\/hint$/.test(p));
  } catch (err) {
    return false;
  }
}

export async function showTable(root, id, { spectator }) {
  const local = seatsFor(id);
  const tokens = spectator ? {} : local.tokens;
  const mine = Object.keys(tokens).map(Number).sort((a, b) => a - b);
  const watching = mine.length === 0;
  const tokenOf = (seat) => (seat === null || seat === undefined ? undefined : tokens[seat]);

  let shown = watching ? null : mine[0];
  let state = await api.state(id, tokenOf(shown));
  const mod = MODULES[state.view.game];
  if (!mod) throw new Error(t("error.unknownGame"));
  await mod.prepare();
  let names = {};
  let log = [];
  let logVersion = -1;
  let busy = false;
  let hint = null;
  let hintOn = false;
  let endClosed = false;
  let handoff = null; // hot-seat: the seat the device must be passed to before its view shows
  const ui = mod.newUi();
  const conn = document.getElementById("conn");
  let connState = "online";
  const hintAvailable = !watching && (await hasHintRoute());

  function nameOf(seat) {
    if (names[seat]) return names[seat];
    return t("table.seatN", { n: seat + 1 });
  }

  function readNames(payload) {
    const list = payload.seats || payload.players_info || null;
    if (Array.isArray(list)) {
      list.forEach((s, i) => {
        const seat = Number.isInteger(s.seat) ? s.seat : i;
        const label = s.kind === "bot" && s.bot ? botLabel(String(s.bot)) : s.name || "";
        if (label) names[seat] = label;
      });
    }
    for (const [seat, name] of Object.entries(local.names || {})) if (!names[seat] && name) names[seat] = name;
  }
  readNames(state);

  function desiredSeat(st) {
    if (watching) return null;
    // to_act lists the seats with a move first, then (Living Forest) those that may only undo
    const acting = st.to_act.filter((s) => mine.includes(s));
    if (!acting.length) return shown;
    const onlyUndo =
      st.view && st.view.seat === shown && (st.legal_actions || []).every((a) => a.type === "undo");
    if (acting.includes(shown) && !(onlyUndo && acting[0] !== shown)) return shown;
    return acting[0];
  }

  async function accept(next) {
    if (next.version < state.version) return;
    const seat = next.view ? next.view.seat : shown;
    const want = desiredSeat(next);
    if (want !== seat) {
      const fresh = await api.state(id, tokenOf(want));
      if (fresh.version < state.version) return;
      next = fresh;
      if (want !== shown) {
        mod.resetUi(ui);
        // hot-seat: the next player's face-down cards stay covered until they take the device
        if (mine.length > 1 && mod.hasSecret(next.view)) handoff = want;
      }
      shown = want;
    }
    if (next.version !== state.version) {
      hint = null;
      hintOn = false;
    }
    readNames(next);
    state = next;
    mod.syncUi(ui, ctx());
    render();
    refreshLog();
  }

  async function refreshLog() {
    if (logVersion === state.version) return;
    const v = state.version;
    try {
      const data = await api.log(id);
      log = Array.isArray(data) ? data : (data && (data.moves || data.log)) || [];
      logVersion = v;
      const el = root.querySelector("[data-log]");
      if (el) {
        el.innerHTML = logHtml();
        el.scrollTop = el.scrollHeight;
      }
    } catch (err) {
      // the log is secondary: the next change tries again
    }
  }

  async function resync() {
    try {
      const fresh = await api.state(id, tokenOf(desiredSeat(state)));
      state = { ...state, version: -1 };
      await accept(fresh);
    } catch (err) {
      // still offline: the socket retries
    }
  }

  async function send(action) {
    if (busy || watching) return;
    busy = true;
    try {
      const next = await api.act(id, tokenOf(shown), action, state.version);
      if (action.type === "undo") toast(t("table.undone"), "info");
      await accept(next);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        toast(t("error.stale"));
        await resync();
      } else if (err instanceof ApiError && err.status === 0) {
        toast(t("error.network"));
      } else {
        toast(err.message || t("error.refused"));
      }
    } finally {
      busy = false;
    }
  }

  async function askHint() {
    if (hintOn) {
      hintOn = false;
      render();
      return;
    }
    try {
      const data = await api.hint(id, tokenOf(shown));
      const actions = Array.isArray(data) ? data : data.actions || (data.action ? [data.action] : []);
      hint = actions;
      hintOn = true;
      mod.applyHint(ui, actions, ctx());
      render();
      // the search's expectation for the suggested move: final score, and the win chance when
      // there are opponents (the server leaves out what was not searched)
      const best = Array.isArray(data.hints) && data.hints.length ? data.hints[0] : null;
      const outlook = [];
      if (best && typeof best.score === "number") outlook.push(t("table.hintScore", { n: Math.round(best.score) }));
      if (best && typeof best.win === "number") outlook.push(t("table.hintWin", { p: Math.round(best.win * 100) }));
      const words = actions.map((a) => mod.describeAction(a, ctx())).join(" · ");
      toast(`${t("table.hint")}: ${words}${outlook.length ? ` (${outlook.join(", ")})` : ""}`, "info");
    } catch (err) {
      toast(err.message || t("error.noHint"));
    }
  }

  function ctx() {
    return { state, view: state.view, legal: state.legal_actions || [], seat: shown, mine, watching, nameOf, ui, hint: hintOn ? hint : null };
  }

  function logHtml() {
    if (!log.length) return `<li class="muted">${esc(t("log.empty"))}</li>`;
    return log.map((e) => `<li>${esc(mod.describeLog(e, ctx()))}</li>`).join("");
  }

  const isOver = () => Boolean(state.over || state.view.over || state.view.phase === "over");

  function statusHtml() {
    const c = ctx();
    if (isOver()) return esc(t("table.gameOver"));
    const turnText = state.to_act.map(nameOf).join(", ");
    if (!watching && state.to_act.includes(shown)) {
      const who = mine.length > 1 ? `${nameOf(shown)} · ` : "";
      return `<b>${esc(who + t("table.yourTurn"))}</b> ${esc(mod.prompt(c))}`;
    }
    return esc(t("table.waitingFor", { name: turnText }));
  }

  function render() {
    if (handoff !== null) {
      root.innerHTML = `<section class="panel handoff" data-testid="handoff"><h1>${esc(t("table.passTo", { name: nameOf(handoff) }))}</h1>
        <p>${esc(t("table.passHelp"))}</p><button type="button" class="primary" data-reveal data-key="reveal">${esc(t("table.reveal", { name: nameOf(handoff) }))}</button></section>`;
      root.querySelector("[data-reveal]").focus();
      return;
    }
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    const c = ctx();
    const v = state.view;
    const canUndo = c.legal.some((a) => a.type === "undo");
    const myTurn = !watching && state.to_act.includes(shown);
    root.innerHTML = `
    <div class="table ${esc(v.game)}" data-testid="table" data-version="${state.version}" data-seat="${shown ?? ""}">
      <section class="status" aria-live="polite">
        <h1 class="status-title">${esc(t(`game.${v.game}`))} <span class="muted">${esc(mod.roundText(c))}</span></h1>
        <p class="status-line" data-testid="status">${statusHtml()}</p>
        <div class="controls">
          ${!watching && canUndo ? `<button type="button" data-act='{"type":"undo"}' data-key="undo" data-testid="undo" title="U">${esc(t("table.undo"))}</button>` : ""}
          ${mod.controls(c)}
          ${hintAvailable && myTurn ? `<button type="button" data-hint data-key="hint" class="${hintOn ? "on" : ""}">${esc(t("table.hint"))}</button>` : ""}
        </div>
      </section>
      <div class="play">${mod.render(c)}</div>
      <aside class="side">
        <section class="panel scores"><h2>${esc(t("table.scores"))}</h2>${mod.scores(c)}</section>
        <section class="panel log-panel"><h2>${esc(t("table.log"))}</h2><ol class="log" data-log>${logHtml()}</ol></section>
        <p class="links"><a href="#/">${esc(t("nav.lobby"))}</a> · <a href="#/replay/${encodeURIComponent(id)}">${esc(t("nav.replay"))}</a></p>
      </aside>
      ${isOver() && state.view.result && !endClosed ? endHtml(c) : ""}
    </div>`;
    social.update(state); // clocks, chat, rematch and leave: social.js
    if (hintOn && hint) {
      const wanted = new Set(hint.map(canonical));
      for (const el of root.querySelectorAll("[data-act]")) {
        if (wanted.has(canonical(JSON.parse(el.dataset.act)))) el.classList.add("hinted");
      }
    }
    const logEl = root.querySelector("[data-log]");
    logEl.scrollTop = logEl.scrollHeight;
    if (focused) {
      const el = root.querySelector(`[data-key="${CSS.escape(focused)}"]`);
      if (el) el.focus();
    }
  }

  function endHtml(c) {
    return `<div class="end-backdrop"><section class="panel end" role="dialog" aria-modal="true" aria-labelledby="end-title" data-testid="end-screen">
      <h2 id="end-title">${esc(t("end.title"))}</h2>
      ${mod.endScreen(c)}
      <p class="end-links"><a href="#/replay/${encodeURIComponent(id)}" data-testid="replay-link">${esc(t("nav.replay"))}</a>
      <a href="#/review/${encodeURIComponent(id)}" class="button" data-testid="review-link">${esc(t("review.button"))}</a>
      <a href="#/">${esc(t("nav.lobby"))}</a>
      <button type="button" data-close-end>${esc(t("end.seeBoard"))}</button></p>
    </section></div>`;
  }

  function activate(el) {
    if (el.dataset.act) {
      send(JSON.parse(el.dataset.act));
    } else if (el.dataset.ui) {
      mod.onUi(ui, el.dataset, ctx());
      render();
    } else if (el.dataset.hint !== undefined) {
      askHint();
    } else if (el.dataset.reveal !== undefined) {
      handoff = null;
      render();
    } else if (el.dataset.closeEnd !== undefined) {
      endClosed = true;
      render();
    }
  }

  const SELECTOR = "[data-act],[data-ui],[data-hint],[data-close-end],[data-reveal]";
  function onClick(ev) {
    const el = ev.target.closest(SELECTOR);
    if (el && root.contains(el) && !el.disabled) {
      ev.preventDefault();
      activate(el);
    }
  }
  function onKey(ev) {
    if (ev.target.matches("input, select, textarea")) return;
    const el = ev.target.closest && ev.target.closest(SELECTOR);
    if (el && (ev.key === "Enter" || ev.key === " ") && el.tagName !== "BUTTON" && el.tagName !== "A") {
      ev.preventDefault();
      activate(el);
      return;
    }
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key.toLowerCase();
    if (k === "u") {
      const b = root.querySelector('[data-key="undo"]');
      if (b) send({ type: "undo" });
    } else if (k === "e") {
      const b = root.querySelector('[data-key="end_turn"]');
      if (b) activate(b);
    } else if (k === "escape" && mod.clearUi(ui)) {
      render();
    }
  }
  root.addEventListener("click", onClick);
  document.addEventListener("keydown", onKey);

  function setConn(status) {
    connState = status;
    conn.hidden = false;
    conn.textContent = t(status === "online" ? "conn.online" : "conn.offline");
    conn.className = `conn ${status}`;
    conn.dataset.status = status;
    if (status === "online") resync();
  }

  const socket = new LiveSocket(id, tokenOf(watching ? null : mine[0]), {
    onState: (payload) => accept(payload).catch((err) => console.error(err)),
    onStatus: setConn,
  });
  window.gladeSocket = socket;
  const social = mountSocial({ root, id, socket, tokenOf, mine, watching, nameOf });

  mod.syncUi(ui, ctx());
  render();
  refreshLog();
  return {
    unmount() {
      socket.close();
      social.unmount();
      root.removeEventListener("click", onClick);
      document.removeEventListener("keydown", onKey);
      conn.hidden = true;
    },
    rerender() {
      social.rerender();
      render();
      setConn(connState);
    },
  };
}
