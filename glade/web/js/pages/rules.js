// The rules page of a game (#/rules/<game>[/<section>]): every section of glade.learn's rules in
// the page's language, its tables and figures (drawn by the tables' own code, parts/figures.js),
// the player aid, and links between sections. Each section is addressable: #/rules/harmonies/
// harmonies.river scrolls to it.
import { esc, lang, t } from "../base/i18n.js";
import { GAMES } from "../games/index.js";
import { learnApi } from "../net/learn_api.js";
import { figureHtml, finishFigures } from "../parts/figures.js";
import { lt } from "../parts/learn_words.js";
import { playerAidHtml } from "../parts/player_aid.js";
import { attachScoreLight } from "../parts/score_light.js";

const CACHE = new Map(); // "game/lang" -> the rules' answer (one request per page language)

function blockHtml(block) {
  switch (block.kind) {
    case "text":
      return `<p>${esc(block.text)}</p>`;
    case "list":
      return `<ul>${block.items.map((item) => `<li>${esc(item)}</li>`).join("")}</ul>`;
    case "table":
      return `<div class="rule-table-wrap"><table class="rule-table" data-source="${esc(block.source || "")}"><thead><tr>${block.columns
        .map((c) => `<th scope="col">${esc(c)}</th>`)
        .join("")}</tr></thead><tbody>${block.rows.map((row) => `<tr>${row.map((cell) => `<td>${esc(cell)}</td>`).join("")}</tr>`).join("")}</tbody></table></div>`;
    case "figure":
      return figureHtml(block.figure, block.caption);
    default:
      return "";
  }
}

function sectionHtml(rules, section, titles) {
  const links = (section.links || [])
    .filter((id) => titles[id])
    .map((id) => `<a href="#/rules/${esc(rules.game)}/${esc(id)}" data-link-rule="${esc(id)}">${esc(titles[id])}</a>`)
    .join(" · ");
  return `<section class="panel rules-section" data-testid="rules-section" data-rule="${esc(section.id)}" id="rule-${esc(section.id)}" tabindex="-1" aria-labelledby="title-${esc(section.id)}">
    <h2 id="title-${esc(section.id)}"><a href="#/rules/${esc(rules.game)}/${esc(section.id)}" class="anchor">${esc(section.title)}</a></h2>
    ${section.blocks.map(blockHtml).join("")}
    ${links ? `<p class="see-also">${esc(lt("rules.seeAlso"))} ${links}</p>` : ""}
    <p class="to-top"><a href="#/rules/${esc(rules.game)}">${esc(lt("rules.toTop"))}</a></p></section>`;
}

export async function showRules(root, game, sectionId) {
  if (!GAMES[game]) throw new Error(t("error.unknownGame"));
  await GAMES[game].prepare();
  let rules = null;
  let alive = true;

  async function load() {
    const key = `${game}/${lang()}`;
    if (!CACHE.has(key)) CACHE.set(key, learnApi.rules(game, lang()));
    try {
      rules = await CACHE.get(key);
    } catch (err) {
      CACHE.delete(key);
      throw err;
    }
  }

  function render() {
    if (!alive) return;
    const titles = Object.fromEntries(rules.sections.map((s) => [s.id, s.title]));
    const other = game === "harmonies" ? "living-forest" : "harmonies";
    const toc = rules.sections.map((s) => `<li><a href="#/rules/${esc(game)}/${esc(s.id)}">${esc(s.title)}</a></li>`).join("");
    root.innerHTML = `<div class="rules-page ${esc(game)}" data-testid="rules" data-game="${esc(game)}" data-lang="${esc(rules.lang)}">
      <header class="panel rules-head">
        <h1>${esc(rules.title)}</h1>
        <p class="rules-links"><a href="#/learn/${esc(game)}" class="button primary" data-testid="learn-link">${esc(lt("rules.learn"))}</a>
          <a href="#/rules/${esc(other)}">${esc(lt("rules.linkOf", { game: t(`game.${other}`) }))}</a>
          <a href="#/">${esc(t("nav.lobby"))}</a></p>
        <nav aria-label="${esc(lt("rules.contents"))}"><h2>${esc(lt("rules.contents"))}</h2><ol class="rules-toc">${toc}</ol></nav>
      </header>
      ${playerAidHtml(rules)}
      ${rules.sections.map((s) => sectionHtml(rules, s, titles)).join("")}
    </div>`;
    finishFigures(root);
    show(sectionId);
  }

  function show(id) {
    if (!id) return;
    const el = root.querySelector(`[data-rule="${CSS.escape(id)}"]`);
    if (!el) return;
    el.classList.add("target");
    el.scrollIntoView({ block: "start" });
    el.focus({ preventScroll: true });
  }

  function onClick(ev) {
    const rock = ev.target.closest && ev.target.closest("[data-rock][data-rule]");
    if (rock && root.contains(rock)) location.hash = `#/rules/${game}/${rock.dataset.rule}`;
  }
  function onKey(ev) {
    const rock = ev.target.closest && ev.target.closest("[data-rock][data-rule]");
    if (rock && (ev.key === "Enter" || ev.key === " ")) {
      ev.preventDefault();
      location.hash = `#/rules/${game}/${rock.dataset.rule}`;
    }
  }
  root.addEventListener("click", onClick);
  root.addEventListener("keydown", onKey);
  const unlight = attachScoreLight(root, () => null);
  await load();
  render();
  return {
    unmount() {
      alive = false;
      root.removeEventListener("click", onClick);
      root.removeEventListener("keydown", onKey);
      unlight();
    },
    async rerender() {
      await load();
      render();
    },
  };
}
