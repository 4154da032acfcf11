// The social side of a table: each seat's clock (ticking), the table chat, the rematch offer and
// the leave button, in a bar above the table and the chat below it (both in the page's flow, so
// they never cover a control of the table); whether the table is rated (a badge in the table's
// title) and each seat's rating at stake; and the clock choice of the lobby's form.
// Everything a player typed is shown with textContent, never as HTML.
import { deltaText, listWords, ratingText, seatTitle } from "../base/format.js";
import { esc, t } from "../base/i18n.js";
import { toast } from "../base/ui.js";
import { api, rememberSeat } from "../net/api.js";

const MUTE_KEY = "glade.chat.muted";
const CHAT_MAX = 200;

// ------------------------------------------------------------------ the lobby's clock choice
// value: "none", "rt:<base s>:<increment s>" or "cd:<days>"
export const CLOCK_CHOICES = ["none", "rt:180:2", "rt:300:20", "rt:600:5", "cd:1", "cd:2", "cd:3"];

function choiceLabel(value) {
  const [kind, a, b] = value.split(":");
  if (kind === "rt") return t("clock.realtimeChoice", { min: Number(a) / 60, s: Number(b) });
  if (kind === "cd") return t("clock.daysChoice", { n: Number(a) });
  return t("clock.none");
}

export function clockField(value) {
  const chosen = CLOCK_CHOICES.includes(value) ? value : "none";
  const options = CLOCK_CHOICES.map(
    (v) => `<option value="${esc(v)}"${v === chosen ? " selected" : ""}>${esc(choiceLabel(v))}</option>`,
  ).join("");
  return `<label class="field">${esc(t("clock.label"))}
    <select name="clock" data-testid="clock-choice">${options}</select></label>`;
}

// The create request's "clock" for a choice (undefined: no clock).
export function clockOption(value) {
  const [kind, a, b] = String(value || "none").split(":");
  if (kind === "rt") return { kind: "realtime", base: Number(a), increment: Number(b) };
  if (kind === "cd") return { kind: "correspondence", days: Number(a) };
  return undefined;
}

// A clock's time left: a real-time clock to the second ("4:05", "1:02:03"); a correspondence
// clock in days, hours and minutes, both seats' in the same words ("1 d 0 h", "23 h 59 min").
export function formatClock(seconds, kind = "realtime") {
  const s = Math.max(0, Math.ceil(seconds));
  const days = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (kind === "correspondence") {
    if (days > 0) return t("clock.daysHours", { d: days, h });
    return h > 0 ? t("clock.hoursMinutes", { h, m }) : t("clock.minutes", { m });
  }
  if (h > 0 || days > 0) return `${days * 24 + h}:${two(m)}:${two(sec)}`;
  return `${m}:${two(sec)}`;
}

