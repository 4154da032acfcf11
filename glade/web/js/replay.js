// The replay page: step through a game's public log, move by move, with the board as it was.
import { api } from "./api.js";
import * as harmonies from "./harmonies.js";
import { esc, t } from "./i18n.js";
import * as livingForest from "./living_forest.js";
import { botLabel } from "./lobby.js";

const MODULES = { harmonies, "living-forest": livingForest };

export async function showReplay(root, id) {
  const [log, final] = await Promise.all([api.log(id), api.state(id)]);
  const mod = MODULES[final.game || final.view.game];
  await mod.prepare();
  const views = mod.replayViews(log);
  const names = {};
  for (const s of log.seats || final.seats || []) {
    if (s.kind === "bot") names[s.seat] = botLabel(String(s.bot));
    else if (s.name) names[s.seat] = s.name;
  }
  const nameOf = (seat) => names[seat] || t("table.seatN", { n: seat + 1 });
  let step = views.length - 1;
  let timer = null;
  const ui = mod.newUi();

  function render() {
    const last = step === views.length - 1 && Boolean(final.over || final.view.over || final.view.phase === "over");
    const view = mod.replayStep(views, step, final.view, last);
    const c = { state: { version: step, to_act: [], view }, view, legal: [], seat: null, mine: [], watching: true, nameOf, ui, hint: null };
    const move = step > 0 ? log.moves[step - 1] : null;
    const said = move ? `${step}. ${mod.describeLog(move, c)}` : t("replay.start");
    root.innerHTML = `<div class="replay" data-testid="replay" data-step="${step}">
      <section class="panel">
        <h1>${esc(t("replay.title", { game: t(`game.${final.view.game}`) }))}</h1>
        <div class="replay-bar">
          <button type="button" data-go="first" aria-label="${esc(t("replay.first"))}">«</button>
          <button type="button" data-go="prev" aria-label="${esc(t("replay.prev"))}" data-testid="replay-prev">‹</button>
          <button type="button" data-go="play" aria-label="${esc(timer ? t("replay.pause") : t("replay.play"))}">${timer ? "❚❚" : "▶"}</button>
          <button type="button" data-go="next" aria-label="${esc(t("replay.next"))}" data-testid="replay-next">›</button>
          <button type="button" data-go="last" aria-label="${esc(t("replay.last"))}">»</button>
          <input type="range" min="0" max="${views.length - 1}" value="${step}" aria-label="${esc(t("replay.slider"))}" data-testid="replay-slider">
          <span data-testid="replay-count">${step} / ${views.length - 1}</span>
        </div>
        <p class="replay-move" aria-live="polite" data-testid="replay-move">${esc(said)}</p>
      </section>
      <div class="play">${mod.replayRender(c)}</div>
      ${last ? `<section class="panel end-inline"><h2>${esc(t("end.title"))}</h2>${mod.endScreen(c)}</section>` : ""}
      <p class="links"><a href="#/">${esc(t("nav.lobby"))}</a></p>
    </div>`;
  }

  // Positions the page cannot rebuild by itself (Living Forest) come from the server, once each.
  let showing = 0;
  async function show() {
    const wanted = step;
    const ticket = ++showing;
    if (views[wanted] === null && (final.over || final.view.over)) {
      try {
        views[wanted] = (await api.past(id, wanted)).view;
      } catch (err) {
        views[wanted] = undefined;
      }
    }
    if (ticket === showing) render();
  }

  function go(where) {
    if (where === "first") step = 0;
    else if (where === "prev") step = Math.max(0, step - 1);
    else if (where === "next") step = Math.min(views.length - 1, step + 1);
    else if (where === "last") step = views.length - 1;
    else if (where === "play") {
      if (timer) {
        clearInterval(timer);
        timer = null;
      } else {
        if (step === views.length - 1) step = 0;
        timer = setInterval(() => {
          if (step >= views.length - 1) {
            clearInterval(timer);
            timer = null;
          } else step += 1;
          show();
        }, 700);
      }
    }
    show();
  }

  function onClick(ev) {
    const b = ev.target.closest("[data-go]");
    if (b) go(b.dataset.go);
  }
  function onInput(ev) {
    if (ev.target.matches("[data-testid=replay-slider]")) {
      step = Number(ev.target.value);
      show().then(() => root.querySelector("[data-testid=replay-slider]").focus());
    }
  }
  function onKey(ev) {
    if (ev.target.matches("input, select, textarea")) return;
    if (ev.key === "ArrowLeft") go("prev");
    else if (ev.key === "ArrowRight") go("next");
    else if (ev.key === "Home") go("first");
    else if (ev.key === "End") go("last");
  }
  root.addEventListener("click", onClick);
  root.addEventListener("input", onInput);
  document.addEventListener("keydown", onKey);
  render();
  return {
    unmount() {
      if (timer) clearInterval(timer);
      root.removeEventListener("click", onClick);
      root.removeEventListener("input", onInput);
      document.removeEventListener("keydown", onKey);
    },
    rerender: render,
  };
}
