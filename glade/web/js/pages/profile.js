// #/profile/<name>: a player's (or bot level's) ratings per game (on the display scale, "?" while
// provisional, with the μ/σ detail), the rating chart (SVG, the displayed rating after each rated
// game) and the recent games with their results (a bot level's: its rated games).
import { RATED_GAMES, deltaText, entryName, fmt, ratingText, seatTitle, takenOver } from "../base/format.js";
import { esc, lang, t } from "../base/i18n.js";
import { api } from "../net/api.js";

const COLOURS = { harmonies: "#2f7d4f", "living-forest": "#b0532a" };
const PAD = { left: 44, right: 22, top: 14, bottom: 32 };

// The rating chart: one line per game, x = rated game number, y = the displayed rating after it. Drawn
// at the width it is shown (at most 640), so its labels keep their size on a phone.
export function chartSvg(history, width = 640) {
  const W = Math.max(280, Math.min(640, Math.round(width)));
  const H = W < 480 ? 200 : 220;
  const series = RATED_GAMES.map((g) => ({ game: g, points: history.filter((h) => h.game === g) })).filter(
    (s) => s.points.length,
  );
  if (!series.length) return `<p class="hint-text" data-testid="no-chart">${esc(t("rating.noHistory"))}</p>`;
  const values = [];
  for (const s of series) for (const h of s.points) values.push(h.display_before, h.display);
  let lo = Math.floor((Math.min(...values) - 10) / 10) * 10;
  let hi = Math.ceil((Math.max(...values) + 10) / 10) * 10;
  if (hi - lo < 40) hi = lo + 40;
  const most = Math.max(...series.map((s) => s.points.length));
  const x = (i) => PAD.left + ((W - PAD.left - PAD.right) * i) / Math.max(1, most);
  const y = (v) => PAD.top + ((H - PAD.top - PAD.bottom) * (hi - v)) / (hi - lo);
  const parts = [];
  const step = Math.max(10, Math.ceil((hi - lo) / 50) * 10);
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
    parts.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`);
    parts.push(`<text style="font-size:12px" fill="currentColor" x="${PAD.left - 6}" y="${y(v) + 4}" text-anchor="end">${v}</text>`);
  }
  const xStep = Math.max(1, Math.ceil(most / 8));
  for (let i = 0; i <= most; i += xStep) {
    parts.push(`<text style="font-size:12px" fill="currentColor" x="${x(i)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${i}</text>`);
  }
  parts.push(
    `<text style="font-size:12px" fill="currentColor" x="${W - PAD.right}" y="${H - 4}" text-anchor="end">${esc(t("rating.chartX"))}</text>`,
  );
  for (const s of series) {
    const colour = COLOURS[s.game];
    const pts = [[x(0), y(s.points[0].display_before)]].concat(s.points.map((h, i) => [x(i + 1), y(h.display)]));
    parts.push(
      `<polyline data-game="${esc(s.game)}" fill="none" stroke="${colour}" stroke-width="2.5" points="${pts
        .map((p) => p.map((n) => n.toFixed(1)).join(","))
        .join(" ")}"/>`,
    );
    s.points.forEach((h, i) => {
      const label = t("rating.point", { game: t(`game.${s.game}`), n: i + 1, rating: h.display, place: h.place, players: h.players });
      parts.push(
        `<circle data-point cx="${x(i + 1).toFixed(1)}" cy="${y(h.display).toFixed(1)}" r="3.5" fill="${colour}"><title>${esc(label)}</title></circle>`,
      );
    });
  }
  const legend = series
    .map(
      (s) =>
        `<span style="display:inline-flex;align-items:center;gap:.3rem;margin-right:1rem"><span style="display:inline-block;width:1.2rem;height:3px;background:${COLOURS[s.game]}"></span>${esc(t(`game.${s.game}`))}</span>`,
    )
    .join("");
  return `<figure style="margin:0"><svg class="review-chart rating-chart" data-testid="rating-chart" viewBox="0 0 ${W} ${H}" role="img"
    aria-label="${esc(t("rating.chartLabel"))}">${parts.join("")}</svg>
    <figcaption class="hint-text" style="margin-bottom:.75rem">${legend}</figcaption></figure>`;
}

function when(seconds) {
  try {
    return new Date(seconds * 1000).toLocaleDateString(lang(), { year: "numeric", month: "short", day: "numeric" });
  } catch (err) {
    return "";
  }
}

