// The player aid: each game's scoring and round structure in one panel, from the rules' one-line
// summaries (a section's `aid`), each linking to its section.
import { esc } from "../base/i18n.js";
import { lt } from "./learn_words.js";

export function playerAidHtml(rules, { open = false } = {}) {
  const lines = rules.sections
    .filter((s) => s.aid)
    .map((s) => `<li data-aid="${esc(s.id)}"><a href="#/rules/${esc(rules.game)}/${esc(s.id)}">${esc(s.title)}</a><span>${esc(s.aid)}</span></li>`)
    .join("");
  return `<details class="panel player-aid" data-testid="player-aid"${open ? " open" : ""}>
    <summary><h2>${esc(lt("aid.title"))}</h2></summary><ul class="aid-lines">${lines}</ul></details>`;
}
