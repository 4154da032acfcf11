// Links into the learning pages from the other pages: the lobby's panel (each game's rules and
// guided game), a table's Rules link, an end screen's link to the scoring.
import { esc, t } from "../base/i18n.js";
import { lt } from "./learn_words.js";

// The rules section where a game's scoring starts (an end screen's link).
export const SCORING = { harmonies: "harmonies.trees", "living-forest": "living-forest.victory" };

export function rulesLink(game, section = "", { testid = "rules-link" } = {}) {
  const where = section ? `${game}/${section}` : game;
  return `<a href="#/rules/${esc(where)}" data-testid="${esc(testid)}">${esc(lt("rules.link"))}</a>`;
}

export function learnPanelHtml() {
  const line = (game) =>
    `<li><b>${esc(t(`game.${game}`))}</b> <a href="#/rules/${game}" data-testid="lobby-rules-${game}">${esc(lt("rules.link"))}</a> · <a href="#/learn/${game}" data-testid="lobby-learn-${game}">${esc(lt("rules.learn"))}</a></li>`;
  return `<section class="panel learn-panel" data-testid="learn-panel" style="grid-column: 1 / -1"><ul class="learn-lines">${line("harmonies")}${line("living-forest")}</ul></section>`;
}
