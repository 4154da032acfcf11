// A game's review in words and pictures, shared by the review page and the replay: a decision's
// move in the page's language (cards by name, cells as the board labels them), its mark, and the
// chart of each player's outlook after each decision, with its legend and axes. The outlook is the
// review's own measure: Harmonies in expected final points, Living Forest in win chance.
import { esc, t } from "../base/i18n.js";
import * as harmonies from "../games/harmonies.js";

const COLORS = ["#2a7ab0", "#c0392b", "#27ae60", "#8e44ad"];
const SILENT = new Set(["end_turn", "end_actions", "done"]); // the end of a turn goes without saying

// The review's own measure (its "unit"): "win %" (Living Forest: win chance) or "points"
// (expected final score). The chart and the losses follow it, whichever glade.bots.review uses.
const byWin = (review) => review.unit === "win %";

// One action in present-tense words ("take space 3", "take the Raccoon"). `pos` is what the
// position before the decision showed ({row, display, fires}), when the page has it: a card is
// then named and a fire told by its value; `pos.fires` follows the fires put out so far.
function actionWords(a, pos) {
  switch (a.type) {
    case "take_tokens":
      return t("review.act.take_tokens", { n: a.space + 1 });
    case "place_token":
      return t("review.act.place_token", { colour: t(`colour.${a.color}`), cell: harmonies.cellLabel(a.cell) });
    case "take_card":
    case "discard_card": {
      const id = pos && pos.row ? pos.row[a.slot] : null;
      return id ? t(`review.act.${a.type}_named`, { card: harmonies.cardName(id) }) : t(`review.act.${a.type}`, { n: a.slot + 1 });
    }
    case "place_cube":
      return t("review.act.place_cube", { card: harmonies.cardName(a.card), cell: harmonies.cellLabel(a.cell) });
    case "choose_spirit":
      return t("review.act.choose_spirit", { card: harmonies.cardName(a.card) });
    case "choose_action":
      return t("review.act.choose_action", { action: t(`lf.kind.${a.action}`) });
    case "pick_card": {
      const card = pos && pos.display && pos.display[a.level - 1] ? pos.display[a.level - 1][a.slot] : null;
      return card ? t("review.act.pick_card_named", { card: t(`lfcard.${card.name}`) }) : t("review.act.pick_card", { level: a.level, n: a.slot + 1 });
    }
    case "pick_fire": {
      if (pos && pos.fires && a.index < pos.fires.length) {
        const [value] = pos.fires.splice(a.index, 1);
        return t("review.act.pick_fire_value", { value });
      }
      return t("review.act.pick_fire", { n: a.index + 1 });
    }
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

// Whether naming a move's cards or fires needs the position it was played in.
export function needsPosition(actions) {
  return (actions || []).some((a) => ["take_card", "discard_card", "pick_card", "pick_fire"].includes(a.type));
}

// A move (its actions' JSON) in the page's language: "take space 3 → place blue on C4 → …";
// `view`: the position before it (the server's view), for names.
export function moveWords(game, actions, view = null) {
  const pos = view ? { row: view.row, display: view.display, fires: [...(view.centre_fires || [])] } : null;
  const parts = (actions || []).filter((a) => !SILENT.has(a.type)).map((a) => actionWords(a, pos));
  return parts.length ? parts.join(" → ") : t("review.act.end");
}

// The unit of a loss: "points" (Harmonies) or "percentage points of win chance" (Living Forest).
export function unitLabel(review) {
  return t(byWin(review) ? "review.unit.win" : "review.unit.points");
}

export function markLabel(mark) {
  return t(`review.mark.${mark}`);
}

// What the chart shows of each player after a decision: expected final points, or win chance in %.
function outlook(review, point, seat) {
  return byWin(review) ? 100 * point.wins[seat] : point.scores[seat];
}

function ticks(lo, hi, count) {
  const raw = (hi - lo) / count;
  const step = [1, 2, 5, 10, 20, 25, 50, 100].find((s) => s >= raw) || Math.ceil(raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(v);
  return out;
}

// The chart: each player's outlook after each reviewed decision, a line per player named in the
// legend, the y axis titled with the measure and the x axis with the decisions. A point is a link to
// the replay at that decision, or (`inPlace`) a button the replay page handles itself (data-jump).
// `current`: the log position shown, whose point is ringed; `nameOf(seat)`; `width`: the width it
// is drawn at, so that its labels keep their size.
export function chartSvg(review, id, { inPlace = false, current = null, nameOf = (s) => t("table.seatN", { n: s + 1 }), width = 640 } = {}) {
  const pts = review.series || [];
  const n = review.players || 2;
  if (!pts.length) return "";
  const lf = byWin(review);
  const W = Math.max(300, Math.min(720, Math.round(width)));
  const H = W < 480 ? 190 : 230;
  const pad = { left: 46, right: 12, top: 12, bottom: 36 };
  const ys = pts.flatMap((p) => Array.from({ length: n }, (_, s) => outlook(review, p, s)));
  const lo = lf ? 0 : Math.floor(Math.min(0, ...ys));
  const hi = lf ? 100 : Math.ceil(Math.max(1, ...ys));
  const x = (i) => pad.left + ((W - pad.left - pad.right) * i) / Math.max(1, pts.length - 1);
  const y = (v) => H - pad.bottom - ((H - pad.top - pad.bottom) * (v - lo)) / Math.max(1, hi - lo);
  const title = t(lf ? "review.chartWin" : "review.chart");
  let out = `<svg class="review-chart" viewBox="0 0 ${W} ${H}" width="${W}" role="img" aria-label="${esc(title)}" data-testid="review-chart" data-measure="${lf ? "win" : "score"}" style="max-width:100%;height:auto">`;
  for (const v of ticks(lo, hi, 4)) {
    out += `<line x1="${pad.left}" x2="${W - pad.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e3ddd0"/>`;
    out += `<text x="${pad.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" class="axis" font-size="12">${v}</text>`;
  }
  for (const i of ticks(0, pts.length - 1, 6)) out += `<text x="${x(i).toFixed(1)}" y="${H - pad.bottom + 15}" text-anchor="middle" class="axis" font-size="12">${i + 1}</text>`;
  out += `<text x="${(pad.left + W - pad.right) / 2}" y="${H - 4}" text-anchor="middle" class="axis" font-size="12" data-testid="chart-x-title">${esc(t("review.axisDecision"))}</text>`;
  out += `<text transform="translate(12 ${(pad.top + H - pad.bottom) / 2}) rotate(-90)" text-anchor="middle" class="axis" font-size="12" data-testid="chart-y-title">${esc(t(lf ? "review.axisWin" : "review.axisPoints"))}</text>`;
  for (let s = 0; s < n; s += 1) {
    const line = pts.map((p, i) => `${x(i).toFixed(1)},${y(outlook(review, p, s)).toFixed(1)}`).join(" ");
    out += `<polyline fill="none" stroke="${COLORS[s % 4]}" stroke-width="2" points="${line}" data-seat="${s}"/>`;
  }
  pts.forEach((p, i) => {
    const turn = (review.turns || [])[i];
    const label = `${t("review.turn")} ${i + 1} · ${nameOf(p.seat)}${turn ? ` · ${markLabel(turn.mark)}` : ""}`;
    const ring = current === p.log ? ' stroke="#000" stroke-width="2"' : "";
    const dot = `<circle cx="${x(i).toFixed(1)}" cy="${y(outlook(review, p, p.seat)).toFixed(1)}" r="5" fill="${COLORS[p.seat % 4]}"${ring}><title>${esc(label)}</title></circle>`;
    if (inPlace) out += `<g class="chart-point" role="button" tabindex="0" data-jump="${p.log}" data-testid="chart-point" style="cursor:pointer">${dot}</g>`;
    else out += `<a href="#/replay/${encodeURIComponent(id)}/${p.log}" data-testid="chart-point">${dot}</a>`;
  });
  const legend = Array.from(
    { length: n },
    (_, s) =>
      `<span class="chart-key" data-seat="${s}"><span class="chart-swatch" style="background:${COLORS[s % 4]}"></span>${esc(nameOf(s))}</span>`,
  ).join("");
  return `<figure class="review-figure"><figcaption class="chart-title">${esc(title)}</figcaption>${out}</svg>
    <div class="chart-legend" data-testid="chart-legend">${legend}</div></figure>`;
}
