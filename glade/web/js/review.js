// The review page (#/review/<id>): starts the server's review of a finished game (worked out in
// the bot workers and stored, so everyone who opens it later sees the same one), shows its
// progress, then the chart of each player's expected final score (click a point: the replay at
// that decision, with the best alternative drawn beside the move played), the summary and every
// reviewed decision with its mark and the best move found, in the page's language.
import * as harmonies from "./harmonies.js";
import { esc, refusal, t } from "./i18n.js";
import * as livingForest from "./living_forest.js";

const MODULES = { harmonies, "living-forest": livingForest };
const POLL_MS = 1000;
const COLORS = ["#2a7ab0", "#c0392b", "#27ae60", "#8e44ad"];
const MARKS = ["best", "good", "inaccuracy", "mistake", "blunder"];
const SILENT = new Set(["end_turn", "end_actions", "done"]); // the end of a turn goes without saying

async function call(method, id, path = "") {
  const r = await fetch(`/api/games/${encodeURIComponent(id)}/review${path}`, { method });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(refusal(body.code, body.params, body.error) || t("error.network"));
  return body;
}

export function fetchReview(id) {
  return call("GET", id);
}

// The position after the best move found at decision k (the server replays the game to it).
export function fetchBest(id, k) {
  return call("GET", id, `/${k}/best`);
}

// One action in present-tense words ("take space 3"), in the page's language.
function actionWords(a) {
  switch (a.type) {
    case "take_tokens":
      return t("review.act.take_tokens", { n: a.space + 1 });
    case "place_token":
      return t("review.act.place_token", { colour: t(`colour.${a.color}`), cell: harmonies.cellLabel(a.cell) });
    case "take_card":
    case "discard_card":
      return t(`review.act.${a.type}`, { n: a.slot + 1 });
    case "place_cube":
      return t("review.act.place_cube", { card: harmonies.cardName(a.card), cell: harmonies.cellLabel(a.cell) });
    case "choose_spirit":
      return t("review.act.choose_spirit", { card: harmonies.cardName(a.card) });
    case "choose_action":
      return t("review.act.choose_action", { action: t(`lf.kind.${a.action}`) });
    case "pick_card":
      return t("review.act.pick_card", { level: a.level, n: a.slot + 1 });
    case "pick_fire":
      return t("review.act.pick_fire", { n: a.index + 1 });
    case "plant": {
      const cost = /^T(\d+)/.exec(String(a.tree)); // a tree's id starts with its cost (T3a, T6)
      return t("review.act.plant", { cost: cost ? cost[1] : a.tree, row: a.row + 1, column: a.column + 1 });
    }
    case "move":
      return t("review.act.move", { n: a.steps });
    case "steal":
      return t("review.act.steal", { tile: t(`lf.tile.${a.tile}`) });
    default:
      return t(`review.act.${a.type}`);
  }
}

// A move (its actions' JSON) in the page's language: "take space 3 → place blue on 0,0 → …".
export function moveWords(game, actions) {
  const parts = (actions || []).filter((a) => !SILENT.has(a.type)).map(actionWords);
  return parts.length ? parts.join(" → ") : t("review.act.end");
}

export function unitLabel(review) {
  return t(review.game === "living-forest" ? "review.unit.win" : "review.unit.points");
}

export function markLabel(mark) {
  return t(`review.mark.${mark}`);
}

