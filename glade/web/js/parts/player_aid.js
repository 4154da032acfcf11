// The player aid: each game's scoring and round structure in one panel, from the rules' one-line
// summaries (a section's `aid`), each linking to its section.
import { esc, lang } from "../base/i18n.js";
import { learnApi } from "../net/learn_api.js";
import { lt } from "./learn_words.js";

export function playerAidHtml(rules, { open = false } = {}) {
  const lines = rules.sections
    .filter((s) => s.aid)
    .map((s) => `<li data-aid="${esc(s.id)}"><a href="#/rules/${esc(rules.game)}/${esc(s.id)}">${esc(s.title)}</a><span>${esc(s.aid)}</span></li>`)
    .join("");
  return `<details class="panel player-aid" data-testid="player-aid"${open ? " open" : ""}>
    <summary><h2>${esc(lt("aid.title"))}</h2></summary><ul class="aid-lines">${lines}</ul></details>`;
}

// The aid on a table: filled into the table's [data-aid-slot] after each redraw (the rules read
// once per game and language), open or closed as the player left it.
const cached = new Map(); // "game/lang" -> the rules, or the request under way
let openOnTable = false;

export function fillAid(root, game) {
  const slot = root.querySelector("[data-aid-slot]");
  if (!slot) return;
  const key = `${game}/${lang()}`;
  const rules = cached.get(key);
  if (rules && !(rules instanceof Promise)) {
    slot.innerHTML = playerAidHtml(rules, { open: openOnTable });
    slot.firstElementChild.addEventListener("toggle", (ev) => (openOnTable = ev.target.open));
    return;
  }
  if (rules) return;
  const asked = learnApi.rules(game, lang()).then(
    (found) => {
      cached.set(key, found);
      fillAid(root, game); // the slot of the table as it is drawn now
    },
    () => cached.delete(key), // unreachable now: the next redraw asks again
  );
  cached.set(key, asked);
}
