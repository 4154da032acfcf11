// The review page (#/review/<id>): starts the server's review of a finished game (worked out in
// the bot workers and stored, so everyone who opens it later sees the same one), shows its
// progress, then the chart of each player's expected outlook (click a point: the replay at
// that decision, with the best alternative drawn beside the move played), the summary and every
// reviewed decision with its mark and the best move found, in the page's language.
import { seatLabel } from "../base/format.js";
import { esc, t } from "../base/i18n.js";
import { GAMES } from "../games/index.js";
import { api } from "../net/api.js";
import { chartSvg, markLabel, moveWords, needsPosition, unitLabel } from "../parts/review_view.js";

const POLL_MS = 1000;
const MARKS = ["best", "good", "inaccuracy", "mistake", "blunder"];

export async function showReview(root, id) {
  let timer = null;
  let alive = true;
  // the players by name (a seat a bot took over keeps its player's name)
  let seats = [];
  try {
    seats = (await api.log(id)).seats || [];
  } catch (err) {
    seats = [];
  }
  const seatName = (s) => {
    const info = seats.find((x) => x.seat === s);
    return (info && seatLabel(info)) || t("table.seatN", { n: s + 1 });
  };
  // the positions before the decisions whose moves name a card or a fire (log index -> view)
  const positions = new Map();
  async function loadPositions(r) {
    const wanted = new Set(r.turns.filter((tu) => needsPosition(tu.played.actions) || needsPosition(tu.best.actions)).map((tu) => tu.log[0]));
    await Promise.all(
      [...wanted].filter((n) => !positions.has(n)).map((n) =>
        api.past(id, n).then(
          (data) => positions.set(n, data.view),
          () => positions.set(n, null), // the move is then told by its slot
        ),
      ),
    );
  }

  async function draw(body) {
    if (!alive) return;
    let inner;
    if (body.status === "done") {
      const r = body.review;
      const mod = GAMES[r.game];
      if (mod) await mod.prepare();
      await loadPositions(r);
      if (!alive) return;
      const unit = unitLabel(r);
      const words = (tu, move) => moveWords(r.game, move.actions, positions.get(tu.log[0]) || null);
      const rows = r.turns
        .map(
          (tu) => `<tr class="mark-${esc(tu.mark)}" data-testid="review-row" data-seat="${tu.seat}"><td><a href="#/replay/${encodeURIComponent(id)}/${tu.log[1]}">${tu.index + 1}</a></td><td>${esc(seatName(tu.seat))}</td><td>${esc(words(tu, tu.played))}</td><td><span class="mark mark-${esc(tu.mark)}">${esc(markLabel(tu.mark))}</span></td><td>${tu.loss.toFixed(1)}</td><td>${tu.is_best ? "" : esc(words(tu, tu.best))}</td></tr>`,
        )
        .join("");
      const summary = r.summary
        .map((s) => `<tr data-testid="review-summary"><td>${esc(seatName(s.seat))}</td><td>${s.accuracy.toFixed(1)}%</td><td>${s.average_loss.toFixed(2)}</td>${MARKS.map((m) => `<td>${s.marks[m]}</td>`).join("")}</tr>`)
        .join("");
      const marks = MARKS.map((m) => `<th>${esc(markLabel(m))}</th>`).join("");
      const width = Math.min(720, (root.clientWidth || 700) - 40);
      inner = `<p class="hint-text" data-testid="review-explain">${esc(t(r.game === "living-forest" ? "review.explain.lf" : "review.explain.harmonies"))}</p>
        ${chartSvg(r, id, { nameOf: seatName, width })}
        <table class="review-summary"><thead><tr><th>${esc(t("review.seat"))}</th><th>${esc(t("review.accuracy"))}</th><th>${esc(t("review.avgLoss", { unit }))}</th>${marks}</tr></thead><tbody>${summary}</tbody></table>
        <table class="review-turns"><thead><tr><th>#</th><th>${esc(t("review.seat"))}</th><th>${esc(t("review.played"))}</th><th>${esc(t("review.mark"))}</th><th>${esc(t("review.loss", { unit }))}</th><th>${esc(t("review.best"))}</th></tr></thead><tbody>${rows}</tbody></table>`;
    } else if (body.status === "failed") {
      inner = `<p class="error" role="alert">${esc(t("review.failed"))}</p>`;
    } else {
      const total = body.total || 0;
      // waiting for the server's other work: how many jobs go first (0: being worked out)
      const queued = body.queued ? `<p data-testid="review-queued">${esc(t("review.queued", { n: body.queued }))}</p>` : "";
      inner = `${queued}<p>${esc(t("review.running", { done: body.done || 0, total: total || "…" }))}</p>
        <progress data-testid="review-progress" max="${total || 1}" value="${body.done || 0}"></progress>`;
    }
    if (!alive) return;
    root.innerHTML = `<section class="panel review" data-testid="review" data-status="${esc(body.status)}">
      <h1>${esc(t("review.title"))}</h1>${inner}
      <p class="links"><a href="#/replay/${encodeURIComponent(id)}">${esc(t("nav.replay"))}</a> · <a href="#/">${esc(t("nav.lobby"))}</a></p></section>`;
    if (body.status === "running") timer = setTimeout(poll, POLL_MS);
  }
  let last = null;
  async function poll() {
    try {
      last = await api.review(id);
      await draw(last);
    } catch (err) {
      root.innerHTML = `<p class="error" role="alert">${esc(err.message)}</p>`;
    }
  }
  last = await api.startReview(id);
  await draw(last);
  return {
    unmount() {
      alive = false;
      if (timer) clearTimeout(timer);
    },
    rerender() {
      if (last && last.status !== "running") draw(last);
    },
  };
}