// The chart: each player's expected final score after each reviewed decision. A point is a link
// to the replay at that decision, or, with `onStep`, a button the replay page handles itself
// (data-step). `current`: the log position shown, whose point is ringed.
export function chartSvg(review, id, { inPlace = false, current = null } = {}) {
  const pts = review.series || [];
  const n = review.players || 2;
  if (!pts.length) return "";
  const W = 640;
  const H = 220;
  const pad = 30;
  const ys = pts.flatMap((p) => p.scores);
  const lo = Math.floor(Math.min(0, ...ys));
  const hi = Math.ceil(Math.max(1, ...ys));
  const x = (i) => pad + ((W - 2 * pad) * i) / Math.max(1, pts.length - 1);
  const y = (v) => H - pad - ((H - 2 * pad) * (v - lo)) / Math.max(1, hi - lo);
  let out = `<svg class="review-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(t("review.chart"))}" data-testid="review-chart" style="max-width:100%;height:auto">`;
  out += `<text x="${pad}" y="14" class="axis" font-size="12">${esc(t("review.chart"))}</text>`;
  out += `<text x="2" y="${y(hi) + 4}" class="axis" font-size="11">${hi}</text><text x="2" y="${y(lo)}" class="axis" font-size="11">${lo}</text>`;
  for (let s = 0; s < n; s += 1) {
    const line = pts.map((p, i) => `${x(i).toFixed(1)},${y(p.scores[s]).toFixed(1)}`).join(" ");
    out += `<polyline fill="none" stroke="${COLORS[s % 4]}" stroke-width="2" points="${line}"/>`;
  }
  pts.forEach((p, i) => {
    const turn = (review.turns || [])[i];
    const title = `${t("review.turn")} ${i + 1}${turn ? ` · ${markLabel(turn.mark)}` : ""}`;
    const ring = current === p.log ? ' stroke="#000" stroke-width="2"' : "";
    const dot = `<circle cx="${x(i).toFixed(1)}" cy="${y(p.scores[p.seat]).toFixed(1)}" r="5" fill="${COLORS[p.seat % 4]}"${ring}><title>${esc(title)}</title></circle>`;
    if (inPlace) out += `<g class="chart-point" role="button" tabindex="0" data-jump="${p.log}" data-testid="chart-point" style="cursor:pointer">${dot}</g>`;
    else out += `<a href="#/replay/${encodeURIComponent(id)}/${p.log}" data-testid="chart-point">${dot}</a>`;
  });
  return `${out}</svg>`;
}

export async function showReview(root, id) {
  let timer = null;
  let alive = true;
  const seatName = (s) => t("table.seatN", { n: s + 1 });

  async function draw(body) {
    if (!alive) return;
    let inner;
    if (body.status === "done") {
      const r = body.review;
      const mod = MODULES[r.game];
      if (mod) await mod.prepare();
      const unit = unitLabel(r);
      const rows = r.turns
        .map(
          (tu) => `<tr class="mark-${esc(tu.mark)}" data-testid="review-row"><td><a href="#/replay/${encodeURIComponent(id)}/${tu.log[1]}">${tu.index + 1}</a></td><td>${esc(seatName(tu.seat))}</td><td>${esc(moveWords(r.game, tu.played.actions))}</td><td><span class="mark mark-${esc(tu.mark)}">${esc(markLabel(tu.mark))}</span></td><td>${tu.loss.toFixed(1)}</td><td>${tu.is_best ? "" : esc(moveWords(r.game, tu.best.actions))}</td></tr>`,
        )
        .join("");
      const summary = r.summary
        .map((s) => `<tr data-testid="review-summary"><td>${esc(seatName(s.seat))}</td><td>${s.accuracy.toFixed(1)}%</td><td>${s.average_loss.toFixed(2)}</td>${MARKS.map((m) => `<td>${s.marks[m]}</td>`).join("")}</tr>`)
        .join("");
      const marks = MARKS.map((m) => `<th>${esc(markLabel(m))}</th>`).join("");
      inner = `${chartSvg(r, id)}
        <table class="review-summary"><thead><tr><th>${esc(t("review.seat"))}</th><th>${esc(t("review.accuracy"))}</th><th>${esc(t("review.avgLoss", { unit }))}</th>${marks}</tr></thead><tbody>${summary}</tbody></table>
        <table class="review-turns"><thead><tr><th>#</th><th>${esc(t("review.seat"))}</th><th>${esc(t("review.played"))}</th><th>${esc(t("review.mark"))}</th><th>${esc(t("review.loss", { unit }))}</th><th>${esc(t("review.best"))}</th></tr></thead><tbody>${rows}</tbody></table>`;
    } else if (body.status === "failed") {
      inner = `<p class="error" role="alert">${esc(t("review.failed"))}</p>`;
    } else {
      const total = body.total || 0;
      inner = `<p>${esc(t("review.running", { done: body.done || 0, total: total || "…" }))}</p>
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
      last = await call("GET", id);
      await draw(last);
    } catch (err) {
      root.innerHTML = `<p class="error" role="alert">${esc(err.message)}</p>`;
    }
  }
  last = await call("POST", id);
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
