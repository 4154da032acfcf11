// The leaderboard page (#/leaderboard/<game>): players and bot levels ranked by conservative
// rating (as the server ranks them), each shown on the display scale ("?" while provisional) with
// its μ ± σ. Ratings are OpenSkill (Weng-Lin Plackett-Luce); a profile is pages/profile.js.
import { RATED_GAMES, entryName, fmt, profileHref, ratingText } from "../base/format.js";
import { esc, t } from "../base/i18n.js";
import { api } from "../net/api.js";

function gameTabs(current, hrefOf) {
  return `<nav class="rating-tabs" aria-label="${esc(t("rating.gameTabs"))}" style="display:flex;gap:.75rem;flex-wrap:wrap;margin:.25rem 0 .5rem">${RATED_GAMES.map(
    (g) =>
      g === current
        ? `<strong aria-current="page">${esc(t(`game.${g}`))}</strong>`
        : `<a href="${esc(hrefOf(g))}">${esc(t(`game.${g}`))}</a>`,
  ).join("")}</nav>`;
}

export async function showLeaderboard(root, game) {
  if (!RATED_GAMES.includes(game)) game = RATED_GAMES[0];
  const data = await api.ratings(game);

  function row(e) {
    const who = `<a href="${esc(profileHref(e))}">${esc(entryName(e))}</a>`;
    const badge = e.kind === "bot" ? ` <span class="rating-bot" style="font-size:.75em;padding:0 .35em;border:1px solid var(--line);border-radius:4px;color:var(--muted);white-space:nowrap">${esc(t("rating.bot"))}</span>` : "";
    const cal = e.calibration
      ? `<div class="muted" style="font-size:.85em">${esc(
          t("rating.calibrated", { rating: ratingText(e.calibration), n: e.calibration.games }),
        )}</div>`
      : "";
    return `<tr data-identity="${esc(e.identity)}">
      <td style="text-align:right">${e.rank}</td>
      <td>${who}${badge}${cal}</td>
      <td style="text-align:right"><strong data-testid="rating"${e.provisional ? ` title="${esc(t("rating.provisional"))}"` : ""}>${esc(ratingText(e))}</strong></td>
      <td style="text-align:right;white-space:nowrap;font-size:.9em" class="muted">${esc(fmt(e.mu))} ± ${esc(fmt(e.sigma))}</td>
      <td style="text-align:right">${e.games}</td></tr>`;
  }

  function render() {
    root.innerHTML = `<section class="panel leaderboard" data-testid="leaderboard">
      <h1>${esc(t("rating.leaderboardTitle", { game: t(`game.${game}`) }))}</h1>
      ${gameTabs(game, (g) => `#/leaderboard/${g}`)}
      <p class="hint-text">${esc(t("rating.explain"))}</p>
      <div style="overflow-x:auto"><table class="review-summary" style="width:100%;max-width:760px">
        <thead><tr><th style="text-align:right">#</th><th>${esc(t("rating.player"))}</th>
        <th style="text-align:right">${esc(t("rating.rating"))}</th>
        <th style="text-align:right">${esc(t("rating.muSigma"))}</th>
        <th style="text-align:right">${esc(t("rating.games"))}</th></tr></thead>
        <tbody>${data.entries.length ? data.entries.map(row).join("") : `<tr><td colspan="5">${esc(t("rating.none"))}</td></tr>`}</tbody>
      </table></div>
      <p class="hint-text">${esc(t("rating.botsExplain"))}</p>
      <p><a href="#/">${esc(t("nav.lobby"))}</a></p>
    </section>`;
  }

  render();
  return { unmount() {}, rerender: render };
}
