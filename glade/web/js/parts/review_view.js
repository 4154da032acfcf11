// A game's review in words and pictures, shared by the review page and the replay: a decision's
// move in the page's language, its mark, and the chart of each player's outlook after each decision.
import { esc, t } from "../base/i18n.js";
import * as harmonies from "../games/harmonies.js";

const COLORS = ["#2a7ab0", "#c0392b", "#27ae60", "#8e44ad"];
const SILENT = new Set(["end_turn", "end_actions", "done"]); // the end of a turn goes without saying

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