// a seat a bot took over (its player left or ran out of time) keeps its player's name, says
// which bot played for them and why (such a player finished last for the rating)
function seatName(s) {
  if (takenOver(s)) return `${seatTitle(s)} · ${t(s.status === "left" ? "seat.whyLeft" : "seat.whyTimedOut")}`;
  return seatTitle(s);
}

function gameRow(g) {
  const players = g.seats.map((s) => (s.seat === g.seat ? `<strong>${esc(seatName(s))}</strong>` : esc(seatName(s)))).join(", ");
  let result = esc(t("rating.unfinished"));
  if (g.result) {
    const score = g.result.scores[g.seat];
    result = esc(t("rating.place", { place: g.result.place, players: g.result.players, score: fmt(score).replace(/\.0$/, "") }));
  }
  const change = g.rating ? g.rating.display_after - g.rating.display_before : null;
  const delta =
    change === null
      ? `<span class="muted">${esc(t("rating.unrated"))}</span>`
      : `<span data-testid="delta" title="${esc(`${t("rating.change")}: ${t("rating.changed", { before: g.rating.display_before, after: g.rating.display_after })}`)}">${esc(deltaText(change))}</span>`;
  const link = g.over
    ? `<a href="#/replay/${encodeURIComponent(g.id)}">${esc(t("nav.replay"))}</a>`
    : `<a href="#/watch/${encodeURIComponent(g.id)}">${esc(t("rating.watch"))}</a>`;
  return `<tr data-game-id="${esc(g.id)}"><td>${esc(t(`game.${g.game}`))}<div class="muted" style="font-size:.85em">${esc(when(g.updated_at))}</div></td>
    <td>${players}</td><td>${result}<div style="font-size:.9em">${delta}</div></td><td style="white-space:nowrap">${link}</td></tr>`;
}

export async function showProfile(root, name) {
  const data = await api.profile(name);
  const isBot = data.kind === "bot";

  function ratingCards() {
    return RATED_GAMES.map((g) => {
      const r = data.ratings[g];
      const body = r
        ? `<div style="font-size:1.6rem;font-weight:700" data-testid="rating-${esc(g)}"${r.provisional ? ` title="${esc(t("rating.provisional"))}"` : ""}>${esc(ratingText(r))}</div>
           <div class="muted" data-testid="rating-detail-${esc(g)}">${esc(t("rating.detail", { mu: fmt(r.mu), sigma: fmt(r.sigma), n: r.games }))}</div>
           ${r.provisional ? `<div class="muted" style="font-size:.85em" data-testid="provisional-${esc(g)}">${esc(t("rating.provisional"))}</div>` : ""}`
        : `<div class="muted">${esc(t("rating.notRated"))}</div>`;
      const cal =
        isBot && data.calibration && data.calibration[g]
          ? `<div class="muted" style="font-size:.85em">${esc(
              t("rating.calibrated", { rating: ratingText(data.calibration[g]), n: data.calibration[g].games }),
            )}</div>`
          : "";
      return `<div class="panel" style="flex:1 1 12rem;margin:0"><h3><a href="#/leaderboard/${g}">${esc(t(`game.${g}`))}</a></h3>${body}${cal}</div>`;
    }).join("");
  }

  function render() {
    const title = isBot ? entryName({ kind: "bot", name: data.name }) : data.name;
    root.innerHTML = `<section class="panel profile" data-testid="profile">
      <h1>${esc(t("rating.profileTitle", { name: title }))}</h1>
      <div style="display:flex;gap:.75rem;flex-wrap:wrap;margin-bottom:.75rem">${ratingCards()}</div>
      ${isBot ? `<p class="hint-text">${esc(t("rating.botsExplain"))}</p>` : ""}
      <h2>${esc(t("rating.history"))}</h2>
      ${chartSvg(data.history, (root.clientWidth || 680) - 40)}
      <h2>${esc(t(isBot ? "rating.recentRated" : "rating.recent"))}</h2>
      <div style="overflow-x:auto"><table class="review-summary" style="width:100%" data-testid="profile-games">
        <thead><tr><th>${esc(t("lobby.game"))}</th><th>${esc(t("rating.players"))}</th>
        <th>${esc(t("rating.result"))}</th><th></th></tr></thead>
        <tbody>${data.games.length ? data.games.map(gameRow).join("") : `<tr><td colspan="4">${esc(t("rating.noGames"))}</td></tr>`}</tbody>
      </table></div>
      <p><a href="#/leaderboard/${RATED_GAMES[0]}">${esc(t("rating.leaderboard"))}</a> · <a href="#/">${esc(t("nav.lobby"))}</a></p>
    </section>`;
  }

  render();
  return { unmount() {}, rerender: render };
}
