// The review page (#/review/<id>): starts the server's review of a finished game, shows its
// progress, then the chart of each player's expected final score (click a point: the replay at
// that move), the summary and every reviewed decision with its mark and the best move found.
import { esc, refusal, t } from "./i18n.js";

const POLL_MS = 1000;
const COLORS = ["#2a7ab0", "#c0392b", "#27ae60", "#8e44ad"];

async function call(method, id) {
  const r = await fetch(`/api/games/${encodeURIComponent(id)}/review`, { method });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(refusal(body.code, body.params, body.error) || t("error.network"));
  return body;
}

export function fetchReview(id) {
  return call("GET", id);
}

export function chartSvg(review, id) {
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
  let out = `<svg class="review-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(t("review.chart"))}" data-testid="review-chart">`;
  out += `<text x="${pad}" y="14" class="axis">${esc(t("review.chart"))}</text>`;
  out += `<text x="2" y="${y(hi) + 4}" class="axis">${hi}</text><text x="2" y="${y(lo)}" class="axis">${lo}</text>`;
  for (let s = 0; s < n; s += 1) {
    const line = pts.map((p, i) => `${x(i).toFixed(1)},${y(p.scores[s]).toFixed(1)}`).join(" ");
    out += `<polyline fill="none" stroke="${COLORS[s % 4]}" stroke-width="2" points="${line}"/>`;
  }
  pts.forEach((p, i) => {
    const href = `#/replay/${encodeURIComponent(id)}/${p.log}`;
    out += `<a href="${href}" data-testid="chart-point"><circle cx="${x(i).toFixed(1)}" cy="${y(p.scores[p.seat]).toFixed(1)}" r="4" fill="${COLORS[p.seat % 4]}"><title>${esc(t("review.turn"))} ${i + 1}</title></circle></a>`;
  });
  return `${out}</svg>`;
}

export function markLabel(mark) {
  return t(`review.mark.${mark}`);
}

export async function showReview(root, id) {
  let timer = null;
  let alive = true;
  const seatName = (s) => t("table.seatN", { n: s + 1 });

  function draw(body) {
    if (!alive) return;
    let inner;
    if (body.status === "done") {
      const r = body.review;
      const rows = r.turns
        .map(
          (tu) => `<tr class="mark-${esc(tu.mark)}" data-testid="review-row"><td><a href="#/replay/${encodeURIComponent(id)}/${tu.log[1]}">${tu.index + 1}</a></td><td>${esc(seatName(tu.seat))}</td><td>${esc(tu.played.text)}</td><td><span class="mark mark-${esc(tu.mark)}">${esc(markLabel(tu.mark))}</span></td><td>${tu.loss.toFixed(1)}</td><td>${tu.is_best ? "" : esc(tu.best.text)}</td></tr>`,
        )
        .join("");
      const summary = r.summary
        .map((s) => `<tr data-testid="review-summary"><td>${esc(seatName(s.seat))}</td><td>${s.accuracy.toFixed(1)}%</td><td>${s.average_loss.toFixed(2)}</td>${["best", "good", "inaccuracy", "mistake", "blunder"].map((m) => `<td>${s.marks[m]}</td>`).join("")}</tr>`)
        .join("");
      const marks = ["best", "good", "inaccuracy", "mistake", "blunder"].map((m) => `<th>${esc(markLabel(m))}</th>`).join("");
      inner = `${chartSvg(r, id)}
        <table class="review-summary"><thead><tr><th>${esc(t("review.seat"))}</th><th>${esc(t("review.accuracy"))}</th><th>${esc(t("review.avgLoss", { unit: r.unit }))}</th>${marks}</tr></thead><tbody>${summary}</tbody></table>
        <table class="review-turns"><thead><tr><th>#</th><th>${esc(t("review.seat"))}</th><th>${esc(t("review.played"))}</th><th>${esc(t("review.mark"))}</th><th>${esc(t("review.loss", { unit: r.unit }))}</th><th>${esc(t("review.best"))}</th></tr></thead><tbody>${rows}</tbody></table>`;
    } else if (body.status === "failed") {
      inner = `<p class="error" role="alert">${esc(t("review.failed"))}</p>`;
    } else {
      const total = body.total || 0;
      inner = `<p>${esc(t("review.running", { done: body.done || 0, total: total || "…" }))}</p>
        <progress data-testid="review-progress" max="${total || 1}" value="${body.done || 0}"></progress>`;
    }
    root.innerHTML = `<section class="panel review" data-testid="review" data-status="${esc(body.status)}">
      <h1>${esc(t("review.title"))}</h1>${inner}
      <p class="links"><a href="#/replay/${encodeURIComponent(id)}">${esc(t("nav.replay"))}</a> · <a href="#/">${esc(t("nav.lobby"))}</a></p></section>`;
    if (body.status === "running") timer = setTimeout(poll, POLL_MS);
  }
  async function poll() {
    try {
      draw(await call("GET", id));
    } catch (err) {
      root.innerHTML = `<p class="error" role="alert">${esc(err.message)}</p>`;
    }
  }
  draw(await call("POST", id));
  return {
    unmount() {
      alive = false;
      if (timer) clearTimeout(timer);
    },
  };
}
