// The rules' figures (glade/learn figure specs, docs/learn.md "The rules"), drawn by the tables'
// own drawing functions: a Harmonies board by harmonies.js's boardSvg, a habitat by habitatSvg, a
// stack by hex.js's stack; a Living Forest card, forest and circle by living_forest.js. What a
// figure lights is marked after it is in the page (lightFigure).
import { esc, t } from "../base/i18n.js";
import { boardSvg, habitatSvg } from "../games/harmonies.js";
import { cellLabel, centre, stack, viewBox } from "../games/hex.js";
import { cardHtml, circleHtml, forestHtml } from "../games/living_forest.js";
import { lt } from "./learn_words.js";

const ACTION_SECTION = { plant: "plant", take_fragment: "take-fragment", attract: "attract", extinguish: "extinguish" };

// The rules section a rock's action is explained in.
export function rockRule(bonus) {
  return ACTION_SECTION[bonus] ? `living-forest.${ACTION_SECTION[bonus]}` : null;
}

function partWords(part, side) {
  const cat = part.category === "water" ? (side === "B" ? "islands" : "river") : part.category;
  const where = part.cells.length ? ` (${part.cells.map(cellLabel).join(", ")})` : "";
  return `${t(`h.cat.${cat}`)}${where}`;
}

function harmoniesBoard(fig) {
  const board = { side: fig.side, stacks: fig.stacks || {}, cubes: fig.cubes || [], cards: fig.cards || [] };
  const svg = boardSvg(board, { size: 26, label: lt("fig.board"), stepCells: new Set(fig.highlight || []) });
  const parts = ((fig.score && fig.score.parts) || []).filter((p) => p.cells.length);
  const lines = parts
    .map((p) => `<li tabindex="0" data-part-cells="${esc(p.cells.join(" "))}" data-part-points="${p.points}">${esc(lt("rules.figurePoints", { what: partWords(p, fig.side), n: p.points }))}</li>`)
    .join("");
  const total = fig.score ? `<p class="muted">${esc(lt("rules.figureTotal", { n: fig.score.total }))}</p>` : "";
  return `<div class="fig-board" data-board-seat="0">${svg}</div>${parts.length ? `<div class="fig-parts">${total}<ul class="fig-part-list">${lines}</ul></div>` : ""}`;
}

function harmoniesStacks(fig) {
  const size = 22;
  return `<ul class="fig-stacks">${fig.stacks
    .map((s) => {
      const [x, y, w, h] = viewBox([[0, 0]], size, 4);
      const svg = `<svg viewBox="${x} ${(y - size * 0.4).toFixed(1)} ${w} ${(h + size * 0.4).toFixed(1)}" aria-hidden="true">${stack(...centre(0, 0, size), size, s.tokens, { badge: "always" })}</svg>`;
      return `<li>${svg}<span>${esc(s.name)}</span></li>`;
    })
    .join("")}</ul>`;
}

function harmoniesCard(fig) {
  const track = (fig.points || []).map((p) => `<span>${p}</span>`).join("");
  return `<div class="fig-card">${habitatSvg({ cells: fig.cells }, { size: 18, big: true })}<p><b>${esc(fig.name)}</b> <span class="fig-track">${track}</span></p></div>`;
}

function lfHelpLine(fig) {
  const cards = fig.cards.map((c) => cardHtml({ name: c.card }, { mini: true })).join("");
  return `<div class="cards help-line fig-help">${cards}</div><p class="muted">${esc(t("lf.solitaryCount", { n: fig.solitary }))}</p>`;
}

function lfForest(fig) {
  const c = { view: {}, ui: {}, legal: [], seat: 0 };
  return forestHtml({ seat: 0, forest: fig.forest }, c, true, { cells: new Set() });
}

function lfCircle(fig) {
  const start = fig.start || [];
  const view = {
    circle: fig.rocks.map((bonus, rock) => ({ rock, bonus, spirit: start.includes(rock) ? start.indexOf(rock) : null })),
    spirits: start.map((rock, seat) => ({ seat, rock })),
    centre_fires: fig.centre_fires || [],
    sacred_tree: 0,
    in_progress: null,
    current: null,
  };
  const nameOf = (seat) => lt("fig.spirit", { n: seat + 1 });
  return circleHtml({ view, legal: [], seat: null, nameOf }, { rock: null, centre: false });
}

const DRAW = {
  "harmonies-board": harmoniesBoard,
  "harmonies-stacks": harmoniesStacks,
  "harmonies-card": harmoniesCard,
  "lf-help-line": lfHelpLine,
  "lf-card": (fig) => `<div class="cards fig-help">${cardHtml({ name: fig.card }, { mini: true })}</div>`,
  "lf-forest": lfForest,
  "lf-circle": lfCircle,
};

export function figureHtml(fig, caption) {
  const draw = DRAW[fig.kind];
  const body = draw ? draw(fig) : "";
  const lit = fig.kind === "lf-forest" ? (fig.highlight || []).map((rc) => rc.split(",").map((n) => Number(n) - 1).join(",")) : [];
  return `<figure class="rule-figure fig-${esc(fig.kind)}" data-figure="${esc(fig.kind)}" data-lit="${esc(lit.join(" "))}">${body}${caption ? `<figcaption>${esc(caption)}</figcaption>` : ""}</figure>`;
}

// After the figures are in the page: a forest figure lights its cells; a circle's rocks open the
// section of the action they give.
export function finishFigures(root) {
  for (const fig of root.querySelectorAll("figure[data-lit]")) {
    for (const slot of fig.dataset.lit.split(" ").filter(Boolean)) {
      const el = fig.querySelector(`.forest [data-slot="${slot}"]`);
      if (el) el.classList.add("part-lit");
    }
  }
  for (const rock of root.querySelectorAll("figure [data-rock]")) {
    const bonus = [...rock.classList].find((c) => c.startsWith("rock-") && c !== "rock-shadow");
    const rule = bonus && rockRule(bonus.slice(5));
    if (!rule) continue;
    rock.dataset.rule = rule;
    rock.setAttribute("role", "link");
    rock.setAttribute("tabindex", "0");
    rock.setAttribute("aria-label", `${rock.getAttribute("aria-label")} — ${lt("rules.openRule", { what: t(`lf.bonus.${bonus.slice(5)}`) })}`);
  }
}
