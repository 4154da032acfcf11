// Ratings pages: #/leaderboard/<game> (players and bot levels by conservative rating) and, through
// profile.js, #/profile/<name>. Ratings are OpenSkill (Weng-Lin Plackett-Luce) from the server.
import { me } from "./account.js";
import { esc, t } from "./i18n.js";
import { botLabel } from "./lobby.js";
import { showProfile } from "./profile.js";

export const RATED_GAMES = ["harmonies", "living-forest"];

export async function getJson(path) {
  let resp;
  try {
    resp = await fetch(path);
  } catch (err) {
    throw new Error(t("error.network"));
  }
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) throw new Error(data.error || t("error.network"));
  return data;
}

// One decimal, with a real minus sign.
export function fmt(x) {
  return Number(x).toFixed(1).replace("-", "\u2212");
}

export function profileHref(entry) {
  return `#/profile/${encodeURIComponent(entry.kind === "bot" ? `bot:${entry.name}` : entry.name)}`;
}

export function entryName(entry) {
  return entry.kind === "bot" ? botLabel(entry.name) : entry.name;
}

// The lobby's bot choice: each level's calibrated rating, per game (cached for the page's life).
let botRatings = null;
export async function loadBotRatings() {
  if (!botRatings) botRatings = getJson("/api/ratings/bots").catch(() => ({ games: {} }));
  return botRatings;
}

export function botRatingText(ratings, game, level) {
  const r = ratings && ratings.games && ratings.games[game] && ratings.games[game][level];
  return r ? ` · ${t("rating.short", { rating: fmt(r.ordinal) })}` : "";
}

// The lobby's "rated table" choice, for a logged-in player (a rated table's seats are accounts').
export function ratedCheckbox(form) {
  if (!me.user) return "";
  return `<label class="check"><input type="checkbox" name="rated" data-testid="rated"${form.rated ? " checked" : ""}> ${esc(t("rating.rated"))}</label>`;
}

// POST /api/games with "rated": true, sent with the session's CSRF token.
export async function createRated(game, options, seats, clock) {
  let resp;
  try {
    resp = await fetch("/api/games", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": me.csrf || "" },
      body: JSON.stringify({ game, options, seats, rated: true, ...(clock ? { clock } : {}) }),
    });
  } catch (err) {
    throw new Error(t("error.network"));
  }
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) throw new Error(data.error || t("error.network"));
  return data;
}

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
  const data = await getJson(`/api/ratings/${encodeURIComponent(game)}`);

  function row(e) {
    const who = `<a href="${esc(profileHref(e))}">${esc(entryName(e))}</a>`;
    const badge = e.kind === "bot" ? ` <span class="rating-bot" style="font-size:.75em;padding:0 .35em;border:1px solid var(--line);border-radius:4px;color:var(--muted);white-space:nowrap">${esc(t("rating.bot"))}</span>` : "";
    const cal = e.calibration
      ? `<div class="muted" style="font-size:.85em">${esc(
          t("rating.calibrated", { rating: fmt(e.calibration.ordinal), n: e.calibration.games }),
        )}</div>`
      : "";
    return `<tr data-identity="${esc(e.identity)}">
      <td style="text-align:right">${e.rank}</td>
      <td>${who}${badge}${cal}</td>
      <td style="text-align:right"><strong data-testid="ordinal">${esc(fmt(e.ordinal))}</strong></td>
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

// #/leaderboard/<game> and #/profile/<name> (the one route hook of main.js).
export function showRatings(root, parts) {
  if (parts[0] === "profile" && parts[1]) return showProfile(root, parts[1]);
  return showLeaderboard(root, parts[1]);
}
