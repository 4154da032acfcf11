// The lobby: my games (whose turn, last move, results), create a table (game, options, seats,
// hot-seat or online), invite links, open tables.
import { botLabel, botRatingText, seatLabel, seatTitle } from "../base/format.js";
import { esc, lang, t } from "../base/i18n.js";
import { toast } from "../base/ui.js";
import { api, rememberNames, seatsFor } from "../net/api.js";
import { askNotifications, look, notificationsState, onTurns, setSound, soundOn, stopNotifications, turns } from "../net/notify.js";
import { claimSeat, fetchKeys, me } from "../net/session.js";
import { learnPanelHtml } from "../parts/learn_links.js";
import { clockField, clockOption } from "../parts/social.js";

const DEFAULT_BOTS = ["random", "greedy", "mcts:easy", "mcts:normal", "mcts:hard"];
const FORM_KEY = "glade.lobby";

// Each bot level's calibrated rating, per game, shown beside it (read once for the page's life).
let botRatingsRead = null;
function loadBotRatings() {
  if (!botRatingsRead) botRatingsRead = api.botRatings().catch(() => ({ games: {} }));
  return botRatingsRead;
}

// The "rated table" choice, for a logged-in player (a rated table's seats are accounts').
function ratedCheckbox(form) {
  if (!me.user) return "";
  return `<label class="check"><input type="checkbox" name="rated" data-testid="rated"${form.rated ? " checked" : ""}> ${esc(t("rating.rated"))}</label>`;
}

function loadForm() {
  const defaults = { game: "harmonies", players: 2, side: "A", spirits: false, mode: "hotseat", seats: [] };
  try {
    return { ...defaults, ...JSON.parse(localStorage.getItem(FORM_KEY) || "{}") };
  } catch (err) {
    return defaults;
  }
}

function seatDefaults(form, i) {
  const old = form.seats[i] || {};
  return { kind: old.kind || (i === 0 ? "human" : "greedy"), name: old.name || "" };
}

