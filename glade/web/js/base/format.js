// Numbers and names as every page writes them: ratings, bot levels, seats, lists.
import { lang, t } from "./i18n.js";

// One decimal, with a real minus sign.
export function fmt(x) {
  return Number(x).toFixed(1).replace("-", "\u2212");
}

// "Greedy bot", "Search bot · hard": a bot spec of the registry (glade.bots.make_bot) in words.
export function botLabel(spec) {
  const [base, level] = String(spec).split(":");
  const name = t(`bot.${base}`);
  return level ? `${name} · ${t(`bot.level.${level}`)}` : name;
}

// A seat of the server's seat list ({kind, name, bot, status}) by name: a seat a bot took over
// (its player left or ran out of time) keeps its player's name; an open seat is "free seat".
export function seatLabel(s) {
  if (!s) return "";
  if (s.status && s.name) return s.name;
  if (s.kind === "bot") return s.name && s.name !== s.bot ? s.name : botLabel(s.bot || "random");
  return s.name || t("lobby.free");
}

// A seat with who plays it: a seat a bot took over (its player left or ran out of time) is
// "Ann (Greedy bot plays for them)"; any other seat as seatLabel. The table's answers mark such a
// seat `taken_over`; a profile's games give its `status` ("left", "timed out") only, which is
// what the server's taken_over is made of.
export const takenOver = (s) => Boolean(s && (s.taken_over || s.status));

export function seatTitle(s) {
  if (takenOver(s) && s.name && s.bot) return t("seat.takenOver", { name: s.name, bot: botLabel(s.bot) });
  return seatLabel(s);
}

// A rating as players read it: the server's display scale (1500 at the start), "?" after it
// while it is provisional (sigma above 4, about the first ten games).
export function ratingText(r) {
  return `${r.display}${r.provisional ? "?" : ""}`;
}

// A change of the display scale: "+12", "−35".
export function deltaText(n) {
  return `${n >= 0 ? "+" : "−"}${Math.abs(n)}`;
}

// "A, B and C" in the page's language.
export function listWords(items) {
  if (typeof Intl !== "undefined" && Intl.ListFormat) return new Intl.ListFormat(lang(), { style: "long", type: "conjunction" }).format(items);
  return items.join(", ");
}

// The games that are rated, and a rating list's entries ({kind, name}) by name and page.
export const RATED_GAMES = ["harmonies", "living-forest"];

export function entryName(entry) {
  return entry.kind === "bot" ? botLabel(entry.name) : entry.name;
}

export function profileHref(entry) {
  return `#/profile/${encodeURIComponent(entry.kind === "bot" ? `bot:${entry.name}` : entry.name)}`;
}

// " · rating 1430" after a bot level in the lobby (its calibrated rating), or "".
export function botRatingText(ratings, game, level) {
  const r = ratings && ratings.games && ratings.games[game] && ratings.games[game][level];
  return r ? ` · ${t("rating.short", { rating: ratingText(r) })}` : "";
}
