// A game table: live state over the WebSocket, others' moves played back one action at a time,
// actions, hot-seat switching, scores, log, coach hints, end screen, and the board layout
// (others' boards compact and enlarged on a click, phone tabs).
//
// What the drawing modules (harmonies.js, living_forest.js) get and may give:
//   c.step       {entry, seat} while an action of someone else is played back (until the next
//                step or your own action): entry is a public log entry as GET …/log `moves`
//                items (plus `move`, its 1-based number); the module highlights what it changed.
//   mod.lastRound(c)  optional: the sentence of the "last round" banner, or null.
//   data-board-seat="N"  on each seat's board; the shell makes the others' compact, enlarges one
//                on a click and switches them by tabs on a phone.
//   data-refusal="sentence" (or '{"code": …, "params": …}') with aria-disabled="true" on what
//                cannot be played now: a click or tap shows the sentence and sends nothing.
import { seatLabel } from "../base/format.js";
import { esc, lang, refusal, t } from "../base/i18n.js";
import { toast } from "../base/ui.js";
import { GAMES } from "../games/index.js";
import { ApiError, LiveSocket, api, seatsFor } from "../net/api.js";
import { SCORING, rulesLink } from "../parts/learn_links.js";
import { fillAid } from "../parts/player_aid.js";
import { attachScoreLight } from "../parts/score_light.js";
import { mountSocial } from "../parts/social.js";

// The playback pace: seconds a step of someone else's move stays on screen (0: instant).
export const PACES = [0, 0.25, 0.5, 1, 2];
const PACE_KEY = "glade.pace";
export function pace() {
  const saved = localStorage.getItem(PACE_KEY);
  const value = saved === null ? NaN : Number(saved);
  return PACES.includes(value) ? value : 0.5;
}
export function setPace(value) {
  if (PACES.includes(Number(value))) localStorage.setItem(PACE_KEY, String(Number(value)));
}

function canonical(action) {
  const keys = Object.keys(action).sort();
  return JSON.stringify(keys.map((k) => [k, action[k]]));
}

function paceLabel(value) {
  if (!value) return t("table.paceInstant");
  return t("table.paceSeconds", { s: new Intl.NumberFormat(lang()).format(value) });
}