export async function showLobby(root) {
  // The server lists no bots; these are the registry's names (glade.bots.make_bot).
  const bots = DEFAULT_BOTS;
  const botRatings = await loadBotRatings(); // each level's calibrated rating, shown beside it
  const form = loadForm();
  let invites = null;
  let openGames = [];
  let timer = null;

  function seatRows() {
    const rows = [];
    for (let i = 0; i < form.players; i++) {
      const s = seatDefaults(form, i);
      form.seats[i] = s;
      const options = [`<option value="human"${s.kind === "human" ? " selected" : ""}>${esc(t("lobby.human"))}</option>`]
        .concat(bots.map((b) => `<option value="${esc(b)}"${s.kind === b ? " selected" : ""}>${esc(botLabel(b) + botRatingText(botRatings, form.game, b))}</option>`))
        .join("");
      rows.push(`<li class="seat-row">
        <span class="seat-label">${esc(t("lobby.seat", { n: i + 1 }))}</span>
        <select data-seat-kind="${i}" aria-label="${esc(t("lobby.seatKind", { n: i + 1 }))}">${options}</select>
        <input data-seat-name="${i}" value="${esc(s.name)}" placeholder="${esc(i === form.seats.findIndex((x) => x.kind === "human") && me.user ? me.user.name : t("lobby.namePlaceholder", { n: i + 1 }))}"
          aria-label="${esc(t("lobby.seatName", { n: i + 1 }))}" ${s.kind === "human" ? "" : "hidden"} maxlength="24">
      </li>`);
    }
    return rows.join("");
  }

  function render() {
    const hf = form.game === "harmonies";
    const minP = hf ? 1 : 2;
    if (form.players < minP) form.players = minP;
    const playerOpts = [];
    for (let n = minP; n <= 4; n++) {
      const label = n === 1 ? t("lobby.solo") : t("lobby.nPlayers", { n });
      playerOpts.push(`<option value="${n}"${form.players === n ? " selected" : ""}>${esc(label)}</option>`);
    }
    const solo = form.players === 1;
    root.innerHTML = `
    <div class="lobby">
    <section class="panel mygames" aria-labelledby="mygames-title" data-testid="my-games" style="grid-column: 1 / -1">
      ${myGamesHtml()}
    </section>
    ${learnPanelHtml()}
    <section class="panel" aria-labelledby="new-title">
      <h1 id="new-title">${esc(t("lobby.newTable"))}</h1>
      <form id="new-game" novalidate>
        <fieldset class="choice"><legend>${esc(t("lobby.game"))}</legend>
          <label><input type="radio" name="game" value="harmonies"${hf ? " checked" : ""}> ${esc(t("game.harmonies"))}</label>
          <label><input type="radio" name="game" value="living-forest"${hf ? "" : " checked"}> ${esc(t("game.living-forest"))}</label>
        </fieldset>
        <label class="field">${esc(t("lobby.players"))}
          <select name="players" data-testid="players">${playerOpts.join("")}</select></label>
        ${
          hf
            ? `<fieldset class="choice"><legend>${esc(t("lobby.side"))}</legend>
          <label><input type="radio" name="side" value="A"${form.side === "A" ? " checked" : ""}> ${esc(t("lobby.sideA"))}</label>
          <label><input type="radio" name="side" value="B"${form.side === "B" ? " checked" : ""}> ${esc(t("lobby.sideB"))}</label>
        </fieldset>
        <label class="check"><input type="checkbox" name="spirits"${form.spirits ? " checked" : ""}> ${esc(t("lobby.spirits"))}</label>`
            : ""
        }
        ${
          solo
            ? ""
            : `<fieldset class="choice"><legend>${esc(t("lobby.mode"))}</legend>
          <label><input type="radio" name="mode" value="hotseat"${form.mode === "hotseat" ? " checked" : ""}> ${esc(t("lobby.hotseat"))}</label>
          <label><input type="radio" name="mode" value="online"${form.mode === "online" ? " checked" : ""}> ${esc(t("lobby.online"))}</label>
        </fieldset>`
        }
        ${solo ? "" : ratedCheckbox(form)}
        <p class="hint-text">${esc(solo ? t("lobby.soloHelp") : form.mode === "online" ? t("lobby.onlineHelp") : t("lobby.hotseatHelp"))}</p>
        ${clockField(form.clock)}
        <ol class="seats">${seatRows()}</ol>
        <button type="submit" class="primary" data-testid="create">${esc(t("lobby.create"))}</button>
      </form>
      ${invites ? invitesHtml() : ""}
    </section>
    <section class="panel" aria-labelledby="open-title">
      <h2 id="open-title">${esc(t("lobby.openTables"))}</h2>
      <label class="field">${esc(t("lobby.yourName"))}
        <input id="join-name" maxlength="24" value="${esc(localStorage.getItem("glade.name") || "")}"></label>
      <ul class="open-list" data-testid="open-list">${openHtml()}</ul>
      <button type="button" data-refresh>${esc(t("lobby.refresh"))}</button>
      <p><a href="#/leaderboard/${esc(form.game)}" data-testid="leaderboard-link">${esc(t("rating.leaderboard"))}</a></p>
    </section>
    </div>`;
    bind();
  }

  function invitesHtml() {
    const rows = invites.seats
      .map((s) => {
        if (s.mine) {
          // the creator's own seat is already claimed for this browser: it opens directly
          return `<li><span>${esc(t("lobby.seat", { n: s.seat + 1 }))} · ${esc(s.name || "")} · ${esc(t("mygames.yourSeat"))}</span>
          <a class="button primary" href="#/play/${encodeURIComponent(invites.id)}" data-open-seat="${s.seat}">${esc(t("lobby.openSeat"))}</a></li>`;
        }
        const url = s.url || `${location.origin}/#/play/${encodeURIComponent(invites.id)}/${encodeURIComponent(s.token)}`;
        return `<li><span>${esc(t("lobby.seat", { n: s.seat + 1 }))} · ${esc(s.name || t("lobby.free"))}</span>
          <input readonly value="${esc(url)}" aria-label="${esc(t("lobby.inviteFor", { n: s.seat + 1 }))}" data-invite="${s.seat}">
          <button type="button" data-copy="${s.seat}">${esc(t("lobby.copy"))}</button>
          <a href="${esc(url)}" data-open-seat="${s.seat}">${esc(t("lobby.openSeat"))}</a></li>`;
      })
      .join("");
    return `<div class="invites" data-testid="invites"><h2>${esc(t("lobby.invites"))}</h2><ul>${rows}</ul></div>`;
  }

  function ago(at) {
    if (!at) return t("mygames.noMoveYet");
    const secs = Math.round(at - Date.now() / 1000);
    const fmt = new Intl.RelativeTimeFormat(lang(), { numeric: "auto" });
    const abs = Math.abs(secs);
    let when;
    if (abs < 60) when = fmt.format(secs, "second");
    else if (abs < 3600) when = fmt.format(Math.round(secs / 60), "minute");
    else if (abs < 86400) when = fmt.format(Math.round(secs / 3600), "hour");
    else when = fmt.format(Math.round(secs / 86400), "day");
    return t("mygames.lastMove", { when });
  }

  const seatName = seatLabel;

  function resultText(g) {
    const r = g.result || {};
    const seats = g.seats || [];
    const scores = (r.scores || []).map((n, i) => `${seatName(seats[i] || {})} ${n}`).join(" · ");
    const winners = (r.winners || []).map((i) => seatName(seats[i] || {}));
    const mineWon = (r.winners || []).some((i) => (g.mine || []).includes(i));
    const head = seats.length === 1 ? t("mygames.soloDone") : mineWon ? t("mygames.youWon") : t("mygames.won", { names: winners.join(", ") });
    return `${head} (${scores})`;
  }

  function gameRow(g) {
    const names = (g.seats || []).map(seatTitle).join(", ");
    const title = `<b>${esc(t(`game.${g.game}`))}</b> · ${esc(names)}`;
    if (g.over) {
      return `<li data-mygame="${esc(g.id)}" data-over="true"><span>${title}<br><span class="muted" data-testid="mygame-result">${esc(resultText(g))}</span></span>
        <a class="button" href="#/replay/${encodeURIComponent(g.id)}" data-replay="${esc(g.id)}">${esc(t("mygames.replay"))}</a></li>`;
    }
    const waiting = (g.to_act || []).map((i) => seatName((g.seats || [])[i] || {})).join(", ");
    const turn = g.your_turn
      ? `<b class="your-turn" data-testid="your-turn" style="color: var(--accent)">${esc(t("mygames.yourTurn"))}</b>`
      : esc(t("mygames.theirTurn", { names: waiting }));
    return `<li data-mygame="${esc(g.id)}" data-over="false"${g.your_turn ? ' data-your-turn="true"' : ""}><span>${title}<br>${turn} · <span class="muted">${esc(ago(g.last_move_at))}</span></span>
      <button type="button" data-open-game="${esc(g.id)}"${g.your_turn ? ' class="primary"' : ""}>${esc(t("mygames.open"))}</button></li>`;
  }

  function myGamesHtml() {
    const games = turns.games || [];
    const active = games.filter((g) => !g.over);
    const done = games.filter((g) => g.over).slice(0, 20);
    const where = me.user ? t("mygames.fromAccount", { name: me.user.name }) : t("mygames.fromBrowser");
    const notes = notificationsState();
    const notifyButton =
      notes === "unsupported"
        ? ""
        : `<button type="button" data-notify="${notes}"${notes === "denied" ? " disabled" : ""}>${esc(
            t(notes === "on" ? "mygames.notifyOff" : notes === "denied" ? "mygames.notifyDenied" : "mygames.notifyOn"),
          )}</button>`;
    return `<h2 id="mygames-title">${esc(t("mygames.title"))}</h2>
      <p class="hint-text">${esc(where)}${me.user ? "" : ` <a href="#/account">${esc(t("mygames.loginToKeep"))}</a>`}</p>
      <div class="controls" style="align-items: center"><label class="check"><input type="checkbox" data-sound${soundOn() ? " checked" : ""}> ${esc(t("mygames.sound"))}</label>${notifyButton}</div>
      <h3>${esc(t("mygames.active"))}</h3>
      <ul class="open-list" data-testid="mygames-active">${active.length ? active.map(gameRow).join("") : `<li class="muted">${esc(t("mygames.noneActive"))}</li>`}</ul>
      <h3>${esc(t("mygames.finished"))}</h3>
      <ul class="open-list" data-testid="mygames-finished">${done.length ? done.map(gameRow).join("") : `<li class="muted">${esc(t("mygames.noneFinished"))}</li>`}</ul>`;
  }

  function bindMyGames() {
    const panel = root.querySelector("[data-testid=my-games]");
    if (!panel) return;
    for (const b of panel.querySelectorAll("[data-open-game]")) b.addEventListener("click", () => openGame(b.dataset.openGame));
    const sound = panel.querySelector("[data-sound]");
    if (sound) sound.addEventListener("change", () => setSound(sound.checked));
    const notify = panel.querySelector("[data-notify]");
    if (notify)
      notify.addEventListener("click", async () => {
        if (notify.dataset.notify === "on") stopNotifications();
        else await askNotifications();
        redrawMyGames();
      });
  }

  const drawnMyGames = new WeakMap(); // panel -> the HTML last drawn in it

  function redrawMyGames() {
    const panel = root.querySelector("[data-testid=my-games]");
    if (!panel) return;
    const html = myGamesHtml();
    if (drawnMyGames.get(panel) === html) return; // nothing changed: keep the rows (a click, focus)
    panel.innerHTML = html;
    drawnMyGames.set(panel, html);
    bindMyGames();
  }

  async function openGame(id) {
    const held = Object.keys(seatsFor(id).tokens || {}).length > 0;
    try {
      if (!held && me.user) await fetchKeys(id); // logged in on another device: keys for this one
      location.hash = `#/play/${encodeURIComponent(id)}`;
    } catch (err) {
      toast(err.message || t("error.network"));
    }
  }

  function openHtml() {
    const rows = openGames
      .filter((g) => (g.seats || []).some((s) => s.open))
      .map((g) => {
        const names = (g.seats || []).map((s) => (s.open ? t("lobby.free") : s.name || botLabel(s.bot || s.kind))).join(", ");
        return `<li><span><b>${esc(t(`game.${g.game}`))}</b> · ${esc(names)}</span>
          <button type="button" data-join="${esc(g.id)}">${esc(t("lobby.join"))}</button></li>`;
      });
    return rows.length ? rows.join("") : `<li class="muted">${esc(t("lobby.noOpenTables"))}</li>`;
  }

  function save() {
    localStorage.setItem(FORM_KEY, JSON.stringify(form));
  }

  function bind() {
    const f = root.querySelector("#new-game");
    f.addEventListener("change", (ev) => {
      const el = ev.target;
      if (el.name === "game") form.game = el.value;
      else if (el.name === "players") form.players = Number(el.value);
      else if (el.name === "side") form.side = el.value;
      else if (el.name === "spirits") form.spirits = el.checked;
      else if (el.name === "rated") form.rated = el.checked;
      else if (el.name === "mode") form.mode = el.value;
      else if (el.name === "clock") form.clock = el.value; // social.js
      else if (el.dataset.seatKind !== undefined) form.seats[Number(el.dataset.seatKind)].kind = el.value;
      else return;
      save();
      render();
    });
    f.addEventListener("input", (ev) => {
      const el = ev.target;
      if (el.dataset.seatName !== undefined) {
        form.seats[Number(el.dataset.seatName)].name = el.value;
        save();
      }
    });
    f.addEventListener("submit", (ev) => {
      ev.preventDefault();
      create();
    });
    for (const b of root.querySelectorAll("[data-copy]")) {
      b.addEventListener("click", async () => {
        const input = root.querySelector(`[data-invite="${b.dataset.copy}"]`);
        input.select();
        try {
          await navigator.clipboard.writeText(input.value);
        } catch (err) {
          document.execCommand("copy");
        }
        toast(t("lobby.copied"), "info");
      });
    }
    for (const b of root.querySelectorAll("[data-join]")) b.addEventListener("click", () => join(b.dataset.join));
    root.querySelector("[data-refresh]").addEventListener("click", refresh);
    root.querySelector("#join-name").addEventListener("input", (ev) => localStorage.setItem("glade.name", ev.target.value));
    bindMyGames();
  }

  async function create() {
    const solo = form.players === 1;
    const online = !solo && form.mode === "online";
    const first = form.seats.findIndex((s) => s.kind === "human");
    // Online, a human seat left without a name stays open: the lobby lists it and its invite asks a name.
    const seats = form.seats.slice(0, form.players).map((s, i) => {
      if (s.kind !== "human") return { kind: "bot", bot: s.kind };
      // this browser's first player is the account's when logged in (its seat is rated as it)
      const own = i === first && me.user ? me.user.name : "";
      const name = s.name.trim() || own || (online && i !== first ? "" : t("lobby.namePlaceholder", { n: i + 1 }));
      return name ? { kind: "human", name } : { kind: "human" };
    });
    if (!seats.some((s) => s.kind === "human")) {
      toast(t("lobby.needHuman"));
      return;
    }
    const options = { players: form.players };
    if (form.game === "harmonies") {
      options.side = form.side;
      options.spirits = form.spirits;
    }
    let made;
    try {
      const rated = Boolean(form.rated && me.user && !solo);
      made = await api.create(form.game, options, seats, { clock: clockOption(form.clock), rated });
    } catch (err) {
      toast(err.message || t("error.network"));
      return;
    }
    const names = {};
    seats.forEach((s, i) => {
      if (s.kind === "bot") names[i] = botLabel(s.bot);
      else if (s.name) names[i] = s.name;
    });
    rememberNames(made.id, names);
    const human = made.seats.filter((s) => seats[s.seat].kind === "human");
    // this browser's own seats are claimed at once (their invite tokens spent): they open directly
    const own = solo || form.mode === "hotseat" ? human : human.filter((s) => s.seat === first);
    try {
      for (const s of own) await claimSeat(made.id, s.token, null);
    } catch (err) {
      toast(err.message || t("error.network"));
      return;
    }
    if (solo || form.mode === "hotseat") {
      location.hash = `#/play/${encodeURIComponent(made.id)}`;
      return;
    }
    invites = { id: made.id, seats: human.map((s) => ({ ...s, name: names[s.seat], mine: s.seat === first })) };
    render();
    look();
  }

  async function join(id) {
    const name = root.querySelector("#join-name").value.trim();
    if (!name) {
      toast(t("lobby.nameFirst"));
      root.querySelector("#join-name").focus();
      return;
    }
    try {
      await claimSeat(id, null, name); // the seat joins the account when logged in
      location.hash = `#/play/${encodeURIComponent(id)}`;
    } catch (err) {
      toast(err.message || t("error.network"));
    }
  }

  async function refresh() {
    try {
      const data = await api.openGames();
      openGames = Array.isArray(data) ? data : (data && data.games) || [];
    } catch (err) {
      openGames = [];
    }
    const list = root.querySelector("[data-testid=open-list]"); // not My games' lists, above it
    if (list) {
      list.innerHTML = openHtml();
      for (const b of list.querySelectorAll("[data-join]")) b.addEventListener("click", () => join(b.dataset.join));
    }
  }

  render();
  refresh();
  timer = setInterval(refresh, 5000);
  const offTurns = onTurns(redrawMyGames);
  look();
  return {
    unmount() {
      clearInterval(timer);
      offTurns();
    },
    rerender: render,
  };
}
