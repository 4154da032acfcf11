// The replay page: step through a game's public log, move by move. Every position is the server's
// (GET /api/games/{id}/past/{move}, the engine replaying the log), drawn by the game's own table
// drawing, so the page keeps no copy of any rule.
import { botLabel } from "../base/format.js";
import { esc, t } from "../base/i18n.js";
import { GAMES } from "../games/index.js";
import { api } from "../net/api.js";
import { chartSvg, markLabel, moveWords, unitLabel } from "../parts/review_view.js";

const PACE_MS = 700; // one move a step while playing
const AHEAD = 2; // positions fetched ahead of the one shown, so that stepping forward is smooth

export async function showReplay(root, id, startAt) {
  const [log, final] = await Promise.all([api.log(id), api.state(id)]);
  const mod = GAMES[final.game || final.view.game];
  await mod.prepare();
  const moves = log.moves || [];
  const total = moves.length;
  const over = Boolean(final.over);
  const names = {};
  for (const s of log.seats || final.seats || []) {
    if (s.kind === "bot") names[s.seat] = botLabel(String(s.bot));
    else if (s.name) names[s.seat] = s.name;
  }
  const nameOf = (seat) => names[seat] || t("table.seatN", { n: seat + 1 });

  // step -> the server's view of that position, or a promise of it while it is on its way. The
  // first and the last position come with the log and the state; the others from the server's
  // replay of the log, which it shows once the game is over.
  const positions = new Map([[total, final.view]]);
  if (log.initial_view && total > 0) positions.set(0, log.initial_view);

  function fetchPosition(n) {
    const known = positions.get(n);
    if (known) return Promise.resolve(known);
    if (!over) return Promise.resolve(null);
    const pending = api.past(id, n).then(
      (data) => {
        positions.set(n, data.view);
        return data.view;
      },
      (err) => {
        positions.delete(n); // a later visit asks again
        throw err;
      },
    );
    positions.set(n, pending);
    return pending;
  }
  function prefetch(n) {
    for (let k = Math.max(0, n - 1); k <= Math.min(total, n + AHEAD); k += 1) fetchPosition(k).catch(() => {});
  }

  let step = total;
  if (startAt !== undefined && /^\d+$/.test(String(startAt))) step = Math.min(total, Number(startAt));
  let reviewed = null; // the stored review of this game, once the server has one
  if (over) api.review(id).then((b) => { if (b.status === "done") { reviewed = b.review; render(); } }).catch(() => {});
  let timer = null;
  let failed = null; // the message of a position that could not be read
  const ui = mod.newUi();

  function logHtml(c) {
    if (!step) return `<li class="muted">${esc(t("log.empty"))}</li>`;
    return moves
      .slice(0, step)
      .map((m, i) => `<li${i === step - 1 ? ' class="current" aria-current="step"' : ""}>${esc(mod.describeLog(m, c))}${logMark(i)}</li>`)
      .join("");
  }

  const loaded = (n) => {
    const pos = positions.get(n);
    return pos && !(pos instanceof Promise) ? pos : null; // the view, once it is here
  };
  // a position as the table draws it for a spectator, with the board of `focus` large: the seat of
  // the move shown (the replay follows whoever moved; a review's alternative is that seat's too)
  const mover = () => (step > 0 ? moves[step - 1].seat : null);
  const context = (view, u = ui, focus = mover()) => ({ state: { version: step, to_act: view.to_act || [], view }, view, legal: [], seat: null, focus, mine: [], watching: true, nameOf, ui: u, hint: null });

  // The review's decisions by the log position their move ends at, and the positions after each
  // one's best alternative (from the server, which replays the game to it), once asked for.
  const turnAt = (n) => (reviewed ? reviewed.turns.find((tu) => tu.log[1] === n) : null);
  const bests = new Map();
  function bestView(turn) {
    if (!bests.has(turn.index)) {
      bests.set(
        turn.index,
        api.reviewBest(id, turn.index).then(
          (data) => {
            bests.set(turn.index, data.view);
            if (step === turn.log[1]) render();
            return data.view;
          },
          () => bests.delete(turn.index),
        ),
      );
    }
    const found = bests.get(turn.index);
    return found instanceof Promise ? null : found;
  }

  function reviewLine() {
    const turn = turnAt(step);
    if (!turn) return "";
    if (!loaded(turn.log[0])) fetchPosition(turn.log[0]).then(render, () => {}); // for the names
    const best = moveWords(reviewed.game, (turn.is_best ? turn.played : turn.best).actions, loaded(turn.log[0]));
    return `<p class="review-mark mark-${esc(turn.mark)}" data-testid="replay-mark"><span class="mark mark-${esc(turn.mark)}">${esc(markLabel(turn.mark))}</span> ${esc(t("review.here", { mark: markLabel(turn.mark), loss: turn.loss.toFixed(1), unit: unitLabel(reviewed), best }))}</p>`;
  }

  // At a decision that was not the best: the board after the move played and, beside it, the
  // board after the best move found, each drawn by the game's own table drawing.
  function compare(board) {
    const turn = turnAt(step);
    if (!turn || turn.is_best) return board;
    const alt = bestView(turn);
    const before = loaded(turn.log[0]);
    let altBoard = `<p class="muted">${esc(t("review.loadingBest"))}</p>`;
    if (alt) {
      const altUi = mod.newUi();
      mod.resetUi(altUi);
      if (before) mod.render(context(before, altUi, turn.seat)); // marks what the alternative changed
      altBoard = mod.render(context(alt, altUi, turn.seat));
    } else if (!before) fetchPosition(turn.log[0]).then(render, () => {});
    const col = "flex:1 1 420px;min-width:0";
    return `<div class="review-compare" data-testid="review-compare" style="display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start">
      <section style="${col}" data-testid="compare-played" data-seat="${turn.seat}"><h3 style="font-size:1rem;margin:0 0 6px">${esc(t("review.boardPlayed"))}: ${esc(moveWords(reviewed.game, turn.played.actions, before))}</h3>${board}</section>
      <section style="${col}" data-testid="compare-best" data-seat="${turn.seat}" data-loaded="${alt ? "yes" : "no"}"><h3 style="font-size:1rem;margin:0 0 6px">${esc(t("review.boardBest"))}: ${esc(moveWords(reviewed.game, turn.best.actions, before))}</h3>${altBoard}</section>
    </div>`;
  }

  // Each move of the log that ends a reviewed decision carries its mark.
  function logMark(i) {
    const turn = turnAt(i + 1);
    return turn ? ` <span class="mark mark-${esc(turn.mark)}" data-testid="log-mark">${esc(markLabel(turn.mark))}</span>` : "";
  }

  function render() {
    const shown = loaded(step);
    const move = step > 0 ? moves[step - 1] : null;
    let board;
    let c = null;
    if (shown) {
      c = context(shown);
      // the table marks what changed since it was last drawn: drawn after the position before
      // this move, it marks exactly what this move changed, whichever step was shown before
      mod.resetUi(ui);
      const before = step > 0 ? loaded(step - 1) : null;
      if (before) mod.render(context(before));
      board = compare(mod.render(c));
    } else {
      // a finished game's position still on its way shows nothing yet; an unfinished game's
      // earlier positions are not shown by the server
      const why = failed || (over ? "" : t("replay.notOver"));
      board = `<p class="muted" data-testid="replay-unavailable">${esc(why)}</p>`;
    }
    const words = c || { view: final.view, nameOf, legal: [], seat: null, ui }; // for the log lines
    const said = move ? `${step}. ${mod.describeLog(move, words)}` : t("replay.start");
    const last = step === total && over;
    root.innerHTML = `<div class="table replay ${esc(final.view.game)}" data-testid="replay" data-step="${step}" data-loaded="${shown ? "yes" : "no"}">
      <section class="status">
        <h1 class="status-title">${esc(t("replay.title", { game: t(`game.${final.view.game}`) }))}${c ? ` <span class="muted">${esc(mod.roundText(c))}</span>` : ""}</h1>
        <div class="replay-bar">
          <button type="button" data-go="first" aria-label="${esc(t("replay.first"))}">«</button>
          <button type="button" data-go="prev" aria-label="${esc(t("replay.prev"))}" data-testid="replay-prev">‹</button>
          <button type="button" data-go="play" aria-label="${esc(timer ? t("replay.pause") : t("replay.play"))}">${timer ? "❚❚" : "▶"}</button>
          <button type="button" data-go="next" aria-label="${esc(t("replay.next"))}" data-testid="replay-next">›</button>
          <button type="button" data-go="last" aria-label="${esc(t("replay.last"))}">»</button>
          <input type="range" min="0" max="${total}" value="${step}" aria-label="${esc(t("replay.slider"))}" data-testid="replay-slider">
          <span data-testid="replay-count">${step} / ${total}</span>
        </div>
        <p class="replay-move status-line" aria-live="polite" data-testid="replay-move">${esc(said)}</p>
        ${reviewLine()}
        ${reviewed ? `<div class="replay-chart" data-testid="replay-chart">${chartSvg(reviewed, id, { inPlace: true, current: step, nameOf, width: Math.min(720, (root.clientWidth || 700) - 40) })}</div>` : ""}
      </section>
      <div class="play">${board}${last && c && c.view.result ? `<section class="panel end-inline"><h2>${esc(t("end.title"))}</h2>${mod.endScreen(c)}</section>` : ""}</div>
      <aside class="side">
        ${c ? `<section class="panel scores"><h2>${esc(t("table.scores"))}</h2>${mod.scores(c)}</section>` : ""}
        <section class="panel log-panel"><h2>${esc(t("table.log"))}</h2><ol class="log" data-log>${logHtml(words)}</ol></section>
        <p class="links">${over ? `<a href="#/review/${encodeURIComponent(id)}" data-testid="review-link">${esc(t("review.button"))}</a> · ` : ""}<a href="#/">${esc(t("nav.lobby"))}</a></p>
      </aside>
    </div>`;
    const logEl = root.querySelector("[data-log]");
    if (logEl) logEl.scrollTop = logEl.scrollHeight;
  }

  // Show the position of the current step once the server has sent it; a newer step wins.
  let showing = 0;
  async function show() {
    const wanted = step;
    const ticket = ++showing;
    failed = null;
    // the address names the move shown, so that it can be shared or reloaded (replaceState: no
    // new history entry, no hashchange)
    const here = `#/replay/${encodeURIComponent(id)}/${wanted}`;
    if (location.hash !== here) history.replaceState(null, "", here);
    try {
      const previous = wanted > 0 ? fetchPosition(wanted - 1).catch(() => null) : null;
      await Promise.all([fetchPosition(wanted), previous]);
    } catch (err) {
      failed = (err.status !== 0 && err.message) || t("error.network");
    }
    if (ticket !== showing) return;
    render();
    prefetch(wanted);
  }

  function stopPlaying() {
    if (timer) clearTimeout(timer);
    timer = null;
  }
  // Playing moves on only after the position on screen has been drawn (never skips one).
  function playOn() {
    timer = setTimeout(async () => {
      if (step >= total) {
        stopPlaying();
        render();
        return;
      }
      step += 1;
      await show();
      if (timer) playOn();
    }, PACE_MS);
  }

  function go(where) {
    if (where === "play") {
      if (timer) {
        stopPlaying();
        render();
        return;
      }
      if (step === total) step = 0;
      timer = -1; // playing, until the first timeout is set
      show().then(playOn);
      return;
    }
    stopPlaying();
    if (where === "first") step = 0;
    else if (where === "prev") step = Math.max(0, step - 1);
    else if (where === "next") step = Math.min(total, step + 1);
    else if (where === "last") step = total;
    show();
  }

  function onClick(ev) {
    const b = ev.target.closest("[data-go]");
    if (b) go(b.dataset.go);
    const point = ev.target.closest("[data-jump]");
    if (point) {
      // a point of the review's chart: that decision, here
      stopPlaying();
      step = Math.min(total, Number(point.dataset.jump));
      show();
    }
  }
  function onInput(ev) {
    if (ev.target.matches("[data-testid=replay-slider]")) {
      stopPlaying();
      step = Number(ev.target.value);
      show().then(() => {
        const slider = root.querySelector("[data-testid=replay-slider]");
        if (slider) slider.focus();
      });
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
  if (step !== total) show(); // opened at a move (#/replay/<id>/<move>): fetch and draw it
  else if (over) prefetch(step);
  return {
    unmount() {
      stopPlaying();
      root.removeEventListener("click", onClick);
      root.removeEventListener("input", onInput);
      document.removeEventListener("keydown", onKey);
    },
    rerender: render,
  };
}