function loadCss() {
  if (document.querySelector("link[data-social-css]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("../../css/social.css", import.meta.url).href;
  link.dataset.socialCss = "";
  document.head.append(link);
}

// ------------------------------------------------------------------ the panel
// root: the table's element (the bar goes before it, the chat after); socket: its LiveSocket;
// tokenOf(seat): this browser's token of a seat; mine: this browser's seats; nameOf(seat).
export function mountSocial({ root, id, socket, tokenOf, mine, watching, nameOf }) {
  loadCss();
  const enc = encodeURIComponent;
  let state = null;
  let clock = null; // the last clock message, and when it came (performance.now())
  let clockAt = 0;
  let rematch = null;
  let stake = null; // GET …/ratings: whether the table is rated, each seat's rating (and change)
  let stakeSeats = ""; // the seats' holders that answer was for
  let stakeTries = 0; // after the end: the rating is written a moment later, so look again
  let leaving = -Infinity; // performance.now() of the first click on leave (a second confirms)
  let sending = false;
  let offeredHere = false; // this page offered the rematch: it goes to the new table once all accept
  let alive = true;
  const messages = new Map(); // n -> message
  let muted = localStorage.getItem(MUTE_KEY) === "1";

  const panel = document.createElement("aside");
  panel.className = "social-bar";
  panel.dataset.testid = "social";
  panel.innerHTML = `
    <section class="social-seats"><h2 class="sr-only" data-t="clock.title"></h2><ol data-seat-list data-testid="clocks"></ol><p class="rated-why hint-text" data-rated-why data-testid="rated-why" hidden></p>
      <button type="button" data-leave data-testid="leave" hidden></button></section>
    <section class="social-rematch" data-testid="rematch" hidden></section>`;
  const chatBox = document.createElement("aside");
  chatBox.className = "social-chat-box";
  chatBox.dataset.testid = "social-chat";
  chatBox.innerHTML = `
    <section class="social-chat">
      <h2><span data-t="chat.title"></span>
        <label class="social-mute"><input type="checkbox" data-mute data-testid="chat-mute"> <span data-t="chat.mute"></span></label></h2>
      <ol class="chat-log" data-chat-log data-testid="chat-log" aria-live="polite"></ol>
      <p class="muted" data-chat-muted hidden data-t="chat.muted"></p>
      <form data-chat-form ${watching ? "hidden" : ""}>
        <input data-chat-input data-testid="chat-input" maxlength="${CHAT_MAX}" autocomplete="off">
        <button type="submit" data-t="chat.send"></button></form>
      <p class="muted" data-chat-readonly ${watching ? "" : "hidden"} data-t="chat.spectators"></p>
    </section>`;
  root.before(panel);
  root.after(chatBox);
  const $ = (sel) => panel.querySelector(sel) || chatBox.querySelector(sel);
  // The table draws a slot in its side column (data-social-slot) and the bar and the chat move into
  // it, so the table keeps the whole window; each redraw of the table makes a new slot, and they
  // move again, keeping what was being typed and the focus. Without a slot they stay around the
  // table (a page that has none).
  let focused = null;
  let caret = null;
  for (const box of [panel, chatBox]) {
    box.addEventListener("focusin", (ev) => (focused = ev.target));
    box.addEventListener("focusout", (ev) => {
      if (ev.relatedTarget && !box.contains(ev.relatedTarget)) focused = null;
    });
    const remember = (ev) => {
      if (ev.target.selectionStart !== undefined && ev.target.selectionStart !== null) caret = [ev.target.selectionStart, ev.target.selectionEnd];
    };
    for (const type of ["keyup", "input", "click"]) box.addEventListener(type, remember);
  }
  function place() {
    const slot = root.querySelector("[data-social-slot]");
    if (!slot || slot.contains(panel)) return;
    slot.append(panel, chatBox);
    panel.classList.add("in-slot");
    chatBox.classList.add("in-slot");
    const lost = !document.activeElement || document.activeElement === document.body;
    if (focused && lost && (panel.contains(focused) || chatBox.contains(focused))) {
      focused.focus();
      if (caret && focused.setSelectionRange) focused.setSelectionRange(caret[0], caret[1]);
    }
  }
  $("[data-mute]").checked = muted;

  function words() {
    for (const box of [panel, chatBox]) {
      for (const el of box.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
    }
    const input = $("[data-chat-input]");
    input.placeholder = t("chat.placeholder");
    input.setAttribute("aria-label", t("chat.placeholder"));
  }

  const seatsOf = () => (state && state.seats) || [];
  const mySeat = () => {
    if (watching || !state) return null;
    return Number.isInteger(state.seat) ? state.seat : mine[0];
  };
  const holders = () => seatsOf().map((s) => `${s.kind}:${s.user_id || ""}`).join(",");
  const humanMine = () => mine.filter((s) => (seatsOf()[s] || {}).kind === "human");

  function left(i) {
    if (!clock || !clock.seats[i]) return null;
    const c = clock.seats[i];
    return c.running ? c.remaining - (performance.now() - clockAt) / 1000 : c.remaining;
  }

  function renderSeats() {
    const list = $("[data-seat-list]");
    const over = state && state.over;
    const rows = seatsOf().map((s, i) => {
      const li = document.createElement("li");
      li.dataset.seat = String(i);
      const name = document.createElement("span");
      name.className = "seat-name";
      // a seat a bot took over keeps its player's name and says which bot plays for them
      name.textContent = s.taken_over ? seatTitle(s) : nameOf(i);
      li.append(name);
      const rated = stake && counts() && stake.seats[i];
      if (rated && rated.rating) li.append(ratingOf(rated, s, i));
      if (s.status) {
        const note = document.createElement("span");
        note.className = "seat-status";
        note.dataset.testid = "seat-status";
        note.textContent = t(s.status === "left" ? "seat.whyLeft" : "seat.whyTimedOut");
        li.append(note);
      }
      const c = clock && clock.seats[i];
      if (c && s.kind === "human") {
        const time = document.createElement("span");
        time.className = `clock${c.running && !over ? " running" : ""}`;
        time.dataset.clock = String(i);
        time.dataset.testid = `clock-${i}`;
        li.append(time);
      }
      return li;
    });
    list.replaceChildren(...rows);
    tick();
    const leave = $("[data-leave]");
    const seat = mySeat();
    const canLeave = seat !== null && !over && (seatsOf()[seat] || {}).kind === "human";
    leave.hidden = !canLeave;
    leave.textContent = t(performance.now() - leaving < 5000 ? "leave.confirm" : "leave.button");
  }

  // whether this table's game moves ratings: a rated table that counts (the server decides at
  // the first move; a rated table of two accounts seen on one address, for one, does not)
  const counts = () => Boolean(stake && stake.rated && stake.counts);

  // a seat's rating at stake (before the end) or its change (once the game was rated), on the
  // display scale with "?" while provisional; the μ/σ detail in its title
  function ratingOf(rated, s, i) {
    const el = document.createElement("span");
    el.className = "seat-rating";
    el.dataset.testid = `seat-rating-${i}`;
    const r = rated.rating;
    const who = s.status && s.name ? s.name : nameOf(i);
    const mark = r.provisional ? "?" : "";
    const detail = [t("rating.detail", { mu: r.mu.toFixed(1), sigma: r.sigma.toFixed(1), n: r.games })];
    if (r.provisional) detail.push(t("rating.provisional"));
    if (rated.change) {
      const c = rated.change;
      const delta = c.display_after - c.display_before;
      el.textContent = `${c.display_after}${mark} (${deltaText(delta)})`;
      el.classList.add(delta >= 0 ? "up" : "down");
      el.title = [`${who}: ${t("rating.changed", { before: c.display_before, after: `${c.display_after}${mark}` })}`, ...detail].join(" · ");
    } else {
      el.textContent = ratingText(r);
      el.title = [`${who}: ${t("rating.short", { rating: ratingText(r) })}`, ...detail].join(" · ");
    }
    return el;
  }

  // the badge in the table's title (the table draws an empty [data-rated-badge] at each render)
  function renderBadge() {
    const badge = root.querySelector("[data-rated-badge]");
    if (!badge) return;
    badge.hidden = !stake || seatsOf().length < 2; // a solo game is never rated: no word needed
    if (badge.hidden) return;
    badge.dataset.testid = "rated-badge";
    badge.dataset.rated = String(stake.rated);
    badge.dataset.counts = String(counts());
    badge.className = `rated-badge ${counts() ? "rated" : "unrated"}`;
    // an unrated table; a rated one whose game counts; a rated one that does not, and why
    const why = stake.rated && !counts() && stake.reason ? t(`refusal.${stake.reason}`) : "";
    badge.textContent = t(!stake.rated ? "rating.badgeUnrated" : counts() ? "rating.badgeRated" : "rating.badgeNotCounted");
    badge.title = !stake.rated
      ? t("rating.badgeUnratedHelp")
      : counts()
        ? [t("rating.badgeRatedHelp"), stake.decided ? "" : t("rating.decidedAtFirstMove")].filter(Boolean).join(" ")
        : why;
    // the reason in words under the seats, where a phone (no tooltip) shows it too
    const note = $("[data-rated-why]");
    if (note) {
      note.hidden = !why;
      note.textContent = why;
    }
    // a phone shows one board at a time under its seat's tab: the rating goes in the tab too
    if (!counts()) return;
    for (const tabEl of root.querySelectorAll(".board-tabs [data-tab]")) {
      const i = Number(tabEl.dataset.tab);
      const rated = stake.seats[i];
      if (!rated || !rated.rating || tabEl.querySelector(".seat-rating")) continue;
      const el = ratingOf(rated, seatsOf()[i] || {}, i);
      el.dataset.testid = `tab-rating-${i}`;
      tabEl.append(" ", el);
    }
  }

  async function loadStake() {
    stakeSeats = holders();
    try {
      stake = await api.tableRatings(id);
    } catch (err) {
      return; // the next change of seats or the end looks again
    }
    renderBadge();
    renderSeats();
    const waiting = counts() && state && state.over && stake.seats.some((x) => x.rating && !x.change);
    if (waiting && stakeTries < 6) setTimeout(loadStake, 500 * 2 ** stakeTries++);
  }

  function tick() {
    if (!clock) return;
    for (const el of panel.querySelectorAll("[data-clock]")) {
      const i = Number(el.dataset.clock);
      const secs = left(i);
      el.textContent = formatClock(secs, clock.kind);
      el.classList.toggle("low", clock.kind === "realtime" && secs < 30);
    }
  }

  // the end screen (the table's dialog over the page) shows the same rematch controls
  function mirrorInEnd() {
    const end = root.querySelector("[data-testid=end-screen]");
    if (!end) return;
    let copy = end.querySelector(".social-end-rematch");
    if (!copy) {
      copy = document.createElement("div");
      copy.className = "social-end-rematch";
      end.append(copy);
    }
    const box = $("[data-testid=rematch]");
    copy.hidden = box.hidden;
    copy.replaceChildren(
      ...[...box.childNodes].map((node) => {
        const clone = node.cloneNode(true);
        if (clone.dataset && clone.dataset.testid) clone.dataset.testid = `end-${clone.dataset.testid}`;
        return clone;
      }),
    );
  }

  function renderRematch() {
    fillRematch();
    mirrorInEnd();
  }

  function fillRematch() {
    const box = $("[data-testid=rematch]");
    const over = state && state.over;
    box.hidden = !over;
    if (!over) return;
    box.replaceChildren();
    const line = document.createElement("p");
    const mineHuman = humanMine();
    if (!rematch) {
      if (!mineHuman.length) {
        box.hidden = true;
        return;
      }
      const b = document.createElement("button");
      b.type = "button";
      b.className = "primary";
      b.dataset.rematch = "offer";
      b.dataset.testid = "rematch-offer";
      b.textContent = t("rematch.offer");
      box.append(b);
      return;
    }
    const waitingMine = mineHuman.filter((s) => rematch.waiting.includes(s));
    const others = rematch.waiting.filter((s) => !mineHuman.includes(s));
    const declinedSeats = rematch.declined || [];
    const byMe = mineHuman.includes(rematch.by);
    // a decline or a withdrawn offer: the new table can never start
    const off = rematch.withdrawn || declinedSeats.length > 0;
    const button = (kind, label, cls = "") => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = cls;
      b.dataset.rematch = kind;
      b.dataset.testid = `rematch-${kind}`;
      b.textContent = label;
      return b;
    };
    const note = (text, testid, cls = "") => {
      const p = document.createElement("p");
      p.className = cls;
      p.dataset.testid = testid;
      p.textContent = text;
      box.append(p);
    };
    if (rematch.withdrawn) {
      note(byMe ? t("rematch.youWithdrew") : t("rematch.withdrawn", { name: nameOf(rematch.by) }), "rematch-withdrawn");
    } else if (mineHuman.some((s) => declinedSeats.includes(s))) {
      note(t("rematch.declined", { name: nameOf(rematch.by) }), "rematch-declined");
    } else if (waitingMine.length && !off) {
      line.textContent = t("rematch.offered", { name: nameOf(rematch.by) });
      box.append(line, button("accept", t("rematch.accept"), "primary"), button("decline", t("rematch.decline")));
      return;
    } else {
      line.textContent = byMe ? t("rematch.youOffered") : t("rematch.offered", { name: nameOf(rematch.by) });
      box.append(line);
    }
    // every page of the table hears who declined
    for (const seat of declinedSeats.filter((s) => !mineHuman.includes(s))) {
      note(t("rematch.declinedBy", { name: nameOf(seat) }), "rematch-declined-by", "rematch-refused");
    }
    if (off) {
      note(t("rematch.off"), "rematch-off", "muted");
      return;
    }
    if (others.length) {
      note(t("rematch.waiting", { names: listWords(others.map(nameOf)) }), "rematch-waiting", "muted");
    }
    // the offerer may take the offer back while nobody else has accepted it
    if (byMe && rematch.accepted.every((s) => mineHuman.includes(s))) {
      box.append(button("withdraw", t("rematch.withdraw")));
    }
    const a = document.createElement("a");
    a.dataset.testid = "rematch-open";
    a.href = mineHuman.length ? `#/play/${enc(rematch.id)}` : `#/watch/${enc(rematch.id)}`;
    a.textContent = t(mineHuman.length ? "rematch.open" : "rematch.watch");
    box.append(a);
  }

  // Decline the rematch for each of this browser's seats still asked (kind "withdraw": the
  // offerer's seat takes its offer back); every page of the table hears the new status.
  async function decline(kind) {
    const seats = kind === "withdraw" ? [rematch.by] : humanMine().filter((s) => rematch.waiting.includes(s));
    let status = null;
    for (const seat of seats) {
      try {
        status = await api.declineRematch(id, tokenOf(seat));
      } catch (err) {
        toast(err.message || t("error.network"));
        return;
      }
    }
    if (status) rematch = status;
    renderRematch();
  }

  function renderChat() {
    const log = $("[data-chat-log]");
    log.hidden = muted;
    $("[data-chat-muted]").hidden = !muted;
    if (muted) return;
    const items = [...messages.values()].sort((a, b) => a.n - b.n).slice(-200);
    log.replaceChildren(
      ...items.map((m) => {
        const li = document.createElement("li");
        const who = document.createElement("b");
        who.textContent = `${m.name || nameOf(m.seat)}: `;
        const text = document.createElement("span");
        text.className = "chat-text";
        text.textContent = m.text;
        li.append(who, text);
        return li;
      }),
    );
    log.scrollTop = log.scrollHeight;
  }

  function renderAll() {
    words();
    renderBadge();
    renderSeats();
    renderRematch();
    renderChat();
  }

  function onClock(message) {
    if (clock && message.version < clock.version) return;
    clock = message;
    clockAt = performance.now();
    renderSeats();
  }

  function onChat(message) {
    messages.set(message.n, message);
    renderChat();
  }

  function onRematch(message) {
    const fresh = !rematch;
    rematch = message;
    renderRematch();
    const declinedSeats = message.declined || [];
    const off = message.withdrawn || declinedSeats.length > 0;
    if (fresh && !off && humanMine().some((s) => message.waiting.includes(s))) {
      toast(t("rematch.offered", { name: nameOf(message.by) }), "info");
    }
    // the offer made on this page: once everyone accepted, to the new table
    if (offeredHere && !off && !message.waiting.length && alive) location.hash = `#/play/${enc(message.id)}`;
  }

  async function load() {
    try {
      const data = await api.social(id);
      if (data.clock) onClock({ version: -1, ...data.clock });
      for (const m of data.chat || []) messages.set(m.n, m);
      if (data.rematch) rematch = data.rematch;
      renderAll();
    } catch (err) {
      // the pushes bring what changes next
    }
  }

  async function sendChat(ev) {
    ev.preventDefault();
    const input = $("[data-chat-input]");
    const text = input.value.trim();
    const seat = mySeat();
    if (!text || sending || seat === null) return;
    sending = true;
    try {
      const message = await api.chat(id, tokenOf(seat), text);
      input.value = "";
      onChat(message);
    } catch (err) {
      toast(err.message || t("error.network"));
    } finally {
      sending = false;
    }
  }

  // Offer the rematch (or accept it) for each of this browser's seats. The offerer stays at
  // this table, which says whom the offer waits for, until every other player accepted.
  async function doRematch() {
    let answer = null;
    for (const seat of humanMine()) {
      if (rematch && !rematch.waiting.includes(seat)) continue;
      try {
        answer = await api.rematch(id, tokenOf(seat));
        rememberSeat(answer.id, answer.seat, answer.token); // only this seat's own credential
      } catch (err) {
        toast(err.message || t("error.network"));
        return;
      }
    }
    if (!answer) return;
    let status = null;
    try {
      status = (await api.social(id)).rematch; // whom the offer waits for now
    } catch (err) {
      status = null;
    }
    if (status && !status.waiting.length && !status.withdrawn && !(status.declined || []).length) {
      location.hash = `#/play/${enc(answer.id)}`;
      return;
    }
    offeredHere = true;
    if (status) rematch = status;
    renderRematch();
  }

  async function doLeave() {
    if (performance.now() - leaving >= 5000) {
      leaving = performance.now();
      renderSeats();
      setTimeout(renderSeats, 5100);
      return;
    }
    leaving = -Infinity;
    try {
      await api.leave(id, tokenOf(mySeat()));
      toast(t("leave.done"), "info");
    } catch (err) {
      toast(err.message || t("error.network"));
    }
    renderSeats();
  }

  function onClick(ev) {
    const el = ev.target.closest("[data-rematch],[data-leave]");
    if (!el || (!panel.contains(el) && !root.contains(el))) return;
    // the bar may sit inside the table (its side column): its clicks reach both listeners
    if (ev.currentTarget === root && panel.contains(el)) return;
    ev.preventDefault();
    if (el.dataset.rematch === "decline" || el.dataset.rematch === "withdraw") decline(el.dataset.rematch);
    else if (el.dataset.rematch !== undefined) doRematch();
    else doLeave();
  }

  panel.addEventListener("click", onClick);
  root.addEventListener("click", onClick); // the end screen's copy of the rematch controls
  $("[data-chat-form]").addEventListener("submit", sendChat);
  $("[data-mute]").addEventListener("change", (ev) => {
    muted = ev.target.checked;
    localStorage.setItem(MUTE_KEY, muted ? "1" : "0");
    renderChat();
  });
  socket.on("clock", onClock);
  socket.on("chat", onChat);
  socket.on("rematch", onRematch);
  socket.on("connected", load); // what was said or offered before this connection's pushes began
  const timer = setInterval(tick, 250);
  renderAll();
  load();

  return {
    // the table calls this after each of its renders with the state it shows
    update(next) {
      place();
      const overNow = next.over && !(state && state.over);
      state = next;
      if (overNow || holders() !== stakeSeats) loadStake(); // a seat was claimed, or the end
      renderBadge();
      renderSeats();
      renderRematch();
      if (overNow) load(); // a rematch may have been offered before this page saw the end
    },
    rerender: renderAll,
    unmount() {
      alive = false;
      clearInterval(timer);
      root.removeEventListener("click", onClick);
      panel.remove();
      chatBox.remove();
    },
  };
}