export async function showTable(root, id, { spectator }) {
  const local = seatsFor(id);
  const tokens = spectator ? {} : local.tokens;
  const mine = Object.keys(tokens).map(Number).sort((a, b) => a - b);
  const watching = mine.length === 0;
  const tokenOf = (seat) => (seat === null || seat === undefined ? undefined : tokens[seat]);

  let shown = watching ? null : mine[0];
  let state = await api.state(id, tokenOf(shown));
  const mod = GAMES[state.view.game];
  if (!mod) throw new Error(t("error.unknownGame"));
  await mod.prepare();
  let log = [];
  let logVersion = -1; // the version the log is at
  let logLoading = null;
  let busy = false;
  const queued = []; // your clicks made while one of yours was on its way, oldest first
  let hint = null;
  let hintOn = false;
  let coach = null; // the hint in words: {move, score, win}
  let endClosed = false;
  let handoff = null; // hot-seat: the seat the device must be passed to before its view shows
  let step = null; // {entry, seat}: someone else's action on screen, highlighted until the next
  const pending = []; // pushes waiting to be drawn, oldest first
  let draining = false;
  let skipping = false;
  let wake = null; // ends the wait of the step on screen (Skip, or your own action)
  let dirty = false; // a push was taken but not drawn yet (instant pace or Skip: one redraw)
  let zoom = null; // the seat whose board is enlarged
  let tab = null; // phone: the seat whose board is shown (null: the seat on screen)
  let alive = true; // false once the page is left (a wait that ends later draws nothing)
  const ui = mod.newUi();
  const conn = document.getElementById("conn");
  let connState = "online";

  // A seat's name, worked out at each use from the seats the server sent last (so that a bot's
  // name follows the page's language): a bot level in words, a player's name (kept when a bot
  // took the seat over), else the name given at creation, else "Player N".
  function nameOf(seat) {
    const s = (state.seats || []).find((x, i) => (Number.isInteger(x.seat) ? x.seat : i) === seat);
    const named = s && !(s.kind === "human" && !s.name) ? seatLabel(s) : "";
    return named || (local.names || {})[seat] || t("table.seatN", { n: seat + 1 });
  }

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

  // Draw `next` (a push or an answer); with `defer`, only remember that a redraw is due.
  async function accept(next, { defer = false } = {}) {
    if (next.version < state.version) return;
    const seat = next.view ? next.view.seat : shown;
    const want = desiredSeat(next);
    if (want !== seat) {
      const fresh = await api.state(id, tokenOf(want));
      if (fresh.version < state.version) return;
      next = fresh;
      if (want !== shown) {
        mod.resetUi(ui);
        tab = null;
        // hot-seat: the next player's face-down cards stay covered until they take the device
        if (mine.length > 1 && mod.hasSecret(next.view)) handoff = want;
      }
      shown = want;
      socket.retoken(tokenOf(want)); // from now on the pushes carry this seat's view
    }
    const sameSeat = (next.view ? next.view.seat : null) === (state.view ? state.view.seat : null);
    if (next.version === state.version && sameSeat && JSON.stringify(next.seats) === JSON.stringify(state.seats)) {
      return; // already drawn (the push of your own action came before its answer)
    }
    if (next.version !== state.version) {
      hint = null;
      hintOn = false;
      coach = null;
    }
    state = next;
    mod.syncUi(ui, ctx());
    if (defer) dirty = true;
    else render();
  }

  // ---------------------------------------------------------------- the log
  function number(entries, from) {
    entries.forEach((e, i) => {
      if (e.move === undefined) e.move = from + i + 1;
    });
    return entries;
  }

  // The whole log: on the first load, and when a push does not follow on from what the page has.
  function loadLog() {
    if (logLoading) return logLoading;
    logLoading = (async () => {
      try {
        const data = await api.log(id);
        if (data.version >= logVersion) {
          log = number(Array.isArray(data.moves) ? data.moves : [], 0);
          logVersion = data.version;
        }
      } catch (err) {
        // the log is secondary: the next push tries again
      } finally {
        logLoading = null;
      }
      drawLog();
    })();
    return logLoading;
  }

  // A push's log delta: the entries it added (null when the page's log is not at the push's
  // base: the whole log is read again).
  function takeLog(p) {
    if (p.version <= logVersion) return [];
    if (!Array.isArray(p.log) || p.log_base !== logVersion || p.log_from > log.length) {
      loadLog();
      return null;
    }
    log = log.slice(0, p.log_from).concat(number(p.log, p.log_from));
    logVersion = p.version;
    return p.log;
  }

  function drawLog() {
    const el = alive ? root.querySelector("[data-log]") : null;
    if (!el) return;
    el.innerHTML = logHtml();
    el.scrollTop = el.scrollHeight;
  }

  // ---------------------------------------------------------------- pushes and playback
  function onPush(p) {
    if (!alive) return;
    pending.push(p);
    drain();
  }

  async function drain() {
    if (draining) return;
    draining = true;
    try {
      while (pending.length) {
        await takePush(pending.shift());
        if (dirty && !pending.length) {
          dirty = false;
          render();
        }
      }
    } catch (err) {
      console.error(err);
    } finally {
      draining = false;
      skipping = false;
      if (dirty) {
        dirty = false;
        render();
      } else {
        drawPlayback();
      }
    }
  }

  async function takePush(p) {
    if (p.version < state.version) return; // older than what is drawn
    const added = takeLog(p);
    if (p.version === state.version) {
      // the push of your own action after its answer, or a seat was named: nothing moved
      const sameSeat = (p.view ? p.view.seat : null) === (state.view ? state.view.seat : null);
      if (sameSeat && JSON.stringify(p.seats) !== JSON.stringify(state.seats)) {
        state = { ...state, seats: p.seats };
        render();
      } else {
        drawLog();
      }
      return;
    }
    const entry = added && added.length ? added[added.length - 1] : null;
    const othersMove = entry !== null && (watching || !mine.includes(entry.seat));
    const played = othersMove && p.version === state.version + 1 && pace() > 0 && !skipping;
    step = othersMove ? { entry, seat: entry.seat } : null;
    // instant pace or Skip: draw once, when the queue is empty
    await accept(p, { defer: !played && pending.length > 0 });
    if (played && handoff === null) {
      await pause(pace() * 1000);
    }
  }

  function pause(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
      drawPlayback(); // the Skip button, while the step is on screen
    });
  }

  function skip() {
    skipping = true;
    if (wake) wake();
  }

  function onResync() {
    pending.length = 0;
    if (wake) wake();
    resync();
    loadLog();
  }

  async function resync() {
    try {
      const fresh = await api.state(id, tokenOf(desiredSeat(state)));
      state = { ...state, version: -1 };
      step = null;
      await accept(fresh);
    } catch (err) {
      // still offline: the socket retries
    }
  }

  // ---------------------------------------------------------------- acting
  // Your move. A click made while another of yours is on its way waits its turn and is sent
  // after it, if the table then still offers it. A move the server refuses as stale (the game moved
  // on: in Living Forest the others draw at the same time) is sent again against the newer
  // version when that version still offers it: a click that is still legal is never lost.
  async function send(action) {
    if (watching) return;
    if (busy) {
      queued.push(action);
      return;
    }
    busy = true;
    skip(); // your own move ends the playback of the others'
    step = null;
    try {
      await play(action, shown);
      while (queued.length && alive) {
        const next = queued.shift();
        if ((state.legal_actions || []).some((a) => canonical(a) === canonical(next))) await play(next, shown);
      }
    } finally {
      queued.length = 0;
      busy = false;
    }
  }

  async function play(action, seat) {
    let version = state.version;
    for (;;) {
      try {
        // on the seat's socket when it is open (its answer is the push of the new state, drawn as
        // every push is), else POST …/actions (its answer is drawn here)
        const viaSocket = socket.act(tokenOf(seat), action, version);
        const next = viaSocket ? await viaSocket : await api.act(id, tokenOf(seat), action, version);
        if (action.type === "undo") toast(t("table.undone"), "info");
        if (!viaSocket && next) await accept(next);
        return;
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) {
          let fresh;
          try {
            fresh = await api.state(id, tokenOf(seat));
          } catch (again) {
            toast(t("error.network"));
            return;
          }
          const still = (fresh.legal_actions || []).some((a) => canonical(a) === canonical(action));
          await accept(fresh);
          if (still && fresh.version > version) {
            version = fresh.version;
            continue;
          }
          toast(t("table.movedOn"));
        } else if (err instanceof ApiError && err.status === 0) {
          toast(t("error.network"));
        } else {
          const sentence = err instanceof ApiError && err.code ? refusal(err.code, wordParams(err.code, err.params), err.message) : err.message;
          toast(sentence || t("error.refused"));
        }
        return;
      }
    }
  }

  // A refusal's params in the module's words (a cell by its label), when the module has some.
  const wordParams = (code, params) => (mod.refusalParams ? mod.refusalParams(code, params || {}) : params);

  // A click on what cannot be played now: the reason, nothing sent.
  function refuse(el) {
    const raw = el.dataset.refusal || "";
    let text = raw;
    if (raw.startsWith("{")) {
      try {
        const r = JSON.parse(raw);
        text = refusal(r.code, wordParams(r.code, r.params), t("error.refused"));
      } catch (err) {
        text = "";
      }
    }
    toast(text || t("error.refused"));
  }

  async function askHint() {
    if (hintOn) {
      hintOn = false;
      coach = null;
      render();
      return;
    }
    try {
      const data = await api.hint(id, tokenOf(shown));
      if (data.version !== undefined && data.version !== state.version) return; // the game moved on
      const actions = Array.isArray(data) ? data : data.actions || (data.action ? [data.action] : []);
      hint = actions;
      hintOn = true;
      mod.applyHint(ui, actions, ctx());
      // the search's expectation for the suggested move: the final score, and the win chance
      // only when the server gives one (it leaves it out when it means nothing yet, and solo)
      const best = Array.isArray(data.hints) && data.hints.length ? data.hints[0] : null;
      coach = {
        move: actions.map((a) => mod.describeAction(a, ctx())).join(" · "),
        score: best && typeof best.score === "number" ? Math.round(best.score) : null,
        win: best && typeof best.win === "number" ? Math.round(best.win * 100) : null,
        lesson: best && typeof best.lesson === "string" ? best.lesson : "", // what it gains, in words
      };
      render();
    } catch (err) {
      toast(err.message || t("error.noHint"));
    }
  }

  function ctx() {
    return {
      state,
      view: state.view,
      legal: state.legal_actions || [],
      seat: shown,
      mine,
      watching,
      nameOf,
      ui,
      hint: hintOn ? hint : null,
      step,
    };
  }

  // ---------------------------------------------------------------- drawing
  function logHtml() {
    if (!log.length) return `<li class="muted">${esc(t("log.empty"))}</li>`;
    const c = ctx();
    const now = step ? step.entry.move : null;
    return log.map((e) => `<li${e.move === now ? ' class="now"' : ""}>${esc(mod.describeLog(e, c))}</li>`).join("");
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

  function playbackHtml() {
    const playing = draining && (pending.length > 0 || wake !== null);
    const text = step ? mod.describeLog(step.entry, ctx()) : "";
    const which = step ? ` data-move="${step.entry.move}" data-seat="${step.seat}"` : "";
    return `<span class="step-text" data-testid="step-line"${which}>${esc(text)}</span>${
      playing ? `<button type="button" data-skip data-key="skip" data-testid="skip">${esc(t("table.skip"))}</button>` : ""
    }`;
  }

  function drawPlayback() {
    const el = alive ? root.querySelector("[data-playback]") : null;
    if (!el) return;
    el.innerHTML = playbackHtml();
    el.classList.toggle("on", step !== null);
  }

  function paceHtml() {
    const now = pace();
    const options = PACES.map((p) => `<option value="${p}"${p === now ? " selected" : ""}>${esc(paceLabel(p))}</option>`).join("");
    return `<label class="pace"><span>${esc(t("table.pace"))}</span> <select data-pace data-testid="pace">${options}</select></label>`;
  }

  function lastRoundHtml(c) {
    if (isOver() || typeof mod.lastRound !== "function") return "";
    const text = mod.lastRound(c);
    return text ? `<p class="last-round" data-testid="last-round" role="status">${esc(text)}</p>` : "";
  }

  function coachHtml() {
    if (!hintOn || !coach) return "";
    const outlook = [];
    if (coach.score !== null) outlook.push(t("table.coachScore", { n: coach.score }));
    if (coach.win !== null) outlook.push(t("table.coachWin", { p: coach.win }));
    return `<p class="coach" data-testid="coach"><b>${esc(t("table.coach"))}</b> ${esc(coach.move)}${
      outlook.length ? ` <span class="muted">(${esc(outlook.join(", "))})</span>` : ""
    }${coach.lesson ? `<span class="coach-lesson" data-testid="coach-lesson">${esc(coach.lesson)}</span>` : ""}</p>`;
  }

  function tabsHtml() {
    const seats = (state.seats || []).map((s, i) => (Number.isInteger(s.seat) ? s.seat : i));
    if (seats.length < 2) return "";
    const own = watching ? seats[0] : shown;
    const current = tab === null ? own : tab;
    const buttons = [own, ...seats.filter((s) => s !== own)]
      .map(
        (s) =>
          `<button type="button" role="tab" data-tab="${s}" aria-selected="${s === current}" class="${s === current ? "on" : ""}">${esc(
            s === own && !watching ? t("table.tabYou") : nameOf(s),
          )}</button>`,
      )
      .join("");
    return `<nav class="board-tabs" role="tablist" aria-label="${esc(t("table.boards"))}" data-testid="board-tabs">${buttons}</nav>`;
  }

  // Others' boards compact (click to enlarge); on a phone only the chosen tab's board.
  function layoutBoards() {
    const boards = [...root.querySelectorAll("[data-board-seat]")];
    if (!boards.length) return;
    const own = watching ? Number(boards[0].dataset.boardSeat) : shown;
    const current = tab === null ? own : tab;
    for (const el of boards) {
      const seat = Number(el.dataset.boardSeat);
      const other = seat !== own;
      el.classList.toggle("compact", other);
      el.classList.toggle("tab-off", seat !== current);
      if (other) {
        el.title = t("table.enlarge");
        if (!el.hasAttribute("tabindex")) el.tabIndex = 0;
      }
    }
    for (const b of root.querySelectorAll("[data-tab]")) {
      const on = Number(b.dataset.tab) === current;
      b.classList.toggle("on", on);
      b.setAttribute("aria-selected", String(on));
    }
  }

  function drawZoom() {
    const old = root.querySelector("[data-testid=board-zoom]");
    if (old) old.remove();
    if (zoom === null) return;
    const board = root.querySelector(`[data-board-seat="${zoom}"]`);
    const table = root.querySelector("[data-testid=table]");
    if (!board || !table) {
      zoom = null;
      return;
    }
    const copy = board.cloneNode(true);
    copy.classList.remove("compact", "tab-off");
    copy.removeAttribute("tabindex");
    copy.removeAttribute("title");
    for (const el of [copy, ...copy.querySelectorAll("[id],[data-act],[data-ui]")]) {
      el.removeAttribute("id");
      el.removeAttribute("data-act");
      el.removeAttribute("data-ui");
    }
    const overlay = document.createElement("div");
    overlay.className = "board-zoom";
    overlay.dataset.testid = "board-zoom";
    overlay.dataset.closeZoom = "";
    overlay.innerHTML = `<section class="board-zoom-inner panel" role="dialog" aria-modal="true" aria-label="${esc(nameOf(zoom))}">
      <button type="button" class="board-zoom-close" data-close-zoom data-key="close-zoom">${esc(t("table.close"))}</button></section>`;
    overlay.firstElementChild.appendChild(copy);
    table.appendChild(overlay);
    overlay.querySelector("[data-close-zoom]").focus();
  }

  function render() {
    if (!alive) return;
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
    <div class="table ${esc(v.game)} players-${(state.seats || []).length}" data-testid="table" data-version="${state.version}" data-seat="${shown ?? ""}">
      <section class="status" aria-live="polite">
        <h1 class="status-title">${esc(t(`game.${v.game}`))} <span class="muted">${esc(mod.roundText(c))}</span> <span data-rated-badge hidden></span></h1>
        <p class="status-line" data-testid="status">${statusHtml()}</p>
        <div class="controls">
          ${!watching && canUndo ? `<button type="button" data-act='{"type":"undo"}' data-key="undo" data-testid="undo" title="U">${esc(t("table.undo"))}</button>` : ""}
          ${mod.controls(c)}
          ${myTurn && !isOver() ? `<button type="button" data-hint data-key="hint" data-testid="hint" class="${hintOn ? "on" : ""}">${esc(t("table.hint"))}</button>` : ""}
          ${paceHtml()}
        </div>
        ${lastRoundHtml(c)}
        <div class="playback${step ? " on" : ""}" data-playback>${playbackHtml()}</div>
        ${coachHtml()}
      </section>
      ${tabsHtml()}
      <div class="play">${mod.render(c)}</div>
      <aside class="side">
        <section class="panel scores"><h2>${esc(t("table.scores"))}</h2>${mod.scores(c)}<p class="score-note" data-score-note data-testid="score-note" aria-live="polite"></p></section>
        <div class="aid-slot" data-aid-slot></div>
        <div class="social-slot" data-social-slot></div>
        <section class="panel log-panel"><h2>${esc(t("table.log"))}</h2><ol class="log" data-log>${logHtml()}</ol></section>
        <p class="links"><a href="#/">${esc(t("nav.lobby"))}</a> · <a href="#/replay/${encodeURIComponent(id)}">${esc(t("nav.replay"))}</a> · ${rulesLink(v.game)}</p>
      </aside>
      ${isOver() && state.view.result && !endClosed ? endHtml(c) : ""}
    </div>`;
    social.update(state); // clocks, chat, rematch and leave: social.js
    fillAid(root, v.game); // the player aid: parts/player_aid.js
    if (hintOn && hint) {
      const wanted = new Set(hint.map(canonical));
      for (const el of root.querySelectorAll("[data-act]")) {
        if (wanted.has(canonical(JSON.parse(el.dataset.act)))) el.classList.add("hinted");
      }
    }
    layoutBoards();
    drawZoom();
    const logEl = root.querySelector("[data-log]");
    logEl.scrollTop = logEl.scrollHeight;
    for (const el of root.querySelectorAll("[data-keep-end]")) el.scrollTop = el.scrollHeight;
    if (focused && zoom === null) {
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
      <a href="#/">${esc(t("nav.lobby"))}</a> ${rulesLink(state.view.game, SCORING[state.view.game], { testid: "end-rules-link" })}
      <button type="button" data-close-end>${esc(t("end.seeBoard"))}</button></p>
    </section></div>`;
  }

  // ---------------------------------------------------------------- input
  function activate(el) {
    if (el.dataset.refusal !== undefined) {
      refuse(el);
    } else if (el.getAttribute("aria-disabled") === "true") {
      // unavailable and no reason given: nothing to do
    } else if (el.dataset.act) {
      send(JSON.parse(el.dataset.act));
    } else if (el.dataset.ui) {
      mod.onUi(ui, el.dataset, ctx());
      render();
    } else if (el.dataset.hint !== undefined) {
      askHint();
    } else if (el.dataset.skip !== undefined) {
      skip();
    } else if (el.dataset.tab !== undefined) {
      tab = Number(el.dataset.tab);
      layoutBoards();
    } else if (el.dataset.closeZoom !== undefined) {
      const back = zoom;
      zoom = null;
      drawZoom();
      const board = root.querySelector(`[data-board-seat="${back}"]`);
      if (board) board.focus();
    } else if (el.dataset.reveal !== undefined) {
      handoff = null;
      render();
    } else if (el.dataset.closeEnd !== undefined) {
      endClosed = true;
      render();
    }
  }

  const SELECTOR = "[data-refusal],[aria-disabled=true],[data-act],[data-ui],[data-hint],[data-skip],[data-tab],[data-close-end],[data-close-zoom],[data-reveal]";
  function onClick(ev) {
    const el = ev.target.closest(SELECTOR);
    if (el && root.contains(el) && !el.disabled) {
      if (el.classList.contains("board-zoom") && ev.target !== el) return; // inside the dialog
      ev.preventDefault();
      activate(el);
      return;
    }
    const board = ev.target.closest("[data-board-seat].compact");
    if (board && root.contains(board) && !board.closest(".board-zoom")) {
      zoom = Number(board.dataset.boardSeat);
      drawZoom();
    }
  }
  function onChange(ev) {
    if (ev.target.matches("[data-pace]")) {
      setPace(ev.target.value);
      if (pace() === 0) skip();
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
    const board = ev.target.closest && ev.target.closest("[data-board-seat].compact");
    if (board && (ev.key === "Enter" || ev.key === " ")) {
      ev.preventDefault();
      zoom = Number(board.dataset.boardSeat);
      drawZoom();
      return;
    }
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key.toLowerCase();
    if (k === "escape" && zoom !== null) {
      zoom = null;
      drawZoom();
    } else if (k === "u") {
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
  root.addEventListener("change", onChange);
  document.addEventListener("keydown", onKey);
  const unlight = attachScoreLight(root, () => state.view); // a score line lights its cells

  function setConn(status) {
    connState = status;
    conn.hidden = false;
    conn.textContent = t(status === "online" ? "conn.online" : "conn.offline");
    conn.className = `conn ${status}`;
    conn.dataset.status = status;
    // back online: the socket's first push is the state now (and the log catches up from it)
  }

  const socket = new LiveSocket(id, tokenOf(watching ? null : mine[0]), {
    onState: onPush,
    onStatus: setConn,
    onResync,
  });
  const social = mountSocial({ root, id, socket, tokenOf, mine, watching, nameOf });

  mod.syncUi(ui, ctx());
  render();
  loadLog();
  return {
    unmount() {
      alive = false;
      socket.close();
      social.unmount();
      if (wake) wake();
      pending.length = 0;
      root.removeEventListener("click", onClick);
      root.removeEventListener("change", onChange);
      document.removeEventListener("keydown", onKey);
      unlight();
      conn.hidden = true;
    },
    rerender() {
      social.rerender();
      render();
      setConn(connState);
    },
  };
}
